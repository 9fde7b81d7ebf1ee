/**
 * The store side of observability (issue 13):
 *
 *   layerTraceContext — the `TraceContextStore` port over `message_trace_context` (migration 0061)
 *   layerSamplers     — scrape-time gauges read from the store: dispatch queue depth, webhook queue
 *                       depth, disabled webhook endpoints, provider credit per provider and country,
 *                       unrouted inbound messages and inbound parts waiting
 *
 * The samplers run only when `/metrics` is scraped (every 15–60 s), each a single aggregate over
 * an index or a small table.
 */
import { SqlClient } from "@effect/sql"
import * as M from "@tuma/core/observability/Metrics"
import { TraceContextStore } from "@tuma/core/observability/Tracing"
import type { Chunk } from "effect"
import { Deferred, Effect, Layer, Queue, Schema } from "effect"
import { findAll, single } from "./rows.js"

const traceRows = findAll(Schema.Struct({ message_id: Schema.String, traceparent: Schema.String }))
const depths = single(Schema.Struct({
  dispatch: Schema.Number,
  webhooks: Schema.Number,
  disabled: Schema.Number,
  unrouted: Schema.Number,
  waiting: Schema.Number
}))
const credits = findAll(Schema.Struct({ provider: Schema.String, country: Schema.String, units: Schema.Number }))

/** uuids need no quoting inside an array literal. */
const uuidArray = (ids: ReadonlyArray<string>) => `{${ids.join(",")}}`

interface Pending {
  readonly ids: ReadonlyArray<string>
  readonly traceparent: string
  readonly done: Deferred.Deferred<void>
}

/**
 * `TraceContextStore` over `message_trace_context`: concurrent saves share one INSERT; a failed save
 * or load is logged, never failed (a load then answers no links).
 */
export const layerTraceContext = Layer.scoped(
  TraceContextStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // concurrent sends share one INSERT (like the group commit of acceptances): each waits for the
    // statement holding its rows, the next statement gathers whatever queued meanwhile
    const pending = yield* Queue.unbounded<Pending>()
    const write = (batch: Chunk.Chunk<Pending>) => {
      const ids: Array<string> = []
      const parents: Array<string> = []
      for (const b of batch) {
        for (const id of b.ids) {
          ids.push(id)
          parents.push(b.traceparent)
        }
      }
      // one statement per batch (no transaction of its own: a statement costs more CPU than the
      // wait for its commit, which concurrent sends share)
      return sql.unsafe(
        `INSERT INTO message_trace_context (message_id, traceparent)
         SELECT * FROM unnest($1::uuid[], $2::text[]) ON CONFLICT (message_id) DO NOTHING`,
        [uuidArray(ids), `{${parents.join(",")}}`]
      ).pipe(
        Effect.catchAllCause((c) => Effect.logWarning("trace context not saved", c)),
        Effect.ensuring(Effect.forEach(batch, (b) => Deferred.succeed(b.done, undefined), { discard: true }))
      )
    }
    // its own statements are not traced (they would be root spans of no request)
    yield* Effect.forkScoped(
      Effect.forever(Effect.flatMap(Queue.takeBetween(pending, 1, 1000), write)).pipe(Effect.withTracerEnabled(false))
    )
    return TraceContextStore.of({
      save: (messageIds, traceparent) =>
        messageIds.length === 0 ?
          Effect.void :
          Effect.flatMap(Deferred.make<void>(), (done) =>
            Effect.zipRight(Queue.offer(pending, { ids: messageIds, traceparent, done }), Deferred.await(done))),
      load: (messageIds) =>
        messageIds.length === 0 ? Effect.succeed(new Map()) : traceRows(sql.unsafe(
          `SELECT message_id, traceparent FROM message_trace_context WHERE message_id = ANY($1::uuid[])`,
          [uuidArray(messageIds)]
        )).pipe(
          Effect.map((rows) => new Map(rows.map((r) => [r.message_id, r.traceparent] as const))),
          Effect.catchAllCause((c) =>
            Effect.as(Effect.logWarning("trace context not loaded", c), new Map<string, string>())
          )
        )
    })
  })
)

/** Registers the store's gauges with the scrape (for as long as the layer lives). */
export const layerSamplers = Layer.scopedDiscard(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* M.registerSampler(
    depths(sql`SELECT
      (SELECT count(*) FROM dispatch_queue)::int AS dispatch,
      (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::int AS webhooks,
      (SELECT count(*) FROM webhook_endpoints WHERE NOT enabled)::int AS disabled,
      (SELECT count(*) FROM inbound_messages WHERE account_id IS NULL)::int AS unrouted,
      (SELECT count(*) FROM inbound_parts WHERE message_id IS NULL)::int AS waiting`).pipe(
      Effect.tap((r) =>
        Effect.sync(() => {
          M.dispatchQueueDepth.unsafeUpdate(r.dispatch, [])
          M.webhookQueueDepth.unsafeUpdate(r.webhooks, [])
          M.webhookEndpointsDisabled.unsafeUpdate(r.disabled, [])
          M.inboundUnrouted.unsafeUpdate(r.unrouted, [])
          M.inboundPartsWaiting.unsafeUpdate(r.waiting, [])
        })
      ),
      Effect.orDie
    )
  )
  yield* M.registerSampler(
    credits(sql`SELECT p.name AS provider, m.iso2 AS country,
      c.balance::int AS units
      FROM provider_credits c JOIN providers p ON p.id = c.provider_id JOIN markets m ON m.id = c.market_id`).pipe(
      Effect.tap((rows) =>
        Effect.sync(() => {
          for (const r of rows) {
            M.creditUnits.update(r.units, r.provider, r.country)
            M.countryAtZero(r.country)
          }
        })
      ),
      Effect.orDie
    )
  )
}))
