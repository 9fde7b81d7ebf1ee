/** Reads of deliveries and their attempts. */
import type { SqlClient } from "@effect/sql"
import type { AttemptView, WebhookStore } from "@tuma/core/ports/WebhookStore"
import { Effect, Option } from "effect"
import { WebhookAttempts } from "../rows.js"
import { Deliveries, DELIVERY_COLUMNS, toDelivery } from "./shared.js"

/** The `WebhookStore` operations of this module over the `SqlClient`. */
export const make = (
  sql: SqlClient.SqlClient
): Pick<WebhookStore["Type"], "listDeliveries" | "getDelivery" | "listAttempts"> => {
  return {
    listDeliveries: (endpointId, options) =>
      Deliveries.all(sql`
        SELECT ${sql.literal(DELIVERY_COLUMNS)}
        FROM webhook_deliveries d LEFT JOIN messages m ON m.id = d.message_id
        WHERE d.endpoint_id = ${endpointId}
          ${options.status === undefined ? sql`` : sql`AND d.status = ${options.status}`}
          ${options.before === undefined ? sql`` : sql`AND d.created_at < ${options.before}`}
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT ${options.limit}`).pipe(Effect.map((r) => r.map(toDelivery)), Effect.orDie),

    getDelivery: (id) =>
      Deliveries.one(sql`
        SELECT ${sql.literal(DELIVERY_COLUMNS)}
        FROM webhook_deliveries d LEFT JOIN messages m ON m.id = d.message_id
        WHERE d.id = ${id}`).pipe(Effect.map(Option.match({ onNone: () => null, onSome: toDelivery })), Effect.orDie),

    listAttempts: (deliveryId) =>
      WebhookAttempts.all(sql`
        SELECT delivery_id, attempt, attempted_at, outcome, response_status, latency_ms, error
        FROM webhook_attempts WHERE delivery_id = ${deliveryId} ORDER BY attempt, id`).pipe(
        Effect.map((rows) =>
          rows.map((r): AttemptView => ({
            deliveryId: r.delivery_id,
            attempt: r.attempt,
            attemptedAt: r.attempted_at,
            outcome: r.outcome,
            responseStatus: r.response_status,
            latencyMs: r.latency_ms,
            error: r.error
          }))
        ),
        Effect.orDie
      )
  }
}
