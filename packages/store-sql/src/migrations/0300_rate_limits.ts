/**
 * 0300 — rate-limit counters shared by every server process (HTTP engineer's range 0300–0399).
 *
 * UNLOGGED: counters are not worth WAL traffic; after a crash they start from zero, which only
 * ever lets a client through, never refuses one wrongly. Times are epoch milliseconds of the
 * database clock, so several processes agree on windows whatever their own clocks say.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE UNLOGGED TABLE rate_limit_counters (
  key         text PRIMARY KEY,
  count       bigint NOT NULL,
  expires_at  bigint NOT NULL,
  rejected    boolean NOT NULL DEFAULT false
);
CREATE UNLOGGED TABLE rate_limit_buckets (
  key          text PRIMARY KEY,
  tokens       bigint NOT NULL,
  last_refill  bigint NOT NULL,
  last_result  bigint NOT NULL
);
`))
