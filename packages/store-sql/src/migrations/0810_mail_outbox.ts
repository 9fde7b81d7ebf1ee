/**
 * 0810 — the demo mail outbox (issue 26): without `TUMA_SMTP_URL` a mail (invitation, password reset,
 * notice) is not sent but kept here, so the console's admins can read it and the demo's invitations
 * work. Nothing is written here when a mail server is configured. Runs on PostgreSQL 15+ and PGlite.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE mail_outbox (
  id          uuid PRIMARY KEY,
  recipient   text NOT NULL,
  subject     text NOT NULL,
  body        text NOT NULL,
  created_at  timestamptz NOT NULL
);
CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at DESC);
`))
