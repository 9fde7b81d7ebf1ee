/**
 * `pnpm bench:day`: a day's busiest hour, compressed. `tuma serve` (`--workers N` HTTP processes; delivery
 * workers in process 1) plus `tuma worker` processes on a scratch PostgreSQL database, one SMPP provider
 * pointed at a loopback carrier (`smsc.ts`, a child process) that throttles every bind at
 * BENCH_DAY_BIND_RATE (500) submit_sm/s with ESME_RTHROTTLED and sends each receipt 1 s later; every
 * delivery process binds once, so BENCH_DAY_BINDS (2) processes make the carrier's two binds. The
 * provider paces each bind at the carrier's rate (`maxPerSecondPerBind`, BENCH_DAY_BIND_PACE, 0 = none)
 * and has no cluster-wide `maxPerSecond` unless BENCH_DAY_PACE gives one.
 *
 * The hour: 500 campaigns of 1,000 personalised recipients (`POST /v2/sms/send-bulk`) and 100,000 single
 * sends (`POST /v1/sms/messages`) at seeded random moments, played BENCH_DAY_COMPRESSION (6) times
 * faster; BENCH_DAY_SCALE (1) scales both counts (0.02: 10 campaigns, 2,000 singles). Sampled every
 * second: the dispatch queue (rows of `dispatch_queue`), messages at the carrier awaiting their receipt,
 * accepted and carrier-accepted per second. At the end (everything final, or BENCH_DAY_DRAIN_S): nothing
 * lost, every message final, receipts matched, per-bind and per-provider throughput over the backlogged
 * seconds (≥ BENCH_DAY_BACKLOG queue rows, default half a second of the limit) against the carrier's
 * limit, delays accept → sent and sent → delivered, CPU per message (the server's processes and every
 * PostgreSQL process: on a shared server, others' too); the plot goes to BENCH_DAY_PNG
 * (docs/performance-day.png). Any TUMA_DELIVERY_* variable is passed on to the server and workers.
 *   BENCH_DAY_SCALE=0.02 BENCH_DAY_COMPRESSION=60 pnpm bench:day [--workers N]
 */
import { fork, spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { cpuTicks, loadAverage, scratchDatabase, startTuma } from "../smpp/tuma.js"
import { newLoadResult, poster, runCampaigns, runSingles } from "./load.js"
import { type CarrierStats, drawDay, type RunSample, summarise } from "./outcome.js"
import { check, delays, queryAsync, sentPerSecond, unfinished } from "./report.js"
import { seedDay } from "./seed.js"
import { planDay, scaledLoad } from "./series.js"

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const SCALE = env("BENCH_DAY_SCALE", 1)
const COMPRESSION = env("BENCH_DAY_COMPRESSION", 6)
const CAMPAIGN_SIZE = env("BENCH_DAY_CAMPAIGN_SIZE", 1000)
const BINDS = env("BENCH_DAY_BINDS", 2)
const BIND_RATE = env("BENCH_DAY_BIND_RATE", 500)
const PACE = env("BENCH_DAY_PACE", 0)
const BIND_PACE = env("BENCH_DAY_BIND_PACE", BIND_RATE)
const DRAIN_S = env("BENCH_DAY_DRAIN_S", 900)
const BACKLOG = env("BENCH_DAY_BACKLOG", (BINDS * BIND_RATE) / 2)
const PNG = process.env.BENCH_DAY_PNG ?? new URL("../../../../docs/performance-day.png", import.meta.url).pathname
const workersFlag = process.argv.indexOf("--workers")
const HTTP_WORKERS = workersFlag >= 0 ? process.argv[workersFlag + 1] ?? "1" : "1"
const source = ["--conditions=@tuma/source", "--import", "tsx"]
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const carrier = fork(new URL("./smsc.ts", import.meta.url).pathname, [], { execArgv: source })
const carrierAsk = (ids = false) =>
  new Promise<CarrierStats>((resolve) => {
    const on = (m: CarrierStats & { type: string }) => {
      if (m.type !== "stats") return
      carrier.off("message", on)
      resolve(m)
    }
    carrier.on("message", on)
    carrier.send({ type: "stats", ids })
  })
const carrierPort = await new Promise<number>((resolve) =>
  carrier.on("message", (m: { type: string; port?: number }) => m.type === "listening" && resolve(m.port ?? 0))
)

const db = scratchDatabase("tuma_day_bench")
const tuma = await startTuma(db.url, { args: ["--workers", HTTP_WORKERS] })
const extra: Array<ChildProcess> = []
try {
  const key = await seedDay(tuma.base, { port: carrierPort, maxPerSecond: PACE, maxPerSecondPerBind: BIND_PACE })
  for (let i = 1; i < BINDS; i++) {
    extra.push(spawn(process.execPath, [...source, "packages/http/src/bin.ts", "worker"], {
      cwd: new URL("../../../../", import.meta.url).pathname,
      detached: true,
      stdio: "ignore",
      env: { ...process.env, DATABASE_URL: db.url, NODE_ENV: "production" }
    }))
  }
  for (let waited = 0; (await carrierAsk()).liveBinds < BINDS; waited += 250) {
    if (waited > 120_000) throw new Error(`the carrier has fewer than ${BINDS} binds after 120 s`)
    await sleep(250)
  }
  const load = scaledLoad(SCALE, COMPRESSION)
  const plan = planDay(load)
  const pids = [tuma.child.pid!, ...extra.map((c) => c.pid!)]
  const cpu0 = cpuTicks(pids)
  const startedAtEpoch = Date.now()
  const startedAt = performance.now()
  const result = newLoadResult()
  const samples: Array<RunSample> = []
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      const next = performance.now() + 1000
      const [queue, stats] = await Promise.all([
        queryAsync(db.url, "SELECT count(*) FROM dispatch_queue"),
        carrierAsk()
      ])
      samples.push({
        t: (performance.now() - startedAt) / 1000,
        queue: Number(queue[0]?.[0] ?? NaN),
        accepted: result.accepted.size,
        atCarrier: stats.accepted,
        awaitingReceipt: stats.accepted - stats.receiptsAcked,
        load: Number(loadAverage())
      })
      await sleep(Math.max(0, next - performance.now()))
    }
  })()
  console.log(
    `bench-day: campaigns=${load.campaigns}x${CAMPAIGN_SIZE} singles=${load.singles} over ${
      (load.spanMs / 1000).toFixed(0)
    } s (compression ${COMPRESSION}) binds=${BINDS}x${BIND_RATE}/s pace=${PACE} bind_pace=${BIND_PACE} http_workers=${HTTP_WORKERS} ` +
      `load=${loadAverage()}`
  )
  const { post, close } = poster(tuma.base, key)
  await Promise.all([
    runSingles(post, plan.singles, startedAt, result),
    runCampaigns(post, plan.campaigns, CAMPAIGN_SIZE, startedAt, result)
  ])
  close()
  const offeredS = (performance.now() - startedAt) / 1000
  const drainDeadline = performance.now() + DRAIN_S * 1000
  let left = unfinished(db.url)
  while (left > 0 && performance.now() < drainDeadline) {
    await sleep(2000)
    left = unfinished(db.url)
  }
  await sleep(1500) // the last receipts' acknowledgements reach the carrier
  const finalS = (performance.now() - startedAt) / 1000
  sampling = false
  await sampler
  const cpuS = (cpuTicks(pids) - cpu0) / 100
  const stats = await carrierAsk(true)
  const checks = check(db.url, result.accepted, stats.ids ?? [])
  const { slices, whole } = delays(db.url, startedAtEpoch, Math.max(5, Math.round(finalS / 60)))
  const perProvider = sentPerSecond(db.url, startedAtEpoch)
  const summary = summarise({
    checks,
    stats,
    samples,
    perProvider,
    result,
    whole,
    run: {
      startedAtEpoch,
      offeredS,
      finalS,
      cpuS,
      binds: BINDS,
      bindRate: BIND_RATE,
      backlog: BACKLOG,
      load: loadAverage()
    }
  })
  summary.lines.forEach((l) => console.log(l))
  drawDay(PNG, { samples, slices, carrier: summary.carrierPerSecond, acceptedPerSecond: result.acceptedPerSecond }, {
    binds: BINDS,
    bindRate: BIND_RATE,
    caption: summary.caption
  })
  console.log(`bench-day: plot ${PNG}`)
  if (!summary.ok) process.exitCode = 1
} finally {
  await tuma.stop()
  for (const c of extra) {
    try {
      process.kill(-c.pid!, "SIGTERM")
    } catch { /* gone */ }
  }
  carrier.kill()
  await sleep(1000)
  db.drop()
}
