/**
 * The delivery pipeline end to end below HTTP: the real send use cases accept messages into the SQL
 * store, the dispatch workers route them to an SMPP carrier (the SMSC simulator over TCP), receipts
 * come back and the messages read `delivered` / `failed`. Runs on PGlite, and on PostgreSQL when
 * TUMA_TEST_DATABASE_URL is set. The store's own contract (claims, batches, receipts by reused
 * refs, refunds) runs on every driver, memory included, in packages/store-sql/test/dispatchStore.test.ts.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Operator, Send } from "@tuma/core"
import { Effect } from "effect"
import smpp from "smpp"
import { answer, makeSmscSimulator, type SmscSimulator } from "../src/smsc/SmscSimulator.js"
import {
  baseStack,
  databaseLayer,
  drivers,
  messagesOf,
  providerCredit,
  setupAccount,
  smppConfig,
  waitForMessages,
  walletOf,
  workers
} from "./support/stack.js"

const tz = (i: number) => `+25571${String(3000000 + i).padStart(7, "0")}`
let seq = 0
const nextNumbers = (n: number) => {
  const start = seq
  seq += n
  return Array.from({ length: n }, (_, i) => tz(start + i))
}

const acceptedTexts = (sim: SmscSimulator) => sim.received.filter((p) => p.answer === "ok")

for (const driver of drivers()) {
  layer(baseStack(databaseLayer(driver)), { excludeTestServices: true, timeout: "120 seconds" })(driver, (it) => {
    it.effect("send -> worker -> SMSC -> receipt: delivered with queued_at <= sent_at <= delivered_at", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 30 })
        const { account, caller, providerIds } = yield* setupAccount({
          providers: [{ kind: "smpp", config: smppConfig(sim.port) }]
        })
        const send = yield* Send
        const [to] = nextNumbers(1)
        const out = yield* send.single(caller, { recipient: to!, sender_id: "TUMA", body: "Your code is 1234" })
        const before = yield* walletOf(account.id)
        const [m] = yield* waitForMessages(account.id).pipe(Effect.provide(workers()))
        expect(m).toMatchObject({
          id: out.data.uid,
          status: "delivered",
          provider_id: providerIds[0],
          failure_reason: null,
          dr_status: "delivered",
          dr_delivery_status: "DELIVRD"
        })
        expect(m!.provider_message_id).toBe(acceptedTexts(sim)[0]!.messageId)
        expect(m!.queued_at!.getTime()).toBeLessThanOrEqual(m!.sent_at!.getTime())
        expect(m!.sent_at!.getTime()).toBeLessThanOrEqual(m!.delivered_at!.getTime())
        expect(m!.dr_checked_at).not.toBeNull()
        const part = acceptedTexts(sim)[0]!
        expect(part).toMatchObject({ sourceAddr: "TUMA", sourceTon: 5, destinationAddr: to!.slice(1), dataCoding: 0 })
        expect(part.text).toBe("Your code is 1234")
        expect(yield* walletOf(account.id)).toEqual(before)
        const sql = yield* SqlClient.SqlClient
        const [q] = yield* sql<
          { n: number }
        >`SELECT count(*)::int AS n FROM dispatch_queue WHERE account_id = ${account.id}`
        expect(q!.n).toBe(0)
      }).pipe(Effect.scoped))

    it.effect("the simulated carrier (defaults, as in the demo) delivers with its receipt within about a second", () =>
      Effect.gen(function*() {
        const { account, caller } = yield* setupAccount({ providers: [{ kind: "simulated", config: {} }] })
        const send = yield* Send
        const rows = yield* Effect.gen(function*() {
          yield* Effect.sleep("300 millis") // workers up
          const t0 = Date.now()
          yield* send.single(caller, { recipient: nextNumbers(1)[0]!, sender_id: "TUMA", body: "demo" })
          const rows = yield* waitForMessages(account.id)
          expect(Date.now() - t0).toBeLessThan(1500)
          return rows
        }).pipe(Effect.provide(workers()))
        expect(rows[0]).toMatchObject({ status: "delivered", dr_delivery_status: "DELIVRD" })
        expect(rows[0]!.provider_message_id).toMatch(/^sim-/)
      }).pipe(Effect.scoped))

    it.effect("the simulated carrier can refuse permanently: failed with a refund", () =>
      Effect.gen(function*() {
        const { account, caller } = yield* setupAccount({
          balance: 10,
          providers: [{ kind: "simulated", config: { mix: { refusedPermanent: 1 }, receiptDelayMs: 20 } }]
        })
        const send = yield* Send
        yield* send.single(caller, { recipient: nextNumbers(1)[0]!, sender_id: "TUMA", body: "no" })
        const [m] = yield* waitForMessages(account.id).pipe(Effect.provide(workers()))
        expect(m).toMatchObject({ status: "failed", sent_at: null })
        expect(yield* walletOf(account.id)).toEqual({ balance: 10, refunds: 1, refunded: 1 })
      }).pipe(Effect.scoped))

    it.effect("a 3-part Unicode message: 3 UDH parts, delivered only when every part is, failed when one fails", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 30 })
        const { account, caller } = yield* setupAccount({ providers: [{ kind: "smpp", config: smppConfig(sim.port) }] })
        const send = yield* Send
        const text = "Habari za leo! Привет из Дар-эс-Салама, это длинное сообщение для проверки. ".repeat(2) +
          "Asante."
        const [a, b, c] = nextNumbers(3)
        // part 3 of the message to `b` stays ENROUTE; part 2 of the message to `c` is UNDELIV
        sim.setReceiptStatus((p) =>
          p.destinationAddr === b!.slice(1) && p.concat?.seq === 3
            ? "ENROUTE"
            : p.destinationAddr === c!.slice(1) && p.concat?.seq === 2
            ? "UNDELIV"
            : "DELIVRD"
        )
        for (const to of [a!, b!, c!]) yield* send.single(caller, { recipient: to, sender_id: "TUMA", body: text })
        const rows = yield* waitForMessages(
          account.id,
          (rows) =>
            rows.filter((r) => r.status === "delivered" || r.status === "failed").length === 2 &&
            sim.counters.receiptsAcked === 9
        ).pipe(Effect.provide(workers()))
        const byTo = new Map(rows.map((r) => [r.recipient, r]))
        expect(byTo.get(a!)!.status).toBe("delivered")
        expect(byTo.get(b!)!.status).toBe("sent")
        expect(byTo.get(c!)!).toMatchObject({ status: "failed", delivered_at: null })
        expect(byTo.get(c!)!.failure_reason).toMatch(/could not deliver/)
        const partsA = acceptedTexts(sim).filter((p) => p.destinationAddr === a!.slice(1))
        expect(partsA).toHaveLength(3)
        expect(partsA.map((p) => p.dataCoding)).toEqual([8, 8, 8])
        expect(partsA.map((p) => p.concat?.seq)).toEqual([1, 2, 3])
        expect(partsA.map((p) => p.text).join("")).toBe(text)
        const sql = yield* SqlClient.SqlClient
        const parts = yield* sql<{ state: string }>`SELECT state FROM message_parts WHERE message_id = ${
          byTo.get(b!)!.id
        }
          ORDER BY part_index`
        expect(parts.map((p) => p.state)).toEqual(["delivered", "delivered", "enroute"])
      }).pipe(Effect.scoped))

    it.effect("a failed receipt: failed with a readable reason, units stay spent", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 20, receiptStatus: () => "EXPIRED" })
        const { account, caller } = yield* setupAccount({ providers: [{ kind: "smpp", config: smppConfig(sim.port) }] })
        const send = yield* Send
        yield* send.single(caller, { recipient: nextNumbers(1)[0]!, sender_id: "TUMA", body: "hello" })
        const before = yield* walletOf(account.id)
        const [m] = yield* waitForMessages(account.id).pipe(Effect.provide(workers()))
        expect(m).toMatchObject({ status: "failed", delivered_at: null, dr_delivery_status: "EXPIRED" })
        expect(m!.failure_reason).toBe(
          "Delivery failed: the carrier could not reach the handset before the message expired (EXPIRED, error 001)."
        )
        expect(m!.sent_at).not.toBeNull()
        expect(m!.failed_at!.getTime()).toBeGreaterThanOrEqual(m!.sent_at!.getTime())
        expect(yield* walletOf(account.id)).toEqual(before)
      }).pipe(Effect.scoped))

    it.effect("receipt ids match whatever their format (hex upper padded answer, decimal receipt without TLV)", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({
          receiptDelayMs: 20,
          idFormat: { radix: 16, upper: true, width: 16 },
          receiptIdFormat: { radix: 10, upper: false, width: 0 },
          receiptTlvs: false
        })
        const { account, caller } = yield* setupAccount({ providers: [{ kind: "smpp", config: smppConfig(sim.port) }] })
        const send = yield* Send
        yield* send.bulkV1(caller, { recipients: nextNumbers(5), sender_id: "TUMA", message: "fmt" })
        const rows = yield* waitForMessages(account.id).pipe(Effect.provide(workers()))
        expect(rows.map((r) => r.status)).toEqual(Array(5).fill("delivered"))
        expect(rows[0]!.provider_message_id).toMatch(/^0{4,}[0-9A-F]+$/)
      }).pipe(Effect.scoped))

    it.effect("throttling: a rate-limited SMSC gets every message exactly once, all delivered", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 20, maxPerSecond: 25 })
        const { account, caller } = yield* setupAccount({ providers: [{ kind: "smpp", config: smppConfig(sim.port) }] })
        const send = yield* Send
        const numbers = nextNumbers(100)
        yield* send.bulkV1(caller, { recipients: numbers, sender_id: "TUMA", message: "rate me" })
        const rows = yield* waitForMessages(account.id, undefined, 30_000).pipe(Effect.provide(workers()))
        expect(rows.every((r) => r.status === "delivered")).toBe(true)
        expect(sim.counters.throttled).toBeGreaterThan(0)
        const accepted = acceptedTexts(sim).map((p) => p.destinationAddr).sort()
        expect(accepted).toEqual(numbers.map((n) => n.slice(1)).sort())
      }).pipe(Effect.scoped))

    it.effect("SMSC down then back: messages wait (queued, not failed) and are delivered once it returns", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 20 })
        const { account, caller } = yield* setupAccount({ providers: [{ kind: "smpp", config: smppConfig(sim.port) }] })
        const send = yield* Send
        yield* Effect.promise(() => sim.stop())
        const numbers = nextNumbers(20)
        yield* send.bulkV1(caller, { recipients: numbers, sender_id: "TUMA", message: "are you there?" })
        const rows = yield* Effect.gen(function*() {
          yield* Effect.sleep("1500 millis")
          const waiting = yield* messagesOf(account.id)
          expect(waiting.every((r) => r.status === "queued" || r.status === "processing")).toBe(true)
          yield* Effect.promise(() => sim.start())
          return yield* waitForMessages(account.id, undefined, 30_000)
        }).pipe(Effect.provide(workers({ retryBaseMs: 200, retryMaxMs: 500 })))
        expect(rows.map((r) => r.status)).toEqual(Array(20).fill("delivered"))
        expect(acceptedTexts(sim)).toHaveLength(20)
      }).pipe(Effect.scoped))

    it.effect("refunds: a permanent refusal fails the message and returns its units and the provider credit", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ policy: () => answer.refuse(smpp.ESME_RINVDSTADR) })
        const { account, caller, providerIds } = yield* setupAccount({
          balance: 50,
          providers: [{ kind: "smpp", config: smppConfig(sim.port), credit: 500 }]
        })
        const send = yield* Send
        yield* send.single(caller, { recipient: nextNumbers(1)[0]!, sender_id: "TUMA", body: "x".repeat(200) })
        expect((yield* walletOf(account.id)).balance).toBe(48)
        const [m] = yield* waitForMessages(account.id).pipe(Effect.provide(workers()))
        expect(m).toMatchObject({ status: "failed", sent_at: null })
        expect(m!.failure_reason).toMatch(/refused the destination number \(ESME_RINVDSTADR\)/)
        expect(m!.failure_context).toMatchObject({
          acceptance_state: "DEFINITELY_NOT_ACCEPTED",
          error_code: "ESME_RINVDSTADR"
        })
        expect(yield* walletOf(account.id)).toEqual({ balance: 50, refunds: 1, refunded: 2 })
        expect(yield* providerCredit(providerIds[0]!)).toBe(500)
      }).pipe(Effect.scoped))

    it.effect("refunds: no provider credit left on any route fails with a refund", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator()
        const { account, caller, providerIds } = yield* setupAccount({
          balance: 10,
          providers: [{ kind: "smpp", config: smppConfig(sim.port), credit: 5 }]
        })
        const send = yield* Send
        yield* send.single(caller, { recipient: nextNumbers(1)[0]!, sender_id: "TUMA", body: "hi" })
        yield* (yield* Operator).setProviderCredit({ providerId: providerIds[0]!, country: "TZ", credit: 0 })
        const [m] = yield* waitForMessages(account.id).pipe(Effect.provide(workers()))
        expect(m!.status).toBe("failed")
        expect(m!.failure_context).toMatchObject({ error_code: "PROVIDER_CREDIT_EXHAUSTED" })
        expect(yield* walletOf(account.id)).toEqual({ balance: 10, refunds: 1, refunded: 1 })
        expect(sim.counters.submits).toBe(0)
      }).pipe(Effect.scoped))

    it.effect("failover: a transient refusal moves to the next route; provider credit is consumed only where accepted", () =>
      Effect.gen(function*() {
        const simA = yield* makeSmscSimulator({ policy: () => answer.refuse(smpp.ESME_RSYSERR) })
        const simB = yield* makeSmscSimulator({ receiptDelayMs: 20 })
        const { account, caller, providerIds } = yield* setupAccount({
          providers: [
            { kind: "smpp", config: smppConfig(simA.port), credit: 100 },
            { kind: "smpp", config: smppConfig(simB.port), credit: 100 }
          ]
        })
        const send = yield* Send
        yield* send.single(caller, { recipient: nextNumbers(1)[0]!, sender_id: "TUMA", body: "failover" })
        const [m] = yield* waitForMessages(account.id).pipe(Effect.provide(workers()))
        expect(m).toMatchObject({ status: "delivered", provider_id: providerIds[1] })
        expect(simA.counters.refused).toBe(1)
        expect(acceptedTexts(simB)).toHaveLength(1)
        expect(yield* providerCredit(providerIds[0]!)).toBe(100)
        expect(yield* providerCredit(providerIds[1]!)).toBe(99)
      }).pipe(Effect.scoped))

    it.effect("no failover after a permanent refusal; an unknown outcome is never re-sent and fails unconfirmed", () =>
      Effect.gen(function*() {
        const simA = yield* makeSmscSimulator({
          policy: (p) => p.text === "perm" ? answer.refuse(smpp.ESME_RX_P_APPN) : answer.timeout
        })
        const simB = yield* makeSmscSimulator({ receiptDelayMs: 20 })
        const { account, caller } = yield* setupAccount({
          balance: 10,
          providers: [
            { kind: "smpp", config: smppConfig(simA.port, { responseTimeoutMs: 300 }) },
            { kind: "smpp", config: smppConfig(simB.port) }
          ]
        })
        const send = yield* Send
        const [x, y] = nextNumbers(2)
        yield* send.single(caller, { recipient: x!, sender_id: "TUMA", body: "perm" })
        yield* send.single(caller, { recipient: y!, sender_id: "TUMA", body: "lost" })
        const rows = yield* waitForMessages(account.id, undefined, 20_000).pipe(
          Effect.provide(workers({ unknownTimeoutMs: 1500, reconcileIntervalMs: 300 }))
        )
        const byTo = new Map(rows.map((r) => [r.recipient, r]))
        expect(byTo.get(x!)).toMatchObject({ status: "failed", sent_at: null })
        expect(byTo.get(y!)!.status).toBe("failed")
        expect(byTo.get(y!)!.sent_at).not.toBeNull()
        expect(byTo.get(y!)!.failure_reason).toMatch(/unconfirmed/)
        expect(byTo.get(y!)!.failure_context).toMatchObject({
          acceptance_state: "UNKNOWN",
          reference: byTo.get(y!)!.id
        })
        expect(simB.counters.submits).toBe(0)
        // refund only for the definite refusal
        expect(yield* walletOf(account.id)).toEqual({ balance: 9, refunds: 1, refunded: 1 })
      }).pipe(Effect.scoped))

    it.effect("an unknown outcome reconciled by a late answer and its receipt: delivered, never re-sent", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ submitDelayMs: 700, receiptDelayMs: 50 })
        const simB = yield* makeSmscSimulator()
        const { account, caller } = yield* setupAccount({
          providers: [
            { kind: "smpp", config: smppConfig(sim.port, { responseTimeoutMs: 300 }) },
            { kind: "smpp", config: smppConfig(simB.port) }
          ]
        })
        const send = yield* Send
        yield* send.single(caller, { recipient: nextNumbers(1)[0]!, sender_id: "TUMA", body: "slow carrier" })
        const [m] = yield* waitForMessages(account.id).pipe(Effect.provide(workers({ pendingSweepMs: 100 })))
        expect(m!.status).toBe("delivered")
        expect(m!.provider_message_id).toBe(acceptedTexts(sim)[0]!.messageId)
        expect(sim.counters.submits).toBe(1)
        expect(simB.counters.submits).toBe(0)
      }).pipe(Effect.scoped))

    it.effect("inbound STOP opts the number out for the account it replied to", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 10 })
        const { account, caller } = yield* setupAccount({ providers: [{ kind: "smpp", config: smppConfig(sim.port) }] })
        const other = yield* setupAccount({ providers: [] })
        const send = yield* Send
        const [to] = nextNumbers(1)
        yield* send.single(caller, { recipient: to!, sender_id: "TUMA", body: "promo" })
        yield* Effect.gen(function*() {
          yield* waitForMessages(account.id)
          const status = yield* Effect.promise(() => sim.sendMo(to!, "TUMA", " stop "))
          expect(status).toBe(0)
        }).pipe(Effect.provide(workers()))
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ account_id: string }>`SELECT account_id FROM opt_outs WHERE recipient = ${to!}`
        expect(rows.map((r) => r.account_id)).toEqual([account.id])
        const refused = yield* Effect.flip(send.single(caller, { recipient: to!, sender_id: "TUMA", body: "again" }))
        expect(refused.error_code).toBe("RECIPIENT_OPTED_OUT")
        expect(other.account.id).not.toBe(account.id)
      }).pipe(Effect.scoped))

    it.effect("a scheduled campaign whose moment passed while no worker ran is queued and sent at the next start", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 10 })
        const { account, caller } = yield* setupAccount({ providers: [{ kind: "smpp", config: smppConfig(sim.port) }] })
        const send = yield* Send
        const at = new Date(Date.now() + 1500)
        const out = yield* send.bulkV1(caller, {
          recipients: nextNumbers(4),
          sender_id: "TUMA",
          message: "scheduled hello",
          scheduled_at: at.toISOString()
        })
        expect(out.data.status).toBe("scheduled")
        // a worker runs, then stops (restart) before the moment
        yield* Effect.sleep("300 millis").pipe(Effect.provide(workers()))
        expect((yield* messagesOf(account.id)).map((r) => r.status)).toEqual(Array(4).fill("scheduled"))
        yield* Effect.sleep(Math.max(0, at.getTime() - Date.now()) + 500)
        expect(sim.counters.submits).toBe(0)
        const rows = yield* waitForMessages(account.id).pipe(Effect.provide(workers()))
        expect(rows.map((r) => r.status)).toEqual(Array(4).fill("delivered"))
        for (const r of rows) expect(r.queued_at!.getTime()).toBeGreaterThanOrEqual(at.getTime())
        const sql = yield* SqlClient.SqlClient
        const [c] = yield* sql<{ status: string }>`SELECT status FROM campaigns WHERE id = ${out.data.uid}`
        expect(c!.status).toBe("queued")
      }).pipe(Effect.scoped))

    it.effect("a per-provider limit (messages/s) holds across two worker instances", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 10 })
        const { account, caller } = yield* setupAccount({
          providers: [{ kind: "smpp", config: smppConfig(sim.port, { maxPerSecond: 40 }) }]
        })
        const send = yield* Send
        yield* send.bulkV1(caller, { recipients: nextNumbers(120), sender_id: "TUMA", message: "paced" })
        const t0 = Date.now()
        yield* waitForMessages(account.id, undefined, 30_000).pipe(
          Effect.provide(workers()),
          Effect.provide(workers())
        )
        const elapsed = Date.now() - t0
        expect(sim.counters.binds).toBeGreaterThanOrEqual(2)
        // 120 messages at 40/s take at least ~3 s whatever the number of workers
        expect(elapsed).toBeGreaterThan(2500)
        const times = acceptedTexts(sim).map((p) => p.receivedAt).sort((a, b) => a - b)
        let worst = 0
        for (let i = 0; i < times.length; i++) {
          let j = i
          while (j < times.length && times[j]! - times[i]! < 1000) j++
          worst = Math.max(worst, j - i)
        }
        // the pacer's documented bound: slots up to `lateMs` (100 ms, 4 at 40/s) late are still
        // used, so each of the two workers may add one such catch-up to a window
        expect(worst).toBeLessThanOrEqual(40 + 2 * 4)
      }).pipe(Effect.scoped))
  })
}
