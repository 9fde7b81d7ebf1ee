/**
 * 0202 — fewer indexes on `webhook_deliveries` (every delivery row is written three times: by the
 * final-state trigger, by its claim and by its result, and each write touched every index).
 * Skipping an endpoint's pending deliveries and redelivering "since a time" are rare operator
 * paths: `webhook_deliveries_endpoint_idx (endpoint_id, created_at)` serves both well enough.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
DROP INDEX IF EXISTS webhook_deliveries_endpoint_pending_idx;
DROP INDEX IF EXISTS webhook_deliveries_endpoint_final_idx;
`))
