/** Notices to accounts (an endpoint disabled): claimed with a lease and completed. */
import type { SqlClient } from "@effect/sql"
import type { ClaimedNotification, WebhookStore } from "@tuma/core/ports/WebhookStore"
import { Effect } from "effect"
import { Notifications } from "./shared.js"

/** The `WebhookStore` operations of this module over the `SqlClient`. */
export const make = (
  sql: SqlClient.SqlClient
): Pick<WebhookStore["Type"], "claimNotifications" | "completeNotification"> => {
  return {
    claimNotifications: (limit, now, leaseUntil) =>
      Notifications.all(sql`
        WITH due AS (
          SELECT id FROM webhook_notifications
          WHERE status = 'pending' AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE webhook_notifications n SET next_attempt_at = ${leaseUntil}, attempts = n.attempts + 1
        FROM due, webhook_endpoints e, accounts a
        WHERE n.id = due.id AND e.id = n.endpoint_id AND a.id = n.account_id
        RETURNING n.id, n.endpoint_id, n.channel, n.attempts, e.url, e.consecutive_failures, e.disabled_at,
                  a.id AS account_id, a.name, a.email, a.phone`).pipe(
        Effect.map((rows) =>
          rows.map((r): ClaimedNotification => ({
            id: r.id,
            endpointId: r.endpoint_id,
            channel: r.channel,
            attempts: r.attempts,
            url: r.url,
            consecutiveFailures: r.consecutive_failures,
            disabledAt: r.disabled_at,
            accountId: r.account_id,
            accountName: r.name,
            accountEmail: r.email,
            accountPhone: r.phone
          }))
        ),
        Effect.orDie
      ),

    completeNotification: (id, result) =>
      (result._tag === "Sent"
        ? sql`UPDATE webhook_notifications SET status = 'sent', reference = ${result.reference},
                sent_at = ${result.now}, last_error = NULL WHERE id = ${id}`
        : result.retryAt === null
        ? sql`UPDATE webhook_notifications SET status = 'failed', last_error = ${result.error} WHERE id = ${id}`
        : sql`UPDATE webhook_notifications SET next_attempt_at = ${result.retryAt}, last_error = ${result.error}
                WHERE id = ${id}`).pipe(Effect.asVoid, Effect.orDie)
  }
}
