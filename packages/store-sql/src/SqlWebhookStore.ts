/**
 * SQL adapter of `WebhookStore` (@tuma/core/ports/WebhookStore). Tables: migration 0200.
 * Same SQL on PostgreSQL 15 and PGlite. SQL failures are defects (infrastructure, not domain).
 *
 * The operations live in webhooks/: `endpoints`, `deliveries` (the queue), `attempts` (outcomes and
 * endpoint health), `reads`, `notifications`, `tests` (the recorded test event), over `shared` (rows and common statements).
 */
import { SqlClient } from "@effect/sql"
import { WebhookStore, WebhookWakeups } from "@tuma/core/ports/WebhookStore"
import { Effect, Layer } from "effect"
import * as Wakeups from "./Wakeups.js"
import * as Attempts from "./webhooks/attempts.js"
import * as Deliveries from "./webhooks/deliveries.js"
import * as Endpoints from "./webhooks/endpoints.js"
import * as Notifications from "./webhooks/notifications.js"
import * as Reads from "./webhooks/reads.js"
import * as Tests from "./webhooks/tests.js"

/** The SQL `WebhookStore`: endpoints, deliveries and their retries. */
export const make = Effect.map(SqlClient.SqlClient, (sql) =>
  WebhookStore.of({
    ...Endpoints.make(sql),
    ...Deliveries.make(sql),
    ...Attempts.make(sql),
    ...Reads.make(sql),
    ...Notifications.make(sql),
    ...Tests.make(sql)
  }))

/** `WebhookStore` over the `SqlClient`. */
export const layer: Layer.Layer<WebhookStore, never, SqlClient.SqlClient> = Layer.effect(WebhookStore, make)

/** The LISTEN/NOTIFY channel that wakes the webhook pump when deliveries are created (migration 0760). */
export const WEBHOOK_CHANNEL = "tuma_webhooks"

/**
 * Wake-ups on `pg_notify('tuma_webhooks')`, sent by the outbox trigger when a message's final state
 * created deliveries: LISTEN on PostgreSQL, `pglite.listen` on PGlite. The pump also polls.
 */
export const layerWakeups: Layer.Layer<WebhookWakeups> = Layer.scoped(
  WebhookWakeups,
  Wakeups.listen(WEBHOOK_CHANNEL, "webhook")
)
