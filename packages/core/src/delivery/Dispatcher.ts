/**
 * Dispatch workers: drain `dispatch_queue`, route each message to a provider, record every outcome.
 * This module assembles the parts, each its own module with its own state:
 *
 * - `RouteTable`: providers, routes in priority order and one `Pacer` per rate-limited provider
 *   (`maxPerSecond`, enforced across every process by slots reserved in the store), kept current
 *   with the operator's settings (decisions §30).
 * - `ClaimLoop` and `InFlight`: batches leased with FOR UPDATE SKIP LOCKED (`DispatchStore.claim`)
 *   within the in-flight budget; wake-ups from `DispatchWakeups` (pg_notify), polling every
 *   `pollIntervalMs` as a fallback; a crashed worker's lease runs out and the rows are claimed again.
 * - `Submitter` and `Outcomes` (decisions §20, §21): the market's routes in priority order; a
 *   provider without credit is skipped (credit is reserved per claimed batch, given back when not
 *   accepted); failover only after a transient `NotAccepted`; a permanent one fails the message with
 *   a refund; `Unknown` keeps the reference and waits for reconciliation. When every route answered
 *   transiently the message goes back to the queue with backoff, and fails with a refund after
 *   `giveUpAfterMs`. Every state change goes through the `DeliveryWriter`; a message's in-flight
 *   slot is released only after its transaction committed.
 * - `Heartbeat`: liveness and the take-over of dead workers' claims.
 * - `Scheduler`: scheduled messages move to `queued` when due (at start and every
 *   `scheduleIntervalMs`, so a moment missed during a restart is caught up at once).
 * - `Reconciler`: unknown outcomes past their deadline are queried or failed as unconfirmed.
 */
import type { Scope } from "effect"
import { Cause, Context, Effect, FiberSet, Layer, Queue } from "effect"
import { DispatchStore, DispatchWakeups } from "../ports/DispatchStore.js"
import { Providers } from "../ports/Provider.js"
import { SettingsChanges } from "../ports/SettingsChanges.js"
import { claimLoop } from "./ClaimLoop.js"
import { DeliveryConfig } from "./DeliveryConfig.js"
import { DeliveryWriter, layerWriter } from "./DeliveryWriter.js"
import { layerEventSink } from "./EventSink.js"
import { makeHeartbeat } from "./Heartbeat.js"
import { makeInFlight } from "./InFlight.js"
import type { DispatcherStats } from "./Outcomes.js"
import { makeOutcomes } from "./Outcomes.js"
import { reconcile } from "./Reconciler.js"
import * as Release from "./Release.js"
import { makeRouteTable } from "./RouteTable.js"
import { promoteDue } from "./Scheduler.js"
import { makeSubmitter } from "./Submitter.js"

export type { DispatcherStats } from "./Outcomes.js"

/** The totals of this layer's dispatcher (`layerWorkers` provides a fresh record). */
export class DispatcherCounts extends Context.Tag("@tuma/core/DispatcherCounts")<DispatcherCounts, DispatcherStats>() {}

/** `eff` again and again; a failure is logged and retried a second later (interruption ends it). */
const forever = <A, E, R>(name: string, eff: Effect.Effect<A, E, R>) =>
  eff.pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.failCause(cause)
        : Effect.logError(`${name} failed; restarting`, cause).pipe(Effect.zipRight(Effect.sleep("1 second")))
    ),
    Effect.forever
  )

/**
 * Runs the workers of this process until interrupted: the claim loop and the heartbeat (when
 * `dispatch` is on), the scheduler, the reconciler and the sweep of pending receipts.
 */
export const runDispatcher: Effect.Effect<
  never,
  never,
  DispatchStore | DispatchWakeups | Providers | DeliveryWriter | SettingsChanges | DispatcherCounts | Scope.Scope
> = Effect.gen(function*() {
  const store = yield* DispatchStore
  const wakeups = yield* DispatchWakeups
  const writer = yield* DeliveryWriter
  const cfg = yield* DeliveryConfig
  const stats = yield* DispatcherCounts
  const fibers = yield* FiberSet.make()
  const runInSet = yield* FiberSet.runtime(fibers)<never>()
  const fork = (effect: Effect.Effect<void>) => void runInSet(effect)

  const routes = yield* makeRouteTable(fork)
  const nudge = yield* Queue.sliding<void>(1)
  const heartbeat = makeHeartbeat({
    store,
    owner: writer.owner,
    takeOverAfterMs: cfg.takeOverAfterMs,
    onReleased: () => Queue.unsafeOffer(nudge, undefined)
  })
  const inFlight = yield* makeInFlight(cfg)
  const outcomes = makeOutcomes({
    cfg,
    clock: yield* Effect.clock,
    stats,
    returnCredit: (providerId, marketId, units) => writer.push("creditReturns", { providerId, marketId, units })
  })
  const release = Release.make({
    store,
    owner: writer.owner,
    fork,
    onReleased: () => Queue.unsafeOffer(nudge, undefined)
  })
  const dispatch = makeSubmitter({
    store,
    writer,
    routes,
    outcomes,
    inFlight,
    generation: heartbeat.generation,
    fibers,
    fork,
    release
  })

  if (cfg.dispatch) {
    yield* forever(
      "dispatch claim loop",
      claimLoop({
        store,
        owner: writer.owner,
        cfg,
        inFlight,
        woken: Effect.raceAll([wakeups.next, Queue.take(nudge)]),
        dispatch,
        release,
        onClaimed: (n) => {
          stats.claimed += n
        }
      })
    ).pipe(Effect.forkScoped)
    yield* forever("heartbeat", Effect.zipRight(heartbeat.beat, Effect.sleep(heartbeat.everyMs))).pipe(
      Effect.forkScoped
    )
  }
  yield* forever("scheduler", Effect.zipRight(promoteDue(store), Effect.sleep(cfg.scheduleIntervalMs))).pipe(
    Effect.forkScoped
  )
  const reconcileRound = reconcile({
    store,
    providerById: routes.providerById,
    writeReceipt: (receipt) => writer.write("receipts", receipt),
    pendingReceiptTtlMs: cfg.pendingReceiptTtlMs
  })
  yield* forever("reconciler", Effect.zipRight(Effect.sleep(cfg.reconcileIntervalMs), reconcileRound)).pipe(
    Effect.forkScoped
  )
  // receipts that came before their part was recorded (another process, a late answer)
  yield* forever(
    "pending receipts",
    Effect.zipRight(
      Effect.sleep(cfg.pendingSweepMs),
      Effect.flatMap(Effect.clockWith((c) => c.currentTimeMillis), (t) => store.matchPendingReceipts(new Date(t)))
    )
  ).pipe(Effect.forkScoped)

  return yield* Effect.never
})

/** The workers as a layer (they run for the life of the layer's scope). */
export const layerWorkers: Layer.Layer<
  DispatcherCounts,
  never,
  DispatchStore | DispatchWakeups | Providers | DeliveryWriter | SettingsChanges
> = Layer.scoped(
  DispatcherCounts,
  Effect.gen(function*() {
    const stats: DispatcherStats = { claimed: 0, sent: 0, failed: 0, requeued: 0, unknown: 0 }
    yield* Effect.forkScoped(Effect.provideService(runDispatcher, DispatcherCounts, stats))
    return stats
  })
)

/**
 * Everything delivery needs on top of the store adapters: the writer, the event sink the providers
 * report to, the providers (built by `providers`, which may read the store), and the workers.
 */
export const layerDelivery = <E, R>(providers: Layer.Layer<Providers, E, R>) =>
  layerWorkers.pipe(
    Layer.provideMerge(providers),
    Layer.provideMerge(layerEventSink),
    Layer.provideMerge(layerWriter)
  )
