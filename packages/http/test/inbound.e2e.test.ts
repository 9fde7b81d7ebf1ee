/**
 * Two-way SMS through a real SMPP bind: the SMSC simulator (written with the `smpp` package) sends
 * mobile-originated deliver_sm to Tuma's carrier bind; the delivery writer stores and joins them, the
 * webhook workers post `sms.received` to a receiver on loopback. A five-part reply in shuffled order
 * with one part repeated is one message and one event; STOP refuses the next send, START accepts it
 * again, HELP answers; the pull API, replies, the admin API (409, unrouted) and sandbox simulation.
 */
import { Inbound, Operator } from "@tuma/core"
import { verifyWebhookSignature } from "@tuma/domain"
import { makeSmscSimulator, type SmscSimulator } from "@tuma/providers/smsc/SmscSimulator"
import { Effect, Exit, Layer, Scope } from "effect"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as DeliveryWorkers from "../src/runtime/DeliveryWorkers.js"
import * as WebhookWorkers from "../src/runtime/WebhookWorkers.js"
import { call, setupAccount, startServer, type TestServer, unique } from "./harness.js"

interface Posted {
  readonly body: string
  readonly json: Record<string, unknown>
  readonly headers: IncomingMessage["headers"]
}

let server: TestServer
let sim: SmscSimulator
let acct: { account: { id: string }; live: string; liveId: string; sandbox: string; sandboxId: string }
let secret: string
const posted: Array<Posted> = []
const scope = Effect.runSync(Scope.make())
const ADMIN = "admin-token-inbound-e2e"
const NUMBER = "+255700100200"
const receiver = createServer((req, res) => {
  let body = ""
  req.on("data", (c) => (body += c))
  req.on("end", () => {
    posted.push({ body, json: JSON.parse(body), headers: req.headers })
    res.writeHead(200).end("ok")
  })
})

const waitFor = async <A>(what: string, f: () => A | undefined | Promise<A | undefined>, ms = 15_000): Promise<A> => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const v = await f()
    if (v !== undefined) return v
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const admin = (method: string, path: string, body?: unknown) =>
  call(server, method, `/admin/v1${path}`, { key: ADMIN, ...(body !== undefined ? { body } : {}) })

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()))
  // the receiver is on loopback: only the operator allow-list permits it
  process.env.TUMA_WEBHOOK_ALLOW = "127.0.0.1"
  server = await startServer({ adminToken: ADMIN })
  sim = await Effect.runPromise(Scope.extend(makeSmscSimulator({ receiptDelayMs: 20 }), scope))
  acct = await server.run(setupAccount({ balances: { TZ: 100 }, providerCredit: null }))
  await server.run(Effect.flatMap(Operator, (op) =>
    op.addProvider({
      name: unique("smsc"),
      kind: "smpp",
      config: { host: "127.0.0.1", port: sim.port, systemId: "tuma", password: "secret" },
      routes: [{ country: "TZ", credit: 1000 }]
    })))
  const context = Layer.succeedContext(server.context)
  await Effect.runPromise(Layer.buildWithScope(
    Layer.mergeAll(
      // with the inbound housekeeping (joins at the timeout, auto replies), as every receiving process
      // (a wait long enough for six parts sent one after the other on a loaded machine)
      DeliveryWorkers.layer({ pollIntervalMs: 100 }, { joinWaitMs: 8_000, pollMs: 100 }),
      WebhookWorkers.layer({}, { TUMA_WEBHOOK_POLL: "50ms", TUMA_WEBHOOK_ALLOW: "127.0.0.1" })
    ).pipe(Layer.provide(context)),
    scope
  ))
  await sim.waitUntil(() => sim.sessionCount > 0, 10_000)
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  const hook = await admin("POST", "/webhooks", {
    api_key_uid: acct.liveId,
    url,
    events: ["sms.delivered", "sms.received", "optout.changed"]
  })
  expect(hook.status).toBe(201)
  expect(hook.body.data.endpoint.events).toEqual(["optout.changed", "sms.delivered", "sms.received"])
  secret = hook.body.data.secret
}, 120_000)

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await server.close()
  receiver.close()
})

const udh = (ref: number, total: number, seq: number) => Buffer.from([5, 0x00, 3, ref, total, seq])
const received = (from: string) => posted.filter((p) => p.json.event === "sms.received" && p.json.from === from)
const inboxOf = async (from: string) =>
  (await call(server, "GET", `/v1/sms/inbound?from=${encodeURIComponent(from)}`, { key: acct.live })).body

describe("inbound numbers (admin API)", () => {
  it("assigns a number, refuses a conflicting assignment (409), checks fields (422), audits", async () => {
    const made = await admin("POST", "/inbound-numbers", { account_uid: acct.account.id, number: NUMBER })
    expect(made.status).toBe(201)
    expect(made.body.data).toMatchObject({ number: NUMBER, keyword: null, account_uid: acct.account.id })
    // the same address again (with or without +, with a keyword) is taken
    expect(
      (await admin("POST", "/inbound-numbers", { account_uid: acct.account.id, number: "+255 700 100 200" })).status
    )
      .toBe(409)
    expect(
      (await admin("POST", "/inbound-numbers", { account_uid: acct.account.id, number: NUMBER, keyword: "X" })).status
    ).toBe(409)
    // a shared short code: two keywords share it, one keyword (or alias) twice does not
    const vote = await admin("POST", "/inbound-numbers", {
      account_uid: acct.account.id,
      number: "15500",
      keyword: "vote",
      aliases: ["kura"]
    })
    expect(vote.body.data).toMatchObject({ keyword: "VOTE", aliases: ["KURA"] })
    const other = await server.run(setupAccount({ balances: { TZ: 1 }, providerCredit: null }))
    expect(
      (await admin("POST", "/inbound-numbers", { account_uid: other.account.id, number: "15500", keyword: "KURA" }))
        .status
    ).toBe(409)
    const info = await admin("POST", "/inbound-numbers", {
      account_uid: other.account.id,
      number: "15500",
      keyword: "info"
    })
    expect(info.status).toBe(201)
    const bad = await admin("POST", "/inbound-numbers", {
      account_uid: other.account.id,
      number: "12",
      keyword: "stop"
    })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors).sort()).toEqual(["keyword", "number"])
    // change and remove
    const changed = await admin("PATCH", `/inbound-numbers/${info.body.data.uid}`, { aliases: ["habari"] })
    expect(changed.body.data.aliases).toEqual(["HABARI"])
    expect((await admin("DELETE", `/inbound-numbers/${info.body.data.uid}`)).status).toBe(200)
    expect((await admin("GET", `/inbound-numbers/${info.body.data.uid}`)).status).toBe(404)
    const audit = await admin("GET", "/audit-log?action=inbound_number.*")
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(["inbound_number.create", "inbound_number.update", "inbound_number.delete"])
    )
  })
})

describe("MO over a real SMPP bind", () => {
  it("a five-part reply, shuffled, one part repeated: one inbound message, one signed sms.received", async () => {
    const from = "+255712300001"
    // the account wrote to the handset first: the reply names it (in_reply_to)
    const sent = await call(server, "POST", "/v1/sms/messages", {
      key: acct.live,
      body: { recipient: from, sender_id: NUMBER, body: "How was your visit?" }
    })
    expect(sent.body).toMatchObject({ success: true })
    expect(sent.body.data.sender_id).toBe(NUMBER)
    const pieces = ["Asante sana, ", "huduma ilikuwa ", "nzuri sana na ", "nitarudi tena ", "wiki ijayo."]
    const order = [3, 0, 4, 1, 3, 2]
    for (const i of order) {
      const status = await sim.sendMoPdu({
        source_addr: from.slice(1),
        destination_addr: NUMBER.slice(1),
        esm_class: 0x40,
        data_coding: 0,
        short_message: { udh: udh(77, 5, i + 1), message: pieces[i] }
      })
      expect(status).toBe(0)
    }
    const events = await waitFor("sms.received", () => received(from).length > 0 ? received(from) : undefined)
    await new Promise((r) => setTimeout(r, 300))
    expect(received(from)).toHaveLength(1)
    const event = events[0]!
    expect(event.json).toMatchObject({
      event: "sms.received",
      from,
      to: NUMBER,
      keyword: null,
      text: pieces.join(""),
      parts: 5,
      complete: true,
      in_reply_to: sent.body.data.uid
    })
    expect(Object.keys(event.json)).toEqual([
      "event",
      "message_id",
      "from",
      "to",
      "keyword",
      "text",
      "parts",
      "complete",
      "received_at",
      "timestamp",
      "in_reply_to"
    ])
    expect(verifyWebhookSignature(event.body, event.headers["x-service-signature"], secret)).toBe(true)
    expect(event.headers["x-service-event"]).toBe("sms.received")
    // the pull API has the same message, once
    const inbox = await inboxOf(from)
    expect(inbox.data).toHaveLength(1)
    expect(inbox.meta).toMatchObject({ total: 1, current_page: 1 })
    expect(inbox.data[0]).toMatchObject({
      uid: event.json.message_id,
      text: pieces.join(""),
      encoding: "GSM-7",
      parts: 5,
      complete: true
    })
    const one = await call(server, "GET", `/v1/sms/inbound/${event.json.message_id}`, { key: acct.live })
    expect(one.body.data.uid).toBe(event.json.message_id)
    // another account's key does not see it
    const other = await server.run(setupAccount({ balances: { TZ: 1 }, providerCredit: null }))
    expect((await call(server, "GET", `/v1/sms/inbound/${event.json.message_id}`, { key: other.live })).status).toBe(
      404
    )
  })

  it("UCS-2 and the sar_* TLVs; a part missing at the timeout is kept, flagged incomplete", async () => {
    const from = "+255712300002"
    const ucs2 = (s: string) => Buffer.from(s, "utf16le").swap16()
    for (const [seq, text] of [[2, "мир"], [1, "Привет, "]] as const) {
      await sim.sendMoPdu({
        source_addr: from.slice(1),
        destination_addr: NUMBER.slice(1),
        data_coding: 8,
        short_message: ucs2(text),
        sar_msg_ref_num: 300,
        sar_total_segments: 2,
        sar_segment_seqnum: seq
      })
    }
    const whole = await waitFor("ucs2", () => received(from)[0])
    expect(whole.json).toMatchObject({ text: "Привет, мир", parts: 2, complete: true })
    // 2 of 3 parts: joined after the wait (8 s here) with what arrived
    for (const seq of [1, 3]) {
      await sim.sendMoPdu({
        source_addr: from.slice(1),
        destination_addr: NUMBER.slice(1),
        esm_class: 0x40,
        short_message: { udh: udh(9, 3, seq), message: `part${seq} ` }
      })
    }
    const partial = await waitFor("incomplete", () => received(from)[1], 30_000)
    expect(partial.json).toMatchObject({ text: "part1 part3 ", parts: 2, complete: false })
  })

  it("STOP refuses the next send, START accepts it again, HELP answers; optout.changed and auto replies", async () => {
    const from = "+255712300003"
    const send = () =>
      call(server, "POST", "/v1/sms/messages", {
        key: acct.live,
        body: { recipient: from, sender_id: NUMBER, body: "Hi" }
      })
    expect((await send()).status).toBe(202)
    expect(await sim.sendMo(from, NUMBER, " stop ")).toBe(0)
    const out = await waitFor(
      "opted out",
      () => posted.find((p) => p.json.event === "optout.changed" && p.json.phone === from)
    )
    expect(out.json).toMatchObject({ status: "opted_out", keyword: "STOP", to: NUMBER })
    const refused = await send()
    expect(refused.status).toBe(422)
    expect(refused.body.error_code).toBe("RECIPIENT_OPTED_OUT")
    // the confirmation still reaches the handset, from the number
    const stopReply = await waitFor(
      "STOP reply",
      () => sim.received.find((p) => p.destinationAddr === from.slice(1) && /unsubscribed/.test(p.text))
    )
    expect([stopReply.sourceAddr, stopReply.sourceTon]).toEqual([NUMBER.slice(1), 1])
    expect(await sim.sendMo(from, NUMBER, "Anza")).toBe(0)
    await waitFor(
      "opted in",
      () =>
        posted.find((p) => p.json.event === "optout.changed" && p.json.phone === from && p.json.status === "opted_in")
    )
    expect((await send()).status).toBe(202)
    await waitFor(
      "ANZA reply in Kiswahili",
      () => sim.received.find((p) => p.destinationAddr === from.slice(1) && /Umejiunga tena/.test(p.text))
    )
    expect(await sim.sendMo(from, NUMBER, "HELP")).toBe(0)
    await waitFor(
      "HELP reply",
      () =>
        sim.received.find((p) => p.destinationAddr === from.slice(1) && /Reply STOP to unsubscribe, START/.test(p.text))
    )
    // each was also delivered as sms.received with its keyword
    const inbox = await inboxOf(from)
    expect(inbox.data.map((m: { command: string; keyword: string }) => [m.command, m.keyword])).toEqual([
      ["help", "HELP"],
      ["start", "ANZA"],
      ["stop", "STOP"]
    ])
  })

  it("a message to no assigned address is kept as unrouted and listed to operators", async () => {
    expect(await sim.sendMo("+255712300004", "99887", "hello?")).toBe(0)
    const listed = await waitFor("unrouted", async () => {
      const r = await admin("GET", "/inbound?unrouted=true&from=%2B255712300004")
      return r.body.data?.length > 0 ? r.body : undefined
    })
    expect(listed.data[0]).toMatchObject({ from: "+255712300004", to: "99887", text: "hello?" })
  })

  it("a reply goes from the number it came in on, through the rules of a send", async () => {
    const from = "+255712300001"
    const [message] = (await inboxOf(from)).data
    const reply = await call(server, "POST", `/v1/sms/inbound/${message.uid}/reply`, {
      key: acct.live,
      body: { body: "Karibu tena!" }
    })
    expect(reply.status).toBe(202)
    expect(reply.body.data).toMatchObject({ recipient: from, sender_id: NUMBER })
    const empty = await call(server, "POST", `/v1/sms/inbound/${message.uid}/reply`, {
      key: acct.live,
      body: { body: "" }
    })
    expect(empty.status).toBe(422)
  })
})

describe("sandbox", () => {
  it("a test key simulates a received message; a live key may not", async () => {
    const sim1 = await call(server, "POST", "/v1/sms/inbound/simulate", {
      key: acct.sandbox,
      body: { from: "+255712300009", text: "Test reply" }
    })
    expect(sim1.status).toBe(201)
    expect(sim1.body).toMatchObject({
      mode: "sandbox",
      data: { from: "+255712300009", to: NUMBER, text: "Test reply" }
    })
    const live = await call(server, "POST", "/v1/sms/inbound/simulate", {
      key: acct.live,
      body: { from: "+255712300009", text: "Test reply" }
    })
    expect(live.status).toBe(403)
    // the live inbox does not list it; the sandbox one does
    expect((await inboxOf("+255712300009")).data).toHaveLength(0)
    const sandbox = await call(server, "GET", "/v1/sms/inbound?from=%2B255712300009", { key: acct.sandbox })
    expect(sandbox.body.data).toHaveLength(1)
    // no event for a live endpoint
    await new Promise((r) => setTimeout(r, 200))
    expect(received("+255712300009")).toHaveLength(0)
  })
})

describe("auto-reply texts", () => {
  it("the account sets its own HELP text; empty falls back to the default", async () => {
    const set = await call(server, "PUT", "/v1/sms/auto-replies", {
      key: acct.live,
      body: { help_en: "Call 0800 123 456 for help." }
    })
    expect(set.status).toBe(200)
    expect(set.body.data).toMatchObject({ help_en: "Call 0800 123 456 for help.", stop_en: null })
    expect(set.body.data.defaults.help_sw).toBe("Jibu SITISHA kujiondoa, ANZA kujiunga tena.")
    const from = "+255712300005"
    expect(await sim.sendMo(from, NUMBER, "help")).toBe(0)
    await waitFor(
      "own HELP text",
      () => sim.received.find((p) => p.destinationAddr === from.slice(1) && p.text === "Call 0800 123 456 for help.")
    )
    const long = await call(server, "PUT", "/v1/sms/auto-replies", {
      key: acct.live,
      body: { stop_en: "x".repeat(321) }
    })
    expect(long.status).toBe(422)
    const reset = await server.run(Effect.flatMap(Inbound, (i) => i.setAutoReplies(acct.account.id, { help_en: "" })))
    expect(reset.help_en).toBeNull()
  })
})
