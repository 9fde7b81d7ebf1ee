/**
 * The loopback carrier of `pnpm bench:day`, run as a child process (a carrier is another machine; here
 * it at least has its own event loop): an SMSC on the `smpp` package's server that throttles each bind
 * on its own — at most `BENCH_DAY_BIND_RATE` (500) submit_sm accepted in any 1,000 ms by one bind (a
 * sliding window per session, so no calendar second holds more), ESME_RTHROTTLED past it, as carriers meter their binds — and sends a DELIVRD
 * receipt for every accepted submit `BENCH_DAY_RECEIPT_MS` (1,000) ms later, re-sent until a
 * deliver_sm_resp with status 0 comes back (also after a reconnect). Counts per bind, per second.
 *
 * IPC: sends `{ type: "listening", port }`; answers `{ type: "stats" }` with the counters (and, with
 * `ids: true`, every accepted message id); exits with the parent.
 */
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the ambient types of the untyped `smpp` package
/// <reference path="../../../providers/src/smpp/smpp-module.d.ts" />
import { ESM_CLASS_RECEIPT, formatReceiptText } from "@tuma/providers/smpp/codec"
import smpp from "smpp"

const BIND_RATE = Number(process.env.BENCH_DAY_BIND_RATE ?? 500)
const RECEIPT_MS = Number(process.env.BENCH_DAY_RECEIPT_MS ?? 1000)
const started = Date.now()

/** One bind's counters: accepted and throttled submits, accepted per second since the SMSC started. */
interface Bind {
  readonly n: number
  accepted: number
  throttled: number
  readonly perSecond: Array<number>
  /** When each of the last BIND_RATE accepted submits was accepted (a ring, oldest at `next`). */
  readonly recent: Array<number>
  next: number
}

interface Receipt {
  readonly id: string
  readonly source: string
  readonly destination: string
  readonly submitted: Date
}

const binds: Array<Bind> = []
/** Bound sessions, each with its receipts sent and not yet answered (re-queued if it closes). */
const live = new Map<smpp.Session, Set<Receipt>>()
const accepted: Array<string> = []
const receiptsAcked = new Map<string, number>()
const waiting: Array<Receipt> = []
const counters = { submits: 0, receiptsSent: 0, receiptsNacked: 0, unbound: 0 }
let nextId = 0x1d00_0000
let rr = 0

const second = () => Math.floor((Date.now() - started) / 1000)

const pickSession = (): smpp.Session | undefined => {
  const sessions = [...live.keys()].filter((s) => s.socket.writable)
  if (sessions.length === 0) return undefined
  rr = (rr + 1) % sessions.length
  return sessions[rr]
}

let pumping = false
/** Sends every waiting receipt to a live bind; one unanswered or refused goes back in the queue. */
const pump = () => {
  if (pumping) return
  pumping = true
  setImmediate(() => {
    pumping = false
    while (waiting.length > 0) {
      const session = pickSession()
      if (session === undefined) return
      const r = waiting.shift()!
      counters.receiptsSent++
      const inFlight = live.get(session)!
      inFlight.add(r)
      session.deliver_sm({
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: r.destination,
        dest_addr_ton: 5,
        destination_addr: r.source,
        esm_class: ESM_CLASS_RECEIPT,
        data_coding: 0,
        short_message: { message: formatReceiptText(r.id, "DELIVRD", "000", r.submitted, new Date(), "") },
        receipted_message_id: r.id,
        message_state: 2
      }, (resp: smpp.PDU) => {
        inFlight.delete(r)
        if (resp.command_status === 0) receiptsAcked.set(r.id, (receiptsAcked.get(r.id) ?? 0) + 1)
        else {
          counters.receiptsNacked++
          setTimeout(() => {
            waiting.push(r)
            pump()
          }, 200)
        }
      })
    }
  })
}

const onSubmit = (session: smpp.Session, bind: Bind | undefined, pdu: smpp.PDU) => {
  counters.submits++
  if (bind === undefined) {
    counters.unbound++
    session.send(pdu.response({ command_status: smpp.ESME_RINVBNDSTS }))
    return
  }
  const now = Date.now()
  if (now - (bind.recent[bind.next] ?? -Infinity) < 1000) {
    bind.throttled++
    session.send(pdu.response({ command_status: smpp.ESME_RTHROTTLED }))
    return
  }
  bind.recent[bind.next] = now
  bind.next = (bind.next + 1) % BIND_RATE
  bind.accepted++
  const s = second()
  bind.perSecond[s] = (bind.perSecond[s] ?? 0) + 1
  const id = (nextId++).toString(16)
  accepted.push(id)
  session.send(pdu.response({ message_id: id }))
  const receipt = {
    id,
    source: String(pdu.source_addr ?? ""),
    destination: String(pdu.destination_addr ?? ""),
    submitted: new Date(now)
  }
  setTimeout(() => {
    waiting.push(receipt)
    pump()
  }, RECEIPT_MS)
}

const server = smpp.createServer({}, (session: smpp.Session) => {
  let bind: Bind | undefined
  session.on("error", () => {})
  session.on("bind_transceiver", (pdu: smpp.PDU) => {
    bind = { n: binds.length + 1, accepted: 0, throttled: 0, perSecond: [], recent: [], next: 0 }
    binds.push(bind)
    live.set(session, new Set())
    session.send(pdu.response({ system_id: "DAYSMSC" }))
    pump()
  })
  session.on("enquire_link", (pdu: smpp.PDU) => session.send(pdu.response()))
  session.on("unbind", (pdu: smpp.PDU) => {
    session.send(pdu.response())
    session.close()
  })
  session.on("submit_sm", (pdu: smpp.PDU) => onSubmit(session, bind, pdu))
  session.on("close", () => {
    const inFlight = live.get(session)
    live.delete(session)
    if (inFlight !== undefined && inFlight.size > 0) {
      waiting.push(...inFlight)
      pump()
    }
  })
})

server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  process.send!({ type: "listening", port: typeof address === "object" && address !== null ? address.port : 0 })
})

process.on("message", (m: { readonly type: string; readonly ids?: boolean }) => {
  if (m.type !== "stats") return
  let duplicates = 0
  for (const n of receiptsAcked.values()) duplicates += n - 1
  process.send!({
    type: "stats",
    startedAt: started,
    liveBinds: live.size,
    binds: binds.map((b) => ({ n: b.n, accepted: b.accepted, throttled: b.throttled, perSecond: [...b.perSecond] })),
    accepted: accepted.length,
    receiptsAcked: receiptsAcked.size,
    receiptsAckedTwice: duplicates,
    receiptsWaiting: waiting.length,
    ...counters,
    ids: m.ids === true ? accepted : undefined
  })
})
process.on("disconnect", () => process.exit(0))
