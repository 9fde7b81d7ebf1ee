/**
 * 0980 — message counts that stay cheap at a year of traffic. The message list's `meta.total` and the
 * dashboard's seven days were `count(*)` over the account's messages: 5.3 s for a busy account's
 * 9.2 M rows. Counts now live in a rollup per (account, UTC hour, status, channel):
 *
 * - `message_count_deltas` is append-only: statement-level triggers on `messages` (INSERT, UPDATE,
 *   DELETE, with transition tables) add one row per changed group and statement — a batch of 500
 *   deliveries adds a handful of rows, and no two writers ever wait on the same row;
 * - `message_counts` holds the folded sums; `tuma_fold_message_counts()` moves the deltas into it
 *   (concurrent folds are safe: a delta row is deleted, and so added, once) and turns the hours
 *   older than ten UTC days into one row per day (the key's `hour` is then the day's midnight);
 *   the key includes `n`, so a count is an index-only scan;
 * - a count reads both tables, so it is exact whatever the fold's lag.
 *
 * Hours are UTC (`created_at AT TIME ZONE 'UTC'`, whatever the session's zone): the whole UTC days
 * of the list's `from`/`to` are unions of rows, and so are the dashboard's local days of a
 * whole-hour zone within the hourly ten days. The existing messages
 * are counted once here.
 *
 * The list filtered by a channel other than `api` (the portal's `web`, `smpp`) gets a partial index:
 * without it, a page of an account's few portal messages walked its whole history; the API's own
 * sends, nearly every row, pay nothing for it. Runs on PostgreSQL 15+ and PGlite.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE message_counts (
  account_id  uuid NOT NULL,
  hour        timestamp NOT NULL,
  status      text NOT NULL,
  channel     text NOT NULL,
  n           bigint NOT NULL,
  PRIMARY KEY (account_id, hour, status, channel) INCLUDE (n)
);
CREATE TABLE message_count_deltas (
  account_id  uuid NOT NULL,
  hour        timestamp NOT NULL,
  status      text NOT NULL,
  channel     text NOT NULL,
  n           bigint NOT NULL
);
CREATE INDEX message_count_deltas_account_idx ON message_count_deltas (account_id, hour);

CREATE FUNCTION tuma_message_count_deltas() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO message_count_deltas (account_id, hour, status, channel, n)
    SELECT account_id, date_trunc('hour', created_at AT TIME ZONE 'UTC'), status, channel, count(*)
    FROM counted_new GROUP BY 1, 2, 3, 4;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO message_count_deltas (account_id, hour, status, channel, n)
    SELECT account_id, date_trunc('hour', created_at AT TIME ZONE 'UTC'), status, channel, -count(*)
    FROM counted_old GROUP BY 1, 2, 3, 4;
  ELSE
    INSERT INTO message_count_deltas (account_id, hour, status, channel, n)
    SELECT account_id, hour, status, channel, sum(n) FROM (
      SELECT account_id, date_trunc('hour', created_at AT TIME ZONE 'UTC') AS hour, status, channel, 1 AS n
      FROM counted_new
      UNION ALL
      SELECT account_id, date_trunc('hour', created_at AT TIME ZONE 'UTC'), status, channel, -1 FROM counted_old
    ) moved GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_counted_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS counted_new FOR EACH STATEMENT EXECUTE FUNCTION tuma_message_count_deltas();
CREATE TRIGGER messages_counted_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS counted_old NEW TABLE AS counted_new
  FOR EACH STATEMENT EXECUTE FUNCTION tuma_message_count_deltas();
CREATE TRIGGER messages_counted_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS counted_old FOR EACH STATEMENT EXECUTE FUNCTION tuma_message_count_deltas();

CREATE FUNCTION tuma_fold_message_counts() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  -- hours older than this are kept as whole UTC days (the dashboard's week is always newer)
  cutoff timestamp := date_trunc('day', now() AT TIME ZONE 'UTC') - interval '10 days';
  taken_rows bigint;
BEGIN
  WITH taken AS (DELETE FROM message_count_deltas RETURNING account_id, hour, status, channel, n),
  summed AS (
    SELECT account_id, CASE WHEN hour < cutoff THEN date_trunc('day', hour) ELSE hour END AS hour,
      status, channel, sum(n) AS n
    FROM taken GROUP BY 1, 2, 3, 4
  ),
  folded AS (
    INSERT INTO message_counts AS c (account_id, hour, status, channel, n)
    SELECT account_id, hour, status, channel, n FROM summed WHERE n <> 0
    ORDER BY account_id, hour, status, channel
    ON CONFLICT (account_id, hour, status, channel) DO UPDATE SET n = c.n + EXCLUDED.n
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM taken) + 0 * (SELECT count(*) FROM folded) INTO taken_rows;
  -- hours past the cutoff become their day's row: a year of a busy account is ~2,000 rows, not ~50,000
  WITH aged AS (
    DELETE FROM message_counts WHERE hour < cutoff AND hour <> date_trunc('day', hour)
    RETURNING account_id, hour, status, channel, n
  )
  INSERT INTO message_counts AS c (account_id, hour, status, channel, n)
  SELECT account_id, date_trunc('day', hour), status, channel, sum(n) FROM aged GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (account_id, hour, status, channel) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN taken_rows;
END $$;

CREATE INDEX messages_account_channel_other_idx ON messages (account_id, channel, created_at DESC, id DESC)
  WHERE channel <> 'api';

INSERT INTO message_counts (account_id, hour, status, channel, n)
SELECT account_id, date_trunc('hour', created_at AT TIME ZONE 'UTC'), status, channel, count(*)
FROM messages GROUP BY 1, 2, 3, 4;
`))
