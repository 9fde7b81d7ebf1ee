/**
 * The Tuma half of `pnpm bench:smpp`: submit_sm over one transceiver bind with a window of WINDOW (100)
 * for DURATION_S (12) s against `tuma serve` on a scratch PostgreSQL database, delivery on (the simulated
 * carrier delivers, receipts come back as deliver_sm and are answered). Prints accepted/s, the
 * submit_sm_resp p50/p99, and the CPU per accepted message of Tuma's process tree and of every PostgreSQL
 * process (over the load and a 3 s drain), and the two apart (`server_us_per_msg`, `pg_us_per_msg`), as
 * `smpp-bench: …`.
 */
import { bindTransceiver, newCounts, submitAll, submitFields } from "./esme.js"
import { cpuTicks, loadAverage, postgresTicks, scratchDatabase, seed, startTuma } from "./tuma.js"

const WINDOW = Number(process.env.WINDOW ?? 100)
const DURATION_S = Number(process.env.DURATION_S ?? 12)
const WARMUP_S = Number(process.env.WARMUP_S ?? 3)

const db = scratchDatabase()
const tuma = await startTuma(db.url)
try {
  const creds = await seed(tuma.base, { rate: 10_000 })
  const counts = newCounts()
  const session = await bindTransceiver(tuma.smppPort, creds.systemId, creds.password, counts)
  if (session === undefined) throw new Error("bind refused")
  const fields = submitFields("BENCH")
  const run = async (seconds: number, from: number) => {
    const end = Date.now() + seconds * 1000
    const queue = Array.from({ length: 300_000 }, (_, i) => from + i)
    await submitAll(session, queue, { window: WINDOW, counts, fields, stop: () => Date.now() >= end })
  }
  await run(WARMUP_S, 0)
  counts.accepted.clear()
  counts.latencies.length = 0
  const pids = [tuma.child.pid!]
  const c0 = cpuTicks(pids)
  const p0 = postgresTicks()
  const t0 = performance.now()
  await run(DURATION_S, 1_000_000)
  const seconds = (performance.now() - t0) / 1000
  await new Promise((r) => setTimeout(r, 3_000))
  const c1 = cpuTicks(pids)
  const p1 = postgresTicks()
  const sorted = [...counts.latencies].sort((a, b) => a - b)
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN
  const accepted = counts.accepted.size
  const cpuUs = ((c1 - c0) / 100 / accepted) * 1e6
  const pgUs = ((p1 - p0) / 100 / accepted) * 1e6
  console.log(
    `smpp-bench: accepted_per_s=${(accepted / seconds).toFixed(0)} accepted=${accepted} window=${WINDOW} ` +
      `p50_ms=${q(0.5).toFixed(1)} p99_ms=${q(0.99).toFixed(1)} cpu_us_per_msg=${cpuUs.toFixed(0)} ` +
      `server_us_per_msg=${(cpuUs - pgUs).toFixed(0)} pg_us_per_msg=${pgUs.toFixed(0)} ` +
      `receipts_back=${counts.receipts.size} refused=${counts.refused} retried=${counts.retried} load=${loadAverage()}`
  )
  session.close()
} finally {
  await tuma.stop()
  db.drop()
}
