/**
 * 0970 — the portal's inbox. An inbound message is unread until its conversation is opened in the
 * portal (`inbound_messages.read_at`, from 0940); the unread count of the dashboard and the
 * navigation reads this partial index, which holds only the unread messages of accounts. The
 * conversations are grouped by handset and number over `inbound_messages_account_idx`.
 * Runs on PostgreSQL 15+ and PGlite.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE INDEX inbound_messages_unread_idx ON inbound_messages (account_id, sandbox)
  WHERE read_at IS NULL AND account_id IS NOT NULL;
`))
