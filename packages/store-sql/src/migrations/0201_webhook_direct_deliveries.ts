/**
 * 0201 — webhook deliveries written directly by the final-state transaction.
 *
 * 0200 wrote an outbox event that a worker then fanned out into deliveries (two more writes and a
 * transaction per batch). Now the trigger on `messages` inserts one `webhook_deliveries` row per
 * endpoint of the message's API key in the very transaction that moves the message into
 * `delivered`/`failed` (`skipped` when the endpoint is disabled, so an operator can redeliver it).
 *
 * The body is no longer stored: it is built from the message and the delivery at each attempt by
 * the domain payload builder. Its inputs never change after the final state (`timestamp` is the
 * delivery's `created_at`), so every retry sends the same bytes.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE OR REPLACE FUNCTION tuma_webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  at timestamptz := COALESCE(
    CASE WHEN NEW.status = 'delivered' THEN NEW.delivered_at ELSE NEW.failed_at END, NEW.updated_at, now());
BEGIN
  INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event, status, attempts, next_attempt_at, final_at,
                                  created_at, updated_at, completed_at)
  SELECT gen_random_uuid(), e.id, NEW.id,
         CASE WHEN NEW.status = 'delivered' THEN 'sms.delivered' ELSE 'sms.failed' END,
         CASE WHEN e.enabled THEN 'pending' ELSE 'skipped' END,
         0, clock_timestamp(), at, clock_timestamp(), clock_timestamp(),
         CASE WHEN e.enabled THEN NULL ELSE clock_timestamp() END
  FROM webhook_endpoints e
  WHERE e.api_key_id = NEW.api_key_id;
  RETURN NULL;
END
$fn$;

ALTER TABLE webhook_deliveries DROP COLUMN event_id;
ALTER TABLE webhook_deliveries DROP COLUMN body;
DROP TABLE webhook_events;
CREATE INDEX webhook_deliveries_endpoint_final_idx ON webhook_deliveries (endpoint_id, final_at);
`))
