/**
 * 0801 — saved message templates of an account (issue 26), and the text a campaign was written with
 * (`campaigns.message`: the v2 template with its tags, or the v1 text), so a campaign can be
 * duplicated. Campaigns accepted before this migration have none (NULL). Runs on PostgreSQL 15+ and
 * PGlite.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE message_templates (
  id          uuid PRIMARY KEY,
  account_id  uuid NOT NULL REFERENCES accounts (id),
  name        text NOT NULL,
  body        text NOT NULL,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX message_templates_name_idx ON message_templates (account_id, lower(name));

ALTER TABLE campaigns ADD COLUMN message text;
`))
