/**
 * The simulated carrier (the demo's and the benchmarks'): a batch of messages costs one wait and one
 * fiber per receipt delay, not a fiber per message; receipts reach the sink through its callback
 * path (`offer`), and those it could not record are reported again a second later. The test
 * recipients behave as the README says, whatever the mix. All on the TestClock.
 */
import { describe, expect, it } from "@effect/vitest"
import type { DeliveryReport, OutboundSms, ProviderEvent, SubmitOutcome } from "@tuma/core/ports/Provider"
import { ProviderEventSink } from "@tuma/core/ports/Provider"
import { Effect, Exit, Layer, TestClock } from "effect"
import { makeSimulatedProvider, SIMULATED_TEST_NUMBERS } from "../src/simulated/SimulatedProvider.js"

const sms = (recipient: string, i = 0): OutboundSms => ({
  messageId: `m-${recipient}-${i}`,
  recipient,
  senderId: "TUMA",
  text: "Hello",
  encoding: "GSM-7"
})

/** A sink recording receipts; `refuse` makes the next `n` offers fail. */
const recordingSink = () => {
  const recorded: Array<DeliveryReport> = []
  let offers = 0
  let refuse = 0
  const sink = ProviderEventSink.of({
    handle: () => Effect.die("the simulated carrier uses offer"),
    offer: (event: ProviderEvent, done: (recorded: boolean) => void) => {
      offers++
      if (refuse > 0) {
        refuse--
        return done(false)
      }
      if (event._tag === "DeliveryReport") recorded.push(event)
      done(true)
    }
  })
  return {
    recorded,
    offers: () => offers,
    refuseNext: (n: number) => {
      refuse = n
    },
    layer: Layer.succeed(ProviderEventSink, sink)
  }
}

const submitAll = (
  provider: {
    submitMany?: (
      s: ReadonlyArray<OutboundSms>,
      on: (i: number, e: Exit.Exit<SubmitOutcome>) => void
    ) => Effect.Effect<void>
  },
  smses: ReadonlyArray<OutboundSms>
) =>
  Effect.gen(function*() {
    const outcomes: Array<SubmitOutcome | undefined> = smses.map(() => undefined)
    yield* provider.submitMany!(smses, (i, exit) => {
      if (Exit.isSuccess(exit)) outcomes[i] = exit.value
    })
    return outcomes
  })

describe("simulated carrier", () => {
  it.scoped("a batch: one answer per message in order; receipts after the delay through offer; query follows", () => {
    const sink = recordingSink()
    return Effect.gen(function*() {
      const provider = yield* makeSimulatedProvider({ id: "sim", latencyMs: 5, receiptDelayMs: 300 })
      const smses = [
        sms("+255712000001"),
        sms(SIMULATED_TEST_NUMBERS.refused),
        sms(SIMULATED_TEST_NUMBERS.failedReceipt),
        sms(SIMULATED_TEST_NUMBERS.noReceipt),
        sms("+255712000002")
      ]
      const fiber = yield* Effect.fork(submitAll(provider, smses))
      yield* TestClock.adjust("5 millis")
      const outcomes = yield* fiber.await.pipe(Effect.flatten)
      expect(outcomes.map((o) => o?._tag)).toEqual(["Accepted", "NotAccepted", "Accepted", "Accepted", "Accepted"])
      expect(outcomes[1]).toMatchObject({ transient: false, code: "SIM_REJECTED" })
      const ids = outcomes.map((o) => o?._tag === "Accepted" ? o.providerMessageIds[0]! : "")
      expect(new Set(ids.filter((id) => id !== "")).size).toBe(4)
      expect(yield* provider.query(ids[0])).toEqual({ _tag: "Found", state: "enroute", deliveryStatus: "ENROUTE" })

      yield* TestClock.adjust("299 millis")
      expect(sink.recorded).toEqual([])
      yield* TestClock.adjust("1 millis")
      expect(sink.recorded.map((r) => [r.providerMessageId, r.state, r.deliveryStatus]).sort()).toEqual(
        [[ids[0], "delivered", "DELIVRD"], [ids[2], "failed", "UNDELIV"], [ids[4], "delivered", "DELIVRD"]].sort()
      )
      expect(yield* provider.query(ids[2])).toEqual({ _tag: "Found", state: "failed", deliveryStatus: "UNDELIV" })
      expect(yield* provider.query(ids[3])).toEqual({ _tag: "Found", state: "enroute", deliveryStatus: "ENROUTE" })
      expect(yield* provider.submitted).toBe(4)
    }).pipe(Effect.provide(sink.layer))
  })

  it.scoped("a late-receipt number is reported after its own delay; the others do not wait for it", () => {
    const sink = recordingSink()
    return Effect.gen(function*() {
      const provider = yield* makeSimulatedProvider({ id: "sim", latencyMs: 0, receiptDelayMs: 300 })
      const late = "+255700000302" // two seconds
      const outcomes = yield* submitAll(provider, [sms(late), sms("+255712000003")])
      const [lateId, onTimeId] = outcomes.map((o) => o?._tag === "Accepted" ? o.providerMessageIds[0] : undefined)
      yield* TestClock.adjust("300 millis")
      expect(sink.recorded.map((r) => r.providerMessageId)).toEqual([onTimeId])
      yield* TestClock.adjust("1700 millis")
      expect(sink.recorded.map((r) => r.providerMessageId)).toEqual([onTimeId, lateId])
    }).pipe(Effect.provide(sink.layer))
  })

  it.scoped("receipts the sink could not record are reported again a second later, until recorded", () => {
    const sink = recordingSink()
    return Effect.gen(function*() {
      const provider = yield* makeSimulatedProvider({ id: "sim", latencyMs: 0, receiptDelayMs: 10 })
      yield* submitAll(provider, [sms("+255712000004"), sms("+255712000005")])
      sink.refuseNext(3) // both at first, one of them again
      yield* TestClock.adjust("10 millis")
      expect(sink.recorded).toEqual([])
      yield* TestClock.adjust("1 second")
      expect(sink.recorded.length).toBe(1)
      yield* TestClock.adjust("1 second")
      expect(sink.recorded.length).toBe(2)
      expect(sink.offers()).toBe(5)
    }).pipe(Effect.provide(sink.layer))
  })

  it.scoped("down: every message of the batch is refused as transient; the single submit answers as the batch", () => {
    const sink = recordingSink()
    return Effect.gen(function*() {
      const provider = yield* makeSimulatedProvider({ id: "sim", latencyMs: 0, down: true })
      const outcomes = yield* submitAll(provider, [sms("+255712000006"), sms("+255712000007")])
      expect(outcomes).toMatchObject([{ transient: true, code: "SMSC_UNAVAILABLE" }, {
        transient: true,
        code: "SMSC_UNAVAILABLE"
      }])
      yield* provider.setDown(false)
      yield* provider.setMix({ refusedTransient: 1 })
      expect(yield* provider.submit(sms("+255712000008"))).toMatchObject({ _tag: "NotAccepted", code: "SIM_TRANSIENT" })
      expect(yield* provider.submit(sms(SIMULATED_TEST_NUMBERS.failedReceipt))).toMatchObject({ _tag: "Accepted" })
    }).pipe(Effect.provide(sink.layer))
  })
})
