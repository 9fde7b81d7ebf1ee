/**
 * The `InboundStore` contract on the SQL drivers (PGlite; PostgreSQL with TUMA_TEST_DATABASE_URL):
 * parts joined in any order with duplicates dropped and re-sends recognised, incomplete messages
 * joined at the timeout, routing by address and keyword (unrouted kept), the conflict rule of
 * assignments, STOP/START changing the opt-out list with their events and auto replies owed, and the
 * delivery writer's `apply` doing the same as `record`. No memory twin: the in-memory store keeps
 * no inbound messages (docs/inbound.md).
 */
import { expect } from "@effect/vitest"
import { Send } from "@tuma/core"
import { DispatchStore } from "@tuma/core/ports/DispatchStore"
import type { InboundRecord } from "@tuma/core/ports/InboundStore"
import { InboundStore } from "@tuma/core/ports/InboundStore"
import { WebhookStore } from "@tuma/core/ports/WebhookStore"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import * as SqlDispatchStore from "../src/SqlDispatchStore.js"
import * as SqlInboundStore from "../src/SqlInboundStore.js"
import * as SqlWebhookStore from "../src/SqlWebhookStore.js"
import * as fixtures from "./fixtures.js"
import { emptyBatch } from "./fixtures.js"
import { forEachDriver, sqlClient } from "./harness.js"

/** SQL drivers only: the memory driver is never built. */
const stack = fixtures.stackWith({
  sql: Layer.mergeAll(SqlInboundStore.layer, SqlDispatchStore.layer, SqlWebhookStore.layer),
  memory: Layer.die("no memory twin")
}).sql

let seq = 0
const handset = () => `+2557123${String(40_000 + seq++).padStart(5, "0")}`
const shortCode = () => String(10_000 + Math.floor(Math.random() * 89_999))

/** A fresh account with an address (and an endpoint subscribed to the two-way events). */
const setup = (number: string, keyword: string | null = null) =>
  Effect.gen(function*() {
    const s = yield* fixtures.setupAccount({ balances: { TZ: 10 }, providerCredit: null })
    const store = yield* InboundStore
    const now = new Date()
    const saved = yield* store.saveNumber({
      id: randomUUID(),
      accountId: s.account.id,
      number,
      keyword,
      aliases: [],
      createdAt: now,
      updatedAt: now
    }, "insert")
    expect(saved).toEqual({ saved: true })
    const endpoint = yield* (yield* WebhookStore).createEndpoint({
      id: randomUUID(),
      apiKeyId: s.key.id,
      url: "https://example.com/hook",
      secret: "s",
      events: ["sms.received", "optout.changed"],
      now
    })
    return { ...s, store, endpoint: endpoint! }
  })

const part = (from: string, to: string, text: string, concat: InboundRecord["concat"], at = new Date()) => ({
  provider: "smsc",
  from,
  to,
  text,
  encoding: "GSM-7" as const,
  concat,
  receivedAt: at
})

const deliveriesOf = (endpointId: string) =>
  Effect.flatMap(sqlClient, (sql) =>
    sql<{ event: string; payload: string; message_id: string }>`
      SELECT event, payload, message_id FROM webhook_deliveries WHERE endpoint_id = ${endpointId} ORDER BY created_at`)

forEachDriver(stack, (it, driver) => {
  it.live(`five parts in any order, one repeated: one message, one sms.received (${driver})`, () =>
    Effect.gen(function*() {
      const number = `+2557001${String(seq++).padStart(5, "0")}`
      const { account, endpoint, store } = yield* setup(number)
      const from = handset()
      const texts = ["a1 ", "b2 ", "c3 ", "d4 ", "e5"]
      const parts = [4, 2, 0, 2, 3, 1].map((i) =>
        part(from, number.slice(1), texts[i]!, { ref: 200, total: 5, seq: i + 1 })
      )
      // the first four (with the repeat) wait; the last completes the message
      const first = yield* store.record(parts.slice(0, 5), new Date())
      expect(first).toMatchObject({ parts: 4, duplicates: 1, messages: 0 })
      const done = yield* store.record(parts.slice(5), new Date())
      expect(done).toMatchObject({ parts: 1, messages: 1, unrouted: 0 })
      // the carrier sends a part again after the message was made: no second message
      const again = yield* store.record([parts[0]!], new Date())
      expect(again).toMatchObject({ parts: 0, duplicates: 1, messages: 0 })
      const { rows, total } = yield* store.list(account.id, { sandbox: false, offset: 0, limit: 10 })
      expect(total).toBe(1)
      expect(rows[0]).toMatchObject({ from_addr: from, text: texts.join(""), parts: 5, complete: true })
      const sent = yield* deliveriesOf(endpoint.id)
      expect(sent).toHaveLength(1)
      expect(JSON.parse(sent[0]!.payload)).toMatchObject({
        event: "sms.received",
        message_id: rows[0]!.id,
        to: number,
        text: texts.join(""),
        parts: 5,
        complete: true
      })
      // a redelivery sends the same bytes (the body was frozen with the event)
      const [delivery] = yield* Effect.flatMap(
        sqlClient,
        (sql) => sql<{ id: string }>`SELECT id FROM webhook_deliveries WHERE endpoint_id = ${endpoint.id}`
      )
      yield* (yield* WebhookStore).redeliver(
        endpoint.id,
        { deliveryId: delivery!.id },
        new Date(),
        Effect.sync(randomUUID)
      )
      const again2 = yield* deliveriesOf(endpoint.id)
      expect(again2.map((d) => [d.event, d.payload])).toEqual([
        ["sms.received", sent[0]!.payload],
        ["sms.received", sent[0]!.payload]
      ])
      const shown = yield* (yield* WebhookStore).getDelivery(delivery!.id)
      expect(shown?.payload).toBe(sent[0]!.payload)
    }))

  it.live(`the delivery writer's apply stores, joins and answers the same (${driver})`, () =>
    Effect.gen(function*() {
      const number = `+2557002${String(seq++).padStart(5, "0")}`
      const { account, store } = yield* setup(number)
      const from = handset()
      const dispatch = yield* DispatchStore
      const r = yield* dispatch.apply({
        ...emptyBatch(new Date(), "t"),
        inbound: [part(from, number, "Habari", null), part(from, number, "Habari", null)]
      })
      expect(r.inbound).toMatchObject({ parts: 1, duplicates: 1, messages: 1 })
      const one = yield* store.get(account.id, r.inbound.messageIds[0]!)
      expect(one._tag).toBe("Some")
    }))

  it.live(`missing parts at the timeout: joined with what arrived, complete false (${driver})`, () =>
    Effect.gen(function*() {
      const number = `+2557003${String(seq++).padStart(5, "0")}`
      const { account, store } = yield* setup(number)
      const from = handset()
      const old = new Date(Date.now() - 10 * 60_000)
      yield* store.record([
        part(from, number, "one ", { ref: 7, total: 3, seq: 1 }, old),
        part(from, number, "three", { ref: 7, total: 3, seq: 3 }, old)
      ], old)
      const joined = yield* store.joinExpired(new Date(Date.now() - 60_000), new Date())
      expect(joined.messages).toBeGreaterThanOrEqual(1)
      const { rows } = yield* store.list(account.id, { sandbox: false, from, offset: 0, limit: 10 })
      expect(rows.map((m) => [m.text, m.parts, m.complete])).toEqual([["one three", 2, false]])
      expect((yield* store.gauges).partsWaiting).toBeGreaterThanOrEqual(0)
    }))

  it.live(`routing: keyword on a shared short code; no assignment = unrouted, kept (${driver})`, () =>
    Effect.gen(function*() {
      const code = shortCode()
      const { account, store } = yield* setup(code, "VOTE")
      const from = handset()
      const made = yield* store.record([
        part(from, code, "vote 3", null),
        part(from, code, "hello", null)
      ], new Date())
      expect(made).toMatchObject({ messages: 2, unrouted: 1 })
      const mine = yield* store.list(account.id, { sandbox: false, from, offset: 0, limit: 10 })
      expect(mine.rows.map((m) => [m.text, m.keyword])).toEqual([["vote 3", "VOTE"]])
      const unrouted = yield* store.list(null, { sandbox: false, from, offset: 0, limit: 10 })
      expect(unrouted.rows.map((m) => m.text)).toEqual(["hello"])
    }))

  it.live(`a conflicting assignment is refused, whatever the spelling of the address (${driver})`, () =>
    Effect.gen(function*() {
      const code = shortCode()
      const { account, store } = yield* setup(code, "INFO")
      const now = new Date()
      const row = { accountId: account.id, aliases: [], createdAt: now, updatedAt: now }
      const dedicated = yield* store.saveNumber({ ...row, id: randomUUID(), number: code, keyword: null }, "insert")
      expect(dedicated).toHaveProperty("conflict")
      const same = yield* store.saveNumber({ ...row, id: randomUUID(), number: code, keyword: "INFO" }, "insert")
      expect(same).toHaveProperty("conflict")
      const other = yield* store.saveNumber({ ...row, id: randomUUID(), number: code, keyword: "NEWS" }, "insert")
      expect(other).toEqual({ saved: true })
    }))

  it.live(`STOP and START change the opt-out list, with events and auto replies owed (${driver})`, () =>
    Effect.gen(function*() {
      const number = `+2557004${String(seq++).padStart(5, "0")}`
      const { account, endpoint, store } = yield* setup(number)
      const sql = yield* sqlClient
      const from = handset()
      const optedOut = () =>
        Effect.map(
          sql<{ n: number }>`SELECT count(*)::int AS n FROM opt_outs WHERE account_id = ${account.id}
            AND recipient = ${from}`,
          (r) => r[0]!.n
        )
      yield* store.record([part(from, number, "Sitisha", null)], new Date())
      expect(yield* optedOut()).toBe(1)
      yield* store.record([part(from, number, "start", null)], new Date())
      expect(yield* optedOut()).toBe(0)
      const events = (yield* deliveriesOf(endpoint.id)).filter((d) => d.event === "optout.changed")
      expect(events.map((e) => JSON.parse(e.payload).status)).toEqual(["opted_out", "opted_in"])
      const now = new Date()
      const replies = (yield* store.claimReplies(100, now, new Date(now.getTime() + 60_000)))
        .filter((r) => r.accountId === account.id)
      expect(replies.map((r) => [r.handset, r.sender, r.text.slice(0, 12)]).sort()).toEqual([
        [from, number, "Umejiondoa n"],
        [from, number, "You have bee"]
      ])
    }))

  it.live(`an opt-out word to no assigned address: the account that last wrote, its events (${driver})`, () =>
    Effect.gen(function*() {
      // the account sends from its sender ID; the handset answers STOP to that sender (no assignment)
      const s = yield* fixtures.setupAccount({ sender: "DUKA" })
      const from = handset()
      yield* (yield* Send).single(s.caller, { recipient: from, sender_id: "DUKA", body: "Habari" })
      const endpoint = yield* (yield* WebhookStore).createEndpoint({
        id: randomUUID(),
        apiKeyId: s.key.id,
        url: "https://example.com/hook",
        secret: "s",
        events: ["sms.received", "optout.changed"],
        now: new Date()
      })
      const store = yield* InboundStore
      expect(yield* store.record([part(from, "DUKA", "STOP", null)], new Date())).toMatchObject({
        messages: 1,
        unrouted: 0
      })
      // its endpoints were not among the batch's (no assignment names the account): read for it
      const events = yield* deliveriesOf(endpoint!.id)
      expect(events.map((e) => [e.event, JSON.parse(e.payload).keyword]).sort()).toEqual([
        ["optout.changed", "STOP"],
        ["sms.received", "STOP"]
      ])
    }))
})
