/**
 * Token leasing in front of a shared `RateLimiterStore` (the SQL one on PostgreSQL): instead of one
 * database round trip per request, a process takes up to `limit / 20` tokens of a key at once
 * (at most 500) and spends them locally for at most one second (never past the window). Leased
 * tokens are counted in the database when taken, so all processes together never admit more than
 * the limit; near the limit a process may refuse up to (processes − 1) × lease early, and small
 * limits (under 40 per window) lease one token at a time, i.e. stay exact. At the edge, a refused
 * lease is retried with the tokens actually asked for, so one process alone is exact. A refusal is
 * remembered for at most a second (a fixed-window count only grows until the window expires, so
 * this never admits anything the store would refuse).
 */
import { RateLimiter } from "@effect/experimental"
import { Deferred, Effect, FiberId, Layer } from "effect"

interface Lease {
  left: number
  until: number
  countAtLease: number
  /** The window is used up (a fixed-window count only grows until it expires): refuse locally. */
  exhausted: boolean
  /** When the store's counter expires (what `ttl` reports). */
  windowEnds: number
}

const MAX_LEASE = 500
const MAX_LEASE_MILLIS = 1_000

export const leaseSize = (limit: number, tokens: number) =>
  Math.max(tokens, Math.min(MAX_LEASE, Math.floor(limit / 20)))

export const make = (store: RateLimiter.RateLimiterStore["Type"]): RateLimiter.RateLimiterStore["Type"] => {
  const leases = new Map<string, Lease>()
  /** One lease request per key at a time: concurrent requests wait for it instead of leasing too. */
  const pending = new Map<string, Deferred.Deferred<void>>()

  const take = (
    options: Parameters<RateLimiter.RateLimiterStore["Type"]["fixedWindow"]>[0],
    n: number
  ) => store.fixedWindow({ ...options, tokens: n })

  return {
    tokenBucket: store.tokenBucket,
    fixedWindow: (options) => {
      const limit = options.limit
      if (limit === undefined || leaseSize(limit, options.tokens) <= options.tokens) {
        return store.fixedWindow(options)
      }
      const local = (): readonly [number, number] | undefined => {
        const now = Date.now()
        const lease = leases.get(options.key)
        if (lease === undefined || lease.until <= now) return undefined
        if (lease.exhausted) return [lease.countAtLease + options.tokens, lease.windowEnds - now] as const
        if (lease.left >= options.tokens) {
          lease.left -= options.tokens
          return [lease.countAtLease - lease.left, lease.windowEnds - now] as const
        }
        return undefined
      }
      const fromLease = local()
      if (fromLease !== undefined) return Effect.succeed(fromLease)
      const waiting = pending.get(options.key)
      if (waiting !== undefined) {
        return Effect.flatMap(Deferred.await(waiting), () => {
          const after = local()
          return after !== undefined ? Effect.succeed(after) : store.fixedWindow(options)
        })
      }
      const done = Deferred.unsafeMake<void>(FiberId.none)
      pending.set(options.key, done)
      const now = Date.now()
      const n = leaseSize(limit, options.tokens)
      return Effect.flatMap(take(options, n), ([count, ttl]) => {
        if (count <= limit) {
          if (leases.size > 10_000) leases.clear()
          leases.set(options.key, {
            left: n - options.tokens,
            until: now + Math.min(ttl, MAX_LEASE_MILLIS),
            countAtLease: count,
            exhausted: false,
            windowEnds: now + ttl
          })
          return Effect.succeed([count - (n - options.tokens), ttl] as const)
        }
        // not enough left for a whole lease: take exactly what this request needs
        leases.delete(options.key)
        return Effect.tap(take(options, options.tokens), ([count2, ttl2]) =>
          Effect.sync(() => {
            if (count2 > limit) {
              const at = Date.now()
              leases.set(options.key, {
                left: 0,
                until: at + Math.min(ttl2, MAX_LEASE_MILLIS),
                countAtLease: limit,
                exhausted: true,
                windowEnds: at + ttl2
              })
            }
          }))
      }).pipe(
        Effect.ensuring(Effect.suspend(() => {
          pending.delete(options.key)
          return Deferred.succeed(done, undefined)
        }))
      )
    }
  }
}

/** `RateLimiter` over the given shared store, with leasing. */
export const layer = <E, R>(store: Layer.Layer<RateLimiter.RateLimiterStore, E, R>) =>
  RateLimiter.layer.pipe(
    Layer.provide(
      Layer.effect(RateLimiter.RateLimiterStore, Effect.map(RateLimiter.RateLimiterStore, make)).pipe(
        Layer.provide(store)
      )
    )
  )
