/**
 * 0720 — the change notifications carry a payload (`'1'`), because `@effect/sql-pg` 0.53's `listen`
 * drops a notification whose payload is empty: with 0060's and 0100's `pg_notify(channel, '')` the
 * settings LISTEN and the delivery workers' LISTEN never fired on PostgreSQL, and every process fell
 * back on its poll (settings every 0.5 s, dispatch every poll interval). Same functions, same
 * triggers; only the payload changes.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE OR REPLACE FUNCTION tuma_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE settings_version SET version = version + 1 WHERE id = 1;
  PERFORM pg_notify('tuma_settings', '1');
  RETURN NULL;
END
$fn$;

CREATE OR REPLACE FUNCTION tuma_dispatch_notify() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('tuma_dispatch', '1');
  RETURN NULL;
END
$fn$;
`))
