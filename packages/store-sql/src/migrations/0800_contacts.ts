/**
 * 0800 — contacts and contact groups of an account (issue 26). A contact is one E.164 number of an
 * account (`UNIQUE (account_id, phone)`: an import or an edit merges into it) with a name and custom
 * fields (`fields`, a JSON object of lower-case tag names to text). Groups are named per account
 * (case-insensitively unique); membership is many-to-many and goes with the contact or the group.
 * Whether a contact is opted out is not stored here: it is read from `opt_outs` on every read, so it
 * is right the moment a STOP arrives. Runs on PostgreSQL 15+ and PGlite.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE contacts (
  id          uuid PRIMARY KEY,
  account_id  uuid NOT NULL REFERENCES accounts (id),
  phone       text NOT NULL,
  name        text NOT NULL DEFAULT '',
  fields      jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  UNIQUE (account_id, phone)
);

CREATE TABLE contact_groups (
  id          uuid PRIMARY KEY,
  account_id  uuid NOT NULL REFERENCES accounts (id),
  name        text NOT NULL,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX contact_groups_name_idx ON contact_groups (account_id, lower(name));

CREATE TABLE contact_group_members (
  group_id    uuid NOT NULL REFERENCES contact_groups (id) ON DELETE CASCADE,
  contact_id  uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, contact_id)
);
CREATE INDEX contact_group_members_contact_idx ON contact_group_members (contact_id);
`))
