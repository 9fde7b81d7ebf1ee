#!/usr/bin/env bash
# pnpm bench:ab-send CHECKOUT OUTDIR [SECONDS] — one checkout's `tuma serve` (from source, workers on,
# scratch PostgreSQL database) under the side-by-side's single-send wrk load (32 connections, 3 s
# warm-up). Prints sends/s and, per accepted message, the server's CPU and every PostgreSQL process's
# of this database's backends (from /proc). With PROF_OPTS unset the server runs with `--cpu-prof` into OUTDIR, the load window
# written to OUTDIR/window (ms since start) to cut the profile; PROF_OPTS="" runs it unprofiled.
# A/B: run it alternately on two checkouts (e.g. a `git worktree` of the base commit) on a quiet machine.
# STATS=1 also prints, per accepted message over the load and its drain, the commits, the rows each
# table took (ins/upd/hot/del) and the time of each PL/pgSQL function (triggers; track_functions=all).
set -uo pipefail
co=$(cd "$1" && pwd); out=$(mkdir -p "$2" && cd "$2" && pwd); DUR=${3:-10}
here=$(cd "$(dirname "$0")/../../../../shared/peers" 2>/dev/null && pwd || echo /work/shared/peers)
PG=postgres://postgres@127.0.0.1:5432/postgres
db="tuma_prof_$$"; psql "$PG" -qc "create database $db" >/dev/null
[ -n "${STATS:-}" ] && psql "$PG" -qc "alter database $db set track_functions = 'all'" >/dev/null
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
mkdir -p "$out"; rm -f "$out"/*.cpuprofile
log=$out/server.log
cd "$co"
DATABASE_URL="${PG%/*}/$db" TUMA_ADMIN_TOKEN=peer-admin TUMA_RATE_LIMIT_PER_MINUTE=1000000000 NODE_ENV=production \
  setsid node ${PROF_OPTS---cpu-prof --cpu-prof-dir=$out} --conditions=@tuma/source --import tsx packages/http/src/bin.ts serve --port "$port" >"$log" 2>&1 &
pid=$!
l0=$(date +%s%N)
for _ in $(seq 1 150); do grep -q "listening on" "$log" && break; sleep 0.2; done
base="http://127.0.0.1:$port"
admin() { curl -s -X POST "$base/admin/v1$1" -H "authorization: Bearer peer-admin" -H "content-type: application/json" -d "$2"; }
acct=$(admin /accounts '{"name":"Peer","email":"peer@example.com","phone":"+255700000009","country":"TZ","phone_verified":true}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.uid')
admin /purchases "{\"account_uid\":\"$acct\",\"country\":\"TZ\",\"units\":50000000}" >/dev/null
admin /routes "{\"account_uid\":\"$acct\",\"country\":\"TZ\",\"phone\":\"+255700000009\"}" >/dev/null
admin /sender-ids "{\"account_uid\":\"$acct\",\"sender_id\":\"BENCH\",\"country\":\"TZ\"}" >/dev/null
admin /providers '{"name":"peer-sim","kind":"simulated","credits":[{"country":"TZ","credit":50000000}]}' >/dev/null
key=$(admin /api-keys "{\"account_uid\":\"$acct\",\"mode\":\"live\"}" | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.key')
export TUMA_KEY="$key" TUMA_SENDER=BENCH
wrk -t2 -c32 -d3s -s "$here/tuma-send.lua" "$base" >/dev/null 2>&1
s0=$(date +%s%N)
# PostgreSQL's CPU: the backends of this database only (the server is shared with other work); a backend
# that starts during the window counts from zero, one that ends during it is lost (the pool keeps them)
declare -A pg0
pgcpu() { local p; for p in $(psql "${PG%/*}/$db" -Atc "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"); do
  [ -r /proc/$p/stat ] && echo "$p $(awk '{print $14 + $15}' /proc/$p/stat)"; done; }
pgt() { local t=0 p c; while read -r p c; do [ -z "$p" ] && continue; if [ "${1:-}" = start ]; then pg0[$p]=$c; else t=$((t + c - ${pg0[$p]:-0})); fi; done < <(pgcpu); echo $t; }
stats() { psql "${PG%/*}/$db" -Atc "select 'x', xact_commit, 0,0,0 from pg_stat_database where datname = current_database()
  union all select relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del from pg_stat_user_tables
  union all select 'f:' || funcname, calls, (total_time * 1000)::bigint, (self_time * 1000)::bigint, 0 from pg_stat_user_functions"; }
[ -n "${STATS:-}" ] && { psql "${PG%/*}/$db" -qc "select pg_stat_reset()" >/dev/null; sleep 0.6; stats > "$out/stats0"; }
t0=$(awk '{print $14 + $15}' /proc/$pid/stat); pgt start >/dev/null; p0=0
send=$(wrk -t2 -c32 -d${DUR}s --timeout 10s -s "$here/tuma-send.lua" "$base" | grep WRKJSON | sed 's/^WRKJSON //')
s1=$(date +%s%N)
sleep 3
t1=$(awk '{print $14 + $15}' /proc/$pid/stat); p1=$(pgt)
echo "$send" | node -e 'const s=JSON.parse(require("fs").readFileSync(0));const t='"$((t1-t0))"'/100;console.log(`'"$co"' sends=${s.requests} rps=${(s.requests/(s.duration_us/1e6)).toFixed(0)} node_cpu_us_per_msg=${(t/s.requests*1e6).toFixed(0)} pg_cpu_us_per_msg=${('"$((p1-p0))"'/100/s.requests*1e6).toFixed(0)} errors=${s.err_status}`)'
echo "window $(( (s0-l0)/1000000 )) $(( (s1-l0)/1000000 ))" > $out/window
if [ -n "${STATS:-}" ]; then
  sleep 0.6; stats > "$out/stats1"
  n=$(echo "$send" | node -pe 'JSON.parse(require("fs").readFileSync(0)).requests')
  node -e '
    const fs = require("fs"), n = Number(process.argv[2])
    const read = (f) => new Map(fs.readFileSync(f, "utf8").trim().split("\n").map((l) => { const [k, ...v] = l.split("|"); return [k, v.map(Number)] }))
    const a = read(process.argv[1] + "/stats0"), b = read(process.argv[1] + "/stats1")
    const per = (k, i) => ((b.get(k)[i] - (a.get(k)?.[i] ?? 0)) / n)
    for (const k of b.keys()) {
      if (k === "x") console.log(`stats per msg: commits=${per(k, 0).toFixed(2)}`)
      else if (k.startsWith("f:")) { if (per(k, 0) > 0) console.log(`  ${k.slice(2)} calls=${per(k, 0).toFixed(3)} total_us=${per(k, 1).toFixed(1)} self_us=${per(k, 2).toFixed(1)}`) }
      else if ([0, 1, 3].some((i) => per(k, i) !== 0)) console.log(`  ${k} ins=${per(k, 0).toFixed(2)} upd=${per(k, 1).toFixed(2)} hot=${per(k, 2).toFixed(2)} del=${per(k, 3).toFixed(2)}`)
    }' "$out" "$n"
fi
kill -INT $pid; for _ in $(seq 1 50); do kill -0 $pid 2>/dev/null || break; sleep 0.2; done
kill -9 -- -$pid 2>/dev/null
psql "$PG" -qc "drop database if exists $db with (force)" >/dev/null
