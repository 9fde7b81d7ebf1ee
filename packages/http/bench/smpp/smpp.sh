#!/usr/bin/env bash
# `pnpm bench:smpp`: Tuma's SMPP server (submit.bench.ts: one transceiver, window 100, 12 s, PostgreSQL,
# delivery on) and, in the same run right after it, Kannel's sendsms (../shared/peers/kannel/run.sh, the
# gsm160 profile, as side-by-side.sh runs it). Prints both lines and, last,
#   smpp-side-by-side: tuma_smpp=R/s kannel_sendsms=K/s ratio=R/K p99_ms=P cpu_us_per_msg=C kannel_cpu_us_per_msg=KC
# BASE=/path/to/another/checkout (its node_modules in place) runs that tree's Tuma half too, ROUNDS (3)
# times alternated with this one (NOW=another checkout instead of this one: a commit frozen while the
# worktree changes; the shared machine drifts), and prints the median of each and
#   smpp-before-after: base=B/s now=N/s ratio=N/B base_p99_ms=… now_p99_ms=…
# Needs the peers checkout beside the project (PEERS, default ../shared/peers) and Kannel (run.sh installs it).
set -uo pipefail
root=$(cd "$(dirname "$0")/../../../.." && pwd)
peers=${PEERS:-$root/../shared/peers}
cd "$root"
tuma_half() { (cd "$1" && npx tsx --conditions=@tuma/source packages/http/bench/smpp/submit.bench.ts 2>&1 | grep '^smpp-bench:'); }
median() { node -e '
const re = new RegExp(process.argv[1] + "=([\\d.]+)")
const v = process.argv.slice(2).map((l) => Number(re.exec(l)?.[1] ?? NaN)).sort((a, b) => a - b)
console.log(v[Math.floor(v.length / 2)])' "$@"; }
if [ -n "${BASE:-}" ]; then
  base_lines=(); now_lines=()
  for _ in $(seq "${ROUNDS:-3}"); do
    b=$(tuma_half "$BASE"); echo "base $b"; base_lines+=("$b")
    n=$(tuma_half "${NOW:-$root}"); echo "now  $n"; now_lines+=("$n")
  done
  br=$(median accepted_per_s "${base_lines[@]}"); nr=$(median accepted_per_s "${now_lines[@]}")
  echo "smpp-before-after: base=${br}/s now=${nr}/s ratio=$(node -e "console.log(($nr / $br).toFixed(2))") " \
    "base_p99_ms=$(median p99_ms "${base_lines[@]}") now_p99_ms=$(median p99_ms "${now_lines[@]}")" \
    "base_cpu_us_per_msg=$(median cpu_us_per_msg "${base_lines[@]}") now_cpu_us_per_msg=$(median cpu_us_per_msg "${now_lines[@]}")"
  # the side-by-side with Kannel takes this tree's medians
  tline="accepted_per_s=$nr p99_ms=$(median p99_ms "${now_lines[@]}") cpu_us_per_msg=$(median cpu_us_per_msg "${now_lines[@]}")"
else
  tline=$(tuma_half "$root")
  echo "$tline"
fi
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
