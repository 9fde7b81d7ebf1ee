#!/usr/bin/env bash
# `pnpm bench:smpp`: Tuma's SMPP server (submit.bench.ts: one transceiver, window 100, 12 s, PostgreSQL,
# delivery on) and, in the same run right after it, Kannel's sendsms (../shared/peers/kannel/run.sh, the
# gsm160 profile, as side-by-side.sh runs it). Prints both lines and, last,
#   smpp-side-by-side: tuma_smpp=R/s kannel_sendsms=K/s ratio=R/K p99_ms=P cpu_us_per_msg=C kannel_cpu_us_per_msg=KC
# Needs the peers checkout beside the project (PEERS, default ../shared/peers) and Kannel (run.sh installs it).
set -uo pipefail
root=$(cd "$(dirname "$0")/../../../.." && pwd)
peers=${PEERS:-$root/../shared/peers}
cd "$root"
tline=$(npx tsx --conditions=@tuma/source packages/http/bench/smpp/submit.bench.ts 2>&1 | grep '^smpp-bench:')
echo "$tline"
kline=$(PROFILES=gsm160 DURATION_S="${DURATION_S:-12}" bash "$peers/kannel/run.sh" 2>/dev/null | grep '^kannel\[gsm160\]')
echo "$kline"
node -e '
const [t, k] = process.argv.slice(1)
const num = (re, s) => Number(re.exec(s)?.[1] ?? NaN)
const tr = num(/accepted_per_s=(\d+)/, t), kr = num(/sendsms_rps=(\d+)/, k)
const km = /cpu%: bb=(\d+) smsbox=(\d+)/.exec(k)
const kcpu = km ? ((Number(km[1]) + Number(km[2])) / 100) / kr * 1e6 : NaN
console.log(`smpp-side-by-side: tuma_smpp=${tr}/s kannel_sendsms=${kr}/s ratio=${(tr / kr).toFixed(3)} ` +
  `p99_ms=${num(/p99_ms=([\d.]+)/, t)} cpu_us_per_msg=${num(/cpu_us_per_msg=(\d+)/, t)} kannel_cpu_us_per_msg=${kcpu.toFixed(0)}`)
' "$tline" "$kline"
