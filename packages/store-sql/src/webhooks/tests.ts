/** Test events recorded as finished deliveries with their one attempt (migration 1020). */
import type { SqlClient } from "@effect/sql"
import type { WebhookStore } from "@tuma/core/ports/WebhookStore"
import { WEBHOOK_TEST_EVENT } from "@tuma/domain"
import { Effect } from "effect"
import { Ids } from "../rows.js"

/** The `WebhookStore` operations of this module over the `SqlClient`. */
export const make = (sql: SqlClient.SqlClient): Pick<WebhookStore["Type"], "recordTest"> => ({
  recordTest: (test, now) =>
    sql.withTransaction(Effect.gen(function*() {
      const status = test.outcome === "success" ? "succeeded" : "failed"
      const written = yield* Ids.all(sql`
        INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event, status, attempts, next_attempt_at,
                                        final_at, last_status, last_error, created_at, updated_at, completed_at, payload)
        SELECT ${test.id}, e.id, ${test.id}, ${WEBHOOK_TEST_EVENT}, ${status}, 1, ${test.attemptedAt},
               ${test.attemptedAt}, ${test.responseStatus}, ${test.error}, ${test.attemptedAt}, ${now}, ${now},
               ${test.body}
        FROM webhook_endpoints e WHERE e.id = ${test.endpointId}
        RETURNING id`)
      if (written.length === 0) return false
      yield* sql`
        INSERT INTO webhook_attempts (delivery_id, endpoint_id, attempt, attempted_at, outcome, response_status,
                                      latency_ms, error)
        VALUES (${test.id}, ${test.endpointId}, 1, ${test.attemptedAt}, ${test.outcome}, ${test.responseStatus},
                ${test.latencyMs}, ${test.error})`
      return true
    })).pipe(Effect.orDie)
})
