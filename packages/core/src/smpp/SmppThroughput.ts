/**
 * `SmppThroughput`: the credentials' throughput (token bucket, rate + burst, counted in parts) across every
 * bind and every process (docs/smpp.md "Throughput"). The bucket lives in the store (`SmppStore.withBucket`,
 * one row per credentials); domain `leaseParts` decides each lease. A process does not ask the store for
 * every submit: it leases a few tokens at a time and spends them locally.
 *
 * - **A lease** wants `SMPP_LEASE.seconds` of the rate (at least the parts asked, at most the burst) and lives
 *   `SMPP_LEASE.lifeMillis`; its unspent tokens go back to the bucket with the next lease, or by the settle
 *   that runs as often (a process that stopped submitting holds nothing).
 * - **A refused lease** (fewer tokens than the parts asked) is remembered until the bucket should hold a
 *   lease again, at most `SMPP_LEASE.refusalMillis`: submits past the rate are refused without a round trip each.
 * - One lease per credentials at a time in a process: concurrent submits wait for it.
 *
 * Every token spent was taken from the bucket, so all processes together never accept more than
 * `rate` × time + `burst` parts; tokens held by another process's live lease are the only early refusals.
 */
import { leaseParts } from "@tuma/domain"
import { Context, Deferred, Duration, Effect, FiberId, Layer } from "effect"
import { SmppStore } from "../ports/SmppStore.js"

/**
 * The leases: each is worth `seconds` of the rate, its unspent tokens go back after `lifeMillis`, and a
 * refused one refuses locally for at most `refusalMillis`.
 */
export const SMPP_LEASE = { seconds: 0.2, lifeMillis: 500, refusalMillis: 50 } as const
const LEASE_SECONDS = SMPP_LEASE.seconds
const LEASE_LIFE_MILLIS = SMPP_LEASE.lifeMillis
const REFUSAL_MILLIS = SMPP_LEASE.refusalMillis

/** The credentials a submit is counted against. */
export interface ThroughputLimits {
  readonly smppAccountId: string
  readonly rate: number
  readonly burst: number
}

interface Local {
  /** Tokens of the live lease not spent yet. */
  left: number
  /** When the live lease ends (its unspent tokens go back). */
  until: number
  /** Refused by the store: refuse locally until then. */
  refusedUntil: number
  /** The lease being taken, for submits arriving meanwhile. */
  pending: Deferred.Deferred<void> | undefined
  limits: { readonly rate: number; readonly burst: number }
}

/** Takes parts from the credentials' shared bucket. */
export class SmppThroughput extends Context.Tag("@tuma/core/SmppThroughput")<SmppThroughput, {
  /** Takes `parts` tokens: true, or false when past the throughput (ESME_RTHROTTLED). */
  readonly take: (limits: ThroughputLimits, parts: number) => Effect.Effect<boolean>
  /** Gives every unspent token of this process back (`force`, at shutdown) or those of ended leases. */
  readonly settle: (force: boolean) => Effect.Effect<void>
}>() {
  /** Over the `SmppStore`; settles ended leases in the background while the scope is open. */
  static readonly layer = Layer.scoped(
    SmppThroughput,
    Effect.gen(function*() {
      const service = yield* makeSmppThroughput
      yield* service.settle(false).pipe(
        Effect.zipRight(Effect.sleep(Duration.millis(LEASE_LIFE_MILLIS))),
        Effect.forever,
        Effect.forkScoped
      )
      yield* Effect.addFinalizer(() => service.settle(true))
      return service
    })
  )
}

/** The service over the context's `SmppStore`. */
export const makeSmppThroughput = Effect.map(SmppStore, (store) => {
  const locals = new Map<string, Local>()
  const localOf = (limits: ThroughputLimits): Local => {
    let s = locals.get(limits.smppAccountId)
    if (s === undefined) {
      s = { left: 0, until: 0, refusedUntil: 0, pending: undefined, limits }
      locals.set(limits.smppAccountId, s)
    }
    // the operator may have changed the rate: the next lease uses the new one
    s.limits = { rate: limits.rate, burst: limits.burst }
    return s
  }
  /** One round trip: the unspent tokens back, a new lease of `want` (none unless `atLeast`). */
  const lease = (id: string, s: Local, want: number, atLeast: number) => {
    const returned = s.left
    s.left = 0
    return store.withBucket(id, (bucket, now) => {
      const l = leaseParts(bucket, now, s.limits, { want, atLeast, returned })
      return { bucket: l.bucket, answer: l }
    })
  }
  const take = (limits: ThroughputLimits, parts: number): Effect.Effect<boolean> =>
    Effect.suspend(() => {
      const s = localOf(limits)
      const now = Date.now()
      if (s.until > now && s.left + 1e-9 >= parts) {
        s.left -= parts
        return Effect.succeed(true)
      }
      if (s.refusedUntil > now) return Effect.succeed(false)
      if (parts > limits.burst) return Effect.succeed(false)
      const waiting = s.pending
      if (waiting !== undefined) return Effect.zipRight(Deferred.await(waiting), take(limits, parts))
      const done = Deferred.unsafeMake<void>(FiberId.none)
      s.pending = done
      const want = Math.min(limits.burst, Math.max(parts, Math.ceil(limits.rate * LEASE_SECONDS)))
      return lease(limits.smppAccountId, s, want, parts).pipe(
        Effect.map((l) => {
          const at = Date.now()
          if (l.granted === 0) {
            s.refusedUntil = at + Math.min(REFUSAL_MILLIS, l.refillMillis)
            return false
          }
          s.left = l.granted - parts
          s.until = at + LEASE_LIFE_MILLIS
          return true
        }),
        Effect.ensuring(Effect.suspend(() => {
          s.pending = undefined
          return Deferred.succeed(done, undefined)
        }))
      )
    })
  const settle = (force: boolean) =>
    Effect.suspend(() => {
      const now = Date.now()
      const ended = [...locals.entries()].filter(([, s]) =>
        s.pending === undefined && s.left > 0 && (force || s.until <= now)
      )
      return Effect.forEach(ended, ([id, s]) => Effect.asVoid(lease(id, s, 0, 0)), { discard: true })
    })
  return SmppThroughput.of({ take, settle })
})
