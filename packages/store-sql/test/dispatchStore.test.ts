/**
 * The `DispatchStore` contract, on every driver (PGlite, PostgreSQL with TUMA_TEST_DATABASE_URL,
 * core's memory adapters): messages accepted by the real send use case are claimed with a lease,
 * and every outcome the delivery writer records (sent, joined receipts, receipts by reused refs,
 * failures with refunds, requeues, credit, unknown outcomes, scheduled messages) reads back the
 * same. The first two tests moved here from packages/providers/test/delivery.test.ts (they only
 * ever used the store); the pipeline with real carriers stays there.
 */
import { expect } from "@effect/vitest"
import { Memory, Send } from "@tuma/core"
import { DispatchStore } from "@tuma/core/ports/DispatchStore"
import { WebhookStore } from "@tuma/core/ports/WebhookStore"
import { Effect, Layer } from "effect"
import * as SqlDispatchStore from "../src/SqlDispatchStore.js"
import * as SqlWebhookStore from "../src/SqlWebhookStore.js"
import { DeliveryProbe } from "./deliveryProbe.js"
import { emptyBatch } from "./fixtures.js"
import * as fixtures from "./fixtures.js"
import { forEachDriver } from "./harness.js"

const { unique } = fixtures

const stack = fixtures.stackWith({
  sql: Layer.mergeAll(SqlDispatchStore.layer, SqlWebhookStore.layer, DeliveryProbe.sql),
  memory: Layer.mergeAll(
    Memory.MemoryDispatchStore.layerMemory,
    Memory.MemoryWebhookStore.layerMemory,
    DeliveryProbe.memory
  )
})

let seq = 0
const nextNumbers = (n: number) => fixtures.tzNumbers(n, 500_000 + (seq += n))

/** An account allowed to send to Tanzania with `TUMA`, and one provider routed there (fresh name). */
const setupAccount = (options: { readonly balance?: number; readonly credit?: number } = {}) =>
  fixtures.setupAccount({
    balances: { TZ: options.balance ?? 100_000 },
    sender: "TUMA",
    providerCredit: { TZ: options.credit ?? 1_000_000 }
  }).pipe(Effect.map((s) => ({ ...s, providerIds: [s.providerId!] })))

/**
 * Claims everything due at `now` (the suite shares one store) and answers this account's messages;
 * the others go back to the queue as they were.
 */
const claimMine = (accountId: string, now: Date) =>
  Effect.gen(function*() {
    const store = yield* DispatchStore
    const all = yield* store.claim({ owner: "t", limit: 1000, now, leaseUntil: new Date(now.getTime() + 60_000) })
    const others = all.filter((m) => m.accountId !== accountId)
    if (others.length > 0) {
      yield* store.apply({
        ...emptyBatch(now, "t"),
        requeued: others.map((m) => ({ messageId: m.id, availableAt: now, lastError: "test" }))
      })
    }
    return all.filter((m) => m.accountId === accountId)
  })

/** A fresh account's message (body `body`), sent and claimed at `t0` (a second from now). */
const claimedOne = (body: string, options: { readonly balance?: number } = {}) =>
  Effect.gen(function*() {
    const setup = yield* setupAccount(options)
    yield* (yield* Send).single(setup.caller, { recipient: nextNumbers(1)[0]!, sender_id: "TUMA", body })
    const t0 = Date.now() + 1_000
    const [m] = yield* claimMine(setup.account.id, new Date(t0))
    return { ...setup, m: m!, t0, probe: yield* DeliveryProbe, store: yield* DispatchStore }
  })

forEachDriver(stack, (it) => {
  it.live("a sent record joined by its final receipt moves processing -> delivered/failed in one write", () =>
    Effect.gen(function*() {
      const { account, caller, key, providerIds } = yield* setupAccount()
      const probe = yield* DeliveryProbe
      // a webhook endpoint on the key: the final-state trigger must fire for a joined write too
      yield* (yield* WebhookStore).createEndpoint({
        id: crypto.randomUUID(),
        apiKeyId: key.id,
        url: "https://example.com/hook",
        secret: "s",
        now: new Date()
      })
      const send = yield* Send
      const [a, b] = nextNumbers(2)
      yield* send.single(caller, { recipient: a!, sender_id: "TUMA", body: "joined ok" })
      yield* send.single(caller, { recipient: b!, sender_id: "TUMA", body: "joined failed" })
      const store = yield* DispatchStore
      const claimed = yield* claimMine(account.id, new Date())
      expect(claimed).toHaveLength(2)
      const before = yield* probe.walletOf(account.id)
      const at = new Date(Date.now() + 5)
      yield* store.apply({
        ...emptyBatch(at, "t"),
        sent: claimed.map((m, i) => ({
          messageId: m.id,
          providerId: providerIds[0]!,
          parts: [{ index: 0, providerMessageId: `00AB${i}`, ref: `ab${i}`, state: "enroute" as const }],
          failureReason: null,
          unknown: null,
          receipt: m.recipient === a
            ? { state: "delivered" as const, deliveryStatus: "DELIVRD", failureReason: null }
            : { state: "failed" as const, deliveryStatus: "UNDELIV", failureReason: "Delivery failed: nope." }
        }))
      })
      const byTo = new Map((yield* probe.messagesOf(account.id)).map((r) => [r.recipient, r]))
      const ok = byTo.get(a!)!
      expect(ok).toMatchObject({ status: "delivered", dr_status: "delivered", dr_delivery_status: "DELIVRD" })
      expect(ok.sent_at!.getTime()).toBe(at.getTime())
      expect(ok.delivered_at!.getTime()).toBe(at.getTime())
      expect(ok.queued_at!.getTime()).toBeLessThanOrEqual(ok.sent_at!.getTime())
      expect(ok.provider_message_id).toMatch(/^00AB/)
      const ko = byTo.get(b!)!
      expect(ko).toMatchObject({ status: "failed", failure_reason: "Delivery failed: nope.", delivered_at: null })
      expect(ko.failed_at!.getTime()).toBe(ko.sent_at!.getTime())
      expect(yield* probe.walletOf(account.id)).toEqual(before)
      expect(yield* probe.queuedOf(account.id)).toBe(0)
      expect(yield* probe.partCount(claimed.map((m) => m.id))).toBe(0)
      expect(yield* probe.webhookEvents(claimed.map((m) => m.id))).toEqual([
        { message_id: ok.id, event: "sms.delivered" },
        { message_id: ko.id, event: "sms.failed" }
      ])
    }))

  it.live("a receipt with a reused reference moves the newest unfinished message, never a finished one", () =>
    Effect.gen(function*() {
      // carriers reuse ids (counters wrap; the simulator restarted its own): three single-part
      // messages and two 2-part messages of one provider carry the same references
      const { account, caller, providerIds } = yield* setupAccount()
      const probe = yield* DeliveryProbe
      const pid = providerIds[0]!
      const send = yield* Send
      const store = yield* DispatchStore
      const base = Date.now() + 60_000 // ahead of the queue's available_at
      const record = (body: string, refs: ReadonlyArray<string>, at: number) =>
        Effect.gen(function*() {
          yield* send.single(caller, { recipient: nextNumbers(1)[0]!, sender_id: "TUMA", body })
          const now = new Date(at)
          const mine = yield* claimMine(account.id, now)
          expect(mine).toHaveLength(1)
          yield* store.apply({
            ...emptyBatch(now, "t"),
            sent: [{
              messageId: mine[0]!.id,
              providerId: pid,
              parts: refs.map((ref, index) => ({ index, providerMessageId: ref, ref, state: "enroute" as const })),
              failureReason: null,
              unknown: null
            }]
          })
          return mine[0]!.id
        })
      const receipt = (ref: string, state: "delivered" | "failed", at: number) =>
        store.apply({
          ...emptyBatch(new Date(at), "t"),
          receipts: [{
            providerId: pid,
            candidates: [ref],
            state,
            deliveryStatus: state === "delivered" ? "DELIVRD" : "UNDELIV",
            errorCode: state === "delivered" ? "000" : "001",
            failureReason: state === "delivered" ? null : "Delivery failed: test.",
            receivedAt: new Date(at)
          }]
        })
      const long = "x".repeat(200) // 2 GSM-7 parts
      const finished = yield* record("first", ["r1"], base)
      yield* receipt("r1", "delivered", base + 1_000)
      const finishedParts = yield* record(long, ["p0", "p1"], base + 2_000)
      yield* receipt("p0", "delivered", base + 2_500)
      yield* receipt("p1", "delivered", base + 2_600)
      const older = yield* record("second", ["r1"], base + 3_000)
      const newer = yield* record("third", ["r1"], base + 4_000)
      const openParts = yield* record(long, ["p0", "p1"], base + 5_000)
      const statusOf = () =>
        probe.messagesOf(account.id).pipe(Effect.map((rows) => new Map(rows.map((r) => [r.id, r]))))
      const before = yield* statusOf()
      expect([finished, finishedParts, older, newer, openParts].map((id) => before.get(id)!.status))
        .toEqual(["delivered", "delivered", "sent", "sent", "sent"])

      yield* receipt("r1", "failed", base + 6_000)
      yield* receipt("p0", "delivered", base + 6_000)
      yield* receipt("p1", "failed", base + 6_000)
      const after = yield* statusOf()
      expect(after.get(newer)).toMatchObject({ status: "failed", failure_reason: "Delivery failed: test." })
      expect(after.get(older)!.status).toBe("sent")
      expect(after.get(openParts)!.status).toBe("failed")
      expect(yield* probe.partStates(openParts)).toEqual(["delivered", "failed"])
      // the finished ones are untouched: state, times, receipt words
      for (const id of [finished, finishedParts]) {
        expect(after.get(id)).toEqual(before.get(id))
      }
      // the next receipt of r1 goes to the remaining unfinished message
      yield* receipt("r1", "delivered", base + 7_000)
      const last = yield* statusOf()
      expect(last.get(older)!.status).toBe("delivered")
      expect(last.get(newer)!.status).toBe("failed")
      expect(last.get(finished)).toEqual(before.get(finished))
      // a receipt whose every candidate is finished is kept pending, not applied
      yield* receipt("r1", "failed", base + 8_000)
      expect(yield* probe.pendingReceipts(pid, "r1")).toBe(1)
      expect((yield* statusOf()).get(older)!.status).toBe("delivered")
    }))

  it.live("claims lease messages: not claimable again until the lease ends, attempts counted", () =>
    Effect.gen(function*() {
      const { account, caller } = yield* setupAccount()
      const probe = yield* DeliveryProbe
      yield* (yield* Send).single(caller, { recipient: nextNumbers(1)[0]!, sender_id: "TUMA", body: "lease" })
      const t0 = Date.now() + 1_000
      const [first] = yield* claimMine(account.id, new Date(t0))
      expect(first).toMatchObject({ attempts: 1, recipient: expect.any(String), parts: 1, units: 1 })
      expect((yield* probe.messagesOf(account.id))[0]!.status).toBe("processing")
      // leased until t0 + 60 s
      expect(yield* claimMine(account.id, new Date(t0 + 59_000))).toEqual([])
      const again = yield* claimMine(account.id, new Date(t0 + 60_000))
      expect(again.map((m) => [m.id, m.attempts])).toEqual([[first!.id, 2]])
      expect((yield* probe.messagesOf(account.id))[0]!.status).toBe("processing")
    }))

  it.live("release gives claims back: named ones, or all of one claim by its lease end; only the owner's", () =>
    Effect.gen(function*() {
      const { account, caller } = yield* setupAccount()
      const probe = yield* DeliveryProbe
      const store = yield* DispatchStore
      for (const to of nextNumbers(3)) {
        yield* (yield* Send).single(caller, { recipient: to, sender_id: "TUMA", body: "back" })
      }
      const t0 = Date.now() + 1_000
      const leaseUntil = new Date(t0 + 60_000)
      const claimed = yield* claimMine(account.id, new Date(t0))
      expect(claimed).toHaveLength(3)
      const statuses = () => Effect.map(probe.messagesOf(account.id), (ms) => ms.map((m) => m.status).sort().join(","))
      // another worker's name releases nothing
      expect(yield* store.release("someone-else", { leaseUntil }, new Date(t0))).toBe(0)
      expect(yield* store.release("someone-else", { messageIds: claimed.map((m) => m.id) }, new Date(t0))).toBe(0)
      expect(yield* statuses()).toBe("processing,processing,processing")
      // one by id, claimable from its time on
      expect(yield* store.release("t", { messageIds: [claimed[0]!.id] }, new Date(t0 + 1_000))).toBe(1)
      expect(yield* statuses()).toBe("processing,processing,queued")
      expect(yield* claimMine(account.id, new Date(t0 + 999))).toEqual([])
      // the rest by the claim's lease end (a claim whose answer was lost)
      expect(yield* store.release("t", { leaseUntil }, new Date(t0 + 1_000))).toBe(2)
      expect(yield* statuses()).toBe("queued,queued,queued")
      expect(yield* store.release("t", { leaseUntil }, new Date(t0 + 1_000))).toBe(0)
      const again = yield* claimMine(account.id, new Date(t0 + 1_000))
      expect(again.map((m) => m.id).sort()).toEqual(claimed.map((m) => m.id).sort())
      expect(again.every((m) => m.attempts === 2)).toBe(true)
    }))

  it.live("a requeued message is queued again and claimable only at its time", () =>
    Effect.gen(function*() {
      const { account, m, probe, store, t0 } = yield* claimedOne("later")
      yield* store.apply({
        ...emptyBatch(new Date(t0), "t"),
        requeued: [{ messageId: m.id, availableAt: new Date(t0 + 5_000), lastError: "busy" }]
      })
      expect((yield* probe.messagesOf(account.id))[0]!.status).toBe("queued")
      expect(yield* claimMine(account.id, new Date(t0 + 4_999))).toEqual([])
      expect((yield* claimMine(account.id, new Date(t0 + 5_000))).map((x) => x.id)).toEqual([m.id])
    }))

  it.live("failed before acceptance: a refund when asked (one ledger row), none otherwise; the queue row goes", () =>
    Effect.gen(function*() {
      const { account, caller } = yield* setupAccount({ balance: 10 })
      const probe = yield* DeliveryProbe
      const store = yield* DispatchStore
      const [a, b] = nextNumbers(2)
      yield* (yield* Send).single(caller, { recipient: a!, sender_id: "TUMA", body: "x".repeat(200) })
      yield* (yield* Send).single(caller, { recipient: b!, sender_id: "TUMA", body: "no refund" })
      expect((yield* probe.walletOf(account.id)).balance).toBe(7)
      const now = new Date(Date.now() + 1_000)
      const mine = yield* claimMine(account.id, now)
      yield* store.apply({
        ...emptyBatch(now, "t"),
        failed: mine.map((m) => ({
          messageId: m.id,
          reason: "refused",
          code: "ESME_RINVDSTADR",
          refund: m.recipient === a
        }))
      })
      expect(yield* probe.walletOf(account.id)).toEqual({ balance: 9, refunds: 1, refunded: 2 })
      const byTo = new Map((yield* probe.messagesOf(account.id)).map((r) => [r.recipient, r]))
      expect(byTo.get(a!)).toMatchObject({ status: "failed", sent_at: null, failure_reason: "refused" })
      expect(byTo.get(a!)!.failure_context).toEqual({
        error_code: "ESME_RINVDSTADR",
        acceptance_state: "DEFINITELY_NOT_ACCEPTED"
      })
      expect(byTo.get(b!)!.status).toBe("failed")
      expect(yield* probe.queuedOf(account.id)).toBe(0)
      // a final message takes no second failure (and no second refund)
      yield* store.apply({
        ...emptyBatch(now, "t"),
        failed: [{ messageId: byTo.get(a!)!.id, reason: "again", code: "X", refund: true }]
      })
      expect(yield* probe.walletOf(account.id)).toEqual({ balance: 9, refunds: 1, refunded: 2 })
    }))

  it.live("provider credit: reserved up to what is left, given back by credit returns", () =>
    Effect.gen(function*() {
      const { providerIds } = yield* setupAccount({ credit: 5 })
      const probe = yield* DeliveryProbe
      const store = yield* DispatchStore
      const tzMarket = (yield* store.routes).find((r) => r.providerId === providerIds[0])!.marketId
      const now = new Date()
      expect(yield* store.reserveCredit(providerIds[0]!, tzMarket, 3, now)).toBe(3)
      expect(yield* store.reserveCredit(providerIds[0]!, tzMarket, 3, now)).toBe(2)
      expect(yield* store.reserveCredit(providerIds[0]!, tzMarket, 3, now)).toBe(0)
      yield* store.apply({
        ...emptyBatch(now, "t"),
        creditReturns: [
          { providerId: providerIds[0]!, marketId: tzMarket, units: 1 },
          { providerId: providerIds[0]!, marketId: tzMarket, units: 2 }
        ]
      })
      expect(yield* probe.providerCredit(providerIds[0]!)).toBe(3)
    }))

  it.live("an unknown outcome waits for its deadline, then fails unconfirmed without a refund", () =>
    Effect.gen(function*() {
      const { account, m, probe, providerIds, store, t0 } = yield* claimedOne("lost", { balance: 10 })
      yield* store.apply({
        ...emptyBatch(new Date(t0), "t"),
        sent: [{
          messageId: m.id,
          providerId: providerIds[0]!,
          parts: [{ index: 0, providerMessageId: null, ref: null, state: "unknown" }],
          failureReason: null,
          unknown: { reference: m.id, reason: "timeout", deadline: new Date(t0 + 10_000) }
        }]
      })
      const [sent] = yield* probe.messagesOf(account.id)
      expect(sent).toMatchObject({ status: "sent", failure_context: { acceptance_state: "UNKNOWN", reference: m.id } })
      const mine = (items: ReadonlyArray<{ messageId: string }>) => items.filter((i) => i.messageId === m.id)
      expect(mine(yield* store.dueReconciliations(new Date(t0 + 9_999), 1000, new Date(t0 + 20_000)))).toEqual([])
      const due = mine(yield* store.dueReconciliations(new Date(t0 + 10_000), 1000, new Date(t0 + 20_000)))
      expect(due).toEqual([{ messageId: m.id, providerId: providerIds[0], reference: m.id, providerMessageIds: [] }])
      // leased to the caller: not due again before the lease ends
      expect(mine(yield* store.dueReconciliations(new Date(t0 + 10_000), 1000, new Date(t0 + 20_000)))).toEqual([])
      yield* store.failUnconfirmed([{ messageId: m.id, reason: "Delivery unconfirmed." }], new Date(t0 + 10_000))
      const [failed] = yield* probe.messagesOf(account.id)
      expect(failed).toMatchObject({ status: "failed", failure_reason: "Delivery unconfirmed.", dr_status: "failed" })
      expect(yield* probe.walletOf(account.id)).toEqual({ balance: 9, refunds: 0, refunded: 0 })
      expect(mine(yield* store.dueReconciliations(new Date(t0 + 30_000), 1000, new Date(t0 + 40_000)))).toEqual([])
    }))

  it.live("a receipt before its part is recorded waits pending and is matched once the part is", () =>
    Effect.gen(function*() {
      const { account, caller, providerIds } = yield* setupAccount()
      const probe = yield* DeliveryProbe
      const store = yield* DispatchStore
      const pid = providerIds[0]!
      yield* (yield* Send).single(caller, { recipient: nextNumbers(1)[0]!, sender_id: "TUMA", body: "early" })
      const t0 = Date.now() + 1_000
      const ref = unique("early")
      const early = yield* store.apply({
        ...emptyBatch(new Date(t0), "t"),
        receipts: [{
          providerId: pid,
          candidates: [ref],
          state: "delivered",
          deliveryStatus: "DELIVRD",
          errorCode: null,
          failureReason: null,
          receivedAt: new Date(t0)
        }]
      })
      expect(early).toMatchObject({ receiptsMatched: 0, receiptsPending: 1 })
      const [m] = yield* claimMine(account.id, new Date(t0))
      yield* store.apply({
        ...emptyBatch(new Date(t0), "t"),
        sent: [{
          messageId: m!.id,
          providerId: pid,
          parts: [{ index: 0, providerMessageId: ref, ref, state: "enroute" }],
          failureReason: null,
          unknown: null
        }]
      })
      expect(yield* store.matchPendingReceipts(new Date(t0 + 1))).toBe(1)
      expect((yield* probe.messagesOf(account.id))[0]).toMatchObject({
        status: "delivered",
        dr_delivery_status: "DELIVRD"
      })
      expect(yield* probe.pendingReceipts(pid, ref)).toBe(0)
      expect(yield* store.matchPendingReceipts(new Date(t0 + 2))).toBe(0)
    }))

  it.live("a scheduled message is queued once due (and its campaign), then claimable", () =>
    Effect.gen(function*() {
      const { account, caller } = yield* setupAccount()
      const probe = yield* DeliveryProbe
      const store = yield* DispatchStore
      const at = new Date(Date.now() + 3_600_000)
      yield* (yield* Send).bulkV1(caller, {
        recipients: nextNumbers(2),
        sender_id: "TUMA",
        message: "scheduled",
        scheduled_at: at.toISOString()
      })
      expect((yield* probe.messagesOf(account.id)).map((r) => r.status)).toEqual(["scheduled", "scheduled"])
      yield* store.promoteScheduled(new Date(at.getTime() - 1), 1000)
      expect((yield* probe.messagesOf(account.id)).map((r) => r.status)).toEqual(["scheduled", "scheduled"])
      expect(yield* store.promoteScheduled(at, 1000)).toBeGreaterThanOrEqual(2)
      const rows = yield* probe.messagesOf(account.id)
      expect(rows.map((r) => r.status)).toEqual(["queued", "queued"])
      expect(rows.every((r) => r.queued_at!.getTime() === at.getTime())).toBe(true)
      expect(yield* claimMine(account.id, at)).toHaveLength(2)
    }))
})
