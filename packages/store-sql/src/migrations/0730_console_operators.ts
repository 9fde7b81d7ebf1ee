/**
 * 0730 — the operator console (issue 15; numbered above every earlier migration): operator users (separate from
 * the portal's customers), their sessions, e-mailed invitations, one-time recovery codes and
 * failed sign-ins. Runs on PostgreSQL 15+ and PGlite.
 *
 * Secrets are stored hashed (SHA-256 of session ids, invitation tokens and recovery codes; scrypt
 * of passwords) except `totp_secret`, which the server needs to compute codes.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE operator_users (
  id                   uuid PRIMARY KEY,
  email                text NOT NULL,
  name                 text NOT NULL DEFAULT '',
  role                 text NOT NULL CHECK (role IN ('admin', 'reviewer', 'support')),
  password_hash        text,
  totp_secret          text,
  totp_pending_secret  text,
  totp_last_step       bigint NOT NULL DEFAULT 0,
  disabled_at          timestamptz,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  last_sign_in_at      timestamptz
);
CREATE UNIQUE INDEX operator_users_email_key ON operator_users (lower(email));

CREATE TABLE operator_recovery_codes (
  operator_id  uuid NOT NULL REFERENCES operator_users (id) ON DELETE CASCADE,
  code_hash    text NOT NULL,
  used_at      timestamptz,
  PRIMARY KEY (operator_id, code_hash)
);

CREATE TABLE operator_sessions (
  id_hash              text PRIMARY KEY,
  operator_id          uuid NOT NULL REFERENCES operator_users (id) ON DELETE CASCADE,
  csrf_token           text NOT NULL,
  created_at           timestamptz NOT NULL,
  last_seen_at         timestamptz NOT NULL,
  absolute_expires_at  timestamptz NOT NULL,
  ip                   text,
  user_agent           text
);
CREATE INDEX operator_sessions_operator_idx ON operator_sessions (operator_id);

CREATE TABLE operator_invitations (
  id           uuid PRIMARY KEY,
  token_hash   text NOT NULL UNIQUE,
  operator_id  uuid NOT NULL REFERENCES operator_users (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz
);

CREATE TABLE operator_login_failures (
  key           text PRIMARY KEY,
  failures      integer NOT NULL,
  window_start  timestamptz NOT NULL,
  locked_until  timestamptz
);
`))
