/**
 * `pnpm bench:smpp-throttle`: the throughput of SMPP credentials across processes. `tuma serve --workers 2`
 * on a scratch PostgreSQL database; credentials of RATE parts/s (burst = RATE); BINDS transceivers (the
 * cluster spreads them over the processes), each offering 2 × RATE / BINDS submits per second, paced, for
 * DURATION_S seconds. Prints the accepted rate over the steady state (after the first 2 s, which spend the
 * burst) against the rate: the rule is ±5 %. `ratio` = (accepted − burst) / the span from the first to
 * the last acceptance / RATE (a loaded server answers late, so a fixed window by answer time reads low).
 *   RATE=200 BINDS=2 DURATION_S=12 WORKERS=2 pnpm bench:smpp-throttle
 */
import smpp from "smpp"
import { bindTransceiver, newCounts, submitFields } from "./esme.js"
import { loadAverage, scratchDatabase, seed, startTuma } from "./tuma.js"

const RATE = Number(process.env.RATE ?? 200)
const BINDS = Number(process.env.BINDS ?? 2)
const DURATION_S = Number(process.env.DURATION_S ?? 12)
const WORKERS = process.env.WORKERS ?? "2"
const WARM_S = 2

const db = scratchDatabase()
const tuma = await startTuma(db.url, { args: ["--workers", WORKERS] })
try {
  const creds = await seed(tuma.base, { rate: RATE, burst: RATE })
  const counts = newCounts()
  const sessions = []
  for (let b = 0; b < BINDS; b++) {
    const s = await bindTransceiver(tuma.smppPort, creds.systemId, creds.password, counts)
    if (s === undefined) throw new Error("bind refused")
    sessions.push(s)
  }
  const fields = submitFields("BENCH")
  const perSecond = (2 * RATE) / BINDS
  const accepted: Array<number> = []
  const statuses = new Map<number, number>()
  const start = performance.now()
  let n = 0
  const pending: Array<Promise<void>> = []
  for (let tick = 0; tick < DURATION_S * 100; tick++) {
    for (const s of sessions) {
      const due = Math.floor(((tick + 1) * perSecond) / 100) - Math.floor((tick * perSecond) / 100)
      for (let k = 0; k < due; k++) {
        const i = n++
        pending.push(
          new Promise<void>((resolve) =>
            s.send(new smpp.PDU("submit_sm", fields(i)), (resp: smpp.PDU) => {
              statuses.set(resp.command_status, (statuses.get(resp.command_status) ?? 0) + 1)
              if (resp.command_status === 0) accepted.push((performance.now() - start) / 1000)
              resolve()
            })
          )
        )
      }
    }
    const wait = start + (tick + 1) * 10 - performance.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
  }
  const offeredS = (performance.now() - start) / 1000
  await Promise.all(pending)
  const steady = accepted.filter((t) => t >= WARM_S && t < DURATION_S).length / (DURATION_S - WARM_S)
  // the whole run: what the bucket gave beyond the burst, over the span of the acceptances
  const span = accepted.length > 1 ? accepted[accepted.length - 1]! - accepted[0]! : 1
  const overall = (accepted.length - RATE) / span
  const ratio = overall / RATE
  const codes = [...statuses].map(([c, k]) => `0x${c.toString(16)}:${k}`).join(",")
  console.log(
    `smpp-throttle: rate=${RATE}/s offered=${(n / offeredS).toFixed(0)}/s binds=${BINDS} workers=${WORKERS} ` +
      `accepted_total=${accepted.length} span_s=${span.toFixed(2)} accepted_past_burst=${overall.toFixed(1)}/s ` +
      `steady_window=${steady.toFixed(1)}/s ratio=${ratio.toFixed(3)} ` +
      `within_5pct=${Math.abs(ratio - 1) <= 0.05} statuses=${codes} load=${loadAverage()}`
  )
  sessions.forEach((s) => s.close())
} finally {
  await tuma.stop()
  db.drop()
}
