/**
 * 0400 — the customer portal (issue 14; portal range 0400–0499): account users, their sessions,
 * single-use e-mail tokens (invitations, password resets) and failed sign-ins (lockout).
 * Runs on PostgreSQL 15+ and PGlite.
 *
 * Secrets are stored hashed (SHA-256 of the session id and of e-mailed tokens; scrypt of
 * passwords): a copy of the database signs nobody in.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE portal_users (
  id               uuid PRIMARY KEY,
  account_id       uuid NOT NULL REFERENCES accounts (id),
  email            text NOT NULL,
  name             text NOT NULL DEFAULT '',
  password_hash    text NOT NULL,
  role             text NOT NULL CHECK (role IN ('owner', 'member')),
  locale           text NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'sw')),
  time_zone        text NOT NULL DEFAULT 'Africa/Dar_es_Salaam',
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  last_sign_in_at  timestamptz
);
CREATE UNIQUE INDEX portal_users_email_key ON portal_users (lower(email));
CREATE INDEX portal_users_account_idx ON portal_users (account_id);

CREATE TABLE portal_sessions (
  id_hash              text PRIMARY KEY,
  user_id              uuid NOT NULL REFERENCES portal_users (id) ON DELETE CASCADE,
  account_id           uuid NOT NULL REFERENCES accounts (id),
  csrf_token           text NOT NULL,
  created_at           timestamptz NOT NULL,
  last_seen_at         timestamptz NOT NULL,
  absolute_expires_at  timestamptz NOT NULL,
  ip                   text,
  user_agent           text
);
CREATE INDEX portal_sessions_user_idx ON portal_sessions (user_id);
CREATE INDEX portal_sessions_expiry_idx ON portal_sessions (absolute_expires_at);

CREATE TABLE portal_tokens (
  id           uuid PRIMARY KEY,
  kind         text NOT NULL CHECK (kind IN ('invitation', 'password_reset')),
  token_hash   text NOT NULL UNIQUE,
  account_id   uuid NOT NULL REFERENCES accounts (id),
  email        text NOT NULL,
  role         text CHECK (role IN ('owner', 'member')),
  user_id      uuid REFERENCES portal_users (id) ON DELETE CASCADE,
  invited_by   uuid REFERENCES portal_users (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX portal_tokens_account_idx ON portal_tokens (account_id, kind, created_at DESC);

CREATE TABLE portal_login_failures (
  key           text PRIMARY KEY,
  failures      integer NOT NULL,
  window_start  timestamptz NOT NULL,
  locked_until  timestamptz
);
`))
