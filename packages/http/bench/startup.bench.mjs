// Start-up time and idle memory of `tuma serve`, compiled JavaScript against tsx (docs/operations.md).
// Needs `pnpm build`. Each variant starts RUNS times (default 5, alternating) on BENCH_DATABASE_URL
// (a PostgreSQL database, migrated by one untimed warm-up start) or, without it, on a fresh
// embedded database in a temporary directory (PGlite's first start and the migrations then
// dominate): milliseconds from spawn to the "listening on" line, then, after
// IDLE_MS (default 5000) idle, the resident memory (VmRSS) of every process of the command (tsx's
// CLI is a wrapper process plus the node process it starts). Medians, with min and max.
//   pnpm build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/tuma_startup \
//     node packages/http/bench/startup.bench.mjs
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const root = new URL("../../../", import.meta.url).pathname
const RUNS = Number(process.env.RUNS ?? 5)
const IDLE_MS = Number(process.env.IDLE_MS ?? 5000)
const tsxCli = join(root, "node_modules/.bin/tsx")
const databaseUrl = process.env.BENCH_DATABASE_URL ?? ""
const variants = [
  // as the `tuma` command and `pnpm start` run it (the V8 flag of bin.ts's first line)
  ["compiled: node dist/bin.js", process.execPath, ["packages/http/dist/bin.js"]],
  ["tsx CLI (pnpm tuma)", tsxCli, ["--conditions=@tuma/source", "packages/http/src/bin.ts"]],
  ["node --import tsx", process.execPath, ["--conditions=@tuma/source", "--import", "tsx", "packages/http/src/bin.ts"]]
]

const childrenOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}
const rssKb = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0)
  } catch {
    return 0
  }
}
const tree = (pid) => [pid, ...childrenOf(pid).flatMap(tree)]

const once = (command, args) =>
  new Promise((resolve, reject) => {
    const dataDir = mkdtempSync(join(tmpdir(), "tuma-startup-"))
    const started = performance.now()
    const child = spawn(command, [...args, "serve", "--port", "0", "--data-dir", dataDir], {
      cwd: root,
      env: { ...process.env, TUMA_WORKERS: "1", DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    })
    let out = ""
    let ready
    child.stdout.on("data", (d) => {
      out += d
      if (ready === undefined && out.includes("listening on")) {
        ready = performance.now() - started
        setTimeout(() => {
          const pids = tree(child.pid)
          const rss = pids.reduce((sum, p) => sum + rssKb(p), 0)
          process.kill(-child.pid, "SIGTERM")
          child.once("exit", () => {
            rmSync(dataDir, { recursive: true, force: true })
            resolve({ ms: ready, rssMb: rss / 1024, processes: pids.length })
          })
        }, IDLE_MS)
      }
    })
    child.stderr.on("data", (d) => out += d)
    child.once("exit", (code) => {
      if (ready === undefined) reject(new Error(`exited ${code} before listening:\n${out}`))
    })
  })

if (databaseUrl !== "") await once(variants[0][1], variants[0][2]) // migrations, untimed
const results = new Map(variants.map(([name]) => [name, []]))
for (let i = 0; i < RUNS; i++) {
  for (const [name, command, args] of variants) results.get(name).push(await once(command, args))
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const fmt = (xs, digits) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`
console.log(`${RUNS} runs each on ${databaseUrl === "" ? "a fresh PGlite directory" : "PostgreSQL"}, idle ${IDLE_MS} ms; median (min–max)`)
console.log("| command | processes | start to listening, ms | idle RSS, MB |")
console.log("|---|---|---|---|")
for (const [name, rs] of results) {
  console.log(
    `| ${name} | ${rs[0].processes} | ${fmt(rs.map((r) => r.ms), 0)} | ${fmt(rs.map((r) => r.rssMb), 1)} |`
  )
}
