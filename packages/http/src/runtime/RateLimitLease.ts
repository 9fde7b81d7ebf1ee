/**
 * Token leasing in front of a shared `RateLimiterStore` (the SQL one on PostgreSQL): instead of one
 * database round trip per request, a process may take several tokens of a key at once and spend
 * them locally for at most one second (never past the window). Three rules keep the shared count
 * equal to what was actually used, so the limit is exact for slow and fast clients alike:
 *
 * - **A lease is sized by demand**: half of what this process was asked for the key in the last
 *   second (at least the tokens asked, at most `limit / 20` and 500). A client at 2 requests/s
 *   leases one token at a time, i.e. every request is counted in the store as it comes; a burst
 *   grows its leases geometrically.
 * - **Unused tokens are given back** (`SqlRateLimitStore.RateLimitGiveBack`) when the lease ends: the store undoes
 *   exactly what taking them did. A lease ends after a second, when it is replaced, or by the
 *   background settle every 200 ms; a lease whose counter window has passed gives nothing back.
 * - **No lease in the last quarter of the budget**: once the store's count (as last seen) plus the
 *   lease would pass `limit × 3/4`, requests go to the store one by one. A refused lease is retried
 *   with the tokens actually asked for, so one process alone is exact at the edge.
 *
 * Leased tokens are counted in the store when taken, so all processes together never admit more
 * than the limit. Across processes the only early refusal left is another process's lease taken
 * below 3/4 of the budget and not yet settled (at most a second, plus 200 ms). A refusal is
 * remembered for 100 ms (requests over the limit do not each cost a round trip).
 */
import { RateLimiter } from "@effect/experimental"
import { SqlRateLimitStore } from "@tuma/store-sql"
import type { Duration } from "effect"
import { Deferred, Effect, FiberId, Layer, Option, Schedule } from "effect"

interface Lease {
  left: number
  until: number
  countAtLease: number
  /** The store refused: refuse locally until `until`. */
  exhausted: boolean
  /** When the store's counter expired as seen at lease time (what `ttl` reported). */
  windowEnds: number
  refillRate: Duration.Duration
}

interface KeyState {
  lease: Lease | undefined
  periodStart: number
  askedThis: number
  askedLast: number
  lastCount: number
  lastCountEnds: number
}

const MAX_LEASE = 500
const LEASE_MILLIS = 1_000
const REFUSAL_MILLIS = 100
const PERIOD_MILLIS = 1_000

/** How long a lease taken when the store reported `ttl` lives (see the module comment). */
export const leaseLife = (ttl: number) => ttl > 0 ? Math.min(ttl, LEASE_MILLIS) : LEASE_MILLIS

/** The largest lease for a limit: `limit / 20`, at most 500, at least the tokens asked. */
export const maxLeaseSize = (limit: number, tokens: number) =>
  Math.max(tokens, Math.min(MAX_LEASE, Math.floor(limit / 20)))

/**
 * The lease to take: half the recent demand, within `maxLeaseSize`; just the tokens asked once the
 * last seen count plus the lease would pass three quarters of the limit.
 */
export const leaseSize = (limit: number, tokens: number, demand: number, lastCount: number) => {
  const n = Math.max(tokens, Math.min(maxLeaseSize(limit, tokens), Math.floor(demand / 2)))
  return lastCount + n > limit * 0.75 ? tokens : n
}

type Store = RateLimiter.RateLimiterStore["Type"]
type FixedWindowOptions = Parameters<Store["fixedWindow"]>[0]

export interface LeasingStore extends Store {
  /** Gives back the unused tokens of ended leases (run it periodically). */
  readonly settleEnded: Effect.Effect<void>
}

export const make = (store: Store, giveBack?: SqlRateLimitStore.RateLimitGiveBack["Type"]): LeasingStore => {
  const keys = new Map<string, KeyState>()
  /** One lease request per key at a time: concurrent requests wait for it instead of leasing too. */
  const pending = new Map<string, Deferred.Deferred<void>>()

  const stateOf = (key: string, now: number): KeyState => {
    let s = keys.get(key)
    if (s === undefined) {
      s = { lease: undefined, periodStart: now, askedThis: 0, askedLast: 0, lastCount: 0, lastCountEnds: 0 }
      keys.set(key, s)
    }
    if (now - s.periodStart >= PERIOD_MILLIS) {
      s.askedLast = now - s.periodStart >= 2 * PERIOD_MILLIS ? 0 : s.askedThis
      s.askedThis = 0
      s.periodStart = now
    }
    return s
  }

  /** Ends the key's lease if it has ended (or `force`), giving its unused tokens back. */
  const settle = (key: string, s: KeyState, now: number, force: boolean): Effect.Effect<void> => {
    const lease = s.lease
    if (lease === undefined || (!force && lease.until > now)) return Effect.void
    s.lease = undefined
    if (lease.exhausted || lease.left <= 0 || giveBack === undefined || now >= lease.windowEnds) return Effect.void
    const tokens = lease.left
    lease.left = 0
    return Effect.ignore(giveBack({ key, tokens, refillRate: lease.refillRate }))
  }

  const local = (s: KeyState, now: number, tokens: number): readonly [number, number] | undefined => {
    const lease = s.lease
    if (lease === undefined || lease.until <= now) return undefined
    if (lease.exhausted) return [lease.countAtLease + tokens, lease.windowEnds - now] as const
    if (lease.left >= tokens) {
      lease.left -= tokens
      return [lease.countAtLease - lease.left, lease.windowEnds - now] as const
    }
    return undefined
  }

  const refuse = (s: KeyState, limit: number, ttl: number, refillRate: Duration.Duration) => {
    const at = Date.now()
    s.lease = {
      left: 0,
      until: at + Math.min(ttl, REFUSAL_MILLIS),
      countAtLease: limit,
      exhausted: true,
      windowEnds: at + ttl,
      refillRate
    }
  }

  const attempt = (options: FixedWindowOptions, limit: number, s: KeyState): Effect.Effect<
    readonly [number, number],
    RateLimiter.RateLimiterError
  > =>
    Effect.suspend(() => {
      const now = Date.now()
      const fromLease = local(s, now, options.tokens)
      if (fromLease !== undefined) return Effect.succeed(fromLease)
      const waiting = pending.get(options.key)
      if (waiting !== undefined) return Effect.flatMap(Deferred.await(waiting), () => attempt(options, limit, s))
      const done = Deferred.unsafeMake<void>(FiberId.none)
      pending.set(options.key, done)
      const lastCount = s.lastCountEnds > now ? s.lastCount : 0
      const n = leaseSize(limit, options.tokens, Math.max(s.askedThis, s.askedLast), lastCount)
      const take = (tokens: number) =>
        Effect.tap(store.fixedWindow({ ...options, tokens }), ([count, ttl]) =>
          Effect.sync(() => {
            if (count <= limit) {
              s.lastCount = count
              s.lastCountEnds = Date.now() + ttl
            }
          }))
      return settle(options.key, s, now, true).pipe(
        Effect.zipRight(take(n)),
        Effect.flatMap(([count, ttl]) => {
          if (count <= limit) {
            if (n > options.tokens) {
              s.lease = {
                left: n - options.tokens,
                until: now + leaseLife(ttl),
                countAtLease: count,
                exhausted: false,
                windowEnds: now + ttl,
                refillRate: options.refillRate
              }
            }
            return Effect.succeed([count - (n - options.tokens), ttl] as const)
          }
          if (n === options.tokens) {
            refuse(s, limit, ttl, options.refillRate)
            return Effect.succeed([count, ttl] as const)
          }
          // not enough left for a whole lease: take exactly what this request needs
          return Effect.tap(take(options.tokens), ([count2, ttl2]) =>
            Effect.sync(() => {
              if (count2 > limit) refuse(s, limit, ttl2, options.refillRate)
            }))
        }),
        Effect.ensuring(Effect.suspend(() => {
          pending.delete(options.key)
          return Deferred.succeed(done, undefined)
        }))
      )
    })

  const settleEnded = Effect.suspend(() => {
    const now = Date.now()
    const returns: Array<Effect.Effect<void>> = []
    for (const [key, s] of keys) {
      if (pending.has(key)) continue
      returns.push(settle(key, s, now, false))
      if (s.lease === undefined && now - s.periodStart >= 2 * PERIOD_MILLIS) keys.delete(key)
    }
    return Effect.all(returns, { concurrency: 4, discard: true })
  })

  return {
    tokenBucket: store.tokenBucket,
    fixedWindow: (options) => {
      const limit = options.limit
      if (limit === undefined || maxLeaseSize(limit, options.tokens) <= options.tokens) {
        return store.fixedWindow(options)
      }
      return Effect.suspend(() => {
        const s = stateOf(options.key, Date.now())
        s.askedThis += options.tokens
        return attempt(options, limit, s)
      })
    },
    settleEnded
  }
}

/** `RateLimiter` over the given shared store, with leasing (and give-back when the store offers it). */
export const layer = <E, R>(
  store: Layer.Layer<RateLimiter.RateLimiterStore | SqlRateLimitStore.RateLimitGiveBack, E, R>
) =>
  RateLimiter.layer.pipe(
    Layer.provide(
      Layer.scoped(
        RateLimiter.RateLimiterStore,
        Effect.gen(function*() {
          const inner = yield* RateLimiter.RateLimiterStore
          const giveBack = yield* Effect.serviceOption(SqlRateLimitStore.RateLimitGiveBack)
          const leasing = make(inner, Option.getOrUndefined(giveBack))
          yield* Effect.forkScoped(Effect.repeat(leasing.settleEnded, Schedule.spaced("200 millis")))
          const { fixedWindow, tokenBucket } = leasing
          return RateLimiter.RateLimiterStore.of({ fixedWindow, tokenBucket })
        })
      ).pipe(Layer.provide(store))
    )
  )
