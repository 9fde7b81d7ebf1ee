import { describe, expect, it } from "@effect/vitest"
import { normalizeRef, refCandidates } from "@tuma/core/delivery/ProviderRef"
import type { ProviderEvent } from "@tuma/core/ports/Provider"
import { DeliveryReport, InboundMessage, ProviderEventSink } from "@tuma/core/ports/Provider"
import { Effect, Layer } from "effect"
import smpp from "smpp"
import { decodeGsm7, encodeGsm7 } from "../src/smpp/codec.js"
import { makeSmppProvider, type SmppProviderConfig } from "../src/smpp/SmppProvider.js"
import { answer, formatId, makeSmscSimulator, type SmscSimulatorOptions } from "../src/smsc/SmscSimulator.js"

const collectingSink = (fail: { on: boolean } = { on: false }) => {
  const events: Array<ProviderEvent> = []
  const layer = Layer.succeed(ProviderEventSink, {
    handle: (e) => (fail.on ? Effect.fail("sink down") : Effect.sync(() => void events.push(e)))
  })
  return { events, layer }
}

const setup = (sim: SmscSimulatorOptions = {}, client: Partial<SmppProviderConfig> = {}) =>
  Effect.gen(function*() {
    const simulator = yield* makeSmscSimulator({ receiptDelayMs: 20, ...sim })
    const sink = collectingSink()
    const provider = yield* makeSmppProvider({
      id: "smpp-a",
      host: "127.0.0.1",
      port: simulator.port,
      systemId: "tuma",
      password: "secret",
      reconnectInitialMs: 50,
      reconnectMaxMs: 200,
      responseTimeoutMs: 1000,
      ...client
    }).pipe(Effect.provide(sink.layer))
    return { simulator, provider, events: sink.events }
  })

const sms = (
  text: string,
  over: Partial<{ recipient: string; senderId: string; encoding: "GSM-7" | "Unicode" }> = {}
) => ({
  messageId: crypto.randomUUID(),
  recipient: over.recipient ?? "+255712345678",
  senderId: over.senderId ?? "TUMA",
  text,
  encoding: over.encoding ?? "GSM-7" as const
})

const waitFor = (pred: () => boolean, ms = 5000) =>
  Effect.promise(async () => {
    const t0 = Date.now()
    while (!pred()) {
      if (Date.now() - t0 > ms) throw new Error("waitFor timed out")
      await new Promise((r) => setTimeout(r, 10))
    }
  })

describe("ProviderRef", () => {
  it("normalises case and leading zeros, and offers hex/decimal readings", () => {
    expect(normalizeRef("000A1B")).toBe("a1b")
    expect(normalizeRef("0000")).toBe("0")
    expect(refCandidates("2587")).toEqual(["2587", "a1b", "9607"])
    expect(refCandidates("00A1B")).toEqual(["a1b", "2587"])
    expect(refCandidates("msg-XY")).toEqual(["msg-xy"])
  })
})

describe("GSM-7 codec", () => {
  it("writes the same bytes as the smpp package for every character, reads the same text for any bytes", () => {
    const coder = smpp.gsmCoder.getCoder(0)
    const alphabet = [...coder.chars, ...coder.extChars]
    for (const c of alphabet) expect(encodeGsm7(c)).toEqual(smpp.gsmCoder.encode(c, 0))
    const text = "Hello {world} [ok] €5 \\ ^~| ÄÖÑÜ§¿ äöñüà ΔΦΓΛΩΠΨΣΘΞ @£$¥"
    expect(encodeGsm7(text)).toEqual(smpp.gsmCoder.encode(text, 0))
    expect(decodeGsm7(encodeGsm7(text))).toBe(text)
    for (let a = 0; a < 256; a++) {
      for (let b = 0; b < 256; b++) {
        const bytes = Buffer.from([a, b, 0x41])
        if (decodeGsm7(bytes) !== smpp.gsmCoder.decode(bytes, 0)) {
          expect.fail(`bytes ${a} ${b}: ${decodeGsm7(bytes)} vs ${smpp.gsmCoder.decode(bytes, 0)}`)
        }
      }
    }
  })
})

describe("SMPP adapter against the SMSC simulator", () => {
  it.live("binds with credentials, submits GSM-7 with an alphanumeric sender as TON 5, gets a receipt", () =>
    Effect.gen(function*() {
      const { events, provider, simulator } = yield* setup()
      const out = yield* provider.submit(sms("Hello {world} [ok] €5"))
      expect(out._tag).toBe("Accepted")
      if (out._tag !== "Accepted") return
      expect(out.providerMessageIds).toHaveLength(1)
      const part = simulator.received[0]!
      expect(part).toMatchObject({ sourceAddr: "TUMA", sourceTon: 5, sourceNpi: 0, dataCoding: 0, concat: null })
      expect(part.destinationAddr).toBe("255712345678")
      expect(part.text).toBe("Hello {world} [ok] €5")
      expect(part.registeredDelivery).toBe(1)
      yield* waitFor(() => events.length === 1)
      const r = events[0]!
      expect(r).toBeInstanceOf(DeliveryReport)
      expect(r).toMatchObject({
        state: "delivered",
        deliveryStatus: "DELIVRD",
        providerMessageId: out.providerMessageIds[0]
      })
    }).pipe(Effect.scoped))

  it.live("splits a long Unicode message into 3 UCS-2 parts with one 8-bit reference and tracks each", () =>
    Effect.gen(function*() {
      const { events, provider, simulator } = yield* setup()
      const text = "Habari 👋 " + "Привет мир! ".repeat(15)
      expect(text.length).toBeGreaterThan(134)
      const out = yield* provider.submit(sms(text, { encoding: "Unicode" }))
      expect(out._tag).toBe("Accepted")
      if (out._tag !== "Accepted") return
      expect(out.providerMessageIds).toHaveLength(3)
      expect(new Set(out.providerMessageIds).size).toBe(3)
      const parts = simulator.received
      expect(parts.map((p) => p.dataCoding)).toEqual([8, 8, 8])
      expect(parts.map((p) => p.esmClass & 0x40)).toEqual([0x40, 0x40, 0x40])
      expect(parts.map((p) => p.concat?.seq)).toEqual([1, 2, 3])
      expect(new Set(parts.map((p) => p.concat?.ref)).size).toBe(1)
      expect(parts.every((p) => p.concat?.total === 3)).toBe(true)
      expect(parts.map((p) => p.text).join("")).toBe(text)
      yield* waitFor(() => events.length === 3)
      expect(new Set(events.map((e) => (e as DeliveryReport).providerMessageId))).toEqual(
        new Set(out.providerMessageIds)
      )
    }).pipe(Effect.scoped))

  it.live("GSM-7 parts never cut an escape pair", () =>
    Effect.gen(function*() {
      const { provider, simulator } = yield* setup()
      const text = "a".repeat(152) + "€" + "b".repeat(100)
      const out = yield* provider.submit(sms(text))
      expect(out._tag).toBe("Accepted")
      expect(simulator.received.map((p) => p.text).join("")).toBe(text)
      expect(simulator.received).toHaveLength(2)
    }).pipe(Effect.scoped))

  it.live("a numeric sender is sent as an international number", () =>
    Effect.gen(function*() {
      const { provider, simulator } = yield* setup()
      yield* provider.submit(sms("hi", { senderId: "+255700000001" }))
      expect(simulator.received[0]).toMatchObject({ sourceAddr: "255700000001", sourceTon: 1, sourceNpi: 1 })
    }).pipe(Effect.scoped))

  it.live("wrong credentials never bind; submits answer a transient NotAccepted", () =>
    Effect.gen(function*() {
      const { provider, simulator } = yield* setup({}, { password: "wrong", unavailableAfterMs: 300 })
      const out = yield* provider.submit(sms("x"))
      expect(out).toMatchObject({ _tag: "NotAccepted", transient: true, code: "SMSC_UNAVAILABLE" })
      expect(simulator.counters.bindFailures).toBeGreaterThan(0)
      expect(simulator.counters.submits).toBe(0)
    }).pipe(Effect.scoped))

  it.live("throttling and queue-full are slowed down and retried: every message accepted exactly once, in order", () =>
    Effect.gen(function*() {
      const { provider, simulator } = yield* setup({
        policy: (_p, i) => (i % 7 === 3 ? answer.throttle : i % 11 === 5 ? answer.queueFull : answer.ok)
      }, { window: 1 })
      const texts = Array.from({ length: 60 }, (_, i) => `message ${i}`)
      const outs = yield* Effect.forEach(texts, (t) => provider.submit(sms(t)), { concurrency: "unbounded" })
      expect(outs.every((o) => o._tag === "Accepted")).toBe(true)
      const accepted = simulator.received.filter((p) => p.answer === "ok").map((p) => p.text)
      expect(accepted).toEqual(texts)
      expect(simulator.counters.throttled).toBeGreaterThan(5)
    }).pipe(Effect.scoped))

  it.live("a rate-limited SMSC (maxPerSecond) loses and duplicates nothing", () =>
    Effect.gen(function*() {
      const { provider, simulator } = yield* setup({ maxPerSecond: 100 }, { window: 20 })
      const texts = Array.from({ length: 250 }, (_, i) => `m${i}`)
      const outs = yield* Effect.forEach(texts, (t) => provider.submit(sms(t)), { concurrency: "unbounded" })
      expect(outs.every((o) => o._tag === "Accepted")).toBe(true)
      const accepted = simulator.received.filter((p) => p.answer === "ok").map((p) => p.text)
      expect([...accepted].sort()).toEqual([...texts].sort())
      expect(simulator.counters.throttled).toBeGreaterThan(0)
    }).pipe(Effect.scoped))

  it.live("a bind's own rate (maxPerSecondPerBind) keeps within a carrier's per-bind limit", () =>
    Effect.gen(function*() {
      const run = (client: Partial<SmppProviderConfig>) =>
        Effect.gen(function*() {
          const { provider, simulator } = yield* setup({ maxPerSecond: 100 }, { window: 20, ...client })
          const texts = Array.from({ length: 250 }, (_, i) => `m${i}`)
          const started = Date.now()
          const outs = yield* Effect.forEach(texts, (t) => provider.submit(sms(t)), { concurrency: "unbounded" })
          expect(outs.every((o) => o._tag === "Accepted")).toBe(true)
          expect(simulator.received.filter((p) => p.answer === "ok").length).toBe(250)
          return { took: Date.now() - started, throttled: simulator.counters.throttled }
        }).pipe(Effect.scoped)
      const unpaced = yield* run({})
      const paced = yield* run({ maxPerSecondPerBind: 100 })
      // paced by the bind, not by the carrier's refusals: none on a quiet machine; on a loaded one a
      // PDU of a burst can reach the carrier late enough to cross its second (a few, never the
      // unpaced run's ≈ 150)
      expect(paced.throttled * 4, `paced ${JSON.stringify(paced)}, unpaced ${JSON.stringify(unpaced)}`)
        .toBeLessThan(unpaced.throttled)
      expect(paced.took).toBeGreaterThanOrEqual(2 * 1020)
    }))

  it.live("refusals: permanent and transient statuses", () =>
    Effect.gen(function*() {
      const { provider, simulator } = yield* setup()
      simulator.setPolicy(() => answer.refuse(smpp.ESME_RINVDSTADR))
      const a = yield* provider.submit(sms("x"))
      expect(a).toMatchObject({ _tag: "NotAccepted", transient: false, code: "ESME_RINVDSTADR" })
      simulator.setPolicy(() => answer.refuse(smpp.ESME_RSYSERR))
      const b = yield* provider.submit(sms("x"))
      expect(b).toMatchObject({ _tag: "NotAccepted", transient: true, code: "ESME_RSYSERR" })
      if (a._tag === "NotAccepted") expect(a.reason).toMatch(/destination number/)
    }).pipe(Effect.scoped))

  it.live("a later part refused after the first was accepted: Accepted with the refused parts", () =>
    Effect.gen(function*() {
      const { provider, simulator } = yield* setup()
      simulator.setPolicy((_p, i) => (i === 1 ? answer.refuse(smpp.ESME_RX_P_APPN) : answer.ok))
      const out = yield* provider.submit(sms("z".repeat(400)))
      expect(out._tag).toBe("Accepted")
      if (out._tag !== "Accepted") return
      expect(out.providerMessageIds[0]).not.toBeNull()
      expect(out.providerMessageIds.slice(1)).toEqual([null, null])
      expect(out.refusedParts.map((p) => p.index)).toEqual([1, 2])
    }).pipe(Effect.scoped))

  it.live("no answer: Unknown with the reference kept; a dropped connection: Unknown, then reconnect without stall", () =>
    Effect.gen(function*() {
      const { provider, simulator } = yield* setup({}, { responseTimeoutMs: 200 })
      simulator.setPolicy(() => answer.timeout)
      const m = sms("x")
      const a = yield* provider.submit(m)
      expect(a).toMatchObject({ _tag: "Unknown", reference: m.messageId })
      simulator.setPolicy(() => answer.drop)
      const b = yield* provider.submit(sms("y"))
      expect(b._tag).toBe("Unknown")
      if (b._tag === "Unknown") expect(b.reason).toMatch(/connection/)
      simulator.setPolicy(() => answer.ok)
      const outs = yield* Effect.forEach(
        Array.from({ length: 100 }, (_, i) => sms(`after ${i}`)),
        (s) => provider.submit(s),
        { concurrency: "unbounded" }
      )
      expect(outs.every((o) => o._tag === "Accepted")).toBe(true)
      expect(provider.client.stats.binds).toBeGreaterThanOrEqual(2)
    }).pipe(Effect.scoped))

  it.live("SMSC down then back: queued submits wait for the new bind and go through", () =>
    Effect.gen(function*() {
      const { provider, simulator } = yield* setup({}, { unavailableAfterMs: 5000 })
      yield* provider.submit(sms("before"))
      yield* Effect.promise(() => simulator.stop())
      yield* waitFor(() => !provider.client.isBound)
      const fiber = yield* Effect.fork(
        Effect.forEach(Array.from({ length: 20 }, (_, i) => sms(`during ${i}`)), (s) => provider.submit(s), {
          concurrency: "unbounded"
        })
      )
      yield* Effect.sleep("400 millis")
      expect(provider.client.isBound).toBe(false)
      yield* Effect.promise(() => simulator.start())
      const outs = yield* fiber.await.pipe(Effect.flatten)
      expect(outs.map((o) => o._tag)).toEqual(outs.map(() => "Accepted"))
      expect(simulator.received.filter((p) => p.text.startsWith("during")).length).toBe(20)
    }).pipe(Effect.scoped))

  it.live("receipts match whatever the id format: hex upper padded answer, decimal receipt", () =>
    Effect.gen(function*() {
      const { events, provider } = yield* setup({
        idFormat: { radix: 16, upper: true, width: 12 },
        receiptIdFormat: { radix: 10, upper: false, width: 0 },
        receiptTlvs: false
      })
      const out = yield* provider.submit(sms("fmt"))
      if (out._tag !== "Accepted") throw new Error("not accepted")
      const answered = out.providerMessageIds[0]!
      expect(answered).toMatch(/^0000[0-9A-F]{8}$/)
      yield* waitFor(() => events.length === 1)
      const receiptId = (events[0] as DeliveryReport).providerMessageId
      expect(receiptId).toMatch(/^\d+$/)
      expect(refCandidates(receiptId)).toContain(normalizeRef(answered))
      expect(formatId(BigInt("0x" + answered), { radix: 10, upper: false, width: 0 })).toBe(receiptId)
    }).pipe(Effect.scoped))

  it.live("failed receipts carry the carrier status", () =>
    Effect.gen(function*() {
      const { events, provider } = yield* setup({ receiptStatus: () => "UNDELIV" })
      yield* provider.submit(sms("x"))
      yield* waitFor(() => events.length === 1)
      expect(events[0]).toMatchObject({ state: "failed", deliveryStatus: "UNDELIV", errorCode: "001" })
    }).pipe(Effect.scoped))

  it.live("MO messages (STOP) reach the sink; a failing sink gets a temporary error and the receipt is re-sent", () =>
    Effect.gen(function*() {
      const simulator = yield* makeSmscSimulator({ receiptDelayMs: 10 })
      const fail = { on: true }
      const sink = collectingSink(fail)
      const provider = yield* makeSmppProvider({
        id: "p",
        host: "127.0.0.1",
        port: simulator.port,
        systemId: "tuma",
        password: "secret"
      }).pipe(Effect.provide(sink.layer))
      yield* provider.submit(sms("x"))
      yield* waitFor(() => simulator.counters.receiptsNacked >= 1)
      expect(sink.events).toHaveLength(0)
      fail.on = false
      yield* waitFor(() => sink.events.length === 1)
      // recorded first, then acknowledged (the answer is on its way over TCP)
      yield* waitFor(() => simulator.counters.receiptsAcked >= 1)
      expect(simulator.counters.receiptsAcked).toBe(1)
      const status = yield* Effect.promise(() => simulator.sendMo("+255712345678", "TUMA", "STOP"))
      expect(status).toBe(0)
      expect(sink.events[1]).toBeInstanceOf(InboundMessage)
      expect(sink.events[1]).toMatchObject({ from: "+255712345678", to: "TUMA", text: "STOP" })
    }).pipe(Effect.scoped))

  it.live("a sink's offer path: acknowledged once recorded; a throwing offer gets a temporary error, then a re-send", () =>
    Effect.gen(function*() {
      const simulator = yield* makeSmscSimulator({ receiptDelayMs: 10 })
      const events: Array<ProviderEvent> = []
      let calls = 0
      const layer = Layer.succeed(ProviderEventSink, {
        handle: () => Effect.die("the offer path is used"),
        offer: (event, done) => {
          if (calls++ === 0) throw new Error("sink down")
          events.push(event)
          setTimeout(() => done(true), 20) // recorded a little later: acknowledged only then
        }
      })
      const provider = yield* makeSmppProvider({
        id: "p",
        host: "127.0.0.1",
        port: simulator.port,
        systemId: "tuma",
        password: "secret"
      }).pipe(Effect.provide(layer))
      yield* provider.submit(sms("x"))
      yield* waitFor(() => simulator.counters.receiptsNacked === 1)
      yield* waitFor(() => events.length === 1)
      expect(simulator.counters.receiptsAcked).toBe(0)
      yield* waitFor(() => simulator.counters.receiptsAcked === 1)
      expect(events[0]).toBeInstanceOf(DeliveryReport)
    }).pipe(Effect.scoped))

  it.live("enquire_link keeps the session alive", () =>
    Effect.gen(function*() {
      const { provider, simulator } = yield* setup({}, { enquireLinkMs: 50 })
      yield* waitFor(() => provider.client.isBound)
      yield* waitFor(() => simulator.counters.enquireLinks >= 3)
      expect(provider.client.stats.disconnects).toBe(0)
    }).pipe(Effect.scoped))
})
