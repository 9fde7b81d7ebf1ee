/**
 * Delivery on the memory adapters, no database: the real `Send` and `Operator` use cases accept
 * messages into `Memory.layerMemory`, the real workers (`layerDelivery`: Dispatcher, DeliveryWriter,
 * EventSink) route them to a scripted fake `Provider`, receipts and inbound messages come back
 * through the `ProviderEventSink`, and the outcome is read from the memory tables. Live clock with
 * intervals of a few milliseconds: the whole file runs in a few seconds.
 */
import { expect, it } from "@effect/vitest"
import { Data, Effect, Layer } from "effect"
import { DeliveryConfig, type DeliveryOptions } from "../src/delivery/DeliveryConfig.js"
import { layerDelivery } from "../src/delivery/Dispatcher.js"
import { Ids, Memory, Operator, Send } from "../src/index.js"
import type { SendCaller } from "../src/index.js"
import type { OutboundSms, Provider, QueryOutcome, SubmitOutcome } from "../src/ports/Provider.js"
import {
  Accepted,
  DeliveryReport,
  InboundMessage,
  NotAccepted,
  ProviderEventSink,
  Providers,
  providersFrom,
  Unknown
} from "../src/ports/Provider.js"
import { WebhookStore } from "../src/ports/WebhookStore.js"

/** A carrier whose answers the test scripts; it records every submit (time, message, attempt). */
const fakeCarrier = (
  name: string,
  answer: (sms: OutboundSms, n: number) => SubmitOutcome,
  query: (providerMessageId: string) => QueryOutcome = () => ({ _tag: "NotFound" })
) => {
  const submits: Array<{ readonly at: number; readonly sms: OutboundSms }> = []
  const provider: Provider = {
    id: name,
    partCount: (sms) => Math.max(1, Math.ceil(sms.text.length / 160)),
    submit: (sms) =>
      Effect.sync(() => {
        submits.push({ at: Date.now(), sms })
        return answer(sms, submits.filter((s) => s.sms.messageId === sms.messageId).length)
      }),
    query: (id) => Effect.sync(() => query(id))
  }
  return { provider, submits }
}

const accepted = (...ids: ReadonlyArray<string>) => new Accepted({ providerMessageIds: ids, refusedParts: [] })

const fast: Partial<DeliveryOptions> = {
  pollIntervalMs: 10,
  flushDelayMs: 1,
  scheduleIntervalMs: 20,
  reconcileIntervalMs: 20,
  pendingSweepMs: 10,
  retryBaseMs: 20,
  retryMaxMs: 1_000,
  routesRefreshMs: 1_000
}

/** The use cases over one fresh memory database. */
const stores = () =>
  Layer.mergeAll(Send.layer, Operator.layer).pipe(
    Layer.provideMerge(Memory.layerMemory),
    Layer.provideMerge(Ids.layer)
  )

/** The delivery workers (Dispatcher, DeliveryWriter, EventSink) over the stores of the context. */
const workers = (carriers: ReadonlyArray<Provider>, options: Partial<DeliveryOptions> = {}) =>
  layerDelivery(Layer.succeed(Providers, providersFrom(carriers))).pipe(
    Layer.provide(DeliveryConfig.layer({ ...fast, ...options }))
  )

/** Both, the workers running from the start. */
const app = (carriers: ReadonlyArray<Provider>, options: Partial<DeliveryOptions> = {}) =>
  workers(carriers, options).pipe(Layer.provideMerge(stores()))

class TimedOut extends Data.TaggedError("TimedOut")<{ readonly what: string }> {}

/** Reads the memory tables until `f` answers something other than undefined (live clock). */
const eventually = <A>(what: string, f: (t: Memory.Tables) => A | undefined, ms = 3_000) =>
  Effect.gen(function*() {
    const db = yield* Memory.MemoryDatabase
    const deadline = Date.now() + ms
    while (Date.now() < deadline) {
      const found = yield* db.transact(f)
      if (found !== undefined) return found
      yield* Effect.sleep("5 millis")
    }
    return yield* Effect.die(new TimedOut({ what }))
  })

const final = (status: string) => status === "delivered" || status === "failed"

/** An account that may send to Tanzania, a wallet of `balance`, and the carriers routed in order. */
const setup = (carriers: ReadonlyArray<{ readonly name: string; readonly credit?: number }>, balance = 10) =>
  Effect.gen(function*() {
    const op = yield* Operator
    const account = yield* op.createAccount({ name: "Duka Ltd", email: "owner@duka.example", phone: "+255712000000" })
    const key = yield* op.issueApiKey({ accountId: account.id, mode: "live" })
    yield* op.purchaseCredits({ accountId: account.id, country: "TZ", units: balance, amount: "100" })
    yield* op.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255712000000" })
    yield* op.grantSenderId({ accountId: account.id, senderId: "Duka", country: "TZ" })
    const providerIds: Array<string> = []
    for (const [priority, c] of carriers.entries()) {
      const { id } = yield* op.addProvider({
        name: c.name,
        routes: [{ country: "TZ", credit: c.credit ?? 1_000, priority }]
      })
      providerIds.push(id)
    }
    const caller: SendCaller = { accountId: account.id, apiKeyId: key.id, mode: "live" }
    return { account, key, caller, providerIds }
  })

/** A webhook endpoint on the API key (the final states of its messages are queued for it). */
const endpointOf = (apiKeyId: string) =>
  Effect.flatMap(WebhookStore, (store) =>
    store.createEndpoint({
      id: crypto.randomUUID(),
      apiKeyId,
      url: "https://example.com/hooks",
      secret: "whsec_test",
      now: new Date()
    }))

const sendOne = (caller: SendCaller, body = "Karibu!") =>
  Effect.flatMap(Send, (send) => send.single(caller, { recipient: "+255712345678", sender_id: "Duka", body })).pipe(
    Effect.map((out) => out.data.uid)
  )

const wallet = (accountId: string) =>
  Effect.flatMap(Memory.MemoryDatabase, (db) =>
    db.transact((t) => ({
      balance: [...t.wallets.values()].filter((w) => w.account_id === accountId).reduce((n, w) => n + w.balance, 0),
      refunds: t.walletLedger.filter((l) => l.account_id === accountId && l.kind === "refund").map((l) => l.units)
    })))

const creditOf = (providerId: string) =>
  Effect.flatMap(
    Memory.MemoryDatabase,
    (db) => db.transact((t) => [...t.providerCredits.values()].find((c) => c.provider_id === providerId)!.balance)
  )

const report = (name: string, providerMessageId: string, state: "delivered" | "failed", deliveryStatus: string) =>
  Effect.flatMap(ProviderEventSink, (sink) =>
    sink.handle(
      new DeliveryReport({
        providerId: name,
        providerMessageId,
        state,
        deliveryStatus,
        errorCode: state === "failed" ? "001" : "000",
        receivedAt: new Date()
      })
    ))

it.live("accepted -> sent -> delivered by its receipt; units spent, provider credit taken, webhook queued", () => {
  const carrier = fakeCarrier("sim", () => accepted("0000AB12"))
  return Effect.gen(function*() {
    const { account, caller, key, providerIds } = yield* setup([{ name: "sim" }])
    const endpoint = yield* endpointOf(key.id)
    const id = yield* sendOne(caller)
    const sent = yield* eventually("sent", (t) => {
      const m = t.messages.get(id)!
      return m.status === "sent" ? { ...m } : undefined
    })
    expect(sent).toMatchObject({ provider_id: providerIds[0], provider_message_id: "0000AB12", provider_ref: "ab12" })
    expect(carrier.submits.map((s) => s.sms)).toEqual([{
      messageId: id,
      recipient: "+255712345678",
      senderId: "Duka",
      text: "Karibu!",
      encoding: "GSM-7"
    }])
    // the receipt writes its id in another form (decimal): still matched
    yield* report("sim", String(0xab12), "delivered", "DELIVRD")
    const m = yield* eventually("delivered", (t) => {
      const m = t.messages.get(id)!
      return final(m.status) ? { ...m } : undefined
    })
    expect(m).toMatchObject({ status: "delivered", dr_status: "delivered", dr_delivery_status: "DELIVRD" })
    expect(m.queued_at!.getTime()).toBeLessThanOrEqual(m.sent_at!.getTime())
    expect(m.sent_at!.getTime()).toBeLessThanOrEqual(m.delivered_at!.getTime())
    expect(yield* wallet(account.id)).toEqual({ balance: 9, refunds: [] })
    expect(yield* creditOf(providerIds[0]!)).toBe(999)
    const db = yield* Memory.MemoryDatabase
    const queue = yield* db.transact((t) => t.dispatchQueue.size)
    expect(queue).toBe(0)
    const hooks = yield* (yield* WebhookStore).listDeliveries(endpoint!.id, { limit: 10 })
    expect(hooks.map((h) => [h.messageId, h.event, h.status])).toEqual([[id, "sms.delivered", "pending"]])
  }).pipe(Effect.provide(app([carrier.provider])), Effect.scoped)
})

it.live("a failed receipt: failed with a readable reason, units stay spent, webhook sms.failed", () => {
  const carrier = fakeCarrier("sim", () => accepted("77"))
  return Effect.gen(function*() {
    const { account, caller, key } = yield* setup([{ name: "sim" }])
    const endpoint = yield* endpointOf(key.id)
    const id = yield* sendOne(caller)
    yield* eventually("sent", (t) => t.messages.get(id)!.status === "sent" || undefined)
    yield* report("sim", "77", "failed", "EXPIRED")
    const m = yield* eventually("final", (t) => {
      const m = t.messages.get(id)!
      return final(m.status) ? { ...m } : undefined
    })
    expect(m).toMatchObject({ status: "failed", delivered_at: null, dr_delivery_status: "EXPIRED" })
    expect(m.failure_reason).toBe(
      "Delivery failed: the carrier could not reach the handset before the message expired (EXPIRED, error 001)."
    )
    expect(yield* wallet(account.id)).toEqual({ balance: 9, refunds: [] })
    const hooks = yield* (yield* WebhookStore).listDeliveries(endpoint!.id, { limit: 10 })
    expect(hooks.map((h) => [h.event, h.failureReason])).toEqual([["sms.failed", m.failure_reason]])
  }).pipe(Effect.provide(app([carrier.provider])), Effect.scoped)
})

it.live("transient refusals: requeued with growing backoff, then failed with a refund after giveUpAfterMs", () => {
  const carrier = fakeCarrier(
    "sim",
    () => new NotAccepted({ transient: true, reason: "Carrier busy (ESME_RTHROTTLED).", code: "ESME_RTHROTTLED" })
  )
  return Effect.gen(function*() {
    const { account, caller, providerIds } = yield* setup([{ name: "sim" }])
    const id = yield* sendOne(caller)
    const m = yield* eventually("failed", (t) => {
      const m = t.messages.get(id)!
      return final(m.status) ? { ...m } : undefined
    })
    expect(m).toMatchObject({ status: "failed", sent_at: null })
    expect(m.failure_reason).toMatch(/^Carrier busy \(ESME_RTHROTTLED\)\. Gave up after \d+ minutes of retries\.$/)
    expect(m.failure_context).toEqual({ error_code: "ESME_RTHROTTLED", acceptance_state: "DEFINITELY_NOT_ACCEPTED" })
    // each try waited at least the doubled backoff: 30, 60, 120 ms (retryBaseMs 30), then gave up
    const times = carrier.submits.map((s) => s.at)
    expect(times.length).toBeGreaterThanOrEqual(4)
    const gaps = times.slice(1).map((t, i) => t - times[i]!)
    gaps.slice(0, 3).forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(30 * 2 ** i - 2))
    // decisions §20: never accepted by a provider, so the units come back; the provider credit too
    expect(yield* wallet(account.id)).toEqual({ balance: 10, refunds: [1] })
    expect(yield* creditOf(providerIds[0]!)).toBe(1_000)
  }).pipe(Effect.provide(app([carrier.provider], { giveUpAfterMs: 400, retryBaseMs: 30 })), Effect.scoped)
})

it.live("failover: a transient refusal moves to the next route; a permanent one fails with a refund, no failover", () => {
  const first = fakeCarrier(
    "first",
    (sms) =>
      sms.text === "perm"
        ? new NotAccepted({ transient: false, reason: "Bad number (ESME_RINVDSTADR).", code: "ESME_RINVDSTADR" })
        : new NotAccepted({ transient: true, reason: "Down.", code: "SMSC_UNAVAILABLE" })
  )
  const second = fakeCarrier("second", () => accepted("5"))
  return Effect.gen(function*() {
    const { account, caller, providerIds } = yield* setup([{ name: "first", credit: 100 }, {
      name: "second",
      credit: 100
    }])
    const moved = yield* sendOne(caller, "failover")
    const refused = yield* sendOne(caller, "perm")
    const [a, b] = yield* eventually("both settled", (t) => {
      const a = t.messages.get(moved)!
      const b = t.messages.get(refused)!
      return a.status === "sent" && b.status === "failed" ? [{ ...a }, { ...b }] : undefined
    })
    expect(a!.provider_id).toBe(providerIds[1])
    expect(b).toMatchObject({ failure_reason: "Bad number (ESME_RINVDSTADR).", sent_at: null })
    expect(second.submits.map((s) => s.sms.text)).toEqual(["failover"])
    expect(yield* creditOf(providerIds[0]!)).toBe(100)
    expect(yield* creditOf(providerIds[1]!)).toBe(99)
    expect(yield* wallet(account.id)).toEqual({ balance: 9, refunds: [1] })
  }).pipe(Effect.provide(app([first.provider, second.provider])), Effect.scoped)
})

it.live("no provider credit on any route: failed with a refund, nothing submitted", () => {
  const carrier = fakeCarrier("sim", () => accepted("1"))
  return Effect.gen(function*() {
    const { account, caller, providerIds } = yield* setup([{ name: "sim", credit: 5 }])
    // accepted while the carrier had credit; it ran out before any worker claimed the message
    const id = yield* sendOne(caller)
    yield* (yield* Operator).setProviderCredit({ providerId: providerIds[0]!, country: "TZ", credit: 0 })
    const m = yield* eventually("failed", (t) => {
      const m = t.messages.get(id)!
      return final(m.status) ? { ...m } : undefined
    }).pipe(Effect.provide(workers([carrier.provider])))
    expect(m).toMatchObject({ status: "failed", sent_at: null })
    expect(m.failure_context).toMatchObject({ error_code: "PROVIDER_CREDIT_EXHAUSTED" })
    expect(carrier.submits).toEqual([])
    expect(yield* wallet(account.id)).toEqual({ balance: 10, refunds: [1] })
  }).pipe(Effect.provide(stores()), Effect.scoped)
})

it.live("an unknown outcome: never re-sent; settled by the carrier's status query, else failed unconfirmed", () => {
  const carrier = fakeCarrier(
    "sim",
    (sms) =>
      new Unknown({
        reference: sms.messageId,
        reason: "no answer",
        providerMessageIds: sms.text === "known" ? ["42"] : [null]
      }),
    (id) => id === "42" ? { _tag: "Found", state: "delivered", deliveryStatus: "DELIVRD" } : { _tag: "NotFound" }
  )
  return Effect.gen(function*() {
    const { account, caller } = yield* setup([{ name: "sim" }])
    const known = yield* sendOne(caller, "known")
    const lost = yield* sendOne(caller, "lost")
    const [k, l] = yield* eventually("both settled", (t) => {
      const k = t.messages.get(known)!
      const l = t.messages.get(lost)!
      return final(k.status) && final(l.status) ? [{ ...k }, { ...l }] : undefined
    })
    expect(k).toMatchObject({ status: "delivered", dr_delivery_status: "DELIVRD" })
    expect(l).toMatchObject({ status: "failed", failure_context: { acceptance_state: "UNKNOWN", reference: lost } })
    expect(l!.failure_reason).toMatch(/^Delivery unconfirmed/)
    expect(carrier.submits).toHaveLength(2)
    // the carrier may have taken it: no refund
    expect(yield* wallet(account.id)).toEqual({ balance: 8, refunds: [] })
  }).pipe(Effect.provide(app([carrier.provider], { unknownTimeoutMs: 100 })), Effect.scoped)
})

it.live("a receipt that comes before the submit is recorded waits pending and is matched after", () => {
  const carrier = fakeCarrier("sim", () => accepted("99"))
  return Effect.gen(function*() {
    const { caller } = yield* setup([{ name: "sim" }])
    yield* report("sim", "99", "delivered", "DELIVRD")
    const db = yield* Memory.MemoryDatabase
    expect(yield* db.transact((t) => t.pendingReceipts.length)).toBe(1)
    const id = yield* sendOne(caller)
    yield* eventually("delivered", (t) => t.messages.get(id)!.status === "delivered" || undefined)
    expect(yield* db.transact((t) => t.pendingReceipts.length)).toBe(0)
  }).pipe(Effect.provide(app([carrier.provider])), Effect.scoped)
})

it.live("an inbound STOP opts the handset out of the account it replied to; other words do nothing", () => {
  const carrier = fakeCarrier("sim", () => accepted("1"))
  return Effect.gen(function*() {
    const { account, caller } = yield* setup([{ name: "sim" }])
    const id = yield* sendOne(caller)
    yield* eventually("sent", (t) => t.messages.get(id)!.status === "sent" || undefined)
    const sink = yield* ProviderEventSink
    const inbound = (text: string) =>
      sink.handle(
        new InboundMessage({ providerId: "sim", from: "+255712345678", to: "DUKA", text, receivedAt: new Date() })
      )
    yield* inbound("hello")
    const db = yield* Memory.MemoryDatabase
    expect(yield* db.transact((t) => t.optOuts.size)).toBe(0)
    yield* inbound(" stop ")
    expect(yield* db.transact((t) => [...t.optOuts.values()].map((o) => [o.account_id, o.recipient]))).toEqual([[
      account.id,
      "+255712345678"
    ]])
    const refused = yield* Effect.flip(sendOne(caller))
    expect(refused.error_code).toBe("RECIPIENT_OPTED_OUT")
  }).pipe(Effect.provide(app([carrier.provider])), Effect.scoped)
})

it.live("a scheduled message is queued when due and sent", () => {
  const carrier = fakeCarrier("sim", () => accepted("1"))
  return Effect.gen(function*() {
    const { caller } = yield* setup([{ name: "sim" }])
    const send = yield* Send
    const at = new Date(Date.now() + 150)
    const out = yield* send.bulkV1(caller, {
      recipients: ["+255712345678"],
      sender_id: "Duka",
      message: "later",
      scheduled_at: at.toISOString()
    })
    expect(out.data.status).toBe("scheduled")
    const db = yield* Memory.MemoryDatabase
    const sent = yield* eventually("sent", (t) => {
      const m = [...t.messages.values()][0]!
      return m.status === "sent" ? { ...m } : undefined
    })
    expect(sent.queued_at!.getTime()).toBeGreaterThanOrEqual(at.getTime())
    expect(carrier.submits[0]!.at).toBeGreaterThanOrEqual(at.getTime())
    expect(yield* db.transact((t) => [...t.campaigns.values()].map((c) => c.status))).toEqual(["queued"])
  }).pipe(Effect.provide(app([carrier.provider])), Effect.scoped)
})

it.live("a part refused after others were accepted: failed, units stay spent, never re-sent elsewhere", () => {
  const first = fakeCarrier(
    "first",
    () => new Accepted({ providerMessageIds: ["a1", null], refusedParts: [{ index: 1, reason: "Part 2 refused." }] })
  )
  const second = fakeCarrier("second", () => accepted("b1", "b2"))
  return Effect.gen(function*() {
    const { account, caller } = yield* setup([{ name: "first" }, { name: "second" }])
    const id = yield* sendOne(caller, "x".repeat(200))
    const m = yield* eventually("failed", (t) => {
      const m = t.messages.get(id)!
      return final(m.status) ? { ...m } : undefined
    })
    expect(m).toMatchObject({ status: "failed", failure_reason: "Part 2 refused." })
    expect(m.failure_context).toEqual({ acceptance_state: "ACCEPTED", refused_parts: [1] })
    const db = yield* Memory.MemoryDatabase
    expect(yield* db.transact((t) => [0, 1].map((i) => t.messageParts.get(`${id}\u0000${i}`)?.state))).toEqual([
      "enroute",
      "failed"
    ])
    expect(second.submits).toEqual([])
    expect(yield* wallet(account.id)).toEqual({ balance: 8, refunds: [] })
  }).pipe(Effect.provide(app([first.provider, second.provider])), Effect.scoped)
})

// -- gathering (DeliveryOptions.claimGatherMs) ---------------------------------------------------

/** Milliseconds between consecutive submits of the carrier. */
const gaps = (submits: ReadonlyArray<{ readonly at: number }>) => submits.slice(1).map((s, i) => s.at - submits[i]!.at)

it.live("a short claim waits claimGatherMs before the next: a send during the wait goes out at its end", () => {
  const carrier = fakeCarrier("sim", (sms) => accepted(`R${sms.messageId.slice(-6)}`))
  return Effect.gen(function*() {
    const { caller } = yield* setup([{ name: "sim" }])
    yield* sendOne(caller, "first")
    yield* eventually("first submit", () => carrier.submits.length === 1 || undefined)
    // the claim loop is now waiting: this message is claimed when the wait ends, not at its wake-up
    yield* sendOne(caller, "second")
    yield* eventually("second submit", () => carrier.submits.length === 2 || undefined)
    expect(gaps(carrier.submits)[0]).toBeGreaterThanOrEqual(250)
  }).pipe(Effect.provide(app([carrier.provider], { claimGatherMs: 300 })), Effect.scoped)
})

it.live("claimGatherMs 0: a send after a claim is claimed at its wake-up", () => {
  const carrier = fakeCarrier("sim", (sms) => accepted(`R${sms.messageId.slice(-6)}`))
  return Effect.gen(function*() {
    const { caller } = yield* setup([{ name: "sim" }])
    yield* sendOne(caller, "first")
    yield* eventually("first submit", () => carrier.submits.length === 1 || undefined)
    yield* sendOne(caller, "second")
    yield* eventually("second submit", () => carrier.submits.length === 2 || undefined)
    expect(gaps(carrier.submits)[0]).toBeLessThan(150)
  }).pipe(Effect.provide(app([carrier.provider], { claimGatherMs: 0 })), Effect.scoped)
})

it.live("a full claim is followed at once: a backlog goes out in back-to-back claims, then the short one", () => {
  const carrier = fakeCarrier("sim", (sms) => accepted(`R${sms.messageId.slice(-6)}`))
  return Effect.gen(function*() {
    const { caller } = yield* setup([{ name: "sim" }])
    // queued before the workers start: claims of 2, 2 and 1
    for (let i = 0; i < 5; i++) yield* sendOne(caller, `backlog ${i}`)
    yield* Effect.gen(function*() {
      yield* eventually("five submits", () => carrier.submits.length === 5 || undefined)
      // waiting after every claim would spread them over ≥ 2 × 300 ms
      const first = carrier.submits[0]!.at
      expect(carrier.submits.map((s) => s.at - first).every((d) => d < 200)).toBe(true)
    }).pipe(Effect.provide(workers([carrier.provider], { claimBatch: 2, claimGatherMs: 300 })))
  }).pipe(Effect.provide(stores()), Effect.scoped)
})
