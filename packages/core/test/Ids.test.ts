import { expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { Ids, uuidV7FromTime } from "../src/ports/Ids.js"

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

it("uuid v7: version and variant bits, the timestamp in the first 48 bits, unique", () => {
  const at = Date.parse("2026-03-01T10:00:00Z")
  const ids = Array.from({ length: 10_000 }, () => uuidV7FromTime(at))
  expect(ids.every((id) => V7.test(id))).toBe(true)
  expect(new Set(ids).size).toBe(ids.length)
  expect(parseInt(ids[0].replace(/-/g, "").slice(0, 12), 16)).toBe(at)
})

it.effect("Ids.layer stamps v7 ids with Effect's Clock (TestClock in tests), so they sort by time", () =>
  Effect.gen(function*() {
    const ids = yield* Ids
    yield* TestClock.setTime(Date.parse("2026-03-01T10:00:00Z"))
    const a = yield* ids.uuidV7
    yield* TestClock.adjust("1 millis")
    const b = yield* ids.uuidV7
    expect(a < b).toBe(true)
    expect(yield* ids.uuidV4).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  }).pipe(Effect.provide(Ids.layer)))

it.effect("Ids.layerSequential gives predictable ids", () =>
  Effect.gen(function*() {
    const ids = yield* Ids
    expect([yield* ids.uuidV4, yield* ids.uuidV7]).toEqual([
      "00000000-0000-4000-8000-000000000001",
      "00000000-0000-4000-8000-000000000002"
    ])
  }).pipe(Effect.provide(Ids.layerSequential())))
