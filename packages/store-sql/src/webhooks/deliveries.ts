/** The delivery queue: due deliveries claimed with a lease, the next due time, redeliveries. */
import type { SqlClient } from "@effect/sql"
import type { ClaimedDelivery, WebhookStore } from "@tuma/core/ports/WebhookStore"
import { WEBHOOK_TEST_EVENT } from "@tuma/domain"
import { Effect, Option } from "effect"
import { Ids } from "../rows.js"
import { chunk, ClaimedDeliveries, DELIVERY_COLUMNS, nextDue, toMessage } from "./shared.js"

/** The `WebhookStore` operations of this module over the `SqlClient`. */
export const make = (sql: SqlClient.SqlClient): Pick<WebhookStore["Type"], "claimDue" | "nextDueAt" | "redeliver"> => {
  return {
    claimDue: (limit, now, leaseUntil) =>
      ClaimedDeliveries.all(sql`
        WITH due AS (
          SELECT id, message_id FROM webhook_deliveries w
          WHERE status = 'pending' AND next_attempt_at <= ${now}
            AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = w.endpoint_id AND e.enabled)
          ORDER BY next_attempt_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE webhook_deliveries d SET next_attempt_at = ${leaseUntil}, updated_at = ${now}
        FROM due JOIN webhook_endpoints e ON true LEFT JOIN messages m ON m.id = due.message_id
        WHERE d.id = due.id AND e.id = d.endpoint_id AND e.enabled
        RETURNING ${sql.literal(DELIVERY_COLUMNS)}, e.url, e.secret`).pipe(
        Effect.map((rows) =>
          rows.map((r): ClaimedDelivery => ({
            ...toMessage(r),
            id: r.id,
            endpointId: r.endpoint_id,
            event: r.event,
            attempts: r.attempts,
            url: r.url,
            secret: r.secret,
            payload: r.payload
          }))
        ),
        Effect.orDie
      ),

    nextDueAt: nextDue(sql`
      SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'`).pipe(
      Effect.map(Option.match({ onNone: () => null, onSome: (r) => r.at })),
      Effect.orDie
    ),

    redeliver: (endpointId, select, now, newId) =>
      sql.withTransaction(Effect.gen(function*() {
        const sources = "deliveryId" in select
          ? yield* Ids.all(sql`
              SELECT id FROM webhook_deliveries
              WHERE id = ${select.deliveryId} AND endpoint_id = ${endpointId} AND event <> ${WEBHOOK_TEST_EVENT}`)
          : yield* Ids.all(sql`
              SELECT DISTINCT ON (message_id, event) id FROM webhook_deliveries
              WHERE endpoint_id = ${endpointId} AND final_at >= ${select.since} AND event <> ${WEBHOOK_TEST_EVENT}
              ORDER BY message_id, event, created_at`)
        if (sources.length === 0) return []
        const pairs: Array<{ source: string; id: string }> = []
        for (const s of sources) pairs.push({ source: s.id, id: yield* newId })
        for (const part of chunk(pairs, 1_000)) {
          yield* sql`
            INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event, status, attempts, next_attempt_at,
                                            final_at, redelivery_of, created_at, updated_at, payload)
            SELECT t.id, d.endpoint_id, d.message_id, d.event, 'pending', 0, ${now}, d.final_at, d.id, ${now}, ${now},
                   d.payload
            FROM unnest(${part.map((p) => p.source)}::uuid[], ${part.map((p) => p.id)}::uuid[]) AS t(source, id)
            JOIN webhook_deliveries d ON d.id = t.source`
        }
        return pairs.map((p) => p.id)
      })).pipe(Effect.orDie)
  }
}
