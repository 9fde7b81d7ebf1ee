/**
 * The API-key look-up cache (`AuthCache`): cached for the TTL, one read per key at a time (requests
 * that miss during a read wait for it; a failed or interrupted read leaves each to read for itself),
 * and `invalidate` / a settings change forgets both the cache and the reads in flight.
 */
import { expect, it } from "@effect/vitest"
import type { ApiKeyRecord } from "@tuma/core/ports/ApiKeys"
import { SettingsChanges } from "@tuma/core/ports/SettingsChanges"
import { Deferred, Effect, Fiber, Layer, Option, Queue } from "effect"
import { makeServerOptions, ServerConfig } from "../src/runtime/Config.js"
import { AuthCache } from "../src/shared/Auth.js"

const record = (id: string): ApiKeyRecord => ({
  id,
  accountId: "acct",
  mode: "live",
  scopes: ["sms:send"],
  allowedIps: [],
  expiresAt: null,
  revokedAt: null,
  accountActive: true
})

/** The cache over a settings-change feed the test drives (`change`), TTL `ttl` ms. */
const withCache = <A, E>(ttl: number, f: (change: Effect.Effect<void>) => Effect.Effect<A, E, AuthCache>) =>
  Effect.gen(function*() {
    const changes = yield* Queue.unbounded<void>()
    const settings = Layer.succeed(SettingsChanges, {
      version: Effect.succeed("1"),
      subscribe: Effect.succeed(Queue.take(changes))
    })
    const config = Layer.succeed(ServerConfig, makeServerOptions({ auth: { cacheTtlMillis: ttl } }))
    return yield* f(Queue.offer(changes, undefined).pipe(Effect.zipRight(Effect.sleep("20 millis")))).pipe(
      Effect.provide(AuthCache.layer.pipe(Layer.provide(Layer.merge(settings, config))))
    )
  }).pipe(Effect.scoped)

/** A load that counts its reads and answers when `gate` opens (`fail`: it fails instead). */
const gatedLoad = (gate: Deferred.Deferred<void>, value: ApiKeyRecord, fail = false) => {
  let reads = 0
  const load = Effect.suspend(() => {
    reads++
    return Effect.zipRight(
      Deferred.await(gate),
      fail && reads === 1 ? Effect.die("store down") : Effect.succeed(Option.some(value))
    )
  })
  return { load, reads: () => reads }
}

it.live("fifty requests that miss together read the key once and all get its record; then it is cached", () =>
  withCache(2_000, () =>
    Effect.gen(function*() {
      const cache = yield* AuthCache
      const gate = yield* Deferred.make<void>()
      const { load, reads } = gatedLoad(gate, record("k1"))
      const now = Date.now()
      const fibers = yield* Effect.forEach(
        Array.from({ length: 50 }),
        () => Effect.fork(cache.lookup("h1", now, load))
      )
      yield* Effect.sleep("20 millis")
      yield* Deferred.succeed(gate, undefined)
      const found = yield* Fiber.joinAll(fibers)
      expect(found.every((o) => Option.isSome(o) && o.value.id === "k1")).toBe(true)
      expect(reads()).toBe(1)
      yield* cache.lookup("h1", now + 1_000, load)
      expect(reads()).toBe(1)
      // past the TTL: read again
      yield* cache.lookup("h1", now + 2_001, load)
      expect(reads()).toBe(2)
    })))

it.live("a read that fails: each waiting request reads for itself", () =>
  withCache(2_000, () =>
    Effect.gen(function*() {
      const cache = yield* AuthCache
      const gate = yield* Deferred.make<void>()
      const { load, reads } = gatedLoad(gate, record("k1"), true)
      const now = Date.now()
      const leader = yield* Effect.fork(Effect.exit(cache.lookup("h1", now, load)))
      yield* Effect.sleep("10 millis")
      const waiters = yield* Effect.forEach(Array.from({ length: 5 }), () => Effect.fork(cache.lookup("h1", now, load)))
      yield* Effect.sleep("10 millis")
      yield* Deferred.succeed(gate, undefined)
      expect((yield* Fiber.join(leader))._tag).toBe("Failure")
      const found = yield* Fiber.joinAll(waiters)
      expect(found.every(Option.isSome)).toBe(true)
      expect(reads()).toBe(6)
    })))

it.live("a change during a read: later requests read anew, and what the old read found is not kept", () =>
  withCache(2_000, (change) =>
    Effect.gen(function*() {
      const cache = yield* AuthCache
      const slow = yield* Deferred.make<void>()
      const quick = yield* Deferred.make<void>()
      const before = gatedLoad(slow, record("before"))
      const now = Date.now()
      const early = yield* Effect.fork(cache.lookup("h1", now, before.load))
      yield* Effect.sleep("10 millis")
      // e.g. the key is revoked in another process: the notification clears this process's cache
      yield* change
      const after = gatedLoad(quick, record("after"))
      const late = yield* Effect.fork(cache.lookup("h1", now, after.load))
      yield* Effect.sleep("10 millis")
      // the read after the change finishes first, the one before it last
      yield* Deferred.succeed(quick, undefined)
      expect(Option.getOrThrow(yield* Fiber.join(late)).id).toBe("after")
      yield* Deferred.succeed(slow, undefined)
      expect(Option.getOrThrow(yield* Fiber.join(early)).id).toBe("before")
      expect(after.reads()).toBe(1)
      // the cache holds the read that started after the change
      const again = gatedLoad(quick, record("again"))
      expect(Option.getOrThrow(yield* cache.lookup("h1", now + 10, again.load)).id).toBe("after")
      expect(again.reads()).toBe(0)
    })))

it.live("TTL 0: every request reads", () =>
  withCache(0, () =>
    Effect.gen(function*() {
      const cache = yield* AuthCache
      const gate = yield* Deferred.make<void>()
      yield* Deferred.succeed(gate, undefined)
      const { load, reads } = gatedLoad(gate, record("k1"))
      yield* Effect.forEach(Array.from({ length: 3 }), () => cache.lookup("h1", Date.now(), load), {
        concurrency: "unbounded"
      })
      expect(reads()).toBe(3)
    })))
