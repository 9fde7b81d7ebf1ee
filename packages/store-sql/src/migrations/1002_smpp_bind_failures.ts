/**
 * 1002 — the SMPP bind lockout across processes (docs/smpp.md "Credentials"). Runs on PostgreSQL 15+ and
 * PGlite.
 *
 * - `smpp_bind_failures`: failed binds per system_id, the same columns as the portal's and the
 *   console's failed sign-ins (`SqlLoginFailures`): every process of one database counts into the same
 *   row, so `--workers` and several `tuma serve` share one lockout.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE smpp_bind_failures (
  key           text PRIMARY KEY,
  failures      integer NOT NULL,
  window_start  timestamptz NOT NULL,
  locked_until  timestamptz
);
`))
