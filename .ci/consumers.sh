#!/usr/bin/env bash
# Tuma as another backend meets it: packs every package (after `pnpm build`) into a temporary
# directory, creates fresh npm projects there (outside the workspace: no pnpm, no tsx, no sources)
# and runs, each as one step:
#   pack       tarballs hold dist/ (.js, .d.ts, maps), no tests, no benches, no build info
#   js         a plain Node ESM JavaScript program (.ci/consumers/js) over @tuma/core + @tuma/store-sql,
#              then the README's library snippet in the same project
#   ts         a strict nodenext TypeScript project (.ci/consumers/ts) type-checking the public API
#   bin        the installed binary: `npx tuma serve --demo --port …` answers a send
#   fastify    examples/fastify-backend installed from the tarballs, its own tests (node --test)
# Prints "consumers: N passed, N failed" and writes "N N" to $1 when given.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:+$(realpath -m "$1")} # absolute: the steps cd into their projects
work=$(mktemp -d "${TMPDIR:-/tmp}/tuma-consumers.XXXXXX")
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill -KILL -- "-$server_pid" 2>/dev/null
  [ -n "${KEEP_CONSUMERS:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
passed=0
failed=0
npm_install() { npm install --no-audit --no-fund --loglevel=error "$@"; }
step() {
  local name=$1 t0=$SECONDS
  shift
  if "$@" >"$work/$name.log" 2>&1; then
    echo "consumer $name: ok ($((SECONDS - t0))s)"
    passed=$((passed + 1))
  else
    echo "consumer $name: FAILED ($((SECONDS - t0))s)"
    tail -n 60 "$work/$name.log" | sed 's/^/  | /'
    failed=$((failed + 1))
  fi
}

tarballs="$work/tarballs"
mkdir -p "$tarballs"
tgz() { ls "$tarballs"/tuma-"$1"-*.tgz; }

pack() {
  for p in domain core store-sql providers http; do
    (cd "$root/packages/$p" && pnpm pack --pack-destination "$tarballs" >/dev/null) || return 1
  done
  for t in "$tarballs"/*.tgz; do
    list=$(tar tzf "$t")
    echo "$(basename "$t"): $(echo "$list" | wc -l) files"
    for f in package/dist/index.js package/dist/index.d.ts package/dist/index.js.map package/package.json; do
      # a here-string, not a pipe: `grep -q` stops at the first match, and under pipefail the writer's
      # SIGPIPE would fail a pipe that found the file
      grep -qx "$f" <<<"$list" || { echo "  missing $f"; return 1; }
    done
    if echo "$list" | grep -E '(^package/(test|bench)/|\.test\.|tsbuildinfo|vitest\.config)'; then
      echo "  ^ must not be packed"
      return 1
    fi
    grep -q '"workspace:' <<<"$(tar xzOf "$t" package/package.json)" && { echo "  workspace: range left in package.json"; return 1; }
  done
  return 0
}

fresh() { # a new npm project in $work/$1
  mkdir -p "$work/$1" && cd "$work/$1" && npm init -y >/dev/null && npm pkg set type=module private=true
}

js() {
  fresh js && cp "$root/.ci/consumers/js/main.mjs" . &&
    npm_install "$(tgz domain)" "$(tgz core)" "$(tgz store-sql)" &&
    node main.mjs | tee out.txt &&
    grep -qx "charged 2 unit(s) to the TZ wallet" out.txt && grep -qx "balance: 100 -> 97" out.txt &&
    echo "--- README library snippet" &&
    awk '/<!-- library-snippet/ { on = 1; next } on && /^```js/ { inside = 1; next } inside && /^```/ { exit } inside' \
      "$root/README.md" >snippet.mjs && [ -s snippet.mjs ] &&
    node snippet.mjs | tee snippet.txt && grep -qE "^sent .+: 1 unit\(s\)$" snippet.txt && grep -qx "balance: 99 units" snippet.txt
}

ts() {
  fresh ts && cp -r "$root/.ci/consumers/ts/." . &&
    npm_install "$(tgz domain)" "$(tgz core)" "$(tgz store-sql)" "$(tgz providers)" "$(tgz http)" &&
    npm_install -D typescript@5.9.3 @types/node@20 &&
    npx --no-install tsc -p tsconfig.json && echo "type-check passed"
}

bin() {
  fresh bin && npm_install "$(tgz domain)" "$(tgz core)" "$(tgz store-sql)" "$(tgz providers)" "$(tgz http)" || return 1
  [ -e node_modules/tsx ] && { echo "tsx was installed: the binary must run on plain node"; return 1; }
  head -1 node_modules/@tuma/http/dist/bin.js
  local port
  port=$(node -e 'const s=require("net").createServer().listen(0,()=>{console.log(s.address().port);s.close()})')
  # its own process group (npx does not forward signals to the server it starts): SIGTERM goes to all
  setsid npx --no-install tuma serve --demo --port "$port" --data-dir "$work/bin/data" >serve.log 2>&1 &
  server_pid=$!
  for _ in $(seq 1 120); do grep -q "^listening on" serve.log && break; sleep 0.5; done
  cat serve.log
  local key
  key=$(sed -n 's/^demo live key: //p' serve.log)
  [ -n "$key" ] || return 1
  node -e '
    const [port, key] = process.argv.slice(1)
    const res = await fetch(`http://127.0.0.1:${port}/v1/sms/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ recipient: "+255712345678", sender_id: "TUMA", body: "Habari from the installed binary" })
    })
    const body = await res.json()
    console.log(res.status, JSON.stringify(body))
    if (res.status !== 202 || body.success !== true || body.data.units !== 1) process.exit(1)
  ' --input-type=module "$port" "$key" || return 1
  kill -TERM -- "-$server_pid"
  for _ in $(seq 1 40); do grep -q "^stopped" serve.log && break; sleep 0.5; done
  wait "$server_pid" 2>/dev/null
  server_pid=""
  tail -n 2 serve.log
  grep -q "^stopped" serve.log
}

fastify() {
  rm -rf "$work/fastify" && mkdir "$work/fastify" && cd "$work/fastify" &&
    (cd "$root/examples/fastify-backend" && tar cf - --exclude=node_modules .) | tar xf - &&
    node -e '
      const fs = require("fs"), [dir, ...tgz] = process.argv.slice(1)
      const p = JSON.parse(fs.readFileSync("package.json", "utf8"))
      for (const name of Object.keys(p.dependencies)) {
        if (!name.startsWith("@tuma/")) continue
        const t = tgz.find((f) => f.endsWith(`/${name.replace("@tuma/", "tuma-")}-${require(`${dir}/packages/${name.slice(6)}/package.json`).version}.tgz`))
        if (!t) throw new Error(`no tarball for ${name}`)
        p.dependencies[name] = `file:${t}`
      }
      fs.writeFileSync("package.json", JSON.stringify(p, null, 2))
    ' "$root" "$tarballs"/*.tgz && grep '"@tuma/' package.json &&
    npm_install && npm test | tee test.tap
}
step pack pack
if [ "$failed" -eq 0 ]; then
  step js js
  step ts ts
  step bin bin
  step fastify fastify
  # the example's own tests count one by one (node --test's TAP summary)
  f_pass=$(sed -n 's/^# pass //p' "$work/fastify/test.tap" 2>/dev/null | tail -1)
  f_fail=$(sed -n 's/^# fail //p' "$work/fastify/test.tap" 2>/dev/null | tail -1)
  if [ -n "$f_pass" ]; then
    echo "fastify-backend tests: $f_pass passed, ${f_fail:-0} failed"
    passed=$((passed - 1 + f_pass))
    [ "${f_fail:-0}" -gt 0 ] && failed=$((failed - 1 + f_fail))
  fi
fi
echo "consumers: $passed passed, $failed failed"
[ -n "$out" ] && echo "$passed $failed" >"$out"
[ "$failed" -eq 0 ]
