/**
 * A simulated carrier (no network): what the demo and the dev setup use.
 *
 * Unless configured otherwise it accepts every message and reports every part delivered about
 * `receiptDelayMs` (300 ms) later, so a sent message reads `delivered` within about a second.
 * Configurable: submit latency, the mix of outcomes (delivered / failed receipt / transient or
 * permanent refusal / unknown), and a `down` switch (transient refusals, as an unreachable SMSC).
 *
 * Test recipients (as the test credentials of commercial SMS APIs), whatever the mix:
 * `+255700000100` a failed receipt, `+255700000200` no receipt ever, `+2557000003SS` delivered SS
 * seconds late, `+255700000400` refused at submission, `+255700000500` delivered and answered (two-way
 * SMS): a second later the handset replies "Asante! Got your message: …" to the sender. See
 * `testNumberBehaviour` and the README.
 *
 * Message ids are `sim-<provider>-<instance>-<counter>`: the instance part (start time and a random
 * suffix) keeps ids unique across restarts and between processes that run the same provider.
 */
import type { OutboundSms, Provider, QueryOutcome, SubmitOutcome } from "@tuma/core/ports/Provider"
import {
  Accepted,
  DeliveryReport,
  InboundMessage,
  NotAccepted,
  ProviderEventSink,
  Unknown
} from "@tuma/core/ports/Provider"
import type { Scope } from "effect"
import { Clock, Duration, Effect, Exit, FiberSet, Random, Ref, Schedule } from "effect"
import { partCount } from "../smpp/codec.js"
import type { OutcomeMix } from "./outcomes.js"
import { BoundedStates, pickOutcome, recordReceipts } from "./outcomes.js"

export type { OutcomeMix } from "./outcomes.js"

/** Settings of a simulated carrier: id, answer latency, receipt delay, outcome mix, and whether it starts down. */
export interface SimulatedProviderConfig {
  readonly id: string
  readonly latencyMs?: number
  readonly receiptDelayMs?: number
  /** Relative weights; default `{ delivered: 1 }`. */
  readonly mix?: OutcomeMix
  readonly down?: boolean
}

/** What the simulated carrier does for one of its test recipients (`undefined`: an ordinary number). */
export type TestNumberBehaviour =
  | { readonly _tag: "FailedReceipt" }
  | { readonly _tag: "NoReceipt" }
  | { readonly _tag: "LateReceipt"; readonly delayMs: number }
  | { readonly _tag: "Refused" }
  | { readonly _tag: "Replies"; readonly delayMs: number }

/** The test recipients, documented in README.md and docs/delivery.md. */
export const SIMULATED_TEST_NUMBERS = {
  failedReceipt: "+255700000100",
  noReceipt: "+255700000200",
  /** `+2557000003SS`: delivered SS (00–99) seconds after submission; this one 30 s. */
  lateReceipt: "+255700000330",
  refused: "+255700000400",
  /** Delivered, then answers the sender a second later (two-way SMS, docs/inbound.md). */
  replies: "+255700000500"
} as const

/**
 * The fixed outcome of one of the simulated carrier's test numbers (`SIMULATED_TEST_NUMBERS`), or undefined
 * for any other number.
 */
export const testNumberBehaviour = (recipient: string): TestNumberBehaviour | undefined => {
  if (recipient === SIMULATED_TEST_NUMBERS.failedReceipt) return { _tag: "FailedReceipt" }
  if (recipient === SIMULATED_TEST_NUMBERS.noReceipt) return { _tag: "NoReceipt" }
  if (recipient === SIMULATED_TEST_NUMBERS.refused) return { _tag: "Refused" }
  if (recipient === SIMULATED_TEST_NUMBERS.replies) return { _tag: "Replies", delayMs: 1_000 }
  const late = /^\+2557000003(\d\d)$/.exec(recipient)
  if (late !== null) return { _tag: "LateReceipt", delayMs: Number(late[1]) * 1000 }
  return undefined
}

/** Controls of a simulated carrier for tests and demos: take it down, change its outcome mix. */
export interface SimulatedControl {
  readonly setDown: (down: boolean) => Effect.Effect<void>
  readonly setMix: (mix: OutcomeMix) => Effect.Effect<void>
  readonly submitted: Effect.Effect<number>
}

/**
 * A simulated carrier: accepts submits after its latency and reports receipts to the `ProviderEventSink` as
 * its outcome mix draws them.
 */
export const makeSimulatedProvider = (
  config: SimulatedProviderConfig
): Effect.Effect<Provider & SimulatedControl, never, ProviderEventSink | Scope.Scope> =>
  Effect.gen(function*() {
    const sink = yield* ProviderEventSink
    const fibers = yield* FiberSet.make()
    const down = yield* Ref.make(config.down ?? false)
    const mix = yield* Ref.make<OutcomeMix>(config.mix ?? { delivered: 1 })
    const counter = yield* Ref.make(0)
    /** What `query` answers: the newest `MAX_STATES` parts (a carrier keeps its answers for a while). */
    const states = new BoundedStates(MAX_STATES)
    const instance = (yield* Clock.currentTimeMillis).toString(36) +
      (yield* Random.nextIntBetween(0, 36 ** 4)).toString(36).padStart(4, "0")
    const latency = Duration.millis(config.latencyMs ?? 5)
    const receiptDelay = Duration.millis(config.receiptDelayMs ?? 300)

    /** Reports the receipts of a batch of parts after `delay`, again a second later while unrecorded. */
    const report = (parts: ReadonlyArray<{ readonly id: string; readonly ok: boolean }>, delay: Duration.Duration) =>
      Effect.gen(function*() {
        yield* Effect.sleep(delay)
        const now = new Date(yield* Clock.currentTimeMillis)
        let events: ReadonlyArray<DeliveryReport> = parts.map(({ id, ok }) => {
          const word = ok ? "DELIVRD" : "UNDELIV"
          states.set(id, ok ? "delivered" : "failed", word)
          return new DeliveryReport({
            providerId: config.id,
            providerMessageId: id,
            state: ok ? "delivered" : "failed",
            deliveryStatus: word,
            errorCode: ok ? "000" : "001",
            receivedAt: now
          })
        })
        while (events.length > 0) {
          events = yield* recordReceipts(sink, events)
          if (events.length > 0) yield* Effect.sleep(RETRY_RECORD)
        }
      })

    /** The handset's reply to a message, `delayMs` later (until the sink records it). */
    const reply = (sms: OutboundSms, delayMs: number) =>
      Effect.gen(function*() {
        yield* Effect.sleep(Duration.millis(delayMs))
        const event = new InboundMessage({
          providerId: config.id,
          from: sms.recipient,
          to: sms.senderId,
          text: `Asante! Got your message: ${sms.text.slice(0, 80)}`,
          receivedAt: new Date(yield* Clock.currentTimeMillis)
        })
        yield* sink.handle(event).pipe(
          Effect.retry({ times: 10, schedule: Schedule.spaced(RETRY_RECORD) }),
          Effect.catchAllCause((c) => Effect.logWarning("simulated reply not recorded", c))
        )
      })

    /** The carrier's answer to one message (after the latency, which the caller waited). */
    const answer = (
      sms: OutboundSms,
      m: OutcomeMix,
      r01: number,
      receipts: Map<number, Array<{ readonly id: string; readonly ok: boolean }>>
    ): Effect.Effect<SubmitOutcome> =>
      Effect.gen(function*() {
        const test = testNumberBehaviour(sms.recipient)
        const outcome = test === undefined
          ? pickOutcome(m, r01)
          : test._tag === "Refused"
          ? "refusedPermanent" as const
          : test._tag === "FailedReceipt"
          ? "failed" as const
          : "delivered" as const
        if (outcome === "refusedTransient") return busy
        if (outcome === "refusedPermanent") return rejected
        const n = partCount(sms.text, sms.encoding)
        const last = yield* Ref.updateAndGet(counter, (c) => c + n)
        const ids: Array<string> = []
        for (let k = last - n + 1; k <= last; k++) {
          const id = `sim-${config.id}-${instance}-${k.toString(16).padStart(8, "0")}`
          ids.push(id)
          states.set(id, "enroute", "ENROUTE")
        }
        if (outcome === "unknown") {
          return new Unknown({
            reference: sms.messageId,
            reason: "Outcome unknown: the carrier did not answer the submission in time.",
            providerMessageIds: ids.map(() => null)
          })
        }
        if (test?._tag === "Replies") yield* FiberSet.run(fibers, reply(sms, test.delayMs))
        if (test?._tag !== "NoReceipt") {
          const delay = test?._tag === "LateReceipt" ? test.delayMs : Duration.toMillis(receiptDelay)
          const batch = receipts.get(delay) ?? []
          for (const id of ids) batch.push({ id, ok: outcome === "delivered" })
          receipts.set(delay, batch)
        }
        return new Accepted({ providerMessageIds: ids, refusedParts: [] })
      })

    /** One wait for the whole batch, one fiber per receipt delay (not per message). */
    const submitMany = (
      smses: ReadonlyArray<OutboundSms>,
      onOutcome: (index: number, outcome: Exit.Exit<SubmitOutcome>) => void
    ): Effect.Effect<void> =>
      Effect.gen(function*() {
        yield* Effect.sleep(latency)
        if (yield* Ref.get(down)) {
          for (let i = 0; i < smses.length; i++) onOutcome(i, Exit.succeed(unreachable))
          return
        }
        const m = yield* Ref.get(mix)
        const receipts = new Map<number, Array<{ readonly id: string; readonly ok: boolean }>>()
        for (let i = 0; i < smses.length; i++) {
          onOutcome(i, yield* Effect.exit(answer(smses[i], m, yield* Random.next, receipts)))
        }
        for (const [delay, parts] of receipts) yield* FiberSet.run(fibers, report(parts, Duration.millis(delay)))
      })

    /** The batch path with a batch of one. */
    const submit = (sms: OutboundSms): Effect.Effect<SubmitOutcome> =>
      Effect.suspend(() => {
        let outcome: Exit.Exit<SubmitOutcome> = Exit.die(new Error("the simulated carrier did not answer"))
        return Effect.zipRight(
          submitMany([sms], (_, exit) => {
            outcome = exit
          }),
          Effect.suspend(() => outcome)
        )
      })

    const query = (id: string): Effect.Effect<QueryOutcome> =>
      Effect.sync(() => {
        const s = states.get(id)
        return s === undefined ? { _tag: "NotFound" } : { _tag: "Found", state: s.state, deliveryStatus: s.word }
      })

    return {
      id: config.id,
      partCount: (sms) => partCount(sms.text, sms.encoding),
      submit,
      submitMany,
      query,
      setDown: (d) => Ref.set(down, d),
      setMix: (m) => Ref.set(mix, m),
      submitted: Ref.get(counter)
    }
  })

const busy = new NotAccepted({ transient: true, code: "SIM_TRANSIENT", reason: "Not accepted: the carrier is busy." })
const rejected = new NotAccepted({
  transient: false,
  code: "SIM_REJECTED",
  reason: "Not accepted: the carrier refused the destination number."
})
const unreachable = new NotAccepted({
  transient: true,
  code: "SMSC_UNAVAILABLE",
  reason: "Not sent: the carrier is unreachable."
})

/** How many parts' states `query` can answer (the newest). */
const MAX_STATES = 100_000
/** How long a receipt the sink could not record waits before it is reported again. */
const RETRY_RECORD = Duration.seconds(1)
