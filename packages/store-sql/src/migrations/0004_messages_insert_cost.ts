/**
 * 0004 — cheaper message inserts (a bulk v2 campaign writes 1,000 rows in its acceptance
 * transaction; measured on PostgreSQL 15 each removed per-row check/index saves ~5–6 ms per 1,000):
 *
 * - `messages.market_id` and `messages.api_key_id` lose their foreign keys. Both are written from
 *   rows the same send has just read (markets are reference data and never deleted; API keys are
 *   revoked, never deleted), so the per-row RI look-ups only cost. `account_id` and `campaign_id`
 *   keep theirs.
 * - `messages_account_channel_created_idx` goes: the `channel` filter is rare (portal messages) and
 *   is served by `messages_account_created_idx` plus a filter.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_market_id_fkey;
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_api_key_id_fkey;
DROP INDEX IF EXISTS messages_account_channel_created_idx;
`))
