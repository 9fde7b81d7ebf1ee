-- An experiment for `PRE_SQL=…/narrow-states.sql SCRIPT=…/narrow-states.pipeline.sql pnpm bench:floor`:
-- what happens to a message lives in a narrow `message_states` row that also takes the dispatch
-- queue's place (status, lease, carrier reference, timestamps); `messages` keeps what the message is
-- and no index of it names a column that changes. The states table keeps the indexes the reads and
-- the pipeline need: the list by status, the claim of queued rows, the receipt's look-up by reference.
DROP INDEX messages_account_status_created_idx;
DROP INDEX messages_provider_ref_open_idx;
DROP INDEX messages_due_scheduled_idx;
CREATE TABLE message_states (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  status text NOT NULL,
  available_at timestamptz,
  lease_owner text,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  provider_id uuid,
  provider_ref text,
  sent_at timestamptz,
  delivered_at timestamptz,
  failed_at timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE INDEX message_states_list_idx ON message_states (account_id, status, created_at DESC, id DESC);
CREATE INDEX message_states_claim_idx ON message_states (available_at) WHERE status IN ('queued', 'processing');
CREATE INDEX message_states_ref_idx ON message_states (provider_id, provider_ref) WHERE status = 'sent';
