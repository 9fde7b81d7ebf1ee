/**
 * The customers of `pnpm bench:day`: single sends (`POST /v1/sms/messages`, a distinct recipient and
 * text each) fired when the plan says, at most `maxInFlight` at a time, and campaigns of personalised
 * recipients (`POST /v2/sms/send-bulk`, `{name}` and `{amount}` tags) fired at their moment whatever
 * is in flight. Every accepted message's uid is kept (the run checks each one reaches a final state).
 */
import { Agent, request } from "node:http"

/** What the customers saw: accepted uids, answers by HTTP status, accepted per second, lateness. */
export interface LoadResult {
  readonly accepted: Set<string>
  readonly statuses: Map<number, number>
  /** Messages accepted per second since the start (singles and campaign recipients). */
  readonly acceptedPerSecond: Array<number>
  /** Campaign recipients the API reported under `failures` (skipped). */
  skipped: number
  /** How late (ms) the latest single send was fired against its plan, at worst. */
  maxLagMs: number
  /** Campaign acceptance times (ms, request to answer). */
  readonly campaignMs: Array<number>
}

/** A fresh result. */
export const newLoadResult = (): LoadResult => ({
  accepted: new Set(),
  statuses: new Map(),
  acceptedPerSecond: [],
  skipped: 0,
  maxLagMs: 0,
  campaignMs: []
})

interface Answer {
  readonly status: number
  readonly body: { readonly data?: Record<string, unknown> }
}

/** POSTs JSON with the API key over kept-alive connections; network errors answer status 0. */
export const poster = (base: string, key: string) => {
  const url = new URL(base)
  const agent = new Agent({ keepAlive: true, maxSockets: 128 })
  const post = (path: string, body: unknown) =>
    new Promise<Answer>((resolve) => {
      const payload = Buffer.from(JSON.stringify(body))
      const req = request({
        agent,
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          "content-length": payload.length
        }
      }, (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => {
          let parsed: Answer["body"] = {}
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString()) as Answer["body"]
          } catch { /* not JSON: counted by status */ }
          resolve({ status: res.statusCode ?? 0, body: parsed })
        })
      })
      req.on("error", () => resolve({ status: 0, body: {} }))
      req.end(payload)
    })
  return { post, close: () => agent.destroy() }
}

const NAMES = ["Amina", "Baraka", "Chausiku", "Daudi", "Eliya", "Fatuma", "Gift", "Halima", "Imani", "Juma"]

/** Campaign c's recipients: distinct Tanzanian numbers, each with a name and an amount. */
export const campaignRecipients = (c: number, size: number) =>
  Array.from({ length: size }, (_, r) => ({
    to: `+25571${String(c).padStart(4, "0")}${String(r).padStart(3, "0")}`,
    name: NAMES[r % NAMES.length],
    amount: 1000 + ((c * 7919 + r * 104_729) % 90_000)
  }))

/** Single send i: its own recipient and text. */
export const singleBody = (i: number) => ({
  recipient: `+25575${String(i).padStart(7, "0")}`,
  sender_id: "BENCH",
  body: `Nambari yako ya uthibitisho ni ${String(100_000 + ((i * 7_777) % 900_000))} (ombi ${i}).`
})

const count = (result: LoadResult, status: number, accepted: number, startedAt: number) => {
  result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1)
  const s = Math.floor((performance.now() - startedAt) / 1000)
  result.acceptedPerSecond[s] = (result.acceptedPerSecond[s] ?? 0) + accepted
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Fires the single sends at their planned moments (ms after `startedAt`, a performance.now() reading). */
export const runSingles = async (
  post: ReturnType<typeof poster>["post"],
  times: ReadonlyArray<number>,
  startedAt: number,
  result: LoadResult,
  maxInFlight = 64
) => {
  let inFlight = 0
  let i = 0
  const pending = new Set<Promise<void>>()
  while (i < times.length) {
    const now = performance.now() - startedAt
    while (i < times.length && times[i]! <= now && inFlight < maxInFlight) {
      result.maxLagMs = Math.max(result.maxLagMs, now - times[i]!)
      inFlight++
      const p: Promise<void> = post("/v1/sms/messages", singleBody(i++)).then((a) => {
        inFlight--
        pending.delete(p)
        const uid = a.body.data?.uid
        if (a.status === 202 && typeof uid === "string") result.accepted.add(uid)
        count(result, a.status, a.status === 202 ? 1 : 0, startedAt)
      })
      pending.add(p)
    }
    await sleep(10)
  }
  await Promise.all([...pending])
}

/** Fires each campaign (`size` recipients) at its planned moment; resolves when every one is answered. */
export const runCampaigns = async (
  post: ReturnType<typeof poster>["post"],
  times: ReadonlyArray<number>,
  size: number,
  startedAt: number,
  result: LoadResult
) => {
  const fire = async (c: number) => {
    const wait = times[c]! - (performance.now() - startedAt)
    if (wait > 0) await sleep(wait)
    const t0 = performance.now()
    const a = await post("/v2/sms/send-bulk", {
      recipients: campaignRecipients(c, size),
      message: "Habari {name}, salio lako ni TSh {amount}. Asante kwa kutumia huduma zetu!",
      sender_id: "BENCH",
      campaign_name: `Siku ya kampeni ${c + 1}`
    })
    result.campaignMs.push(performance.now() - t0)
    const messages = a.body.data?.messages
    const failures = a.body.data?.failures
    let n = 0
    if (a.status === 202 && Array.isArray(messages)) {
      for (const m of messages) {
        const uid = typeof m === "object" && m !== null && "message_uid" in m ? m.message_uid : undefined
        if (typeof uid === "string") {
          result.accepted.add(uid)
          n++
        }
      }
    }
    if (Array.isArray(failures)) result.skipped += failures.length
    count(result, a.status, n, startedAt)
  }
  await Promise.all(times.map((_, c) => fire(c)))
}
