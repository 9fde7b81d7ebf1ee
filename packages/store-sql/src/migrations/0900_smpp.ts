/**
 * 0900 — the SMPP server for customers (issue 28; SMPP range 0900–0999). Runs on PostgreSQL 15+ and PGlite.
 *
 * - `smpp_accounts`: an account's SMPP credentials (system_id unique, scrypt password hash, mode, throughput
 *   rate + burst in parts per second, max binds, allowed address blocks, disabled).
 * - `messages.smpp_account_id`: the credentials a message was submitted with (NULL for every other channel),
 *   written by the accept in the message's own INSERT.
 * - `smpp_receipts`: the receipt outbox. A trigger on `messages` writes one row (primary key = the message:
 *   one receipt per message) in the very transaction that moves an SMPP message into `delivered` or
 *   `failed`, whichever code path sets it. The SMPP listeners drain it to a receiver/transceiver bind of
 *   that system id (lease by `next_attempt_at`), mark it `acknowledged` on deliver_sm_resp, `expired` past
 *   the hold. No foreign key to `smpp_accounts`: deleting credentials deletes their pending receipts, and
 *   the trigger skips a message whose credentials are gone (a status update never fails for it).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE smpp_accounts (
  id                uuid PRIMARY KEY,
  account_id        uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  system_id         text NOT NULL UNIQUE,
  password_hash     text NOT NULL,
  mode              text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  throughput_rate   integer NOT NULL CHECK (throughput_rate > 0),
  throughput_burst  integer NOT NULL CHECK (throughput_burst > 0),
  max_binds         integer NOT NULL CHECK (max_binds > 0),
  allowed_ips       text[] NOT NULL DEFAULT '{}',
  disabled_at       timestamptz,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);
CREATE INDEX smpp_accounts_account_idx ON smpp_accounts (account_id, created_at);

ALTER TABLE messages ADD COLUMN smpp_account_id uuid;

CREATE TABLE smpp_receipts (
  message_id        uuid PRIMARY KEY,
  smpp_account_id   uuid NOT NULL,
  status            text NOT NULL CHECK (status IN ('delivered', 'failed')),
  state             text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'acknowledged', 'expired')),
  attempts          integer NOT NULL DEFAULT 0,
  next_attempt_at   timestamptz NOT NULL,
  final_at          timestamptz NOT NULL,
  created_at        timestamptz NOT NULL,
  acknowledged_at   timestamptz
);
CREATE INDEX smpp_receipts_due_idx ON smpp_receipts (smpp_account_id, next_attempt_at) WHERE state = 'pending';

CREATE FUNCTION tuma_smpp_receipt_outbox() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO smpp_receipts (message_id, smpp_account_id, status, next_attempt_at, final_at, created_at)
  SELECT NEW.id, a.id, NEW.status, clock_timestamp(),
         COALESCE(CASE WHEN NEW.status = 'delivered' THEN NEW.delivered_at ELSE NEW.failed_at END, NEW.updated_at, now()),
         clock_timestamp()
  FROM smpp_accounts a WHERE a.id = NEW.smpp_account_id
  ON CONFLICT (message_id) DO NOTHING;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER messages_smpp_receipt_update
  AFTER UPDATE OF status ON messages
  FOR EACH ROW
  WHEN (NEW.smpp_account_id IS NOT NULL AND NEW.status IN ('delivered', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION tuma_smpp_receipt_outbox();

CREATE TRIGGER messages_smpp_receipt_insert
  AFTER INSERT ON messages
  FOR EACH ROW
  WHEN (NEW.smpp_account_id IS NOT NULL AND NEW.status IN ('delivered', 'failed'))
  EXECUTE FUNCTION tuma_smpp_receipt_outbox();
`))
