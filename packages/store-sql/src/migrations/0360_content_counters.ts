/**
 * 0360 — the duplicate-content counters (decisions §7) get a table of their own (issue 12):
 * `SqlContentCounter` takes many counters in one statement, with fixed windows on the database's
 * clock (`ends_at`, epoch milliseconds). `key` is a digest of (account, mode, sender ID, text).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE content_counters (
  key      text PRIMARY KEY,
  count    integer NOT NULL,
  ends_at  bigint NOT NULL
);
CREATE INDEX content_counters_ends_idx ON content_counters (ends_at);
`))
