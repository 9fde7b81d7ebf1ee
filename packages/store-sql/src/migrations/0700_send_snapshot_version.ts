/**
 * 0700 — the tables the single send's snapshot reads bump the settings version when a change can
 * *forbid* a send (issue 12).
 *
 * The single send reuses its snapshot of (account, sender ID, country) (`core/send/snapshotCache.ts`),
 * and its accept re-checks that `settings_version` did not move since the snapshot was read. 0060 bumps
 * it for providers, provider routes, markets, spam rules, accounts and API keys. Of the other tables the
 * snapshot reads, only changes that can forbid a send need to: a sender ID or a verified route changed
 * or removed, a built-in spam phrase switched, a wallet switched off or removed. A new sender ID, route
 * or wallet can only allow a send, and a refusal reached on a reused snapshot is decided again on a
 * fresh one anyway; opt-outs are re-checked per recipient by the accept itself; a wallet's balance is
 * decided by accept's conditional debit. So customers' everyday writes (sender-ID requests, opt-outs by
 * STOP, purchases) leave the version — and every process's caches — alone.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TRIGGER sender_ids_settings_changed AFTER UPDATE OR DELETE ON sender_ids
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER verified_routes_settings_changed AFTER UPDATE OR DELETE ON verified_routes
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER spam_builtin_switches_settings_changed AFTER INSERT OR UPDATE OR DELETE ON spam_builtin_switches
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
CREATE TRIGGER wallets_settings_changed AFTER DELETE OR UPDATE OF enabled ON wallets
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_settings_changed();
`))
