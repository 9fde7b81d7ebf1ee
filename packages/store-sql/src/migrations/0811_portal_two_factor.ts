/**
 * 0811 — two-factor sign-in for the portal's users (issue 26), as the console's operators have it
 * (0730): a TOTP secret (the pending one until a code of it confirms the enrolment), the last step
 * used (no replay), one-time recovery codes stored as SHA-256, and the account's rule that every
 * user signs in with a second factor (`accounts.require_two_factor`, set by an owner).
 * Runs on PostgreSQL 15+ and PGlite.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE portal_users ADD COLUMN totp_secret text;
ALTER TABLE portal_users ADD COLUMN totp_pending_secret text;
ALTER TABLE portal_users ADD COLUMN totp_last_step bigint NOT NULL DEFAULT 0;
CREATE TABLE portal_recovery_codes (
  user_id    uuid NOT NULL REFERENCES portal_users (id) ON DELETE CASCADE,
  code_hash  text NOT NULL,
  used_at    timestamptz,
  PRIMARY KEY (user_id, code_hash)
);
ALTER TABLE accounts ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false;
`))
