/**
 * Token leasing (RateLimitLease.ts) over one shared store, as several processes would use it: the
 * limit is never exceeded, one process alone is exact at the edge, and small limits lease one token.
 */
import { RateLimiter } from "@effect/experimental"
import { Effect, Layer } from "effect"
import { expect, it } from "vitest"
import * as Lease from "../src/runtime/RateLimitLease.js"

const limiterOver = (store: RateLimiter.RateLimiterStore["Type"]) =>
  Effect.runSync(RateLimiter.make.pipe(Effect.provideService(RateLimiter.RateLimiterStore, Lease.make(store))))

const sharedStore = () =>
  Effect.runSync(Effect.provide(RateLimiter.RateLimiterStore, RateLimiter.layerStoreMemory as Layer.Layer<any>))

const admitted = async (limiters: ReadonlyArray<RateLimiter.RateLimiter>, requests: number, limit: number) => {
  const results = await Promise.all(
    Array.from({ length: requests }, (_, i) =>
      Effect.runPromise(
        Effect.either(limiters[i % limiters.length].consume({ key: "k", limit, window: "1 minute" }))
      ))
  )
  return results.filter((r) => r._tag === "Right").length
}

it("one process alone admits exactly the limit, leasing in blocks", async () => {
  let calls = 0
  const store = sharedStore()
  const counting = { ...store, fixedWindow: (o: any) => (calls++, store.fixedWindow(o)) }
  expect(await admitted([limiterOver(counting)], 1000, 600)).toBe(600)
  // a few growing leases, then blocks of 30 up to 3/4 of the limit, then the last quarter one by one
  expect(calls).toBeLessThan(230)
  expect(calls).toBeGreaterThan(150)
})

it("three processes over one store never exceed the limit and refuse at most (P−1)×lease early", async () => {
  const store = sharedStore()
  const n = await admitted([limiterOver(store), limiterOver(store), limiterOver(store)], 1500, 600)
  expect(n).toBeLessThanOrEqual(600)
  expect(n).toBeGreaterThanOrEqual(600 - 2 * Lease.maxLeaseSize(600, 1))
})

it("limits under 40 lease one token at a time (exact across processes)", async () => {
  const store = sharedStore()
  expect(Lease.maxLeaseSize(30, 1)).toBe(1)
  expect(await admitted([limiterOver(store), limiterOver(store)], 100, 30)).toBe(30)
})

it("a limit above one token per millisecond (a store window of 0 ms) still leases: requests do not each cost a round trip", async () => {
  // the SQL store's window per token is window / limit rounded to whole milliseconds: 0 for a billion a minute
  let calls = 0
  const store = sharedStore()
  const zeroWindow = {
    ...store,
    fixedWindow: (o: any) => (calls++, Effect.map(store.fixedWindow(o), ([count]) => [count, 0] as const))
  }
  const limiter = limiterOver(zeroWindow)
  let ok = 0
  for (let round = 0; round < 10; round++) {
    const results = await Promise.all(
      Array.from(
        { length: 100 },
        () =>
          Effect.runPromise(Effect.either(limiter.consume({ key: "big", limit: 1_000_000_000, window: "1 minute" })))
      )
    )
    ok += results.filter((r) => r._tag === "Right").length
  }
  expect(ok).toBe(1000)
  expect(calls).toBeLessThan(100)
  expect(Lease.leaseLife(0)).toBe(1000)
  expect(Lease.leaseLife(250)).toBe(250)
})
