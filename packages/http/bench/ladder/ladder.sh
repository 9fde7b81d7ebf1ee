#!/usr/bin/env bash
# pnpm bench:ladder — the server's CPU per request from node's http module up to a delivered single
# send, in one run, so each layer's share can be read off: three bare servers (servers.mjs: node alone,
# a fiber per request, @effect/platform's router) under wrk's GET /healthz (2 threads, CONNS connections,
# DUR seconds after a 2 s warm-up); the bare acceptance of single sends with node and `pg` alone
# (servers.mjs pg, the side-by-side's send load, on a scratch database migrated by `tuma`); then
# `bench:split` twice — with delivery workers off (Tuma's no-op and the accepted send) and on (the
# delivered send). Prints one line per rung and, last,
#   ladder: node_us=… effect_fiber_us=… platform_noop_us=… node_pg_accept_us=… tuma_noop_us=… tuma_accept_us=… tuma_delivered_us=… (+PostgreSQL)
# Needs wrk, a built checkout (`pnpm build`) and a quiet machine (both cores; compare within one run).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
here=packages/http/bench/ladder
command -v wrk >/dev/null || { echo "bench:ladder: needs wrk (apt-get install -y wrk)"; exit 1; }
CONNS=${CONNS:-32}; DUR=${DUR:-8}
free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
ticks() { awk '{print $14+$15}' /proc/"$1"/stat 2>/dev/null || echo 0; }
declare -A us
for mode in node effect platform; do
  port=$(free_port)
  node "$here/servers.mjs" "$mode" "$port" &
  pid=$!
  for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  wrk -t2 -c"$CONNS" -d2s "http://127.0.0.1:$port/healthz" >/dev/null 2>&1
  t0=$(ticks "$pid")
  out=$(wrk -t2 -c"$CONNS" -d"${DUR}s" "http://127.0.0.1:$port/healthz")
  t1=$(ticks "$pid")
  kill "$pid"; wait "$pid" 2>/dev/null
  n=$(awk '/requests in/ { print $1 }' <<<"$out")
  us[$mode]=$(( (t1 - t0) * 1000000 / $(getconf CLK_TCK) / n ))
  echo "bare $mode: $(awk '/Requests\/sec/ { print $2 }' <<<"$out") requests/s, server ${us[$mode]} µs per request"
done
# the bare acceptance: a migrated scratch database with an account and its wallet
PG=${PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
db="tuma_ladder_$$"; dburl="${PG%/*}/$db"
psql "$PG" -qc "create database $db" >/dev/null || { echo "bench:ladder: cannot create a scratch database"; exit 1; }
trap 'psql "$PG" -qc "drop database if exists $db with (force)" >/dev/null 2>&1' EXIT
. packages/http/bench/scratch-account.sh
scratch_account Ladder "$dburl" || { echo "bench:ladder: see above"; exit 1; }
pgticks() { local t=0; for p in $(pgrep -x postgres); do t=$((t + $(ticks "$p"))); done; echo $t; }
peers=$(cd "${PEERS:-../shared/peers}" 2>/dev/null && pwd) || { echo "bench:ladder: no peers (set PEERS)"; exit 1; }
port=$(free_port)
DATABASE_URL="$dburl" ACCOUNT=$account MARKET=$market WALLET=$wallet node "$here/servers.mjs" pg "$port" &
pid=$!
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
export TUMA_KEY=none TUMA_SENDER=BENCH
wrk -t2 -c"$CONNS" -d2s -s "$peers/tuma-send.lua" "http://127.0.0.1:$port" >/dev/null 2>&1
t0=$(ticks "$pid"); q0=$(pgticks); m0=$(psql "$dburl" -Atc "select count(*) from messages")
out=$(wrk -t2 -c"$CONNS" -d"${DUR}s" -s "$peers/tuma-send.lua" "http://127.0.0.1:$port")
t1=$(ticks "$pid"); q1=$(pgticks); m1=$(psql "$dburl" -Atc "select count(*) from messages")
kill "$pid"; wait "$pid" 2>/dev/null
n=$((m1 - m0)); hz=$(getconf CLK_TCK)
us[pg]=$(( (t1 - t0) * 1000000 / hz / n )); us[pgdb]=$(( (q1 - q0) * 1000000 / hz / n ))
echo "bare pg accept: $(awk '/Requests\/sec/ { print $2 }' <<<"$out") requests/s, $n stored, server ${us[pg]} µs, PostgreSQL ${us[pgdb]} µs per message"
field() { sed -nE "s/(^|.* )$1=([0-9.]+).*/\2/p" <<<"$2" | head -1; }
accept=$(TUMA_WORKERS=0 DUR=$DUR CONNS=$CONNS bash packages/http/bench/split.sh 2>&1)
echo "$accept" | grep -E "^bench:split|^per accepted"
delivered=$(DUR=$DUR CONNS=$CONNS bash packages/http/bench/split.sh 2>&1)
echo "$delivered" | grep -E "^bench:split|^per accepted"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ladder: node_us=${us[node]} effect_fiber_us=${us[effect]} platform_noop_us=${us[platform]}" \
  "node_pg_accept_us=${us[pg]}(+pg ${us[pgdb]})" \
  "tuma_noop_us=$(field noop_server_cpu_us "$accept")" \
  "tuma_accept_us=$(field server_cpu_us "$accept")(+pg $(field postgres_cpu_us "$accept"))" \
  "tuma_delivered_us=$(field server_cpu_us "$delivered")(+pg $(field postgres_cpu_us "$delivered"))"
