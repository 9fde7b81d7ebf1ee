/**
 * 0100 — the delivery pipeline (delivery range 0100–0199). Runs on PostgreSQL 15+ and PGlite.
 *
 * - `message_parts`: one row per submitted part (provider, the id the carrier gave it as written and
 *   normalised, its state); receipts are matched on (provider_id, provider_ref).
 * - `delivery_receipts_pending`: receipts that arrived before their part was recorded (another worker
 *   process holds the submit result, or the id came back late); matched when the part is written, or
 *   by the periodic sweep.
 * - `dispatch_reconcile`: submits whose outcome is unknown, waiting for a receipt or the deadline.
 * - `dispatch_rate`: the next free send slot per rate-limited provider, shared by every process.
 * - `messages_recipient_idx`: finds the account an inbound STOP belongs to.
 * - a statement trigger on `dispatch_queue` inserts: `pg_notify('tuma_dispatch')` wakes the workers.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE message_parts (
  message_id           uuid NOT NULL REFERENCES messages (id),
  part_index           integer NOT NULL,
  provider_id          uuid NOT NULL REFERENCES providers (id),
  provider_message_id  text,
  provider_ref         text,
  state                text NOT NULL CHECK (state IN ('enroute', 'delivered', 'failed', 'unknown')),
  delivery_status      text,
  error_code           text,
  failure_reason       text,
  updated_at           timestamptz NOT NULL,
  PRIMARY KEY (message_id, part_index)
);
CREATE INDEX message_parts_ref_idx ON message_parts (provider_id, provider_ref) WHERE provider_ref IS NOT NULL;

CREATE TABLE delivery_receipts_pending (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  provider_id      uuid NOT NULL,
  refs             text[] NOT NULL,
  state            text NOT NULL,
  delivery_status  text NOT NULL,
  error_code       text,
  failure_reason   text,
  received_at      timestamptz NOT NULL
);

CREATE TABLE dispatch_reconcile (
  message_id   uuid PRIMARY KEY REFERENCES messages (id),
  provider_id  uuid NOT NULL,
  reference    text NOT NULL,
  reason       text NOT NULL,
  deadline     timestamptz NOT NULL,
  created_at   timestamptz NOT NULL
);
CREATE INDEX dispatch_reconcile_deadline_idx ON dispatch_reconcile (deadline);

CREATE TABLE dispatch_rate (
  provider_id  uuid PRIMARY KEY,
  next_slot    timestamptz NOT NULL
);

CREATE INDEX messages_recipient_idx ON messages (recipient, created_at DESC);

CREATE FUNCTION tuma_dispatch_notify() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('tuma_dispatch', '');
  RETURN NULL;
END
$fn$;

CREATE TRIGGER dispatch_queue_notify
  AFTER INSERT ON dispatch_queue
  FOR EACH STATEMENT
  EXECUTE FUNCTION tuma_dispatch_notify();
`))
