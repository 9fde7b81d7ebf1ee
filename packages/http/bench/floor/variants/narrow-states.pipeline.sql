-- pipeline.sql's batch of 100 messages in the narrow-states layout (narrow-states.sql): the message row
-- is written once; its state row is inserted with it (queued), then leased (`processing`), sent with the
-- carrier's reference and delivered, found by that reference. Same placeholders as pipeline.sql.
\set b random(1, 2000000000)
SELECT floor(extract(epoch from clock_timestamp()) * 1000)::bigint AS ms \gset
BEGIN;
WITH m AS (INSERT INTO messages (id, account_id, market_id, country, recipient, sender_id, text, encoding, parts, units, channel, status, created_at, queued_at, updated_at)
  SELECT floor_id(:ms, :b, i), '@ACCOUNT@', '@MARKET@', 'TZ', '+2557110' || lpad(i::text, 5, '0'), 'BENCH', 'Hello from the floor bench, message ' || i, 'GSM-7', 1, 1, 'api', 'queued', now(), now(), now()
  FROM generate_series(1, 100) i RETURNING id, account_id, created_at),
 s AS (INSERT INTO message_states (id, account_id, created_at, status, available_at, updated_at) SELECT id, account_id, created_at, 'queued', now(), now() FROM m),
 w AS (UPDATE wallets SET balance = balance - 100, updated_at = now() WHERE id = '@WALLET@' RETURNING balance)
INSERT INTO wallet_ledger (wallet_id, account_id, kind, units, balance_after, message_id, created_at)
  SELECT '@WALLET@', m.account_id, 'debit', 1, w.balance, m.id, now() FROM m, w;
COMMIT;
BEGIN;
UPDATE message_states SET status = 'processing', lease_owner = 'floor', lease_until = now() + interval '2 minutes',
  available_at = now() + interval '2 minutes', attempts = attempts + 1, updated_at = now()
  WHERE id IN (SELECT floor_id(:ms, :b, i) FROM generate_series(1, 100) i);
COMMIT;
BEGIN;
UPDATE message_states SET status = 'sent', provider_id = '@PROVIDER@', provider_ref = :b || '-' || (id::text), sent_at = now(),
  available_at = NULL, lease_owner = NULL, lease_until = NULL, updated_at = now()
  WHERE id IN (SELECT floor_id(:ms, :b, i) FROM generate_series(1, 100) i);
COMMIT;
BEGIN;
WITH d AS (UPDATE message_states SET status = 'delivered', delivered_at = now(), updated_at = now()
  WHERE provider_id = '@PROVIDER@' AND status = 'sent' AND provider_ref = ANY(ARRAY(SELECT :b || '-' || floor_id(:ms, :b, i)::text FROM generate_series(1, 100) i)) RETURNING id)
INSERT INTO smpp_receipts (message_id, smpp_account_id, status, next_attempt_at, final_at, created_at) SELECT id, '@ACCOUNT@', 'delivered', now(), now(), now() FROM d;
COMMIT;
UPDATE smpp_receipts SET state = 'acknowledged', acknowledged_at = now() WHERE message_id IN (SELECT floor_id(:ms, :b, i) FROM generate_series(1, 100) i);
