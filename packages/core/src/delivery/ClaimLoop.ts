/**
 * The claim loop: while the in-flight budget has room, claim due messages (leased for `leaseMs`,
 * FOR UPDATE SKIP LOCKED in the store) and hand each batch to `dispatch`. With nothing to claim it
 * waits for a wake-up (`DispatchWakeups`, pg_notify), a nudge (the heartbeat released dead workers'
 * claims) or `pollIntervalMs`. After a short claim it waits `claimGatherMs`, so the stream of accepts
 * fills the next one instead of one claim per message. A claim that failed gives back what it may
 * have leased (`Release`) once the store answers again.
 */
import { Clock, Effect } from "effect"
import type { ClaimedMessage, DispatchStore } from "../ports/DispatchStore.js"
import type { DeliveryOptions } from "./DeliveryConfig.js"
import type { InFlight } from "./InFlight.js"
import type { Release } from "./Release.js"

/** The loop's collaborators. */
export interface ClaimLoopOptions {
  readonly store: Pick<DispatchStore["Type"], "claim">
  readonly owner: string
  readonly cfg: Pick<DeliveryOptions, "claimBatch" | "leaseMs" | "pollIntervalMs" | "claimGatherMs">
  readonly inFlight: InFlight
  /** Completes when work may be waiting (wake-ups, nudges). */
  readonly woken: Effect.Effect<void>
  /** Routes a claimed batch (its messages are in flight until each settles). */
  readonly dispatch: (batch: ReadonlyArray<ClaimedMessage>, claimedAt: Date) => Effect.Effect<void>
  readonly onClaimed?: (count: number) => void
  /** Gives back what a failed claim may have leased (`Release.make`). */
  readonly release: Release
}

/** One turn of the loop: wait for room, or claim and dispatch a batch, or wait for work. */
export const claimOnce = (options: ClaimLoopOptions): Effect.Effect<void> =>
  Effect.gen(function*() {
    const { cfg, dispatch, inFlight, owner, store, woken } = options
    const free = inFlight.free()
    if (free < inFlight.claimAt) return yield* inFlight.freed
    const at = new Date(yield* Clock.currentTimeMillis)
    const limit = Math.min(free, cfg.claimBatch)
    const leaseUntil = new Date(at.getTime() + cfg.leaseMs)
    // a claim that failed may still have leased rows (its answer lost with the connection): given back
    // as soon as the store answers again, not when the lease runs out
    const batch = yield* store.claim({ owner, limit, now: at, leaseUntil }).pipe(
      Effect.onError(() => Effect.sync(() => options.release({ leaseUntil })))
    )
    if (batch.length === 0) {
      return yield* Effect.raceAll([woken, Effect.sleep(cfg.pollIntervalMs)])
    }
    options.onClaimed?.(batch.length)
    inFlight.acquire(batch.length)
    yield* dispatch(batch, at)
    // a short claim: let the stream of accepts fill the next one (DeliveryOptions.claimGatherMs)
    if (batch.length < limit && cfg.claimGatherMs > 0) yield* Effect.sleep(cfg.claimGatherMs)
  })

/** The loop, until interrupted. */
export const claimLoop = (options: ClaimLoopOptions): Effect.Effect<never> => Effect.forever(claimOnce(options))
