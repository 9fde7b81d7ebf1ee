/**
 * 0001 — the core schema (store engineer's range 0001–0099).
 *
 * Runs on PostgreSQL 15+ and PGlite (Postgres 18): plain DDL, no extensions. Every timestamp is a
 * `timestamptz`; every id a `uuid` produced by the application's `Ids` service (uuid v7 for rows
 * that are listed newest first). Money-like quantities (SMS units) are `integer`.
 *
 * A documented exception to the 150-line function limit: the body is one block of DDL text (the
 * schema as it was first shipped; migrations are never edited, later ones change it).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE markets (
  id            uuid PRIMARY KEY,
  iso2          text NOT NULL UNIQUE CHECK (iso2 ~ '^[A-Z]{2}$'),
  calling_code  text NOT NULL CHECK (calling_code ~ '^[0-9]{1,4}$'),
  name          text NOT NULL,
  open          boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE accounts (
  id                 uuid PRIMARY KEY,
  name               text NOT NULL,
  email              text NOT NULL,
  phone              text,
  phone_verified_at  timestamptz,
  country_id         uuid REFERENCES markets (id),
  active             boolean NOT NULL DEFAULT true,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);
CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));

CREATE TABLE api_keys (
  id            uuid PRIMARY KEY,
  account_id    uuid NOT NULL REFERENCES accounts (id),
  name          text NOT NULL DEFAULT '',
  key_hash      text NOT NULL,
  prefix        text NOT NULL,
  mode          text NOT NULL CHECK (mode IN ('live', 'test')),
  scopes        text[] NOT NULL DEFAULT '{}',
  allowed_ips   text[] NOT NULL DEFAULT '{}',
  expires_at    timestamptz,
  revoked_at    timestamptz,
  last_used_at  timestamptz,
  created_at    timestamptz NOT NULL
);
CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash);
CREATE INDEX api_keys_account_idx ON api_keys (account_id);

CREATE TABLE verified_routes (
  id           uuid PRIMARY KEY,
  account_id   uuid NOT NULL REFERENCES accounts (id),
  market_id    uuid NOT NULL REFERENCES markets (id),
  phone        text NOT NULL,
  verified_at  timestamptz NOT NULL,
  UNIQUE (account_id, market_id)
);

CREATE TABLE wallets (
  id          uuid PRIMARY KEY,
  account_id  uuid NOT NULL REFERENCES accounts (id),
  market_id   uuid NOT NULL REFERENCES markets (id),
  balance     integer NOT NULL DEFAULT 0 CHECK (balance >= 0),
  enabled     boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  UNIQUE (account_id, market_id)
);

-- Every change of a wallet balance is one row here, written in the same transaction as the
-- balance change: sum(units) per wallet = wallets.balance. kind 'purchase' rows feed
-- purchased_units (spec §2.7).
CREATE TABLE wallet_ledger (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  wallet_id      uuid NOT NULL REFERENCES wallets (id),
  account_id     uuid NOT NULL REFERENCES accounts (id),
  kind           text NOT NULL CHECK (kind IN ('purchase', 'debit', 'refund', 'adjustment')),
  units          integer NOT NULL,
  balance_after  integer NOT NULL CHECK (balance_after >= 0),
  amount         numeric(14, 2),
  currency       text,
  message_id     uuid,
  campaign_id    uuid,
  reference      text,
  created_at     timestamptz NOT NULL
);
CREATE INDEX wallet_ledger_wallet_idx ON wallet_ledger (wallet_id);
CREATE INDEX wallet_ledger_account_kind_idx ON wallet_ledger (account_id, kind);

-- A sender ID record (spec §2.6) is both the request and the grant: it is created 'pending' by a
-- request or 'approved' by an operator, and moves per decisions §18.
CREATE TABLE sender_ids (
  id                    uuid PRIMARY KEY,
  account_id            uuid NOT NULL REFERENCES accounts (id),
  market_id             uuid NOT NULL REFERENCES markets (id),
  name                  text NOT NULL CHECK (name = upper(name)),
  display_name          text NOT NULL,
  status                text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'suspended')),
  is_default            boolean NOT NULL DEFAULT false,
  is_global             boolean NOT NULL DEFAULT false,
  sample_message        text NOT NULL DEFAULT '',
  purpose               text,
  protection_requested  boolean NOT NULL DEFAULT false,
  rejection_reason      text,
  requested_at          timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  UNIQUE (account_id, market_id, name)
);
CREATE INDEX sender_ids_name_idx ON sender_ids (name, market_id);

-- Documents an operator requires with a sender-ID request (spec §2.7 documents).
CREATE TABLE sender_id_requirements (
  id                uuid PRIMARY KEY,
  market_id         uuid REFERENCES markets (id),
  name              text NOT NULL,
  is_required       boolean NOT NULL DEFAULT false,
  accepted_formats  text[] NOT NULL DEFAULT '{pdf,jpg,jpeg,png}',
  max_size_kb       integer NOT NULL DEFAULT 5120,
  active            boolean NOT NULL DEFAULT true,
  created_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sender_id_documents (
  id              uuid PRIMARY KEY,
  sender_id_id    uuid NOT NULL REFERENCES sender_ids (id) ON DELETE CASCADE,
  requirement_id  uuid REFERENCES sender_id_requirements (id),
  kind            text NOT NULL CHECK (kind IN ('requirement', 'protection')),
  filename        text NOT NULL,
  content_type    text NOT NULL,
  size_bytes      integer NOT NULL,
  content         bytea NOT NULL,
  created_at      timestamptz NOT NULL
);
CREATE INDEX sender_id_documents_sender_idx ON sender_id_documents (sender_id_id);

CREATE TABLE providers (
  id          uuid PRIMARY KEY,
  name        text NOT NULL UNIQUE,
  kind        text NOT NULL,
  config      jsonb NOT NULL DEFAULT '{}',
  enabled     boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL
);

-- What a provider still lets us send to a country, in SMS units.
CREATE TABLE provider_credits (
  provider_id  uuid NOT NULL REFERENCES providers (id),
  market_id    uuid NOT NULL REFERENCES markets (id),
  balance      integer NOT NULL DEFAULT 0 CHECK (balance >= 0),
  updated_at   timestamptz NOT NULL,
  PRIMARY KEY (provider_id, market_id)
);

-- Routes to a country, tried in ascending priority.
CREATE TABLE provider_routes (
  id           uuid PRIMARY KEY,
  market_id    uuid NOT NULL REFERENCES markets (id),
  provider_id  uuid NOT NULL REFERENCES providers (id),
  priority     integer NOT NULL DEFAULT 0,
  enabled      boolean NOT NULL DEFAULT true,
  created_at   timestamptz NOT NULL,
  UNIQUE (market_id, provider_id)
);
CREATE INDEX provider_routes_market_idx ON provider_routes (market_id, priority);

CREATE TABLE campaigns (
  id               uuid PRIMARY KEY,
  account_id       uuid NOT NULL REFERENCES accounts (id),
  api_key_id       uuid REFERENCES api_keys (id),
  api_version      text NOT NULL CHECK (api_version IN ('v1', 'v2')),
  name             text NOT NULL,
  sender_id        text NOT NULL,
  status           text NOT NULL,
  recipient_count  integer NOT NULL,
  queued_count     integer NOT NULL,
  failed_count     integer NOT NULL,
  units            integer NOT NULL,
  failures         jsonb NOT NULL DEFAULT '[]',
  scheduled_at     timestamptz,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
CREATE INDEX campaigns_account_idx ON campaigns (account_id, created_at DESC);

-- One row per recipient per send (spec §2.2). Columns named as the API fields where they exist.
CREATE TABLE messages (
  id                   uuid PRIMARY KEY,
  account_id           uuid NOT NULL REFERENCES accounts (id),
  api_key_id           uuid REFERENCES api_keys (id),
  campaign_id          uuid REFERENCES campaigns (id),
  market_id            uuid NOT NULL REFERENCES markets (id),
  country              text NOT NULL,
  recipient            text NOT NULL,
  sender_id            text NOT NULL,
  text                 text NOT NULL,
  encoding             text NOT NULL CHECK (encoding IN ('GSM-7', 'Unicode')),
  parts                integer NOT NULL CHECK (parts >= 1),
  units                integer NOT NULL CHECK (units >= 0),
  channel              text NOT NULL CHECK (channel IN ('api', 'web')),
  status               text NOT NULL
                         CHECK (status IN ('scheduled', 'queued', 'processing', 'sent', 'delivered', 'failed')),
  idempotency_key      text,
  provider_id          uuid REFERENCES providers (id),
  provider_message_id  text,
  created_at           timestamptz NOT NULL,
  scheduled_at         timestamptz,
  queued_at            timestamptz,
  sent_at              timestamptz,
  delivered_at         timestamptz,
  failed_at            timestamptz,
  failure_reason       text,
  failure_context      jsonb,
  dr_checked_at        timestamptz,
  dr_status            text,
  dr_delivery_status   text,
  updated_at           timestamptz NOT NULL
);
-- list by account newest first, optionally filtered by status or channel
CREATE INDEX messages_account_created_idx ON messages (account_id, created_at DESC, id DESC);
CREATE INDEX messages_account_status_created_idx ON messages (account_id, status, created_at DESC, id DESC);
CREATE INDEX messages_account_channel_created_idx ON messages (account_id, channel, created_at DESC, id DESC);
-- scheduled messages that become due
CREATE INDEX messages_due_scheduled_idx ON messages (scheduled_at) WHERE status = 'scheduled';
CREATE INDEX messages_campaign_idx ON messages (campaign_id) WHERE campaign_id IS NOT NULL;
CREATE INDEX messages_provider_ref_idx ON messages (provider_id, provider_message_id)
  WHERE provider_message_id IS NOT NULL;

-- The durable hand-off to delivery: one row per message ready to be sent, written in the
-- acceptance transaction. Workers claim with FOR UPDATE SKIP LOCKED and lease the row.
CREATE TABLE dispatch_queue (
  message_id    uuid PRIMARY KEY REFERENCES messages (id),
  account_id    uuid NOT NULL,
  available_at  timestamptz NOT NULL,
  attempts      integer NOT NULL DEFAULT 0,
  lease_owner   text,
  lease_until   timestamptz,
  last_error    text,
  created_at    timestamptz NOT NULL
);
CREATE INDEX dispatch_queue_claim_idx ON dispatch_queue (available_at);

-- decisions §24: one record per (account, Idempotency-Key) for 24 hours. response is NULL while
-- the first request's transaction is still open (it never commits NULL).
CREATE TABLE idempotency_records (
  account_id   uuid NOT NULL REFERENCES accounts (id),
  key          text NOT NULL,
  endpoint     text NOT NULL,
  fingerprint  text NOT NULL,
  response     jsonb,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_records_expires_idx ON idempotency_records (expires_at);

CREATE TABLE opt_outs (
  account_id  uuid NOT NULL REFERENCES accounts (id),
  recipient   text NOT NULL,
  reason      text,
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (account_id, recipient)
);

-- Spam rules: account_id NULL = applies to every account.
CREATE TABLE spam_rules (
  id           uuid PRIMARY KEY,
  account_id   uuid REFERENCES accounts (id),
  kind         text NOT NULL,
  pattern      text NOT NULL,
  description  text NOT NULL DEFAULT '',
  enabled      boolean NOT NULL DEFAULT true,
  created_at   timestamptz NOT NULL
);

CREATE TABLE webhook_endpoints (
  id                    uuid PRIMARY KEY,
  account_id            uuid NOT NULL REFERENCES accounts (id),
  api_key_id            uuid NOT NULL REFERENCES api_keys (id),
  url                   text NOT NULL,
  secret                text NOT NULL,
  enabled               boolean NOT NULL DEFAULT true,
  consecutive_failures  integer NOT NULL DEFAULT 0,
  disabled_at           timestamptz,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_api_key_idx ON webhook_endpoints (api_key_id);
`))
