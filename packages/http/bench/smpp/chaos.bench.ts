/**
 * `pnpm bench:smpp-chaos`: TOTAL (10,000) submits over a transceiver with a window of 50 against
 * `tuma serve` on a scratch PostgreSQL database (delivery on, the simulated carrier), while the ESME's
 * connection is cut (destroyed, no unbind) at 30 % and Tuma restarts at 60 % (SIGTERM, or SIGKILL with
 * KILL=1; a new process on the same ports). Then it waits for the receipts and prints the counts: stored
 * messages, receipt rows, receipts at the ESME (distinct, duplicates), accepted submits without one.
 * Messages the simulated carrier held in memory when Tuma stopped get their late receipt written by SQL,
 * as a carrier's would arrive.
 *   TOTAL=10000 KILL=0 pnpm bench:smpp-chaos
 */
import { execFileSync } from "node:child_process"
import { bindTransceiver, newCounts, receiptSummary, submitAll, submitFields } from "./esme.js"
import type { TumaProcess } from "./tuma.js"
import { loadAverage, scratchDatabase, seed, startTuma } from "./tuma.js"

const TOTAL = Number(process.env.TOTAL ?? 10_000)
const SIGNAL = process.env.KILL === "1" ? "SIGKILL" : "SIGTERM"

const db = scratchDatabase()
const psql = (q: string) => execFileSync("psql", [db.url, "-Atqc", q]).toString().trim()
let tuma: TumaProcess = await startTuma(db.url)
const ports = { port: Number(new URL(tuma.base).port), smppPort: tuma.smppPort }
try {
  const creds = await seed(tuma.base, { rate: 10_000 })
  const counts = newCounts()
  const queue = Array.from({ length: TOTAL }, (_, i) => i)
  let answered = 0
  let cut = false
  let restart: Promise<void> | undefined
  const t0 = Date.now()
  let session = await bindTransceiver(ports.smppPort, creds.systemId, creds.password, counts)
  while (queue.length > 0 || session === undefined) {
    if (session !== undefined) {
      const current = session
      await submitAll(current, queue, {
        window: 50,
        counts,
        fields: submitFields("BENCH"),
        answered: () => {
          answered++
          if (!cut && answered >= TOTAL * 0.3) {
            cut = true
            current.socket.destroy()
          }
          if (cut && restart === undefined && answered >= TOTAL * 0.6) {
            restart = tuma.stop(SIGNAL).then(async () => {
              tuma = await startTuma(db.url, ports)
            })
          }
        }
      })
    }
    if (restart !== undefined) await restart
    else if (session === undefined) await new Promise((r) => setTimeout(r, 200))
    session = await bindTransceiver(ports.smppPort, creds.systemId, creds.password, counts)
  }
  const submitMs = Date.now() - t0
  const stored = () => Number(psql("SELECT count(*) FROM messages WHERE channel = 'smpp'"))
  const acknowledged = () => Number(psql("SELECT count(*) FROM smpp_receipts WHERE state = 'acknowledged'"))
  const settle = async (ms: number, done: () => boolean) => {
    const end = Date.now() + ms
    while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 500))
  }
  await settle(
    20_000,
    () =>
      acknowledged() + Number(psql("SELECT count(*) FROM messages WHERE channel = 'smpp' AND status = 'sent'")) >=
        stored()
  )
  psql(
    "UPDATE messages SET status = 'delivered', delivered_at = now(), updated_at = now() WHERE channel = 'smpp' AND status = 'sent'"
  )
  // a receipt leased by a killed process comes back when its lease ends (35 s)
  await settle(90_000, () => acknowledged() >= stored() && counts.receipts.size >= stored())
  const r = receiptSummary(counts)
  const rows = Number(psql("SELECT count(*) FROM smpp_receipts"))
  const m = stored()
  console.log(
    `smpp-chaos: submits=${TOTAL} restart=${SIGNAL} accepted=${counts.accepted.size} unanswered=${counts.unanswered} ` +
      `retried=${counts.retried} refused=${counts.refused} stored=${m} receipt_rows=${rows} ` +
      `receipts_at_esme=${r.distinct} duplicates=${r.duplicates} accepted_without_receipt=${r.acceptedWithoutReceipt} ` +
      `lost=${m - r.distinct} submit_s=${(submitMs / 1000).toFixed(1)} load=${loadAverage()}`
  )
  session.close()
} finally {
  await tuma.stop()
  db.drop()
}
