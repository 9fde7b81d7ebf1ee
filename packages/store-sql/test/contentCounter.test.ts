/**
 * Contract suite of the `ContentCounter` port (the duplicate-content limit's counters, decisions §7):
 * core's in-memory counter and `SqlContentCounter` (many takes a statement) answer alike — `limit`
 * takes of a key per window, the next refused with the time left, keys independent, a new window
 * after the old one ends — and on SQL two counters (as two processes) never admit more than the limit
 * together.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { ContentCounter } from "@tuma/core"
import { Duration, Effect, Layer, Option } from "effect"
import * as SqlContentCounter from "../src/SqlContentCounter.js"
import { unique } from "./fixtures.js"
import { forEachDriver, sqlClient } from "./harness.js"

const MINUTE = Duration.minutes(1)

const admittedOf = (results: ReadonlyArray<Option.Option<Duration.Duration>>) => results.filter(Option.isNone).length

forEachDriver(
  {
    sql: (db) => SqlContentCounter.layer.pipe(Layer.provideMerge(db)),
    memory: () => ContentCounter.layerMemory
  },
  (it, driver) => {
    it.live("limit takes of a key are admitted; the next is refused with the time left in the window", () =>
      Effect.gen(function*() {
        const counter = yield* ContentCounter
        const key = unique("dup:a:live:T\u0000")
        for (let i = 0; i < 3; i++) expect(Option.isNone(yield* counter.take(key, MINUTE, 3))).toBe(true)
        const refused = yield* counter.take(key, MINUTE, 3)
        expect(Option.isSome(refused)).toBe(true)
        const left = Duration.toMillis(Option.getOrThrow(refused))
        expect(left).toBeGreaterThan(50_000)
        expect(left).toBeLessThanOrEqual(60_000)
        // still refused: a refused take does not open room
        expect(Option.isSome(yield* counter.take(key, MINUTE, 3))).toBe(true)
      }))

    it.live("50 concurrent takes of one key with limit 30: exactly 30 admitted; other keys unaffected", () =>
      Effect.gen(function*() {
        const counter = yield* ContentCounter
        const key = unique("dup:b:live:T\u0000")
        const other = unique("dup:c:live:T\u0000")
        const results = yield* Effect.all(
          Array.from({ length: 50 }, (_, i) => counter.take(i % 5 === 4 ? other : key, MINUTE, 30)),
          { concurrency: "unbounded" }
        )
        // 40 takes of `key` (30 admitted) and 10 of `other` (all admitted)
        expect(admittedOf(results)).toBe(40)
        expect(Option.isSome(yield* counter.take(key, MINUTE, 30))).toBe(true)
        expect(Option.isNone(yield* counter.take(other, MINUTE, 30))).toBe(true)
      }))

    it.live("a window that ended starts again at one", () =>
      Effect.gen(function*() {
        const counter = yield* ContentCounter
        const key = unique("dup:d:live:T\u0000")
        const window = Duration.millis(300)
        expect(Option.isNone(yield* counter.take(key, window, 1))).toBe(true)
        expect(Option.isSome(yield* counter.take(key, window, 1))).toBe(true)
        yield* Effect.sleep("450 millis")
        expect(Option.isNone(yield* counter.take(key, window, 1))).toBe(true)
        expect(Option.isSome(yield* counter.take(key, window, 1))).toBe(true)
      }))

    it.live.skipIf(driver === "memory")(
      "two counters over one database (two processes) admit exactly the limit together (memory: one process only)",
      () =>
        Effect.gen(function*() {
          const first = yield* ContentCounter
          const second = yield* Effect.provideServiceEffect(SqlContentCounter.make, SqlClient.SqlClient, sqlClient)
          const key = unique("dup:e:live:T\u0000")
          const results = yield* Effect.all(
            Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? first : second).take(key, MINUTE, 25)),
            { concurrency: "unbounded" }
          )
          expect(admittedOf(results)).toBe(25)
        }).pipe(Effect.scoped)
    )
  }
)
