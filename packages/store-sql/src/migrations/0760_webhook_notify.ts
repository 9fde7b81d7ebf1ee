/**
 * 0760 — the webhook pump is woken, not only polled (issue 12, "a lean server process"): the outbox
 * trigger (0201) sends `pg_notify('tuma_webhooks', '1')` when a message's final state created
 * deliveries (`FOUND` after its INSERT: none for a key without endpoints, so a send load without
 * webhooks pays nothing). Notifications are folded per transaction and delivered at COMMIT, when the
 * rows are visible. The pump listens (`SqlWebhookStore.layerWakeups`) and polls for the rest (retries
 * falling due, redeliveries made in another process) every `TUMA_WEBHOOK_POLL` (now 1 s in `tuma`).
 * Runs on PostgreSQL 15+ and PGlite.
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
  IF FOUND THEN
    PERFORM pg_notify('tuma_webhooks', '1');
  END IF;
  RETURN NULL;
END
$fn$;
`))
