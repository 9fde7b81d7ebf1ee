/**
 * 1020 — the portal's test event is recorded among its endpoint's deliveries: `webhook.test` joins
 * the events a `webhook_deliveries` row may carry. Such a row is written finished (`succeeded` or
 * `failed`, one attempt in `webhook_attempts`, the posted body in `payload`, `message_id` = its own
 * id), so the workers never claim it and redeliveries pass it over.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_check
  CHECK (event IN ('sms.delivered', 'sms.failed', 'sms.received', 'optout.changed', 'webhook.test'));
`))
