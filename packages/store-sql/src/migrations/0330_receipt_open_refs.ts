/**
 * 0330 — receipts match only unfinished messages (issue 9, item 2).
 *
 * Carriers reuse message ids (an SMSC's counter wraps; the simulated carrier used to restart its
 * counter with the process), so a reference may name several messages of one provider. A receipt
 * belongs to the most recent one that is still waiting for its outcome, never to a finished one.
 * The reference indexes therefore hold only waiting rows: a `sent` single-part message, a part
 * still `enroute` or `unknown`. A message or part leaves its index when it becomes final (the new
 * row version is not indexed), so the look-up reads only the rows it can match, and the indexes
 * stay as small as the traffic in flight instead of growing with the history.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
DROP INDEX IF EXISTS messages_provider_ref_norm_idx;
CREATE INDEX messages_provider_ref_open_idx ON messages (provider_id, provider_ref)
  WHERE provider_ref IS NOT NULL AND status = 'sent';
DROP INDEX IF EXISTS message_parts_ref_idx;
CREATE INDEX message_parts_ref_open_idx ON message_parts (provider_id, provider_ref)
  WHERE provider_ref IS NOT NULL AND state IN ('enroute', 'unknown');
`))
