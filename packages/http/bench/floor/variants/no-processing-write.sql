-- A variant of pipeline.sql for `SCRIPT=… pnpm bench:floor`: the claim writes the lease only, no
-- `processing` row version of the message. Otherwise as pipeline.sql:
-- the floor of PostgreSQL's work per message in this store (pnpm bench:floor): one pgbench transaction
-- script that takes a batch of 100 messages through the writes every accepted and delivered message
-- needs, in the real schema (its indexes and triggers), each step its own transaction as in the
-- pipeline: accept (messages, dispatch-queue rows, the wallet's debit and a ledger row each), claim
-- (lease, `processing`), submission result (`sent` with the carrier's reference, queue row removed),
-- receipt (`delivered`, found by the carrier's reference; a receipt row for the customer's bind) and
-- its acknowledgement. No idempotency keys, duplicate-content counters or webhooks: a lower bound of
-- what the service does, written without the server. Placeholders @ACCOUNT@ @MARKET@ @WALLET@
-- @PROVIDER@ are filled by floor.sh; floor_id(ms, batch, i) is a uuid v7 of the batch's millisecond.
\set b random(1, 2000000000)
SELECT floor(extract(epoch from clock_timestamp()) * 1000)::bigint AS ms \gset
BEGIN;
WITH m AS (INSERT INTO messages (id, account_id, market_id, country, recipient, sender_id, text, encoding, parts, units, channel, status, created_at, queued_at, updated_at)
  SELECT floor_id(:ms, :b, i), '@ACCOUNT@', '@MARKET@', 'TZ', '+2557110' || lpad(i::text, 5, '0'), 'BENCH', 'Hello from the floor bench, message ' || i, 'GSM-7', 1, 1, 'api', 'queued', now(), now(), now()
  FROM generate_series(1, 100) i RETURNING id, account_id),
 q AS (INSERT INTO dispatch_queue (message_id, account_id, available_at, created_at) SELECT id, account_id, now(), now() FROM m),
 w AS (UPDATE wallets SET balance = balance - 100, updated_at = now() WHERE id = '@WALLET@' RETURNING balance)
INSERT INTO wallet_ledger (wallet_id, account_id, kind, units, balance_after, message_id, created_at)
  SELECT '@WALLET@', m.account_id, 'debit', 1, w.balance, m.id, now() FROM m, w;
COMMIT;
BEGIN;
UPDATE dispatch_queue SET lease_owner = 'floor', lease_until = now() + interval '2 minutes', attempts = attempts + 1
  WHERE message_id IN (SELECT floor_id(:ms, :b, i) FROM generate_series(1, 100) i);
COMMIT;
BEGIN;
UPDATE messages SET status = 'sent', provider_id = '@PROVIDER@', provider_ref = :b || '-' || (id::text), sent_at = now(), updated_at = now()
  WHERE id IN (SELECT floor_id(:ms, :b, i) FROM generate_series(1, 100) i);
DELETE FROM dispatch_queue WHERE message_id IN (SELECT floor_id(:ms, :b, i) FROM generate_series(1, 100) i);
COMMIT;
BEGIN;
WITH d AS (UPDATE messages SET status = 'delivered', delivered_at = now(), updated_at = now()
  WHERE provider_id = '@PROVIDER@' AND status = 'sent' AND provider_ref = ANY(ARRAY(SELECT :b || '-' || floor_id(:ms, :b, i)::text FROM generate_series(1, 100) i)) RETURNING id)
INSERT INTO smpp_receipts (message_id, smpp_account_id, status, next_attempt_at, final_at, created_at) SELECT id, '@ACCOUNT@', 'delivered', now(), now(), now() FROM d;
COMMIT;
UPDATE smpp_receipts SET state = 'acknowledged', acknowledged_at = now() WHERE message_id IN (SELECT floor_id(:ms, :b, i) FROM generate_series(1, 100) i);
