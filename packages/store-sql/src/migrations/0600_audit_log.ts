/**
 * 0600 — the audit log of operator actions (issue 15): who, what, the before/after values, when,
 * from where. Append-only: a trigger refuses UPDATE and DELETE of a row, and TRUNCATE of the table,
 * whoever asks (the admin API, the `tuma` command, plain SQL); only dropping the table removes it.
 *
 * `id` is the log's own sequence (the order entries were appended, and the paging cursor).
 * `before`/`after` are JSON with secrets already replaced by "***" (core `Audit.record`).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE audit_log (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at          timestamptz NOT NULL,
  actor_kind  text NOT NULL CHECK (actor_kind IN ('operator', 'admin-token', 'cli', 'system')),
  actor_id    text,
  actor_name  text NOT NULL,
  ip          text,
  action      text NOT NULL,
  target      text,
  before      jsonb,
  after       jsonb
);
CREATE INDEX audit_log_actor_name ON audit_log (actor_name, id);
CREATE INDEX audit_log_actor_id ON audit_log (actor_id, id) WHERE actor_id IS NOT NULL;
CREATE INDEX audit_log_action ON audit_log (action text_pattern_ops, id);
CREATE INDEX audit_log_target ON audit_log (target, id);
CREATE INDEX audit_log_at ON audit_log (at);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
`))
