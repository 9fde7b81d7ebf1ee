/**
 * 0061 — trace context of messages (issue 13): the W3C `traceparent` of the span that accepted a
 * message, so its delivery spans (submit, receipt, webhook attempt) link back to the request.
 *
 * A table of its own rather than a `messages` column: rows are written only while tracing is on
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` set), so the acceptance path of an untraced server is unchanged.
 * They are written just before the acceptance transaction (a dispatcher must never claim a message
 * before its context exists), hence no foreign key: a send refused at commit leaves an orphan row
 * that nothing reads.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE message_trace_context (
  message_id   uuid PRIMARY KEY,
  traceparent  text NOT NULL
);
`))
