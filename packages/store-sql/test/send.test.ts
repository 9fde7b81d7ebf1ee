/**
 * Contract suite of the send use cases over the store: every check of spec §1 in order,
 * nothing stored or charged on refusal, sandbox, idempotency, bulk v1 and v2.
 * Runs on PGlite, on PostgreSQL when TUMA_TEST_DATABASE_URL is set, and on core's memory adapters.
 */
import { expect } from "@effect/vitest"
import { Operator, Send } from "@tuma/core"
import type { SendCaller } from "@tuma/core"
import { Effect, TestClock } from "effect"
import { KE1, setupAccount, stack, stateOf, TZ1, TZ2, TZ3, tzNumbers, unique } from "./fixtures.js"
import { forEachDriver } from "./harness.js"
import { Probe } from "./probe.js"

const NOW = Date.parse("2026-03-01T10:00:00Z")
const atNow = TestClock.setTime(NOW)

const codeOf = <A, E extends { error_code: string }, R>(eff: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(eff), (e) => e.error_code)

forEachDriver(stack, (it) => {
  it.effect("single send: queued, charged one unit per segment, ledger and dispatch queue written", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 } })
      const out = yield* send.single(caller, {
        recipient: "+255 712-345-678",
        sender_id: "tuma",
        body: "Habari “rafiki”"
      })
      expect(out.idempotent_replay).toBe(false)
      expect(out.sandbox).toBe(false)
      expect(out.data).toMatchObject({
        recipient: TZ1,
        sender_id: "Tuma",
        units: 1,
        channel: "api",
        status: "queued",
        queued_at: new Date(NOW).toISOString(),
        sent_at: null,
        delivered_at: null,
        provider_message_id: null
      })
      expect(out.data.encoding).toMatchObject({ final: "GSM-7", converted: true, segments: 1 })
      const st = yield* stateOf(account.id)
      expect(st).toMatchObject({ wallets: { TZ: 9 }, balance: 9, ledger: 9, messages: 1, queued: 1, campaigns: 0 })
      const probe = yield* Probe
      const m = yield* probe.message(out.data.uid)
      expect(m).toMatchObject({ text: "Habari \"rafiki\"", country: "TZ", encoding: "GSM-7", parts: 1, units: 1 })
      const q = yield* probe.dispatchRow(out.data.uid)
      expect(q.available_at.getTime()).toBe(NOW)
    }))

  it.effect("a 2-segment Unicode message costs 2 units", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 } })
      const out = yield* send.single(caller, { recipient: TZ1, sender_id: "TUMA", body: "Привет ".repeat(12) })
      expect(out.data.units).toBe(2)
      expect(out.data.encoding.final).toBe("Unicode")
      expect((yield* stateOf(account.id)).wallets).toEqual({ TZ: 8 })
    }))

  it.effect("checks run in the order of spec §1 (market before sender ID, decisions §29), each refusal stores and charges nothing", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const op = yield* Operator
      // everything wrong at first; fix one thing at a time and watch the next check refuse
      const { account, caller } = yield* setupAccount({
        balances: { TZ: 0 },
        routes: [],
        sender: null,
        providerCredit: null,
        active: false
      })
      yield* op.addOptOut(account.id, TZ1)
      yield* op.setMarketOpen("TZ", false)
      const attempt = codeOf(send.single(caller, { recipient: TZ1, sender_id: "ACME", body: "You have won a prize" }))
      const seen: Array<string> = []
      seen.push(yield* attempt)
      yield* op.setAccountActive(account.id, true)
      seen.push(yield* attempt)
      yield* op.setMarketOpen("TZ", true)
      seen.push(yield* attempt)
      yield* op.grantSenderId({ accountId: account.id, senderId: "Acme", country: "TZ" })
      seen.push(yield* attempt)
      yield* op.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255712000000" })
      seen.push(yield* attempt)
      const other = send.single(caller, { recipient: TZ2, sender_id: "ACME", body: "You have won a prize" })
      seen.push(yield* codeOf(other))
      // (provider route and provider credit come next: see the test below, on a market of its own)
      yield* op.addProvider({ name: unique("p"), routes: [{ country: "TZ", credit: 100 }] })
      seen.push(
        yield* codeOf(send.single(caller, { recipient: TZ2, sender_id: "ACME", body: "Your order has shipped" }))
      )
      expect(seen).toEqual([
        "ACCOUNT_INACTIVE",
        "COUNTRY_NOT_AVAILABLE", // decisions §29: the market comes before the sender ID
        "SENDER_ID_NOT_APPROVED",
        "ROUTE_NOT_VERIFIED",
        "RECIPIENT_OPTED_OUT",
        "SPAM_POLICY",
        "INSUFFICIENT_BALANCE"
      ])
      expect(yield* stateOf(account.id)).toMatchObject({
        balance: 0,
        ledger: 0,
        messages: 0,
        queued: 0,
        idempotency: 0
      })
    }))

  it.effect("provider route, provider credit, then customer credit (on a market of its own)", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const op = yield* Operator
      // a private market so that other tests' providers do not interfere
      const iso2 = "ZM"
      yield* Effect.flatMap(Probe, (probe) =>
        probe.insertMarket({
          id: "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c99",
          iso2,
          calling_code: "260",
          name: "Zambia",
          open: true
        }))
      const { account, caller } = yield* setupAccount({ balances: { ZM: 0 }, providerCredit: null })
      const zm = "+260971234567"
      const attempt = codeOf(send.single(caller, { recipient: zm, sender_id: "TUMA", body: "Hello" }))
      const seen = [yield* attempt]
      const { id } = yield* op.addProvider({ name: unique("zm"), routes: [{ country: iso2, credit: 0 }] })
      seen.push(yield* attempt)
      yield* op.setProviderCredit({ providerId: id, country: iso2, credit: 5 })
      seen.push(yield* attempt)
      yield* op.purchaseCredits({ accountId: account.id, country: iso2, units: 1 })
      const ok = yield* send.single(caller, { recipient: zm, sender_id: "TUMA", body: "Hello" })
      expect(seen).toEqual(["NO_PROVIDER_ROUTE", "PROVIDER_CREDIT_EXHAUSTED", "INSUFFICIENT_BALANCE"])
      expect(ok.data.status).toBe("queued")
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 0, ledger: 0, messages: 1, queued: 1 })
    }))

  it.effect("validation: bad recipient is a 422 on its field; empty-after-conversion body is refused", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const { account, caller } = yield* setupAccount()
      const bad = yield* Effect.flip(send.single(caller, { recipient: "+999 123", sender_id: "TUMA", body: "Hi" }))
      expect(bad._tag).toBe("ValidationFailed")
      expect(bad._tag === "ValidationFailed" && Object.keys(bad.errors)).toEqual(["recipient"])
      expect(yield* codeOf(send.single(caller, { recipient: TZ1, sender_id: "TUMA", body: "😀😀" }))).toBe(
        "EMPTY_MESSAGE"
      )
      expect(yield* stateOf(account.id)).toMatchObject({ messages: 0, ledger: 1000 })
    }))

  it.effect("a sender ID approved for another country, or pending, is not approved here", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const op = yield* Operator
      const { account, caller } = yield* setupAccount({ sender: null })
      yield* op.grantSenderId({ accountId: account.id, senderId: "SHOP", country: "KE" })
      yield* op.grantSenderId({ accountId: account.id, senderId: "PENDING", country: "TZ", status: "pending" })
      const a = yield* Effect.flip(send.single(caller, { recipient: TZ1, sender_id: "shop", body: "Hi" }))
      const b = yield* Effect.flip(send.single(caller, { recipient: TZ1, sender_id: "Pending", body: "Hi" }))
      expect([a.error_code, b.error_code]).toEqual(["SENDER_ID_NOT_APPROVED", "SENDER_ID_NOT_APPROVED"])
      expect(b.message).toContain("pending")
      yield* op.grantSenderId({ accountId: account.id, senderId: "GLOBAL", country: "KE", isGlobal: true })
      const ok = yield* send.single(caller, { recipient: TZ1, sender_id: "global", body: "Hi" })
      expect(ok.data.sender_id).toBe("GLOBAL")
    }))

  it.effect("sandbox: same refusals as live, synthetic success, nothing stored or charged", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const { account, caller } = yield* setupAccount({ balances: { TZ: 0 } })
      const sandbox: SendCaller = { ...caller, mode: "test", idempotencyKey: "k1" }
      expect(yield* codeOf(send.single(sandbox, { recipient: TZ1, sender_id: "NOPE", body: "Hi" }))).toBe(
        "SENDER_ID_NOT_APPROVED"
      )
      const out = yield* send.single(sandbox, { recipient: TZ1, sender_id: "TUMA", body: "Hi" })
      expect(out.sandbox).toBe(true)
      expect(out.data.status).toBe("queued")
      const bulk = yield* send.bulkV2(sandbox, { recipients: [TZ1, TZ2], message: "Hi {name}", sender_id: "TUMA" })
      expect(bulk.data.queued_count).toBe(2)
      expect(yield* stateOf(account.id)).toMatchObject({
        balance: 0,
        ledger: 0,
        messages: 0,
        queued: 0,
        campaigns: 0,
        idempotency: 0
      })
    }))

  it.effect("idempotency: replay returns the first answer; other content → IDEMPOTENCY_KEY_REUSED; 24 h", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 } })
      const keyed: SendCaller = { ...caller, idempotencyKey: "order-42" }
      const body = { recipient: TZ1, sender_id: "TUMA", body: "Your code is 1234" }
      const first = yield* send.single(keyed, body)
      const again = yield* send.single(keyed, { ...body })
      expect(again.idempotent_replay).toBe(true)
      expect(again.data).toEqual(first.data)
      expect(yield* codeOf(send.single(keyed, { ...body, body: "Other" }))).toBe("IDEMPOTENCY_KEY_REUSED")
      expect(yield* codeOf(send.bulkV2(keyed, { recipients: [TZ1], message: body.body, sender_id: "TUMA" }))).toBe(
        "IDEMPOTENCY_KEY_REUSED"
      )
      // a replay answers even when the send would now be refused
      yield* Effect.flatMap(Operator, (op) => op.setAccountActive(account.id, false))
      expect((yield* send.single(keyed, body)).idempotent_replay).toBe(true)
      yield* Effect.flatMap(Operator, (op) => op.setAccountActive(account.id, true))
      expect(yield* stateOf(account.id)).toMatchObject({ messages: 1, balance: 9, idempotency: 1 })
      // after 24 hours the key is free again
      yield* TestClock.adjust("24 hours")
      const later = yield* send.single(keyed, body)
      expect(later.idempotent_replay).toBe(false)
      expect(later.data.uid).not.toBe(first.data.uid)
      expect(yield* stateOf(account.id)).toMatchObject({ messages: 2, balance: 8, idempotency: 1 })
    }))

  it.effect("bulk v1: dedupes (first wins), skips failing recipients into failures, charges the rest", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const op = yield* Operator
      const { account, caller } = yield* setupAccount({ balances: { TZ: 3 } })
      yield* op.addOptOut(account.id, TZ3)
      const out = yield* send.bulkV1(caller, {
        recipients: [TZ1, "+255 712 345 678", TZ3, KE1, TZ2, ...tzNumbers(2)],
        sender_id: "TUMA",
        message: "Sale today",
        campaign_name: "Promo"
      })
      const d = out.data
      expect(d).toMatchObject({ name: "Promo", status: "queued", recipient_count: 7, queued_count: 3, failed_count: 4 })
      expect(d.failures.map((f) => [f.index, f.error_code])).toEqual([
        [1, "DUPLICATE_RECIPIENT"],
        [2, "RECIPIENT_OPTED_OUT"],
        [3, "COUNTRY_NOT_AVAILABLE"], // KE is closed (decisions §29: before the sender ID)
        [6, "INSUFFICIENT_BALANCE"]
      ])
      expect(d.results.map((r) => r.recipient)).toEqual([TZ1, TZ2, tzNumbers(1)[0]])
      expect(d.charges).toEqual([{ country: "TZ", units: 3 }])
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 0, ledger: 0, messages: 3, queued: 3, campaigns: 1 })
    }))

  it.effect("bulk v1: all recipients refused → the first refusal, nothing stored", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const { account, caller } = yield* setupAccount()
      const e = yield* Effect.flip(send.bulkV1(caller, { recipients: [TZ1, TZ2], sender_id: "NONE", body: "Hi" }))
      expect(e.error_code).toBe("SENDER_ID_NOT_APPROVED")
      expect(yield* stateOf(account.id)).toMatchObject({ messages: 0, campaigns: 0, ledger: 1000 })
    }))

  it.effect("scheduled campaigns: messages scheduled, charged now, not queued for dispatch; past time is 422", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 } })
      const at = new Date(NOW + 3600_000).toISOString()
      const out = yield* send.bulkV2(caller, {
        recipients: [TZ1, TZ2],
        message: "Hi",
        sender_id: "TUMA",
        scheduled_at: at
      })
      expect(out.data).toMatchObject({ status: "scheduled", scheduled_at: at, queued_count: 2 })
      expect(out.data.messages.every((m) => m.status === "scheduled")).toBe(true)
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 8, messages: 2, queued: 0, campaigns: 1 })
      const rows = yield* Effect.flatMap(Probe, (probe) => probe.campaignMessages(out.data.uid))
      expect(rows.length).toBe(2)
      expect(rows.every((r) => r.status === "scheduled" && r.queued_at === null)).toBe(true)
      const past = yield* Effect.flip(
        send.bulkV1(caller, {
          recipients: [TZ1],
          message: "Hi",
          sender_id: "TUMA",
          scheduled_at: new Date(NOW).toISOString()
        })
      )
      expect(past._tag === "ValidationFailed" && Object.keys(past.errors)).toEqual(["scheduled_at"])
    }))

  it.effect("bulk v2: personalised per recipient, each charged for its own message", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const { account, caller } = yield* setupAccount({ balances: { TZ: 100 } })
      const out = yield* send.bulkV2(caller, {
        recipients: [
          { to: TZ1, name: "Asha", amount: 12000, paid: 2000 },
          TZ2,
          { to: TZ3, name: "x".repeat(200) },
          { to: "+255712345678", name: "Dup" },
          { to: tzNumbers(1)[0], amount: "abc", paid: 1 }
        ],
        message: "Hi {name}, you owe {= amount - paid } TZS.",
        sender_id: "TUMA",
        campaign_name: "Dues"
      })
      const d = out.data
      expect(d.queued_count).toBe(3)
      expect(d.failures.map((f) => [f.index, f.error_code])).toEqual([[3, "DUPLICATE_RECIPIENT"], [
        4,
        "TAG_EXPRESSION_INVALID"
      ]])
      expect(d.messages.map((m) => m.units)).toEqual([1, 1, 2])
      expect(d.units).toBe(4)
      const rows = yield* Effect.flatMap(Probe, (probe) => probe.campaignMessages(d.uid))
      expect(rows.map((r) => r.text)).toContain("Hi Asha, you owe 10000 TZS.")
      expect(rows.map((r) => r.text)).toContain("Hi, you owe TZS.")
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 96, ledger: 96, messages: 3, queued: 3 })
    }))

  it.effect("bulk v2 across two countries charges each country's wallet; short → whole campaign refused", () =>
    Effect.gen(function*() {
      yield* atNow
      const send = yield* Send
      const op = yield* Operator
      yield* op.setMarketOpen("KE", true)
      const { account, caller } = yield* setupAccount({ balances: { TZ: 5, KE: 1 } })
      const short = yield* Effect.flip(send.bulkV2(caller, {
        recipients: [TZ1, TZ2, KE1, "+254722345678"],
        message: "Hello",
        sender_id: "TUMA"
      }))
      expect(short._tag).toBe("InsufficientBalance")
      if (short._tag === "InsufficientBalance") {
        expect(short.shortfall).toEqual([{ country: "KE", units_required: 2, units_available: 1 }])
        expect([short.units_required, short.units_available]).toEqual([4, 3])
      }
      expect(yield* stateOf(account.id)).toMatchObject({ wallets: { TZ: 5, KE: 1 }, messages: 0, campaigns: 0 })
      const ok = yield* send.bulkV2(caller, { recipients: [TZ1, TZ2, KE1], message: "Hello", sender_id: "TUMA" })
      expect(ok.data.charges).toEqual([{ country: "KE", units: 1 }, { country: "TZ", units: 2 }])
      const st = yield* stateOf(account.id)
      expect(st).toMatchObject({ wallets: { TZ: 3, KE: 0 }, balance: 3, ledger: 3, messages: 3, queued: 3 })
      yield* op.setMarketOpen("KE", false)
    }))
})
