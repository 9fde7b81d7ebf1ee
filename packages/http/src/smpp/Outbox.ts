/**
 * The SMPP listener's outbox pump (docs/smpp.md "Receipts", "Inbound messages"): the final receipts
 * (`smpp_receipts`), the intermediate ones (`smpp_receipts_intermediate`) and the inbound messages
 * (`smpp_inbound`) due to the binds of this process, each written as deliver_sm to a receiver/transceiver
 * bind of its credentials and marked acknowledged only on deliver_sm_resp ESME_ROK — at least once. A
 * pass leases up to 100 of each, writes them, and records the acknowledged ones in one statement per
 * outbox once every deliver_sm of the pass was answered; one not acknowledged is due again after a
 * back-off (1 s × attempts, at most 60 s). Rows held past the hold are expired (counted in
 * `tuma_smpp_outbox_expired_total`).
 */
import type { DueInbound, DueReceipt, ReceiptKind } from "@tuma/core"
import { SmppStore } from "@tuma/core"
import { messageStateOf, receiptText } from "@tuma/domain"
import { wireParts } from "@tuma/providers"
import { Duration, Effect, Queue } from "effect"
import type { BindRegistry } from "./Binds.js"
import * as M from "./Metrics.js"
import { deliverMo, deliverReceipt } from "./Pdu.js"

/** The deliver_sm of a stored receipt (esm_class 0x04 final, 0x20 intermediate). */
const receiptPdus = (r: DueReceipt) => [
  (sequence: number) =>
    deliverReceipt({
      sequence,
      esmClass: r.status === "enroute" ? 0x20 : 0x04,
      sourceAddr: r.recipient,
      destinationAddr: r.sender_id,
      text: receiptText({
        messageId: r.message_id,
        status: r.status,
        submittedAt: r.submitted_at,
        doneAt: r.final_at,
        text: r.text
      }),
      messageId: r.message_id,
      messageState: messageStateOf(r.status),
      failed: r.status === "failed"
    })
]

/**
 * The deliver_sm of an inbound message: GSM-7 as it arrived (data_coding 0), anything else as UCS-2
 * (8); a text longer than one part as concatenated parts with an 8-bit reference UDH (esm_class 0x40).
 */
export const inboundPdus = (r: DueInbound) => {
  const reference = Number.parseInt(r.inbound_id.replace(/-/g, "").slice(-2), 16)
  return wireParts(r.text, r.encoding === "GSM-7" ? "GSM-7" : "Unicode", reference).map((part) => (sequence: number) =>
    deliverMo({
      sequence,
      sourceAddr: r.from_addr,
      destinationAddr: r.to_addr,
      shortMessage: part.shortMessage,
      esmClass: part.esmClass,
      dataCoding: part.dataCoding
    })
  )
}

/** What the pump needs of its listener. */
export interface PumpDeps {
  readonly binds: BindRegistry
  /** The listener's stop: no new passes, in-flight ones tracked (a stop waits for them). */
  readonly drain: {
    readonly stopping: boolean
    readonly trackEffect: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  }
  /** Offered when a bind comes up: the pump looks at once. */
  readonly wake: Queue.Queue<void>
  /** A deliver_sm not answered within this long is not delivered. */
  readonly responseTimeoutMs: number
  readonly pollMs: number
  readonly holdMillis: number
}

/** One outbox as a pass sees it. */
interface Outbox<Row> {
  readonly claim: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Row>>
  readonly idOf: (row: Row) => string
  readonly credentialsOf: (row: Row) => string
  readonly attemptsOf: (row: Row) => number
  readonly pdusOf: (row: Row) => ReadonlyArray<(sequence: number) => Buffer>
  readonly retry: (id: string, delayMillis: number) => Effect.Effect<void>
  readonly acknowledge: (rows: ReadonlyArray<Row>) => Effect.Effect<void>
}

/** Runs the pump and the expiry for the life of the scope. */
export const startPump = (deps: PumpDeps) =>
  Effect.gen(function*() {
    const store = yield* SmppStore
    const { binds, drain } = deps
    const lease = deps.responseTimeoutMs + 5_000
    const pass = <Row>(outbox: Outbox<Row>, ids: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const due = yield* outbox.claim(ids)
        const acked: Array<Row> = []
        const deliverOne = (row: Row) =>
          Effect.gen(function*() {
            const session = binds.receiverOf(outbox.credentialsOf(row))
            const ok = session === undefined
              ? false
              : yield* Effect.promise(() => session.deliver(outbox.pdusOf(row)))
            if (ok) acked.push(row)
            else yield* outbox.retry(outbox.idOf(row), Math.min(60_000, 1_000 * outbox.attemptsOf(row)))
          })
        // tracked: a stop waits for each deliver_sm_resp and the acknowledgements; the rows leased and not
        // yet written when it began are released at once (due again for the next process)
        yield* drain.trackEffect(Effect.zipRight(
          Effect.forEach(
            due,
            (row) => drain.stopping ? outbox.retry(outbox.idOf(row), 0) : deliverOne(row),
            { concurrency: 50, discard: true }
          ),
          Effect.suspend(() => outbox.acknowledge(acked))
        ))
        return due.length
      })
    const receipts = (kind: ReceiptKind): Outbox<DueReceipt> => ({
      claim: (ids) => store.claimReceipts(kind, ids, 100, lease),
      idOf: (r) => r.message_id,
      credentialsOf: (r) => r.smpp_account_id,
      attemptsOf: (r) => r.attempts,
      pdusOf: receiptPdus,
      retry: (id, delay) => store.retryAfter(kind, id, delay),
      acknowledge: (rows) =>
        Effect.zipRight(
          store.acknowledge(kind, rows.map((r) => r.message_id)),
          Effect.sync(() => M.receiptsDelivered.unsafeUpdate(rows.length, []))
        )
    })
    const finals = receipts("final")
    const intermediates = receipts("intermediate")
    const inbound: Outbox<DueInbound> = {
      claim: (ids) => store.claimInbound(ids, 100, lease),
      idOf: (r) => r.inbound_id,
      credentialsOf: (r) => r.smpp_account_id,
      attemptsOf: (r) => r.attempts,
      pdusOf: inboundPdus,
      retry: store.retryInbound,
      acknowledge: (rows) =>
        Effect.zipRight(
          store.acknowledgeInbound(rows.map((r) => ({ inboundId: r.inbound_id, smppAccountId: r.smpp_account_id }))),
          Effect.sync(() => M.inboundDelivered.unsafeUpdate(rows.length, []))
        )
    }
    const pumpOnce = Effect.gen(function*() {
      const ids = binds.receivingAccounts()
      if (ids.length === 0 || drain.stopping) return 0
      const counts = yield* Effect.all(
        [pass(finals, ids), pass(intermediates, ids), pass(inbound, ids)],
        { concurrency: 3 }
      )
      return counts.reduce((a, b) => a + b, 0)
    })
    const poll = Duration.millis(deps.pollMs)
    yield* pumpOnce.pipe(
      Effect.flatMap((n) => n > 0 ? Effect.void : Effect.race(Effect.sleep(poll), Queue.take(deps.wake))),
      Effect.catchAllCause((cause) =>
        Effect.zipRight(Effect.logWarning("smpp outbox pump", cause), Effect.sleep(poll))
      ),
      Effect.forever,
      Effect.withTracerEnabled(false),
      Effect.forkScoped
    )
    // expiry: checked every 30 s (or every hold, when the hold is shorter)
    yield* Effect.suspend(() => store.expire(new Date(Date.now() - deps.holdMillis))).pipe(
      Effect.tap((n) => M.outboxExpired.unsafeUpdate(n, [])),
      Effect.catchAllCause((cause) => Effect.logWarning("smpp outbox expiry", cause)),
      Effect.zipRight(Effect.sleep(Duration.millis(Math.min(30_000, deps.holdMillis)))),
      Effect.forever,
      Effect.withTracerEnabled(false),
      Effect.forkScoped
    )
  })
