/**
 * What `pnpm bench:day` reads back from the store after the run (psql on the scratch database): every
 * accepted message's state and carrier reference, the delays per slice of the run, what each provider
 * sent per second, and the receipts left unmatched. Then the checks: nothing lost, everything final,
 * receipts matched to messages.
 */
import { execFile, execFileSync } from "node:child_process"

/** Rows of a query, tab-separated columns (psql unaligned, tuples only). */
export const query = (url: string, statement: string): Array<Array<string>> =>
  execFileSync("psql", [url, "-AtqX", "-F", "\t", "-c", statement], { maxBuffer: 1 << 30 })
    .toString()
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => l.split("\t"))

/** The same query without blocking the event loop (the sampler runs beside the load). */
export const queryAsync = (url: string, statement: string) =>
  new Promise<Array<Array<string>>>((resolve) =>
    execFile(
      "psql",
      [url, "-AtqX", "-F", "\t", "-c", statement],
      (err, out) => resolve(err ? [] : out.split("\n").filter((l) => l.length > 0).map((l) => l.split("\t")))
    )
  )

/** Messages not yet final (queued, processing, sent, scheduled). */
export const unfinished = (url: string) =>
  Number(query(url, `SELECT count(*) FROM messages WHERE status NOT IN ('delivered', 'failed')`)[0]?.[0] ?? NaN)

/** The checks of the run's end: nothing lost, every message final, receipts matched. */
export interface Checks {
  readonly accepted: number
  readonly stored: number
  /** Accepted uids the store does not hold. */
  readonly lost: number
  readonly byStatus: Record<string, number>
  readonly unfinished: number
  /** Delivered messages whose carrier reference is one the SMSC accepted and sent a receipt for. */
  readonly receiptsMatched: number
  /** Delivered messages with a reference the SMSC never gave. */
  readonly unknownReference: number
  /** SMSC ids no message holds (a submit repeated: the message kept the other id). */
  readonly orphanIds: number
  readonly pendingReceipts: number
}

/** Compares what the customers were told (accepted uids) and the carrier accepted (ids) with the store. */
export const check = (url: string, accepted: ReadonlySet<string>, carrierIds: ReadonlyArray<string>): Checks => {
  const rows = query(url, `SELECT id, status, coalesce(lower(provider_message_id), '') FROM messages`)
  const byStatus: Record<string, number> = {}
  const stored = new Set<string>()
  const refs = new Set<string>()
  const carrier = new Set(carrierIds.map((id) => id.replace(/^0+/, "")))
  let matched = 0
  let unknown = 0
  for (const [id, status, ref] of rows) {
    stored.add(id!)
    byStatus[status!] = (byStatus[status!] ?? 0) + 1
    const normal = ref!.replace(/^0+/, "")
    if (normal !== "") refs.add(normal)
    if (status === "delivered") {
      if (carrier.has(normal)) matched++
      else unknown++
    }
  }
  let lost = 0
  for (const uid of accepted) if (!stored.has(uid)) lost++
  let orphans = 0
  for (const id of carrier) if (!refs.has(id)) orphans++
  return {
    accepted: accepted.size,
    stored: stored.size,
    lost,
    byStatus,
    unfinished: rows.length - (byStatus.delivered ?? 0) - (byStatus.failed ?? 0),
    receiptsMatched: matched,
    unknownReference: unknown,
    orphanIds: orphans,
    pendingReceipts: Number(query(url, `SELECT count(*) FROM delivery_receipts_pending`)[0]?.[0] ?? NaN)
  }
}

/** Delays (s) of the messages accepted in one slice of the run: accept → sent, sent → delivered. */
export interface DelaySlice {
  readonly t: number
  readonly n: number
  readonly sentP50: number
  readonly sentP95: number
  readonly deliveredP50: number
  readonly deliveredP95: number
}

const pct = (q: number, from: string, to: string) =>
  `percentile_cont(${q}) WITHIN GROUP (ORDER BY extract(epoch FROM ${to} - ${from}))`

/** Delays by slice of `sliceS` seconds of acceptance time, from `startMs` (epoch ms); then over the whole run. */
export const delays = (url: string, startMs: number, sliceS: number) => {
  const cols = `count(*), ${pct(0.5, "created_at", "sent_at")}, ${pct(0.95, "created_at", "sent_at")}, ` +
    `${pct(0.5, "sent_at", "delivered_at")}, ${pct(0.95, "sent_at", "delivered_at")}`
  const toSlice = (r: Array<string>, t: number): DelaySlice => ({
    t,
    n: Number(r[0]),
    sentP50: Number(r[1]),
    sentP95: Number(r[2]),
    deliveredP50: Number(r[3]),
    deliveredP95: Number(r[4])
  })
  const start = `to_timestamp(${startMs / 1000})`
  const slices = query(
    url,
    `SELECT floor(extract(epoch FROM created_at - ${start}) / ${sliceS}), ${cols} FROM messages GROUP BY 1 ORDER BY 1`
  ).map(([b, ...r]) => toSlice(r, Number(b) * sliceS))
  const whole = toSlice(query(url, `SELECT ${cols} FROM messages`)[0] ?? [], 0)
  return { slices, whole }
}

/** Messages each provider marked sent, per second of the run (from `startMs`). */
export const sentPerSecond = (url: string, startMs: number) => {
  const out = new Map<string, Array<number>>()
  const rows = query(
    url,
    `SELECT p.name, floor(extract(epoch FROM m.sent_at - to_timestamp(${startMs / 1000}))), count(*)
       FROM messages m JOIN providers p ON p.id = m.provider_id WHERE m.sent_at IS NOT NULL GROUP BY 1, 2`
  )
  for (const [name, s, n] of rows) {
    const series = out.get(name!) ?? []
    series[Number(s)] = Number(n)
    out.set(name!, series)
  }
  return out
}
