#!/usr/bin/env bash
# pnpm bench:floor — PostgreSQL's CPU per message for the store's writes alone, without the server:
# pgbench runs pipeline.sql (a batch of 100 messages accepted, claimed, sent, receipted and the receipt
# acknowledged, in the real schema) from CLIENTS connections for DUR seconds, ROUNDS times, on a scratch
# database migrated by `tuma` (run `pnpm build` first). Prints per round the messages per second and
# PostgreSQL's CPU per message (the machine's busy time from /proc/stat minus pgbench's own: run nothing
# beside it) and the server's WAL per message, the medians, and what two cores could carry at that cost
# with no server at all:
#   floor: messages_per_s=R pg_cpu_us_per_msg=C two_core_ceiling_per_s=N wal_bytes_per_msg=W
# ACCEPT_ONLY=1 runs the accept step alone; NO_PROCESSING_WRITE=1 leaves out the claim's `processing`
# write; SCRIPT=file runs another pipeline (same placeholders); PRE_SQL=file is applied to the migrated
# database first (variants/ holds one). PG_URL: an admin URL (default the local PostgreSQL).
set -uo pipefail
cd "$(dirname "$0")/../../../.."
here=packages/http/bench/floor
command -v pgbench >/dev/null || { echo "bench:floor: needs pgbench (PostgreSQL's client tools)"; exit 1; }
PG=${PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
CLIENTS=${CLIENTS:-4}; DUR=${DUR:-15}; ROUNDS=${ROUNDS:-3}
db="tuma_floor_$$"; dburl="${PG%/*}/$db"
psql "$PG" -qc "create database $db" >/dev/null || { echo "bench:floor: cannot create a scratch database"; exit 1; }
script=$(mktemp)
trap 'psql "$PG" -qc "drop database if exists $db with (force)" >/dev/null 2>&1; rm -f "$script"' EXIT
. packages/http/bench/scratch-account.sh
scratch_account Floor "$dburl" || { echo "bench:floor: see above"; exit 1; }
psql "$dburl" -qc "create function floor_id(ms bigint, b bigint, i int) returns uuid language sql immutable as \$\$
  select encode(set_bit(set_bit(overlay(decode(md5(b::text || '-' || i::text), 'hex')
    placing substring(int8send(ms) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid \$\$"
# PRE_SQL=file alters the migrated schema first (an experiment's indexes or storage parameters)
[ -n "${PRE_SQL:-}" ] && { psql "$dburl" -q -v ON_ERROR_STOP=1 -f "$PRE_SQL" || exit 1; }
provider=$(node -e 'console.log(require("crypto").randomUUID())')
sed -e "s/@ACCOUNT@/$account/g" -e "s/@MARKET@/$market/g" -e "s/@WALLET@/$wallet/g" -e "s/@PROVIDER@/$provider/g" \
  "${SCRIPT:-$here/pipeline.sql}" >"$script"
# NO_PROCESSING_WRITE=1: the claim writes the lease only, no `processing` row version of the message
if [ -n "${NO_PROCESSING_WRITE:-}" ]; then
  grep -v "^UPDATE messages SET status = 'processing'" "$script" >"$script.variant" && mv "$script.variant" "$script"
fi
if [ -n "${ACCEPT_ONLY:-}" ]; then
  awk '/^BEGIN;$/ { n++ } n <= 1' "$script" >"$script.accept" && mv "$script.accept" "$script"
fi
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
lines=()
for round in $(seq "$ROUNDS"); do
  b0=$(busy); w0=$(psql "$dburl" -Atc "select pg_current_wal_lsn() - '0/0'::pg_lsn")
  out=$( { /usr/bin/time -f "PGBENCH_CPU %U %S" pgbench -n -c "$CLIENTS" -j 2 -T "$DUR" -f "$script" "$dburl"; } 2>&1 | tail -20)
  b1=$(busy); w1=$(psql "$dburl" -Atc "select pg_current_wal_lsn() - '0/0'::pg_lsn")
  line=$(node -e '
const [out, b0, b1, hz, dur, w0, w1] = process.argv.slice(1)
const n = Number(/actually processed: (\d+)/.exec(out)?.[1] ?? NaN) * 100
const own = /PGBENCH_CPU ([\d.]+) ([\d.]+)/.exec(out)
const pg = (Number(b1) - Number(b0)) / Number(hz) - (own ? Number(own[1]) + Number(own[2]) : 0)
const us = pg / n * 1e6
console.log(`messages_per_s=${(n / Number(dur)).toFixed(0)} pg_cpu_us_per_msg=${us.toFixed(0)} two_core_ceiling_per_s=${(2e6 / us).toFixed(0)} ` +
  `wal_bytes_per_msg=${((Number(w1) - Number(w0)) / n).toFixed(0)} load=${require("fs").readFileSync("/proc/loadavg", "utf8").split(" ")[0]}`)' "$out" "$b0" "$b1" "$(getconf CLK_TCK)" "$DUR" "$w0" "$w1")
  echo "round $round: $line"; lines+=("$line")
done
node -e '
const v = (k) => process.argv.slice(1).map((l) => Number(new RegExp(k + "=([\\d.]+)").exec(l)?.[1] ?? NaN)).sort((a, b) => a - b)
const med = (k) => v(k)[Math.floor(v(k).length / 2)]
console.log(`floor: messages_per_s=${med("messages_per_s")} pg_cpu_us_per_msg=${med("pg_cpu_us_per_msg")} two_core_ceiling_per_s=${med("two_core_ceiling_per_s")} wal_bytes_per_msg=${med("wal_bytes_per_msg")}` +
  `${process.env.ACCEPT_ONLY ? " (accept only)" : ""}`)' "${lines[@]}"
