#!/usr/bin/env bash
# pnpm bench:peer — Tuma beside Kannel in one run (issue 12): the peers' side-by-side.sh (Tuma's
# no-op and single send, then Kannel's sendsms, the same wrk load) and bulk-http.mjs (bulk v2 of
# 1,000 personalised recipients, 4 requests in flight), then the ratios. Needs the peers checkout
# beside the project (PEERS, default ../shared/peers) and both cores: run nothing beside it.
set -uo pipefail
cd "$(dirname "$0")/../../.."
peers=${PEERS:-../shared/peers}
[ -f "$peers/side-by-side.sh" ] || { echo "bench:peer: no peers at $peers (set PEERS)"; exit 1; }
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
single=$(bash "$peers/side-by-side.sh" 2>&1 | tee /dev/stderr | grep '^side-by-side:')
bulk=$(node "$peers/bulk-http.mjs" 2>&1 | grep '^bulk-http:')
echo "$bulk"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
node -e '
const [single, bulk] = process.argv.slice(1)
const num = (s, k) => Number(new RegExp(k + "=([0-9.]+)").exec(s)?.[1] ?? NaN)
const kannel = num(single, "kannel"), send = num(single, "tuma_send"), noop = num(single, "tuma_noop")
const msgs = num(bulk, "accepted_msgs_per_s")
console.log(`bench:peer: single_send/noop=${(send / noop).toFixed(3)} (target 0.5) p99_ms=${num(single, "p99_ms")} (target 50) ` +
  `single_send/kannel=${(send / kannel).toFixed(3)} bulk_msgs/kannel=${(msgs / kannel).toFixed(2)} (target 1.5)`)
' "$single" "$bulk"
