/**
 * An ESME for the SMPP benchmarks and the chaos test, over the `smpp` npm package (node-smpp): binds a
 * transceiver, pipelines submit_sm with a window, answers every deliver_sm and counts the receipts by
 * `receipted_message_id`. A submit refused as temporary (ESME_RX_T_APPN, ESME_RTHROTTLED, ESME_RMSGQFUL)
 * goes back in the queue, as Kannel and Jasmin do; one in flight when the connection drops is counted
 * `unanswered` (it may or may not have been accepted: its receipt, if any, tells).
 */
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the ambient types of the untyped `smpp` package
/// <reference path="../../../providers/src/smpp/smpp-module.d.ts" />
import smpp from "smpp"

/** What the ESME counted so far (shared across its reconnections). */
export interface EsmeCounts {
  /** message_id of every submit answered ESME_ROK. */
  readonly accepted: Set<string>
  /** Receipts received, by receipted_message_id (a count above 1 is a duplicate). */
  readonly receipts: Map<string, number>
  /** submit_sm_resp latencies (ms), in order. */
  readonly latencies: Array<number>
  unanswered: number
  refused: number
  retried: number
}

/** Fresh counts. */
export const newCounts = (): EsmeCounts => ({
  accepted: new Set(),
  receipts: new Map(),
  latencies: [],
  unanswered: 0,
  refused: 0,
  retried: 0
})

/** A bound transceiver that answers and counts every receipt; undefined when the bind failed. */
export const bindTransceiver = (
  port: number,
  systemId: string,
  password: string,
  counts: EsmeCounts
) =>
  new Promise<smpp.Session | undefined>((resolve) => {
    const session = smpp.connect({ url: `smpp://127.0.0.1:${port}` }, () => {
      session.send(
        new smpp.PDU("bind_transceiver", { system_id: systemId, password, interface_version: 0x34 }),
        (resp: smpp.PDU) => resolve(resp.command_status === 0 ? session : undefined)
      )
    })
    session.on("error", () => resolve(undefined))
    session.on("close", () => resolve(undefined))
    session.on("deliver_sm", (pdu: smpp.PDU) => {
      const id = String(pdu.receipted_message_id ?? "")
      counts.receipts.set(id, (counts.receipts.get(id) ?? 0) + 1)
      session.send(pdu.response())
    })
    session.on("enquire_link", (pdu: smpp.PDU) => session.send(pdu.response()))
  })

const TEMPORARY = new Set([0x64, 0x58, 0x14])

/**
 * Submits the queue's messages with `window` in flight until the queue is empty or the connection
 * drops; `fields(i)` makes message i's submit_sm. Answers when done or dropped.
 */
export const submitAll = (
  session: smpp.Session,
  queue: Array<number>,
  options: {
    readonly window: number
    readonly counts: EsmeCounts
    readonly fields: (i: number) => Record<string, unknown>
    /** Called after every answer (the chaos drives its disruptions from here). */
    readonly answered?: () => void
    /** Stop sending new submits (e.g. the measured time is over). */
    readonly stop?: () => boolean
  }
) =>
  new Promise<void>((resolve) => {
    let inFlight = 0
    let closed = false
    const { counts } = options
    session.on("close", () => {
      if (closed) return
      closed = true
      counts.unanswered += inFlight
      resolve()
    })
    const next = () => {
      while (!closed && inFlight < options.window && queue.length > 0 && options.stop?.() !== true) {
        const i = queue.shift()!
        inFlight++
        const sentAt = performance.now()
        session.send(new smpp.PDU("submit_sm", options.fields(i)), (resp: smpp.PDU) => {
          if (closed) return
          inFlight--
          counts.latencies.push(performance.now() - sentAt)
          if (resp.command_status === 0) counts.accepted.add(String(resp.message_id))
          else if (TEMPORARY.has(resp.command_status)) {
            counts.retried++
            queue.push(i)
          } else counts.refused++
          options.answered?.()
          next()
        })
      }
      if (!closed && inFlight === 0 && (queue.length === 0 || options.stop?.() === true)) {
        closed = true
        resolve()
      }
    }
    next()
  })

/** A standard submit_sm to a distinct Tanzanian number with a distinct text. */
export const submitFields = (sender: string) => (i: number) => ({
  source_addr: sender,
  dest_addr_ton: 1,
  destination_addr: `2557${String(10_000_000 + i).slice(-8)}`,
  short_message: Buffer.from(`Chaos and bench message number ${i} from the ESME`)
})

/** Receipts summed up against what the store holds: distinct, duplicates, accepted without one. */
export const receiptSummary = (counts: EsmeCounts) => {
  let duplicates = 0
  for (const n of counts.receipts.values()) duplicates += n - 1
  const missing = [...counts.accepted].filter((id) => !counts.receipts.has(id)).length
  return { distinct: counts.receipts.size, duplicates, acceptedWithoutReceipt: missing }
}
