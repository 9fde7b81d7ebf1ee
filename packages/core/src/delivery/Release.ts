/**
 * Claims a worker will not settle, given back as soon as the store answers again (issue 27: no
 * message waits for a lease after a database outage).
 *
 * A claim whose answer was lost with the connection (the store may have leased rows all the same),
 * and a claimed batch that could not be routed because the store failed (routes, provider credit),
 * would otherwise stay `processing` until their lease ran out (`DeliveryOptions.leaseMs`, 120 s by
 * default). `release` retries `DispatchStore.release` every `retryMs` until it is stored — that is,
 * right after the database is back — and then wakes the claim loop, which claims them again.
 */
import { Clock, Effect } from "effect"
import type { DispatchStore, ReleaseSelection } from "../ports/DispatchStore.js"

/** Gives back claims (made claimable `delayMs` from when the store takes it), in the background. */
export type Release = (which: ReleaseSelection, delayMs?: number) => void

/** What `make` needs: the store, the worker's owner name, how to run a fiber, what to do afterwards. */
export interface ReleaseOptions {
  readonly store: Pick<DispatchStore["Type"], "release">
  readonly owner: string
  readonly fork: (effect: Effect.Effect<void>) => void
  /** Run once the claims are given back (the dispatcher wakes its claim loop). */
  readonly onReleased: () => void
  /** Pause between attempts while the store fails (default 250 ms). */
  readonly retryMs?: number
}

/** A `Release` over the store: each call runs until its release is stored (or the worker stops). */
export const make = (options: ReleaseOptions): Release => {
  const { fork, onReleased, owner, store } = options
  const retryMs = options.retryMs ?? 250
  return (which, delayMs = 0) => {
    const once = Effect.flatMap(
      Clock.currentTimeMillis,
      (now) => store.release(owner, which, new Date(now + delayMs))
    )
    const untilStored: Effect.Effect<number> = once.pipe(
      Effect.catchAllCause(() => Effect.zipRight(Effect.sleep(retryMs), Effect.suspend(() => untilStored)))
    )
    fork(Effect.asVoid(Effect.tap(untilStored, () => Effect.sync(onReleased))))
  }
}
