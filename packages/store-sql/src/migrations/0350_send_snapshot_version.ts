/**
 * 0350 — every table the single send's snapshot reads bumps the settings version (issue 12).
 *
 * The single send reuses its snapshot of (account, sender ID, country) (`core/send/snapshotCache.ts`),
 * and its accept re-checks that `settings_version` did not move since the snapshot was read. 0060 bumps
 * it for providers, provider routes, markets, spam rules, accounts and API keys; the snapshot also reads
 * sender IDs, verified routes, opt-outs, switched-off built-in spam phrases and the wallets that exist
 * (and whether they are enabled). A wallet's balance is not a setting (accept's conditional debit decides
 * it), so only wallets created, deleted or switched on/off bump the version.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TRIGGER sender_ids_settings_changed AFTER INSERT OR UPDATE OR DELETE ON sender_ids
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER verified_routes_settings_changed AFTER INSERT OR UPDATE OR DELETE ON verified_routes
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER opt_outs_settings_changed AFTER INSERT OR UPDATE OR DELETE ON opt_outs
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER spam_builtin_switches_settings_changed AFTER INSERT OR UPDATE OR DELETE ON spam_builtin_switches
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER wallets_settings_changed AFTER INSERT OR DELETE OR UPDATE OF enabled, account_id, market_id
  ON wallets
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
`))
