/**
 * 1001 — intermediate receipts of the SMPP server (docs/smpp.md "Receipts"). Runs on PostgreSQL 15+ and
 * PGlite.
 *
 * - `messages.smpp_intermediate`: the submit asked for intermediate notifications (`registered_delivery`
 *   bit 0x10), written by the accept in the message's own INSERT.
 * - `smpp_receipts_intermediate`: the outbox of intermediate receipts, the same shape as `smpp_receipts`
 *   (status `enroute`). A trigger on `messages` writes one row (primary key = the message: one
 *   intermediate receipt per message) in the transaction that moves such a message into `sent` (the
 *   carrier accepted it). Drained, acknowledged and expired like the final receipts.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE messages ADD COLUMN smpp_intermediate boolean NOT NULL DEFAULT false;

CREATE TABLE smpp_receipts_intermediate (
  message_id        uuid PRIMARY KEY,
  smpp_account_id   uuid NOT NULL,
  status            text NOT NULL CHECK (status IN ('enroute')),
  state             text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'acknowledged', 'expired')),
  attempts          integer NOT NULL DEFAULT 0,
  next_attempt_at   timestamptz NOT NULL,
  final_at          timestamptz NOT NULL,
  created_at        timestamptz NOT NULL,
  acknowledged_at   timestamptz
);
CREATE INDEX smpp_receipts_intermediate_due_idx ON smpp_receipts_intermediate (smpp_account_id, next_attempt_at)
  WHERE state = 'pending';

CREATE FUNCTION tuma_smpp_intermediate_outbox() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO smpp_receipts_intermediate (message_id, smpp_account_id, status, next_attempt_at, final_at, created_at)
  SELECT NEW.id, a.id, 'enroute', clock_timestamp(), COALESCE(NEW.sent_at, NEW.updated_at, now()), clock_timestamp()
  FROM smpp_accounts a WHERE a.id = NEW.smpp_account_id
  ON CONFLICT (message_id) DO NOTHING;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER messages_smpp_intermediate
  AFTER UPDATE OF status ON messages
  FOR EACH ROW
  WHEN (NEW.smpp_intermediate AND NEW.status = 'sent' AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION tuma_smpp_intermediate_outbox();
`))
