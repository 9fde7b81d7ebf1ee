/**
 * 0940 — two-way SMS (inbound range 0940–0969). Runs on PostgreSQL 15+ and PGlite.
 *
 * - `inbound_numbers`: an address assigned to an account — a long number or dedicated short code
 *   (`keyword` NULL), or a keyword (with `aliases`) on a shared short code. `address_key` is the
 *   digits of the address; the partial unique indexes back the conflict rule of `@tuma/domain`
 *   `assignmentConflict` (the store also checks it under an advisory lock, aliases included).
 * - `inbound_messages`: every message a handset sent (joined from its parts), routed (`account_id`)
 *   or not (NULL: unrouted, listed to operators). Written by the delivery writer's transaction before
 *   the carrier's deliver_sm is acknowledged.
 * - `inbound_parts`: parts as they arrive, keyed by provider, handset, address and `part_key` (the
 *   place of a concatenated part, or the text of a single part): a re-sent part is a conflict, so
 *   dropped; `group_key` names the message a part belongs to. A joined group keeps its rows (with `message_id`) until `keep_until`, the window in
 *   which a carrier's re-send is recognised.
 * - `inbound_settings`: an account's auto-reply texts (NULL: the default of that language).
 * - `inbound_replies`: auto replies owed (STOP, START, HELP), sent by the inbound worker through the
 *   send use case.
 * - `webhook_endpoints.events`: what an endpoint is subscribed to (default: the two delivery events);
 *   `webhook_deliveries.payload`: the frozen body of events that are not a message's final state
 *   (`sms.received`, `optout.changed`), written with the event.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE inbound_numbers (
  id           uuid PRIMARY KEY,
  account_id   uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  number       text NOT NULL,
  address_key  text NOT NULL,
  keyword      text,
  aliases      text[] NOT NULL DEFAULT '{}',
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX inbound_numbers_dedicated_idx ON inbound_numbers (address_key) WHERE keyword IS NULL;
CREATE UNIQUE INDEX inbound_numbers_keyword_idx ON inbound_numbers (address_key, keyword) WHERE keyword IS NOT NULL;
CREATE INDEX inbound_numbers_account_idx ON inbound_numbers (account_id, created_at);

CREATE TABLE inbound_messages (
  id                 uuid PRIMARY KEY,
  account_id         uuid REFERENCES accounts (id) ON DELETE CASCADE,
  inbound_number_id  uuid,
  provider           text NOT NULL,
  from_addr          text NOT NULL,
  to_addr            text NOT NULL,
  keyword            text,
  text               text NOT NULL,
  encoding           text NOT NULL CHECK (encoding IN ('GSM-7', 'Latin-1', 'UCS-2')),
  parts              integer NOT NULL,
  complete           boolean NOT NULL,
  command            text CHECK (command IN ('stop', 'start', 'help')),
  in_reply_to        uuid,
  sandbox            boolean NOT NULL DEFAULT false,
  read_at            timestamptz,
  received_at        timestamptz NOT NULL,
  created_at         timestamptz NOT NULL
);
CREATE INDEX inbound_messages_account_idx ON inbound_messages (account_id, received_at DESC, id DESC);
CREATE INDEX inbound_messages_unrouted_idx ON inbound_messages (received_at DESC, id DESC) WHERE account_id IS NULL;

CREATE TABLE inbound_parts (
  provider     text NOT NULL,
  from_addr    text NOT NULL,
  to_addr      text NOT NULL,
  part_key     text NOT NULL,
  group_key    text NOT NULL,
  ref          integer,
  total        integer NOT NULL,
  seq          integer NOT NULL,
  text         text NOT NULL,
  encoding     text NOT NULL,
  received_at  timestamptz NOT NULL,
  keep_until   timestamptz NOT NULL,
  message_id   uuid,
  PRIMARY KEY (provider, from_addr, to_addr, part_key)
);
CREATE INDEX inbound_parts_waiting_idx ON inbound_parts (received_at) WHERE message_id IS NULL;
CREATE INDEX inbound_parts_group_idx ON inbound_parts (provider, from_addr, to_addr, group_key) WHERE message_id IS NULL;
CREATE INDEX inbound_parts_kept_idx ON inbound_parts (keep_until) WHERE message_id IS NOT NULL;

CREATE TABLE inbound_settings (
  account_id   uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  stop_en      text,
  stop_sw      text,
  start_en     text,
  start_sw     text,
  help_en      text,
  help_sw      text,
  updated_at   timestamptz NOT NULL
);

CREATE TABLE inbound_replies (
  inbound_id       uuid PRIMARY KEY,
  account_id       uuid NOT NULL,
  handset          text NOT NULL,
  sender           text NOT NULL,
  text             text NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  message_id       uuid,
  last_error       text,
  created_at       timestamptz NOT NULL
);
CREATE INDEX inbound_replies_due_idx ON inbound_replies (next_attempt_at) WHERE status = 'pending';

ALTER TABLE webhook_endpoints ADD COLUMN events text[] NOT NULL DEFAULT '{sms.delivered,sms.failed}';
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_check
  CHECK (event IN ('sms.delivered', 'sms.failed', 'sms.received', 'optout.changed'));
ALTER TABLE webhook_deliveries ADD COLUMN payload text;

CREATE OR REPLACE FUNCTION tuma_webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  at timestamptz := COALESCE(
    CASE WHEN NEW.status = 'delivered' THEN NEW.delivered_at ELSE NEW.failed_at END, NEW.updated_at, now());
  ev text := CASE WHEN NEW.status = 'delivered' THEN 'sms.delivered' ELSE 'sms.failed' END;
BEGIN
  INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event, status, attempts, next_attempt_at, final_at,
                                  created_at, updated_at, completed_at)
  SELECT gen_random_uuid(), e.id, NEW.id, ev,
         CASE WHEN e.enabled THEN 'pending' ELSE 'skipped' END,
         0, clock_timestamp(), at, clock_timestamp(), clock_timestamp(),
         CASE WHEN e.enabled THEN NULL ELSE clock_timestamp() END
  FROM webhook_endpoints e
  WHERE e.api_key_id = NEW.api_key_id AND ev = ANY (e.events);
  IF FOUND THEN
    PERFORM pg_notify('tuma_webhooks', '1');
  END IF;
  RETURN NULL;
END
$fn$;
`))
