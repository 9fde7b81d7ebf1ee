#!/usr/bin/env bash
# pnpm bench:year — a year of traffic (issue 27): a generated store of MESSAGES (default 20,000,000)
# messages over MONTHS (default 12) months in PostgreSQL, then reads and acceptance measured on it and,
# in the same run, on an empty store (a fresh `serve --demo`).
#
# Generation (only when the database YEAR_DB is missing, or REGEN=1; it is kept between runs):
#   `tuma serve --demo` creates the schema and the demo account (the busy one: 60 % of the messages)
#   and 19 more accounts are made through the admin API; the secondary indexes of `messages` are
#   dropped and its triggers disabled, one partition per month created, campaigns (1 in 4 messages, 1,000 recipients each) and
#   messages are loaded with COPY from year-gen.mjs, then the indexes are built again, the triggers
#   enabled, the count rollup counted once and the tables analysed. The demo logins are kept in STATE (default .tuma/bench-year.env).
# Measurement (year-measure.mjs, against `node packages/http/dist/bin.js serve`: run `pnpm build`):
#   the message list's first page with each filter, read one, a campaign's detail and the dashboard
#   (portal), p50/p99 of REQS sequential requests; single sends (autocannon, 32 connections) and
#   v2 bulk sends of 100 — each on the empty store and on the year store, one after the other.
#   GENERATE_ONLY=1 stops after the generation.
# Needs both cores and tens of GB of disk: run nothing beside it.
set -uo pipefail
cd "$(dirname "$0")/../../.."
PG=${PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
YEAR_DB=${YEAR_DB:-tuma_year}; MESSAGES=${MESSAGES:-20000000}; MONTHS=${MONTHS:-12}
STATE=${STATE:-.tuma/bench-year.env}
ADMIN=year-admin
here=packages/http/bench
mkdir -p "$(dirname "$STATE")"
q() { psql "${PG%/*}/$1" -Atqc "$2"; }
free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# serve DB [--demo] → sets srv_pid, srv_url, srv_log
serve() {
  local db=$1; shift
  local port; port=$(free_port)
  srv_log=$(mktemp)
  DATABASE_URL="${PG%/*}/$db" TUMA_ADMIN_TOKEN=$ADMIN TUMA_RATE_LIMIT_PER_MINUTE=1000000000 NODE_ENV=production \
    TUMA_DATA_DIR="$(mktemp -d)" setsid node packages/http/dist/bin.js serve --port "$port" "$@" >"$srv_log" 2>&1 &
  srv_pid=$!
  for _ in $(seq 1 600); do grep -q "listening on" "$srv_log" && break; sleep 0.2; done
  grep -q "listening on" "$srv_log" || { tail -20 "$srv_log"; echo "bench:year: the server did not start"; exit 1; }
  srv_url="http://127.0.0.1:$port"
}
stop() { kill -- -"$srv_pid" 2>/dev/null; sleep 1; kill -9 -- -"$srv_pid" 2>/dev/null; rm -f "$srv_log"; }
admin() { curl -s -X POST "$srv_url/admin/v1$1" -H "authorization: Bearer $ADMIN" -H "content-type: application/json" -d "$2"; }

# demo DB → a fresh demo store with unlimited credit; writes its logins to the file $2
seed_demo() {
  serve "$1" --demo
  local key email password acct
  key=$(sed -n 's/^demo live key: //p' "$srv_log")
  read -r email password < <(sed -n 's/^demo portal login: //p' "$srv_log")
  acct=$(curl -s "$srv_url/admin/v1/accounts" -H "authorization: Bearer $ADMIN" |
    node -pe 'JSON.parse(require("fs").readFileSync(0)).data.find((a) => a.name === "Demo Company").uid')
  admin /purchases "{\"account_uid\":\"$acct\",\"country\":\"TZ\",\"units\":500000000}" >/dev/null
  admin /providers '{"name":"year-sim","kind":"simulated","credits":[{"country":"TZ","credit":500000000}]}' >/dev/null
  printf 'KEY=%s\nEMAIL=%s\nPASSWORD=%s\nACCOUNT=%s\n' "$key" "$email" "$password" "$acct" >"$2"
}

generate() {
  echo "bench:year: generating $MESSAGES messages over $MONTHS months in $YEAR_DB"
  psql "$PG" -qc "drop database if exists $YEAR_DB with (force)" -c "create database $YEAR_DB" >/dev/null || exit 1
  seed_demo "$YEAR_DB" "$STATE"
  # shellcheck disable=SC1090
  . "$STATE"
  local accounts="[{\"id\":\"$ACCOUNT\",\"share\":0.6}"
  for i in $(seq 1 19); do
    local uid
    uid=$(admin /accounts "{\"name\":\"Shop $i\",\"email\":\"shop$i@example.com\",\"phone\":\"+2557000001$(printf %02d "$i")\",\"country\":\"TZ\",\"phone_verified\":true}" |
      node -pe 'JSON.parse(require("fs").readFileSync(0)).data.uid')
    accounts+=",{\"id\":\"$uid\",\"share\":$(node -pe '0.4/19')}"
  done
  accounts+="]"
  stop
  local market; market=$(q "$YEAR_DB" "select id from markets where iso2 = 'TZ'")
  local t0=$SECONDS
  # a partitioned table's index reads `ON ONLY messages` (the parent alone): built again, it must reach every partition
  q "$YEAR_DB" "select replace(indexdef, ' ON ONLY ', ' ON ') from pg_indexes where tablename = 'messages' and indexname <> 'messages_pkey'" >"$STATE.indexes"
  while read -r def; do
    q "$YEAR_DB" "drop index $(sed -E 's/^CREATE (UNIQUE )?INDEX ([a-z_0-9]+) .*/\2/' <<<"$def")"
  done <"$STATE.indexes"
  # one partition per calendar month the messages span (the server made this month's and the next ones)
  q "$YEAR_DB" "select count(*) filter (where tuma_message_partition_create(d::date)) from generate_series(
    date_trunc('month', now() - interval '$((MONTHS * 31 + 31)) days'), now(), interval '1 month') d" >/dev/null
  q "$YEAR_DB" "alter table messages disable trigger user; alter table campaigns disable trigger user"
  node "$here/year-gen.mjs" campaigns "$MESSAGES" "$MONTHS" "$accounts" "$market" 1 |
    psql "${PG%/*}/$YEAR_DB" -qc "\copy campaigns (id, account_id, api_version, name, sender_id, status, recipient_count, queued_count, failed_count, units, failures, created_at, updated_at) from stdin with (format csv)" || exit 1
  node "$here/year-gen.mjs" messages "$MESSAGES" "$MONTHS" "$accounts" "$market" 1 |
    psql "${PG%/*}/$YEAR_DB" -qc "\copy messages (id, account_id, campaign_id, market_id, country, recipient, sender_id, text, encoding, parts, units, channel, status, created_at, queued_at, sent_at, delivered_at, failed_at, failure_reason, updated_at) from stdin with (format csv)" || exit 1
  echo "bench:year: loaded in $((SECONDS - t0)) s; building indexes"
  while read -r def; do
    psql "${PG%/*}/$YEAR_DB" -qc "set maintenance_work_mem = '1GB'" -c "$def" || exit 1
  done <"$STATE.indexes"
  q "$YEAR_DB" "alter table messages enable trigger user; alter table campaigns enable trigger user"
  # the count rollup the disabled triggers did not keep, counted once (as migration 0980 does)
  q "$YEAR_DB" "truncate message_counts, message_count_deltas; insert into message_counts (account_id, hour, status, channel, n)
    select account_id, date_trunc('hour', created_at at time zone 'UTC'), status, channel, count(*) from messages group by 1, 2, 3, 4"
  psql "${PG%/*}/$YEAR_DB" -qc "vacuum analyze messages" -c "vacuum analyze campaigns" -c "vacuum analyze message_counts"
  echo "bench:year: generated in $((SECONDS - t0)) s ($(q "$YEAR_DB" "select pg_size_pretty(pg_database_size('$YEAR_DB'))"))"
}

# measure DB STATEFILE LABEL
measure() {
  # shellcheck disable=SC1090
  . "$2"
  serve "$1"
  local uids; uids=$(mktemp)
  q "$1" "select json_build_object(
    'messages', (select coalesce(json_agg(id), '[]') from (select id from messages where account_id = '$ACCOUNT' order by random() limit 200) s),
    'campaigns', (select coalesce(json_agg(id), '[]') from (select id from campaigns where account_id = '$ACCOUNT' order by random() limit 50) c))" >"$uids"
  local line
  line=$(node "$here/year-measure.mjs" "$srv_url" "$KEY" "$EMAIL" "$PASSWORD" "$uids" | grep '^YEARJSON' | sed 's/^YEARJSON //')
  rm -f "$uids"
  stop
  echo "$3 $line"
}

[ -f packages/http/dist/bin.js ] || { echo "bench:year: run pnpm build first"; exit 1; }
if [ "${REGEN:-0}" = 1 ] || [ -z "$(psql "$PG" -Atqc "select 1 from pg_database where datname = '$YEAR_DB'")" ] || [ ! -f "$STATE" ]; then
  generate
fi
[ "${GENERATE_ONLY:-0}" = 1 ] && exit 0
empty_db="tuma_year_empty_$$"
psql "$PG" -qc "create database $empty_db" >/dev/null || exit 1
trap 'psql "$PG" -qc "drop database if exists $empty_db with (force)" >/dev/null 2>&1' EXIT
empty_state=$(mktemp)
seed_demo "$empty_db" "$empty_state"
# a few hundred messages so that every read has something to read
. "$empty_state"
for i in $(seq 1 3); do
  curl -s -X POST "$srv_url/v2/sms/send-bulk" -H "authorization: Bearer $KEY" -H 'content-type: application/json' \
    -d "{\"sender_id\":\"TUMA\",\"message\":\"Habari\",\"recipients\":[$(seq -s, -f '"+2557100%05g"' $((i * 100)) $((i * 100 + 99)))]}" >/dev/null
done
stop
echo "messages in the year store: $(q "$YEAR_DB" "select count(*) from messages") ($(q "$YEAR_DB" "select pg_size_pretty(pg_database_size('$YEAR_DB'))")), months: $(q "$YEAR_DB" "select count(distinct date_trunc('month', created_at)) from messages"), partitions holding messages: $(q "$YEAR_DB" "select count(distinct tableoid) from messages")"
empty=$(measure "$empty_db" "$empty_state" empty)
year=$(measure "$YEAR_DB" "$STATE" year)
rm -f "$empty_state"
node -e '
const [e, y] = process.argv.slice(1).map((l) => JSON.parse(l.slice(l.indexOf(" ") + 1)))
console.log("figure".padEnd(34), "empty p50/p99 ms".padStart(18), "year p50/p99 ms".padStart(18), "p99 ratio".padStart(10))
for (const k of Object.keys(y)) {
  if (k === "accept single") continue
  console.log(k.padEnd(34), `${e[k]?.p50}/${e[k]?.p99}`.padStart(18), `${y[k].p50}/${y[k].p99}`.padStart(18), (y[k].p99 / e[k]?.p99).toFixed(2).padStart(10))
}
const a = e["accept single"], b = y["accept single"]
console.log("accept single (sends/s, p99 ms)".padEnd(34), `${a.rps} ${a.p99}`.padStart(18), `${b.rps} ${b.p99}`.padStart(18), (b.rps / a.rps).toFixed(2).padStart(10))
' "$empty" "$year"
