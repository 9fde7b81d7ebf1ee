/**
 * 1040 — `messages` partitioned by month, so that a year of traffic is whole tables a retention policy
 * can drop. Runs on PostgreSQL 15+ and PGlite.
 *
 * - The key is the message id: a uuid v7 begins with its millisecond timestamp, so the range of one UTC
 *   month is `[tuma_uuid_floor(month), tuma_uuid_floor(next month))` and a look-up by uid prunes to
 *   one partition. Partitions are `messages_pYYYY_MM`; `messages_default` takes any id outside them
 *   (test ids, an id from before partitions existed): a message is never refused for want of one.
 * - `tuma_message_partitions_ensure(ahead)` creates this month's and `ahead` next months' partitions
 *   (idempotent; an advisory lock serialises processes; a month that overlaps an existing partition or
 *   whose rows already sit in the default partition is skipped with a warning). Every process calls it
 *   at start and hourly (`partitions/maintain.ts`).
 * - The conversion renames the table (`messages_legacy`), creates the partitioned `messages` with the
 *   same columns, checks, indexes (same names), triggers and incoming foreign keys, and attaches the old
 *   table whole as the partition `[MINVALUE, next month)`: its indexes are adopted, not rebuilt, and
 *   the only cost is one validating scan of it (docs/operations.md gives the time per million rows).
 *   Rows whose ids fall at or past next month (not time-ordered) are moved to the default partition
 *   first. An empty store drops `messages_legacy` instead. Triggers, indexes and foreign keys are read
 *   from the catalog, so whatever earlier migrations put on `messages` comes across.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE FUNCTION tuma_uuid_floor(at timestamptz) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT (lpad(to_hex(floor(extract(epoch FROM at) * 1000)::bigint), 12, '0') || '00000000000000000000')::uuid
$$;

CREATE FUNCTION tuma_message_partition_create(month date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  first_day timestamp := date_trunc('month', month::timestamp);
  name text := 'messages_p' || to_char(first_day, 'YYYY_MM');
BEGIN
  IF to_regclass(name) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I PARTITION OF messages FOR VALUES FROM (%L) TO (%L)', name,
    tuma_uuid_floor(first_day AT TIME ZONE 'UTC'), tuma_uuid_floor((first_day + interval '1 month') AT TIME ZONE 'UTC'));
  RETURN true;
EXCEPTION WHEN invalid_object_definition OR check_violation THEN
  RAISE WARNING 'messages: no partition % (%)', name, SQLERRM;
  RETURN false;
END $$;

CREATE FUNCTION tuma_message_partitions_ensure(ahead integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  created integer := 0;
  this_month date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('tuma_message_partitions'));
  FOR i IN 0..ahead LOOP
    IF tuma_message_partition_create((this_month + make_interval(months => i))::date) THEN
      created := created + 1;
    END IF;
  END LOOP;
  RETURN created;
END $$;

DO $$
DECLARE
  r record;
  later text[] := '{}';
  index_defs text[] := '{}';
  bound uuid := tuma_uuid_floor((date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC');
  statement text;
BEGIN
  FOR r IN SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def
    FROM pg_constraint WHERE confrelid = 'messages'::regclass AND contype = 'f' LOOP
    later := later || format('ALTER TABLE %s ADD CONSTRAINT %I %s', r.tbl, r.conname, r.def);
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', r.tbl, r.conname);
  END LOOP;
  FOR r IN SELECT tgname, pg_get_triggerdef(oid) AS def FROM pg_trigger
    WHERE tgrelid = 'messages'::regclass AND NOT tgisinternal ORDER BY tgname LOOP
    later := format('%s', r.def) || later;
    EXECUTE format('DROP TRIGGER %I ON messages', r.tgname);
  END LOOP;
  FOR r IN SELECT c.relname, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = 'messages'::regclass AND NOT i.indisprimary LOOP
    index_defs := index_defs || r.def;
    EXECUTE format('ALTER INDEX %I RENAME TO %I', r.relname, left(r.relname, 50) || '_legacy');
  END LOOP;
  ALTER TABLE messages RENAME CONSTRAINT messages_pkey TO messages_legacy_pkey;
  ALTER TABLE messages RENAME TO messages_legacy;

  CREATE TABLE messages (LIKE messages_legacy INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE)
    PARTITION BY RANGE (id);
  ALTER TABLE messages ADD CONSTRAINT messages_pkey PRIMARY KEY (id);
  FOREACH statement IN ARRAY index_defs LOOP
    EXECUTE statement;
  END LOOP;
  CREATE TABLE messages_default PARTITION OF messages DEFAULT;

  IF EXISTS (SELECT 1 FROM messages_legacy) THEN
    INSERT INTO messages SELECT * FROM messages_legacy WHERE id >= bound;
    DELETE FROM messages_legacy WHERE id >= bound;
    EXECUTE format('ALTER TABLE messages ATTACH PARTITION messages_legacy FOR VALUES FROM (MINVALUE) TO (%L)', bound);
  ELSE
    DROP TABLE messages_legacy;
  END IF;

  FOREACH statement IN ARRAY later LOOP
    EXECUTE statement;
  END LOOP;
  PERFORM tuma_message_partitions_ensure(3);
END $$;
`))
