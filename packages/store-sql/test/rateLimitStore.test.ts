/**
 * Contract suite of the SQL rate-limit store (`SqlRateLimitStore`), against @effect/experimental's own
 * `layerStoreMemory` as the reference: the same sequence of fixed-window consumes gets the same
 * counts from both; and concurrent consumes over many keys admit exactly `limit` per key, each call
 * answered for its own key. PGlite always, PostgreSQL when configured.
 */
import { RateLimiter } from "@effect/experimental"
import { expect } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import * as SqlRateLimitStore from "../src/SqlRateLimitStore.js"
import { forEachDriver } from "./harness.js"

const stack = (db: Layer.Layer<import("@effect/sql").SqlClient.SqlClient>) =>
  SqlRateLimitStore.layer.pipe(Layer.provide(db))

let n = 0
const fresh = (name: string) => `test:${name}:${Date.now()}:${n++}`
const HOUR = Duration.hours(1)

forEachDriver(stack, (it) => {
  it.live("a sequence of consumes counts exactly as the in-memory reference store", () =>
    Effect.gen(function*() {
      const store = yield* RateLimiter.RateLimiterStore
      const memory = yield* RateLimiter.RateLimiterStore.pipe(Effect.provide(RateLimiter.layerStoreMemory))
      const key = fresh("seq")
      const steps: ReadonlyArray<{ tokens: number; limit: number | undefined }> = [
        { tokens: 1, limit: 5 },
        { tokens: 2, limit: 5 },
        { tokens: 3, limit: 5 }, // over: refused, count unchanged
        { tokens: 2, limit: 5 },
        { tokens: 1, limit: 5 }, // over
        { tokens: 4, limit: undefined } // no limit: always counted
      ]
      for (const step of steps) {
        const options = { key, tokens: step.tokens, refillRate: HOUR, limit: step.limit }
        const [sqlCount] = yield* store.fixedWindow(options)
        const [memCount] = yield* memory.fixedWindow(options)
        expect(sqlCount).toBe(memCount)
      }
    }))

  it.live("concurrent consumes over many keys admit exactly the limit per key", () =>
    Effect.gen(function*() {
      const store = yield* RateLimiter.RateLimiterStore
      const keys = Array.from({ length: 40 }, (_, i) => fresh(`k${i}`))
      const limit = 3
      // 5 calls per key, all at once
      const calls = keys.flatMap((key) => Array.from({ length: 5 }, () => key))
      const answers = yield* Effect.forEach(
        calls,
        (key) =>
          Effect.map(
            store.fixedWindow({ key, tokens: 1, refillRate: HOUR, limit }),
            ([count]) => ({ key, admitted: count <= limit, count })
          ),
        { concurrency: "unbounded" }
      )
      for (const key of keys) {
        const mine = answers.filter((a) => a.key === key)
        expect(mine.filter((a) => a.admitted).length).toBe(limit)
        // the admitted ones saw counts 1..limit, each once; the refused ones limit + 1
        expect(mine.filter((a) => a.admitted).map((a) => a.count).sort()).toEqual([1, 2, 3])
        expect(mine.filter((a) => !a.admitted).map((a) => a.count)).toEqual([limit + 1, limit + 1])
      }
    }))
})
