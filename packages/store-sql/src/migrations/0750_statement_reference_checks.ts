/**
 * 0750 — the references of an accepted message checked once per statement, not once per row (issue 12:
 * bulk acceptance is bound by PostgreSQL's CPU; measured on PostgreSQL 15, a 1,000-message insert with
 * its queue rows: 131–157 ms per 5 inserts with per-row foreign keys, 95 with these statement checks,
 * 84–92 with no check at all — the three per-row RI look-ups were ≈ 40 % of the insert).
 *
 * - `messages.account_id` and `messages.campaign_id` keep their guarantee, as foreign keys give it, in
 *   two halves: an `AFTER INSERT … FOR EACH STATEMENT` trigger over the inserted rows (a transition
 *   table) locks each distinct account and campaign `FOR KEY SHARE`, as an RI check does, and refuses
 *   the statement (`foreign_key_violation`) when one is missing; and `BEFORE DELETE` / `BEFORE UPDATE OF
 *   id` row triggers on `accounts` and `campaigns` refuse to remove a row that messages still name. An
 *   update of a message's `account_id` or `campaign_id` (none is ever written) is checked per row.
 * - `dispatch_queue.message_id` loses its foreign key, as `message_parts.message_id` did in 0110: its
 *   rows are written from the `messages` rows the same statement inserts (`SqlSendStore`), or re-read
 *   (`SqlDispatchStore`), and messages are never deleted.
 *
 * Runs on PostgreSQL 15+ and PGlite.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE dispatch_queue DROP CONSTRAINT IF EXISTS dispatch_queue_message_id_fkey;
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_account_id_fkey;
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_campaign_id_fkey;

CREATE FUNCTION tuma_message_refs_check(account_ids uuid[], campaign_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  found integer;
BEGIN
  SELECT count(*) INTO found FROM (SELECT 1 FROM accounts WHERE id = ANY(account_ids) FOR KEY SHARE) a;
  IF found < cardinality(account_ids) THEN
    RAISE EXCEPTION 'insert or update on table "messages" violates the reference to "accounts"'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  SELECT count(*) INTO found FROM (SELECT 1 FROM campaigns WHERE id = ANY(campaign_ids) FOR KEY SHARE) c;
  IF found < cardinality(campaign_ids) THEN
    RAISE EXCEPTION 'insert or update on table "messages" violates the reference to "campaigns"'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
END $$;

CREATE FUNCTION tuma_messages_inserted_refs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tuma_message_refs_check(
    ARRAY(SELECT DISTINCT account_id FROM inserted),
    ARRAY(SELECT DISTINCT campaign_id FROM inserted WHERE campaign_id IS NOT NULL));
  RETURN NULL;
END $$;
CREATE TRIGGER messages_inserted_refs AFTER INSERT ON messages
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION tuma_messages_inserted_refs();

CREATE FUNCTION tuma_messages_updated_refs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tuma_message_refs_check(ARRAY[NEW.account_id],
    CASE WHEN NEW.campaign_id IS NULL THEN '{}'::uuid[] ELSE ARRAY[NEW.campaign_id] END);
  RETURN NULL;
END $$;
CREATE TRIGGER messages_updated_refs AFTER UPDATE OF account_id, campaign_id ON messages
  FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.campaign_id IS DISTINCT FROM NEW.campaign_id)
  EXECUTE FUNCTION tuma_messages_updated_refs();

CREATE FUNCTION tuma_referenced_by_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.id = NEW.id THEN RETURN NEW; END IF;
  IF TG_TABLE_NAME = 'accounts' AND EXISTS (SELECT 1 FROM messages WHERE account_id = OLD.id)
    OR TG_TABLE_NAME = 'campaigns' AND EXISTS (SELECT 1 FROM messages WHERE campaign_id = OLD.id) THEN
    RAISE EXCEPTION 'update or delete on table "%" violates the reference from "messages"', TG_TABLE_NAME
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER accounts_referenced_by_messages BEFORE DELETE OR UPDATE OF id ON accounts
  FOR EACH ROW EXECUTE FUNCTION tuma_referenced_by_messages();
CREATE TRIGGER campaigns_referenced_by_messages BEFORE DELETE OR UPDATE OF id ON campaigns
  FOR EACH ROW EXECUTE FUNCTION tuma_referenced_by_messages();
`))
