/**
 * 0120 — delivery workers announce themselves (issue 9 item 15: take-over after a crash).
 *
 * Each worker process upserts its row every few seconds (`heartbeat_at`, the database clock). A
 * worker that has itself been heard from continuously for `takeoverAfterMs` deletes the rows of
 * workers silent for that long and makes their claimed `dispatch_queue` rows claimable at once,
 * instead of when their lease (`available_at`) runs out. See docs/delivery.md.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE dispatch_workers (
  owner         text PRIMARY KEY,
  started_at    timestamptz NOT NULL,
  heartbeat_at  timestamptz NOT NULL
);
`))
