/**
 * 0060 — the settings version (decisions §30: operator changes reach every process within 2 s).
 *
 * `settings_version` is one row whose `version` grows with every committed statement on a table
 * that some process caches: `providers`, `provider_routes`, `markets`, `spam_rules`, `accounts`, and
 * `api_keys` (except `last_used_at` stamps). A statement trigger bumps it inside the changing
 * transaction (so a reader sees the new version only once the change is visible) and sends
 * `pg_notify('tuma_settings')`, delivered at COMMIT. Processes LISTEN (PGlite: `pglite.listen`) and
 * poll the row as the fallback; see `SqlSettingsChanges` and docs/architecture.md.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE settings_version (
  id       integer PRIMARY KEY CHECK (id = 1),
  version  bigint NOT NULL
);
INSERT INTO settings_version (id, version) VALUES (1, 1);

CREATE FUNCTION tuma_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE settings_version SET version = version + 1 WHERE id = 1;
  PERFORM pg_notify('tuma_settings', '');
  RETURN NULL;
END
$fn$;

CREATE TRIGGER providers_settings_changed AFTER INSERT OR UPDATE OR DELETE ON providers
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER provider_routes_settings_changed AFTER INSERT OR UPDATE OR DELETE ON provider_routes
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER markets_settings_changed AFTER INSERT OR UPDATE OR DELETE ON markets
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER spam_rules_settings_changed AFTER INSERT OR UPDATE OR DELETE ON spam_rules
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER accounts_settings_changed AFTER INSERT OR UPDATE OR DELETE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER api_keys_settings_changed
  AFTER INSERT OR DELETE OR UPDATE OF account_id, key_hash, mode, scopes, allowed_ips, expires_at, revoked_at
  ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
`))
