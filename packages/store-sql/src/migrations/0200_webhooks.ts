/**
 * 0200 — delivery webhooks (webhook range 0200–0299). Runs on PostgreSQL 15+ and PGlite.
 *
 * - `webhook_events`: the outbox. A trigger on `messages` writes one row, in the very transaction
 *   that moves a message sent with an API key into `delivered` or `failed` (and only when that key
 *   has a webhook endpoint), so no final state can be missed whichever code path sets it.
 * - `webhook_deliveries`: one per (event, endpoint), the queue the webhook workers drain. Its own
 *   table and workers, separate from `dispatch_queue`. A claimed row is leased by pushing
 *   `next_attempt_at` forward, so a crashed worker's rows become due again by themselves.
 * - `webhook_attempts`: every HTTP attempt (time, status, latency, error).
 * - `webhook_notifications`: e-mail/SMS notices owed to the account when an endpoint is disabled,
 *   written in the transaction that disables it.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE webhook_endpoints ADD COLUMN allow_private boolean NOT NULL DEFAULT false;
ALTER TABLE webhook_endpoints ADD COLUMN disabled_reason text;
CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints (account_id);

CREATE TABLE webhook_events (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id  uuid NOT NULL,
  account_id  uuid NOT NULL,
  api_key_id  uuid NOT NULL,
  status      text NOT NULL CHECK (status IN ('delivered', 'failed')),
  final_at    timestamptz NOT NULL,
  fanned_out  boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_pending_idx ON webhook_events (id) WHERE NOT fanned_out;
CREATE INDEX webhook_events_key_final_idx ON webhook_events (api_key_id, final_at);

CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY,
  endpoint_id      uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id         bigint NOT NULL REFERENCES webhook_events (id),
  message_id       uuid NOT NULL,
  event            text NOT NULL CHECK (event IN ('sms.delivered', 'sms.failed')),
  body             text NOT NULL,
  status           text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'skipped')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  final_at         timestamptz NOT NULL,
  last_status      integer,
  last_error       text,
  redelivery_of    uuid,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  completed_at     timestamptz
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_endpoint_pending_idx ON webhook_deliveries (endpoint_id) WHERE status = 'pending';

CREATE TABLE webhook_attempts (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id      uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  endpoint_id      uuid NOT NULL,
  attempt          integer NOT NULL,
  attempted_at     timestamptz NOT NULL,
  outcome          text NOT NULL CHECK (outcome IN ('success', 'failure')),
  response_status  integer,
  latency_ms       double precision NOT NULL,
  error            text
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempt);

CREATE TABLE webhook_notifications (
  id               uuid PRIMARY KEY,
  endpoint_id      uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  account_id       uuid NOT NULL,
  channel          text NOT NULL CHECK (channel IN ('email', 'sms')),
  status           text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  reference        text,
  last_error       text,
  created_at       timestamptz NOT NULL,
  sent_at          timestamptz
);
CREATE INDEX webhook_notifications_due_idx ON webhook_notifications (next_attempt_at) WHERE status = 'pending';

CREATE FUNCTION tuma_webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_endpoints WHERE api_key_id = NEW.api_key_id) THEN
    INSERT INTO webhook_events (message_id, account_id, api_key_id, status, final_at)
    VALUES (
      NEW.id, NEW.account_id, NEW.api_key_id, NEW.status,
      COALESCE(CASE WHEN NEW.status = 'delivered' THEN NEW.delivered_at ELSE NEW.failed_at END, NEW.updated_at, now())
    );
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER messages_webhook_outbox_update
  AFTER UPDATE OF status ON messages
  FOR EACH ROW
  WHEN (NEW.api_key_id IS NOT NULL AND NEW.status IN ('delivered', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION tuma_webhook_outbox();

CREATE TRIGGER messages_webhook_outbox_insert
  AFTER INSERT ON messages
  FOR EACH ROW
  WHEN (NEW.api_key_id IS NOT NULL AND NEW.status IN ('delivered', 'failed'))
  EXECUTE FUNCTION tuma_webhook_outbox();
`))
