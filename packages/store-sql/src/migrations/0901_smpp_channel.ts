/**
 * 0901 — the `smpp` channel (issue 28): a message submitted over the SMPP server is stored with
 * `channel = 'smpp'`. The CHECK of 0001 is widened. Runs on PostgreSQL 15+ and PGlite.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_channel_check;
ALTER TABLE messages ADD CONSTRAINT messages_channel_check CHECK (channel IN ('api', 'web', 'smpp'));
`))
