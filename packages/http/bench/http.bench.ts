/**
 * `pnpm bench:http` — HTTP throughput on loopback with autocannon (50 connections):
 *
 *   bare      a node:http server answering a fixed JSON body (the machine's ceiling)
 *   no-op     GET /healthz of the Tuma server (the framework's ceiling: envelope, routing, encoding)
 *   send      POST /v1/sms/messages with a live key (auth, rate limit, duplicate guard, validation,
 *             pricing, the acceptance transaction), each request a new body and recipient
 *
 * against the embedded store (PGlite in a temp directory) and PostgreSQL (a scratch database on
 * TUMA_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), each server a
 * separate `tuma serve` process. Every figure is the median of ROUNDS rounds; ratios are taken
 * against the no-op endpoint of the same server, measured in the same run. Delivery workers are off
 * (TUMA_WORKERS=0): this measures acceptance. Env: ROUNDS (3), DURATION seconds (5), CONNECTIONS (50),
 * TUMA_BENCH_PROFILE=<dir> (write a V8 CPU profile of each server process there), TUMA_BENCH_ONLY
 * (`embedded` or `postgres`).
 *
 * Observability overhead (issue 13; TUMA_BENCH_OBSERVABILITY=0 skips it, `only` runs only it): two
 * servers per store side by side, one as shipped (metrics recorded but no listener, tracing off)
 * and one with everything on — the `/metrics` listener scraped every SCRAPE_SECONDS (5) and traces
 * exported over OTLP/HTTP to a sink in this process (which reads and discards them). Rounds
 * alternate off/on so both see the same machine load; the report is on ÷ off throughput.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import autocannon from "autocannon"
import { Effect, Redacted } from "effect"
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const BIN = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const ROUNDS = Number(process.env.ROUNDS ?? 3)
const DURATION = Number(process.env.DURATION ?? 5)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50)
const PG_URL = process.env.TUMA_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
const ADMIN = "bench-admin-token"

interface Figures {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  readonly non2xx: number
}

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

const cannon = (options: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      { connections: CONNECTIONS, duration: DURATION, ...options },
      (err, result) => err ? reject(err) : resolve(result)
    )
  )

const measure = async (label: string, options: autocannon.Options): Promise<Figures> => {
  await cannon({ ...options, duration: 1 }) // warm-up
  const rounds: Array<Figures> = []
  for (let i = 0; i < ROUNDS; i++) {
    const r = await cannon(options)
    rounds.push({
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx
    })
  }
  const f = {
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0)
  }
  console.log(
    `${label.padEnd(34)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${
      String(f.p99).padStart(4)
    } ms${f.non2xx + f.errors > 0 ? `   (non-2xx ${f.non2xx}, errors ${f.errors})` : ""}`
  )
  return f
}

const startTuma = (env: Record<string, string>) =>
  new Promise<{ child: ChildProcess; url: string; metricsUrl: string | undefined }>((resolve, reject) => {
    const profile = process.env.TUMA_BENCH_PROFILE
    const flags = profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []
    const child = spawn(process.execPath, [...flags, "--conditions=@tuma/source", "--import", "tsx", BIN, "serve"], {
      env: {
        ...process.env,
        PORT: "0",
        TUMA_WORKERS: "0",
        TUMA_ADMIN_TOKEN: ADMIN,
        TUMA_RATE_LIMIT_PER_MINUTE: "1000000000",
        NODE_ENV: "production",
        ...env
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      const m = /listening on (http:\/\/\S+)/.exec(out)
      const metrics = /metrics on (http:\/\/\S+)/.exec(out)
      if (m && (env.TUMA_METRICS_PORT === undefined || metrics)) resolve({ child, url: m[1], metricsUrl: metrics?.[1] })
    })
    child.stderr!.on("data", (d: Buffer) => void (out += d.toString()))
    child.on("exit", (code) => reject(new Error(`tuma serve exited ${code}: ${out}`)))
  })

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

/** An account able to send a great many messages, set up through the admin API. */
const seed = async (url: string) => {
  const admin = async (path: string, body: unknown) => {
    const r = await fetch(`${url}/admin/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    const json = await r.json() as any
    if (!json.success) throw new Error(`${path}: ${JSON.stringify(json)}`)
    return json.data
  }
  const account = await admin("/accounts", {
    name: "Bench",
    email: `bench-${Date.now()}@example.com`,
    phone: "+255700000009",
    country: "TZ",
    phone_verified: true
  })
  await admin("/purchases", { account_uid: account.uid, country: "TZ", units: 50_000_000 })
  await admin("/routes", { account_uid: account.uid, country: "TZ", phone: "+255700000009" })
  await admin("/sender-ids", { account_uid: account.uid, sender_id: "BENCH", country: "TZ" })
  await admin("/providers", {
    name: `bench-${Date.now()}`,
    kind: "simulated",
    credits: [{ country: "TZ", credit: 50_000_000 }]
  })
  const key = await admin("/api-keys", { account_uid: account.uid, mode: "live" })
  return key.key as string
}

const sendOptions = (url: string, key: string): autocannon.Options => ({
  url: `${url}/v1/sms/messages`,
  method: "POST",
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  body: JSON.stringify({ recipient: "+255712345678", sender_id: "BENCH", body: "Bench message [<id>]" }),
  idReplacement: true
})

const adminSql = (statement: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(
        PgClient.make({ url: Redacted.make(PG_URL), maxConnections: 1 }),
        (sql) => sql.unsafe(statement)
      )
    ).pipe(Effect.provide(Reactivity.layer))
  )

const scratchDatabase = async () => {
  const name = `tuma_bench_${Date.now().toString(36)}`
  await adminSql(`CREATE DATABASE ${name}`)
  const url = new URL(PG_URL)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => adminSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

/** CPU seconds (user + system) a process has used, from /proc (Linux); NaN elsewhere. */
const cpuSeconds = (pid: number | undefined): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100 // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN
  }
}

/** An OTLP/HTTP sink: reads every export and answers 200 (what a collector costs the server). */
const otlpSink = async () => {
  let exports = 0
  let bytes = 0
  const server = createServer((req, res) => {
    req.on("data", (d: Buffer) => (bytes += d.length))
    req.on("end", () => {
      exports++
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as any).port}`,
    stats: () => ({ exports, bytes }),
    close: () => new Promise<void>((r) => server.close(() => r()))
  }
}

const OBSERVABILITY = process.env.TUMA_BENCH_OBSERVABILITY ?? "1"
const SCRAPE_SECONDS = Number(process.env.SCRAPE_SECONDS ?? 5)

/** Throughput with metrics and tracing on vs off, servers side by side, rounds alternated. */
const observabilityOverhead = async (
  store: string,
  envFor: () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>
) => {
  const sink = await otlpSink()
  const off = await envFor()
  const on = await envFor()
  const servers: Array<{ child: ChildProcess }> = []
  let scraper: ReturnType<typeof setInterval> | undefined
  try {
    const a = await startTuma(off.env)
    servers.push(a)
    const b = await startTuma({
      ...on.env,
      TUMA_METRICS_PORT: "0",
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url
    })
    servers.push(b)
    let scrapes = 0
    let scrapeBytes = 0
    scraper = setInterval(() => {
      void fetch(b.metricsUrl!).then((r) => r.text()).then((t) => {
        scrapes++
        scrapeBytes = t.length
      }, () => {})
    }, SCRAPE_SECONDS * 1000)
    const keys = [await seed(a.url), await seed(b.url)]
    const targets = [
      { name: "no-op GET /healthz", options: (url: string) => ({ url: `${url}/healthz` }) },
      { name: "single send, live key", options: (url: string, key: string) => sendOptions(url, key) }
    ]
    const rows: Array<
      {
        name: string
        off: number
        on: number
        offP99: number
        onP99: number
        bad: number
        offCpu: number
        onCpu: number
      }
    > = []
    /** A round, with the server's CPU milliseconds per answered request. */
    const round = async (child: ChildProcess, options: autocannon.Options) => {
      const before = cpuSeconds(child.pid)
      const r = await cannon(options)
      return { r, cpuMs: (cpuSeconds(child.pid) - before) * 1000 / Math.max(1, r.requests.total) }
    }
    for (const t of targets) {
      const optsOff = t.options(a.url, keys[0]!)
      const optsOn = t.options(b.url, keys[1]!)
      await cannon({ ...optsOff, duration: 1 })
      await cannon({ ...optsOn, duration: 1 })
      const offR: Array<{ r: autocannon.Result; cpuMs: number }> = []
      const onR: Array<{ r: autocannon.Result; cpuMs: number }> = []
      for (let i = 0; i < ROUNDS; i++) {
        // alternate which goes first so a load trend favours neither
        if (i % 2 === 0) {
          offR.push(await round(a.child, optsOff))
          onR.push(await round(b.child, optsOn))
        } else {
          onR.push(await round(b.child, optsOn))
          offR.push(await round(a.child, optsOff))
        }
      }
      rows.push({
        name: t.name,
        off: median(offR.map((x) => x.r.requests.average)),
        on: median(onR.map((x) => x.r.requests.average)),
        offP99: median(offR.map((x) => x.r.latency.p99)),
        onP99: median(onR.map((x) => x.r.latency.p99)),
        bad: [...offR, ...onR].reduce((n, x) => n + x.r.non2xx + x.r.errors + x.r.timeouts, 0),
        offCpu: median(offR.map((x) => x.cpuMs)),
        onCpu: median(onR.map((x) => x.cpuMs))
      })
    }
    console.log(
      `\nobservability overhead (${store}): off = as shipped, on = /metrics scraped every ${SCRAPE_SECONDS}s + OTLP traces`
    )
    for (const r of rows) {
      console.log(
        `  ${r.name.padEnd(24)} off ${r.off.toFixed(0).padStart(6)} req/s (p99 ${r.offP99} ms)   on ${
          r.on.toFixed(0).padStart(6)
        } req/s (p99 ${r.onP99} ms)   on/off ${(r.on / r.off * 100).toFixed(1)}%   cost ${
          ((1 - r.on / r.off) * 100).toFixed(1)
        }%${r.bad > 0 ? `   (non-2xx/errors ${r.bad})` : ""}\n  ${"".padEnd(24)} server CPU per request: off ${
          r.offCpu.toFixed(3)
        } ms, on ${r.onCpu.toFixed(3)} ms (+${((r.onCpu / r.offCpu - 1) * 100).toFixed(1)}%)`
      )
    }
    const { bytes, exports } = sink.stats()
    console.log(
      `  (${exports} OTLP exports, ${(bytes / 1e6).toFixed(1)} MB of spans; ${scrapes} scrapes of ${
        (scrapeBytes / 1024).toFixed(0)
      } KiB; target: cost ≤ 10%)`
    )
  } finally {
    if (scraper !== undefined) clearInterval(scraper)
    for (const s of servers) await stop(s.child)
    await off.cleanup()
    await on.cleanup()
    await sink.close()
  }
}

const main = async () => {
  console.log(`tuma HTTP bench: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION}s, medians\n`)
  if (OBSERVABILITY === "only") return overheads()

  // bare node:http
  const bare = createServer((_req, res) => {
    const body = JSON.stringify({
      success: true,
      request_uid: "00000000-0000-4000-8000-000000000000",
      data: { status: "ok" }
    })
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
    res.end(body)
  })
  await new Promise<void>((r) => bare.listen(0, "127.0.0.1", () => r()))
  const bareUrl = `http://127.0.0.1:${(bare.address() as any).port}`
  const bareF = await measure("bare node:http JSON", { url: `${bareUrl}/` })
  bare.close()

  const results: Array<{ store: string; noop: Figures; send: Figures }> = []

  const only = process.env.TUMA_BENCH_ONLY
  // embedded
  if (only !== "postgres") {
    const dir = mkdtempSync(join(tmpdir(), "tuma-bench-"))
    try {
      const { child, url } = await startTuma({ TUMA_DATA_DIR: dir })
      try {
        const key = await seed(url)
        const noop = await measure("no-op GET /healthz (embedded)", { url: `${url}/healthz` })
        const send = await measure("single send, live key (embedded)", sendOptions(url, key))
        results.push({ store: "embedded (PGlite)", noop, send })
      } finally {
        await stop(child)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  // PostgreSQL
  if (only !== "embedded") {
    const db = await scratchDatabase()
    try {
      const { child, url } = await startTuma({ DATABASE_URL: db.url, DATABASE_POOL_SIZE: "20" })
      try {
        const key = await seed(url)
        const noop = await measure("no-op GET /healthz (PostgreSQL)", { url: `${url}/healthz` })
        const send = await measure("single send, live key (PostgreSQL)", sendOptions(url, key))
        results.push({ store: "PostgreSQL", noop, send })
      } finally {
        await stop(child)
      }
    } finally {
      await db.drop()
    }
  }

  console.log("\nratios (accepted sends/s ÷ no-op req/s of the same server; no-op ÷ bare node:http)")
  for (const r of results) {
    console.log(
      `  ${r.store.padEnd(18)} send/no-op ${(r.send.rps / r.noop.rps * 100).toFixed(0)}%   no-op/bare ${
        (r.noop.rps / bareF.rps * 100).toFixed(0)
      }%   send p99 ${r.send.p99} ms`
    )
  }
  const pgResult = results.find((r) => r.store === "PostgreSQL")
  if (pgResult) {
    const ok = pgResult.send.rps >= 0.5 * pgResult.noop.rps && pgResult.send.p99 <= 50
    console.log(`\ntarget (PostgreSQL send ≥ 50% of no-op, p99 ≤ 50 ms): ${ok ? "met" : "NOT met"}`)
  }
  if (OBSERVABILITY !== "0") await overheads()
}

const overheads = async () => {
  const only = process.env.TUMA_BENCH_ONLY
  if (only !== "postgres") {
    await observabilityOverhead("embedded", async () => {
      const dir = mkdtempSync(join(tmpdir(), "tuma-bench-"))
      return { env: { TUMA_DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) }
    })
  }
  if (only !== "embedded") {
    await observabilityOverhead("PostgreSQL", async () => {
      const db = await scratchDatabase()
      return { env: { DATABASE_URL: db.url, DATABASE_POOL_SIZE: "20" }, cleanup: async () => void (await db.drop()) }
    })
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(e)
  process.exit(1)
})
