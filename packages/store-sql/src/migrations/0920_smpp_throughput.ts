/**
 * 0920 — SMPP throughput across processes (issue 28): one token bucket per SMPP credentials, shared by
 * every process that serves their binds (`--workers`, several `tuma serve` on one PostgreSQL). The
 * processes lease tokens from it (`SmppStore.withBucket`, domain `leaseParts`) and spend them locally.
 * `tokens` as last written at `at_ms` (the database clock, milliseconds; both NULL: never leased, full),
 * refilled by the lease that reads it. Deleting the credentials deletes their row. Runs on PostgreSQL 15+
 * and PGlite.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE smpp_throughput (
  smpp_account_id   uuid PRIMARY KEY,
  tokens            double precision,
  at_ms             double precision
);
`))
