/** The outcomes of delivery attempts: deliveries and endpoint health updated, failing endpoints disabled. */
import type { SqlClient } from "@effect/sql"
import type { WebhookStore } from "@tuma/core/ports/WebhookStore"
import type { WebhookEndpointHealth } from "@tuma/domain"
import { applyWebhookAttempt } from "@tuma/domain"
import { Effect } from "effect"
import { accountOf, chunk, endpointHealth, helpers } from "./shared.js"

/** The `WebhookStore` operations of this module over the `SqlClient`. */
export const make = (sql: SqlClient.SqlClient): Pick<WebhookStore["Type"], "recordAttempts"> => {
  const { skipPending } = helpers(sql)
  return {
    recordAttempts: (records, now, policy, notificationIds) =>
      records.length === 0 ? Effect.succeed({ disabledEndpoints: [] }) : sql.withTransaction(Effect.gen(function*() {
        // Endpoints first (in id order): every writer locks endpoints before their deliveries.
        const endpointIds = [...new Set(records.map((r) => r.endpointId))].sort()
        const endpoints = yield* endpointHealth(sql`
          SELECT id, enabled, consecutive_failures FROM webhook_endpoints
          WHERE id = ANY(${endpointIds}::uuid[]) ORDER BY id FOR UPDATE`)
        const health = new Map<string, WebhookEndpointHealth & { readonly was: WebhookEndpointHealth }>()
        for (const e of endpoints) {
          const h = { consecutiveFailures: e.consecutive_failures, disabled: !e.enabled }
          health.set(e.id, { ...h, was: h })
        }
        const justDisabled: Array<string> = []
        for (const r of records) {
          const h = health.get(r.endpointId)
          if (h === undefined) continue // endpoint deleted meanwhile
          const next = applyWebhookAttempt(h, r.outcome, policy)
          if (next.justDisabled) justDisabled.push(r.endpointId)
          health.set(r.endpointId, {
            consecutiveFailures: next.consecutiveFailures,
            disabled: next.disabled,
            was: h.was
          })
        }

        for (const part of chunk(records, 1000)) {
          yield* sql`INSERT INTO webhook_attempts ${
            sql.insert(part.map((r) => ({
              delivery_id: r.deliveryId,
              endpoint_id: r.endpointId,
              attempt: r.attempt,
              attempted_at: r.attemptedAt,
              outcome: r.outcome,
              response_status: r.responseStatus,
              latency_ms: r.latencyMs,
              error: r.error
            })))
          }`
          yield* sql`
            UPDATE webhook_deliveries d SET
              attempts = GREATEST(d.attempts, t.attempt),
              status = CASE WHEN t.outcome = 'success' THEN 'succeeded'
                            WHEN d.status <> 'pending' THEN d.status
                            WHEN t.next_at IS NULL THEN 'failed'
                            ELSE 'pending' END,
              next_attempt_at = COALESCE(t.next_at, d.next_attempt_at),
              last_status = t.response_status,
              last_error = t.error,
              updated_at = ${now},
              completed_at = CASE WHEN t.outcome = 'success' OR (t.next_at IS NULL AND d.status = 'pending')
                                  THEN ${now} ELSE d.completed_at END
            FROM unnest(
              ${part.map((r) => r.deliveryId)}::uuid[],
              ${part.map((r) => r.attempt)}::int[],
              ${part.map((r) => r.outcome)}::text[],
              ${part.map((r) => r.nextAttemptAt?.toISOString() ?? null)}::timestamptz[],
              ${part.map((r) => r.responseStatus)}::int[],
              ${part.map((r) => r.error)}::text[]
            ) AS t(id, attempt, outcome, next_at, response_status, error)
            WHERE d.id = t.id`
        }

        const changed = [...health.entries()].filter(([, h]) =>
          h.consecutiveFailures !== h.was.consecutiveFailures || h.disabled !== h.was.disabled
        )
        if (changed.length > 0) {
          yield* sql`
            UPDATE webhook_endpoints e SET
              consecutive_failures = t.failures,
              enabled = NOT t.disabled,
              disabled_at = CASE WHEN t.disabled AND e.enabled THEN ${now}::timestamptz ELSE e.disabled_at END,
              disabled_reason = CASE WHEN t.disabled AND e.enabled THEN t.failures || ' consecutive failed attempts'
                                     ELSE e.disabled_reason END,
              updated_at = ${now}
            FROM unnest(
              ${changed.map(([id]) => id)}::uuid[],
              ${changed.map(([, h]) => h.consecutiveFailures)}::int[],
              ${changed.map(([, h]) => h.disabled)}::boolean[]
            ) AS t(id, failures, disabled)
            WHERE e.id = t.id`
        }
        if (justDisabled.length > 0) {
          yield* skipPending(justDisabled, "endpoint disabled after consecutive failures", now)
          const rows: Array<Record<string, unknown>> = []
          for (const endpointId of justDisabled) {
            const { account_id: accountId } = yield* accountOf(sql`
              SELECT account_id FROM webhook_endpoints WHERE id = ${endpointId}`)
            for (const channel of ["email", "sms"] as const) {
              rows.push({
                id: yield* notificationIds,
                endpoint_id: endpointId,
                account_id: accountId,
                channel,
                status: "pending",
                attempts: 0,
                next_attempt_at: now,
                created_at: now
              })
            }
          }
          yield* sql`INSERT INTO webhook_notifications ${sql.insert(rows)}`
        }
        return { disabledEndpoints: justDisabled }
      })).pipe(Effect.orDie)
  }
}
