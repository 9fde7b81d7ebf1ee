/**
 * SQL adapter of the delivery ports (`DispatchStore`, `DispatchWakeups`), for PostgreSQL and PGlite.
 *
 * Every write of a batch is one transaction of a handful of set-based statements (`unnest` of
 * parameter arrays), whatever the batch size: that is what lets one worker record thousands of
 * state changes per second durably. See docs/delivery.md.
 *
 * The operations live in dispatch/: `claim` (claims, routes, credit, rate slots), `results` (the
 * writer's batch), `receipts`, `reconcile` (unknown outcomes, sweeps), `schedule` (due scheduled
 * messages), `liveness` (heartbeats), over `query` (the statement runner). Their status conditions
 * come from the domain's transition tables (statusConditions.ts).
 */
import type { SqlClient } from "@effect/sql"
import { DispatchStore, DispatchWakeups } from "@tuma/core/ports/DispatchStore"
import { Effect, Layer } from "effect"
import * as Claim from "./dispatch/claim.js"
import * as Liveness from "./dispatch/liveness.js"
import * as Query from "./dispatch/query.js"
import * as Reconcile from "./dispatch/reconcile.js"
import * as Results from "./dispatch/results.js"
import * as Schedule from "./dispatch/schedule.js"
import * as Wakeups from "./Wakeups.js"

/** The LISTEN/NOTIFY channel that wakes the delivery workers when messages are queued. */
export const DISPATCH_CHANNEL = "tuma_dispatch"

/** The SQL `DispatchStore` (claims with leases, the writer's batched outcomes, receipts). */
export const make: Effect.Effect<DispatchStore["Type"], never, SqlClient.SqlClient> = Effect.map(
  Query.make,
  (db) =>
    DispatchStore.of({
      heartbeat: Liveness.heartbeat(db),
      release: Liveness.release(db),
      claim: Claim.claim(db),
      routes: Claim.routes(db),
      providers: Claim.providers(db),
      reserveCredit: Claim.reserveCredit(db),
      apply: Results.apply(db),
      promoteScheduled: Schedule.promoteScheduled(db),
      dueReconciliations: Reconcile.dueReconciliations(db),
      failUnconfirmed: Reconcile.failUnconfirmed(db),
      matchPendingReceipts: Reconcile.matchPendingReceipts(db),
      sweepPendingReceipts: Reconcile.sweepPendingReceipts(db),
      reserveSlots: Claim.reserveSlots(db)
    })
)

/** `DispatchStore` over the database. */
export const layer: Layer.Layer<DispatchStore, never, SqlClient.SqlClient> = Layer.effect(DispatchStore, make)

/**
 * Wake-ups on `pg_notify('tuma_dispatch')` (sent by a trigger on `dispatch_queue` inserts): LISTEN on
 * PostgreSQL, `pglite.listen` on PGlite. Without either, `next` never completes (the worker polls).
 */
export const layerWakeups: Layer.Layer<DispatchWakeups> = Layer.scoped(
  DispatchWakeups,
  Wakeups.listen(DISPATCH_CHANNEL, "dispatch")
)
