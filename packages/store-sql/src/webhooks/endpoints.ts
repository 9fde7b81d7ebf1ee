/** Endpoints of an account: created, listed, enabled and disabled by hand, their secret rotated. */
import type { SqlClient } from "@effect/sql"
import type { WebhookStore } from "@tuma/core/ports/WebhookStore"
import { DEFAULT_WEBHOOK_EVENTS } from "@tuma/domain"
import { Effect } from "effect"
import { ENDPOINT_COLUMNS, Endpoints, helpers, toEndpoint } from "./shared.js"

/** The `WebhookStore` operations of this module over the `SqlClient`. */
export const make = (
  sql: SqlClient.SqlClient
): Pick<
  WebhookStore["Type"],
  | "createEndpoint"
  | "getEndpoint"
  | "listEndpoints"
  | "enableEndpoint"
  | "disableEndpoint"
  | "setSecret"
  | "setEvents"
> => {
  const { endpointQuery, endpoint, skipPending } = helpers(sql)
  return {
    createEndpoint: (input) =>
      endpoint(sql`
        INSERT INTO webhook_endpoints (id, account_id, api_key_id, url, secret, enabled, consecutive_failures,
                                       events, created_at, updated_at)
        SELECT ${input.id}, k.account_id, k.id, ${input.url}, ${input.secret}, true, 0, ${[
        ...(input.events ?? DEFAULT_WEBHOOK_EVENTS)
      ]}::text[],
               ${input.now}, ${input.now}
        FROM api_keys k WHERE k.id = ${input.apiKeyId}
        RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`).pipe(Effect.orDie),

    getEndpoint: (id) => endpoint(endpointQuery(sql`WHERE id = ${id}`)).pipe(Effect.orDie),

    listEndpoints: (filter) =>
      Endpoints.all(endpointQuery(sql`WHERE true
        ${filter.accountId === undefined ? sql`` : sql`AND account_id = ${filter.accountId}`}
        ${filter.apiKeyId === undefined ? sql`` : sql`AND api_key_id = ${filter.apiKeyId}`}
        ORDER BY created_at, id`)).pipe(Effect.map((r) => r.map(toEndpoint)), Effect.orDie),

    enableEndpoint: (id, now) =>
      endpoint(sql`
        UPDATE webhook_endpoints SET enabled = true, consecutive_failures = 0, disabled_at = NULL,
               disabled_reason = NULL, updated_at = ${now}
        WHERE id = ${id} RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`).pipe(Effect.orDie),

    disableEndpoint: (id, reason, now) =>
      sql.withTransaction(Effect.gen(function*() {
        const disabled = yield* endpoint(sql`
          UPDATE webhook_endpoints SET enabled = false, disabled_at = COALESCE(disabled_at, ${now}),
                 disabled_reason = ${reason}, updated_at = ${now}
          WHERE id = ${id} RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`)
        if (disabled === null) return null
        yield* skipPending([id], reason, now)
        return disabled
      })).pipe(Effect.orDie),

    setEvents: (id, events, now) =>
      endpoint(sql`
        UPDATE webhook_endpoints SET events = ${[...events]}::text[], updated_at = ${now}
        WHERE id = ${id} RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`).pipe(Effect.orDie),

    setSecret: (id, secret, now) =>
      endpoint(sql`
        UPDATE webhook_endpoints SET secret = ${secret}, updated_at = ${now}
        WHERE id = ${id} RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`).pipe(Effect.orDie)
  }
}
