/**
 * 1000 — inbound messages over the SMPP server (docs/smpp.md "Inbound messages"). Runs on PostgreSQL 15+
 * and PGlite.
 *
 * - `smpp_inbound`: the outbox of inbound messages owed to an account's SMPP binds. A trigger on
 *   `inbound_messages` writes one row (primary key = the inbound message: delivered once per message) in
 *   the transaction that stores a routed message, when its account has SMPP credentials of the message's
 *   mode (live messages: live credentials; a sandbox key's simulated message: sandbox credentials). The
 *   SMPP listeners drain it like `smpp_receipts` (lease by `next_attempt_at`) to a receiver/transceiver
 *   bind of one of those credentials, mark it `acknowledged` (with the credentials that took it) on
 *   deliver_sm_resp, `expired` past the hold. Rows belong to the account, not to one system id, so
 *   deleting credentials leaves them for the account's others.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE smpp_inbound (
  inbound_id        uuid PRIMARY KEY,
  account_id        uuid NOT NULL,
  mode              text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  state             text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'acknowledged', 'expired')),
  attempts          integer NOT NULL DEFAULT 0,
  next_attempt_at   timestamptz NOT NULL,
  created_at        timestamptz NOT NULL,
  smpp_account_id   uuid,
  acknowledged_at   timestamptz
);
CREATE INDEX smpp_inbound_due_idx ON smpp_inbound (account_id, next_attempt_at) WHERE state = 'pending';

CREATE FUNCTION tuma_smpp_inbound_outbox() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  m text := CASE WHEN NEW.sandbox THEN 'sandbox' ELSE 'live' END;
BEGIN
  INSERT INTO smpp_inbound (inbound_id, account_id, mode, next_attempt_at, created_at)
  SELECT NEW.id, NEW.account_id, m, clock_timestamp(), clock_timestamp()
  WHERE EXISTS (SELECT 1 FROM smpp_accounts a WHERE a.account_id = NEW.account_id AND a.mode = m)
  ON CONFLICT (inbound_id) DO NOTHING;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER inbound_messages_smpp_outbox
  AFTER INSERT ON inbound_messages
  FOR EACH ROW
  WHEN (NEW.account_id IS NOT NULL)
  EXECUTE FUNCTION tuma_smpp_inbound_outbox();
`))
