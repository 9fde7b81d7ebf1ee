#!/usr/bin/env bash
# pnpm bench:split — where a single send's CPU goes, process by process (issue 12): one `tuma serve` on
# a scratch PostgreSQL database, delivery workers on, an account seeded through the admin API, then
# wrk (-t2, CONNS connections, DUR seconds after a 3 s warm-up) on the no-op GET /healthz and on single
# sends. Prints requests/s, the send/no-op ratio, p99 and the server's CPU per no-op request (workers off: with them
# on, the warm-up's deliveries fall in the no-op's window), and per accepted message: the server's CPU
# and PostgreSQL's (every `postgres` process, from /proc), the rows written (pg_stat_user_tables) and
# the transactions committed, the WAL written (pg_current_wal_lsn() before the load and after the 5 s
# drain: the whole server's WAL, so other databases' writes count too; and the records that touch this
# database's relations, from pg_waldump, when the server's pg_wal is readable here), and the
# `messages` partitions' inserts and updates with the share of HOT updates (pg_stat_user_tables);
# RSS idle, at the end of the load and 5 s after it (idle compaction).
# Needs wrk and the peers' wrk scripts (PEERS, default ../shared/peers) and both cores: run nothing
# beside it; compare runs only within one session, alternated (the host's speed drifts).
#   SERVE   the server command (default `node packages/http/dist/bin.js serve`: run `pnpm build` first)
#   PRE_SQL a SQL file applied to the fresh database before seeding (A/B of a schema change)
#   PG_URL  an admin URL of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
# Other TUMA_* variables reach the server (TUMA_WORKERS=0 measures acceptance alone).
set -uo pipefail
cd "$(dirname "$0")/../../.."
peers=$(cd "${PEERS:-../shared/peers}" 2>/dev/null && pwd) || { echo "bench:split: no peers (set PEERS)"; exit 1; }
command -v wrk >/dev/null || { echo "bench:split: needs wrk (apt-get install -y wrk)"; exit 1; }
CONNS=${CONNS:-32}; DUR=${DUR:-10}
PG=${PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
db="tuma_split_$$"; dburl="${PG%/*}/$db"
psql "$PG" -qc "create database $db" >/dev/null || { echo "bench:split: cannot create a scratch database"; exit 1; }
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
log=$(mktemp)
DATABASE_URL="$dburl" TUMA_ADMIN_TOKEN=split-admin TUMA_RATE_LIMIT_PER_MINUTE=1000000000 NODE_ENV=production \
  setsid ${SERVE:-node packages/http/dist/bin.js serve} --port "$port" >"$log" 2>&1 &
pid=$!
cleanup() { kill -- -"$pid" 2>/dev/null; sleep 1; kill -9 -- -"$pid" 2>/dev/null; psql "$PG" -qc "drop database if exists $db with (force)" >/dev/null 2>&1; rm -f "$log"; }
trap cleanup EXIT
for _ in $(seq 1 300); do grep -q "listening on" "$log" && break; sleep 0.2; done
grep -q "listening on" "$log" || { tail -20 "$log"; echo "bench:split: the server did not start"; exit 1; }
[ -n "${PRE_SQL:-}" ] && { psql "$dburl" -q -v ON_ERROR_STOP=1 -f "$PRE_SQL" || exit 1; }
base="http://127.0.0.1:$port"
admin() { curl -s -X POST "$base/admin/v1$1" -H "authorization: Bearer split-admin" -H "content-type: application/json" -d "$2"; }
acct=$(admin /accounts '{"name":"Split","email":"split@example.com","phone":"+255700000009","country":"TZ","phone_verified":true}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.uid')
admin /purchases "{\"account_uid\":\"$acct\",\"country\":\"TZ\",\"units\":50000000}" >/dev/null
admin /routes "{\"account_uid\":\"$acct\",\"country\":\"TZ\",\"phone\":\"+255700000009\"}" >/dev/null
admin /sender-ids "{\"account_uid\":\"$acct\",\"sender_id\":\"BENCH\",\"country\":\"TZ\"}" >/dev/null
admin /providers '{"name":"split-sim","kind":"simulated","credits":[{"country":"TZ","credit":50000000}]}' >/dev/null
key=$(admin /api-keys "{\"account_uid\":\"$acct\",\"mode\":\"live\"}" | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.key')
[[ "$key" == tuma_live_* ]] || { echo "bench:split: could not seed an account through the admin API"; exit 1; }
export TUMA_KEY="$key" TUMA_SENDER=BENCH
# the server is the newest process of the group whose command line names the port (tsx adds a wrapper)
spid=$(pgrep -n -f "serve --port $port")
sleep 5
rss() { echo $(( $(awk '/VmRSS/ {print $2}' /proc/"$spid"/status) / 1024 )); }
idle=$(rss)
wrk -t2 -c"$CONNS" -d3s -s "$peers/tuma-send.lua" "$base" >/dev/null 2>&1
report() { grep WRKJSON | sed 's/^WRKJSON //'; }
ticks() { awk '{print $14+$15}' /proc/"$1"/stat 2>/dev/null || echo 0; }
n0=$(ticks "$spid")
noop=$(wrk -t2 -c"$CONNS" -d"${DUR}s" --timeout 10s -s "$peers/kannel/wrk-report.lua" "$base/healthz" | report)
n1=$(ticks "$spid")
pgticks() { local t=0; for p in $(pgrep -x postgres); do t=$((t + $(ticks "$p"))); done; echo $t; }
stats() {
  psql "$dburl" -Atc "select (select count(*) from messages), coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0),
    (select xact_commit from pg_stat_database where datname = current_database()), pg_current_wal_lsn() - '0/0'::pg_lsn,
    (select coalesce(sum(n_tup_ins), 0) || '|' || coalesce(sum(n_tup_upd), 0) || '|' || coalesce(sum(n_tup_hot_upd), 0)
       from pg_stat_user_tables where relid in (select inhrelid from pg_inherits where inhparent = 'messages'::regclass)
         or relname = 'messages')
    from pg_stat_user_tables"
}
lsn() { psql "$dburl" -Atc "select pg_current_wal_lsn()"; }
# this database's share of the WAL: the records that touch one of its relations (pg_waldump reads the
# server's pg_wal; needs the same machine and the rights to read it, else "n/a")
walpath=$(psql "$dburl" -Atc "select current_setting('data_directory') || '/pg_wal'" 2>/dev/null)
dboid=$(psql "$dburl" -Atc "select oid from pg_database where datname = current_database()")
waldump=$(command -v pg_waldump || ls /usr/lib/postgresql/*/bin/pg_waldump 2>/dev/null | tail -1)
# the range's records, dumped once; dbwal and walby read the dump
walrecords=$(mktemp)
dumpwal() { [ -n "$waldump" ] && [ -r "$walpath" ] && "$waldump" -p "$walpath" -s "$1" -e "$2" >"$walrecords" 2>/dev/null; }
dbwal() {
  [ -s "$walrecords" ] || { echo n/a; return; }
  awk -v db="/$dboid/" 'index($0, db) { split($0, a, "len \\(rec/tot\\): *"); split(a[2], b, "/"); n += b[2] + 0 } END { print (n > 0 ? n : "n/a") }' "$walrecords"
}
# the same records by relation (heap or index, partitions by name) and the commits: where the bytes go
walby() {
  [ -s "$walrecords" ] || return
  names=$(mktemp)
  psql "$dburl" -AtF' ' -c "select pg_relation_filenode(oid), relname from pg_class where pg_relation_filenode(oid) is not null" >"$names"
  awk -v db="/$dboid/" -v names="$names" '
    BEGIN { while ((getline line < names) > 0) { split(line, f, " "); name[f[1]] = f[2] } }
    { split($0, a, "len \\(rec/tot\\): *"); split(a[2], b, "/"); len = b[2] + 0 }
    /rmgr: Transaction/ && /COMMIT/ { by["(commit records)"] += len; total += len; next }
    index($0, db) { match($0, "rel [0-9]+/[0-9]+/[0-9]+"); split(substr($0, RSTART + 4, RLENGTH - 4), r, "/")
      k = (r[3] in name) ? name[r[3]] : "filenode " r[3]; if ($0 ~ /FPW/) k = k " (full-page image)"
      by[k] += len; total += len }
    END { for (k in by) printf "%d %s\n", by[k], k }' "$walrecords" | sort -rn | head -"${WAL_TOP:-15}" |
    awk -v msgs="$1" '{ b = $1; $1 = ""; printf "  wal_bytes_per_msg=%.0f %s\n", b / msgs, $0 }'
  rm -f "$names"
}
s0=$(stats); c0=$(ticks "$spid"); p0=$(pgticks); lsn0=$(lsn)
send=$(wrk -t2 -c"$CONNS" -d"${DUR}s" --timeout 10s -s "$peers/tuma-send.lua" "$base" | report)
c1=$(ticks "$spid"); p1=$(pgticks); loaded=$(rss)
sleep 5; after=$(rss); s1=$(stats); lsn1=$(lsn); dumpwal "$lsn0" "$lsn1"; dbw=$(dbwal)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
node -e '
const [noop, send, s0, s1, c0, c1, p0, p1, hz, idle, loaded, after, conns, dbw, n0, n1] = process.argv.slice(1)
const n = JSON.parse(noop), s = JSON.parse(send)
const rps = (x) => x.requests / (x.duration_us / 1e6)
const [m0, w0, x0, l0, i0, u0, h0] = s0.split("|").map(Number), [m1, w1, x1, l1, i1, u1, h1] = s1.split("|").map(Number)
const msgs = m1 - m0, us = (t) => (t * 1e6 / Number(hz) / msgs).toFixed(0)
console.log(`bench:split (${conns} connections): noop=${rps(n).toFixed(0)}/s send=${rps(s).toFixed(0)}/s send/noop=${(rps(s) / rps(n)).toFixed(3)} ` +
  `p99_ms=${(s.lat_p99_us / 1000).toFixed(1)} errors=${s.err_status + s.err_timeout + s.err_connect} ` +
  `noop_server_cpu_us=${((n1 - n0) * 1e6 / Number(hz) / n.requests).toFixed(0)}`)
console.log(`per accepted message (${msgs}): server_cpu_us=${us(c1 - c0)} postgres_cpu_us=${us(p1 - p0)} ` +
  `rows_written=${((w1 - w0) / msgs).toFixed(2)} commits=${((x1 - x0) / msgs).toFixed(2)} wal_bytes=${((l1 - l0) / msgs).toFixed(0)} ` +
  `this_database_wal_bytes=${dbw === "n/a" ? dbw : (Number(dbw) / msgs).toFixed(0)}`)
console.log(`messages per accepted message: inserts=${((i1 - i0) / msgs).toFixed(2)} updates=${((u1 - u0) / msgs).toFixed(2)} ` +
  `hot_updates=${((h1 - h0) / msgs).toFixed(2)} hot_share=${u1 > u0 ? ((h1 - h0) / (u1 - u0) * 100).toFixed(0) : 0}%`)
console.log(`server rss_mb: idle=${idle} end_of_load=${loaded} five_s_after=${after}`)
' "$noop" "$send" "$s0" "$s1" "$c0" "$c1" "$p0" "$p1" "$(getconf CLK_TCK)" "$idle" "$loaded" "$after" "$CONNS" "$dbw" "$n0" "$n1"
# where this database's WAL went, by relation (the largest WAL_TOP, default 15)
msgs=$(( ${s1%%|*} - ${s0%%|*} ))
if [ "$msgs" -gt 0 ] && [ -s "$walrecords" ]; then
  echo "this database's WAL by relation, per accepted message:"
  walby "$msgs"
fi
rm -f "$walrecords"
