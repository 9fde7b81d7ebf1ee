/**
 * The portal's inbox over HTTP on a socket (PGlite, and PostgreSQL when configured): conversations
 * per handset and number with unread counts, a conversation in both directions that is marked read
 * when opened, a reply from the number through the rules of a send, the account's numbers, the
 * auto-reply texts (owners change them, members read them), and no account reaching another's.
 */
import { InboundStore } from "@tuma/core/ports/InboundStore"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "../harness.js"
import type { PortalServer } from "./harness.js"
import { accountWithUser, addUser, ADMIN_TOKEN, drivers, signedIn, startPortal } from "./harness.js"

const NUMBER = "+255700900100"
const HANDSET = "+255712300071"

describe.each(drivers)("portal inbox (%s)", (driver) => {
  let server: PortalServer
  let owner: Awaited<ReturnType<typeof accountWithUser>>
  let member: { readonly email: string }
  let stranger: Awaited<ReturnType<typeof accountWithUser>>

  const receive = (from: string, to: string, text: string, at: Date) =>
    server.run(
      Effect.flatMap(InboundStore, (store) =>
        store.record([{ provider: "test", from, to, text, encoding: "GSM-7", concat: null, receivedAt: at }], at))
    )

  beforeAll(async () => {
    server = await startPortal(driver)
    owner = await accountWithUser(server, "owner")
    member = await addUser(server, owner.account.id, "member")
    stranger = await accountWithUser(server, "owner")
    const assigned = await call(server, "POST", "/admin/v1/inbound-numbers", {
      key: ADMIN_TOKEN,
      body: { account_uid: owner.account.id, number: NUMBER }
    })
    expect(assigned.status).toBe(201)
    const t = Date.now()
    await receive(HANDSET, NUMBER, "Habari, bei gani?", new Date(t - 60_000))
    await receive(HANDSET, NUMBER, "Ninasubiri jibu", new Date(t - 30_000))
    await receive("+255712300072", NUMBER, "STOP", new Date(t - 90_000))
  })
  afterAll(async () => {
    await server?.close()
  })

  it("lists conversations newest first with unread counts; opening one marks it read", async () => {
    const agent = await signedIn(server, member.email)
    const list = await agent.get("/portal/api/inbox")
    expect(list.status).toBe(200)
    expect(list.body.unread).toBe(3)
    expect(list.body.meta).toMatchObject({ total: 2, current_page: 1 })
    expect(list.body.data.map((c: { handset: string }) => c.handset)).toEqual([HANDSET, "+255712300072"])
    expect(list.body.data[0]).toMatchObject({ number: NUMBER, last_text: "Ninasubiri jibu", messages: 2, unread: 2 })

    const thread = await agent.get(
      `/portal/api/inbox/conversation?handset=${encodeURIComponent(HANDSET)}&number=${encodeURIComponent(NUMBER)}`
    )
    expect(thread.status).toBe(200)
    expect(thread.body.data).toMatchObject({ handset: HANDSET, number: NUMBER, marked_read: 2 })
    expect(thread.body.data.messages.map((m: { text: string }) => m.text)).toEqual([
      "Ninasubiri jibu",
      "Habari, bei gani?"
    ])
    expect((await agent.get("/portal/api/inbox/unread")).body.data).toEqual({ unread: 1 })
    const stop = await agent.get(
      `/portal/api/inbox/conversation?handset=%2B255712300072&number=${encodeURIComponent(NUMBER)}`
    )
    expect(stop.body.data.messages[0]).toMatchObject({ direction: "in", command: "stop" })
    expect((await agent.get("/portal/api/inbox/unread")).body.data).toEqual({ unread: 0 })
  })

  it("a reply goes from the number through the rules of a send and joins the conversation", async () => {
    const agent = await signedIn(server, member.email)
    const q = `handset=${encodeURIComponent(HANDSET)}&number=${encodeURIComponent(NUMBER)}`
    const thread = (await agent.get(`/portal/api/inbox/conversation?${q}`)).body.data
    const reply = await agent.post(`/portal/api/inbox/${thread.reply_to}/reply`, { body: "Bei ni 5,000." })
    expect(reply.status).toBe(202)
    expect(reply.body.data).toMatchObject({ recipient: HANDSET, sender_id: NUMBER, channel: "web" })
    const empty = await agent.post(`/portal/api/inbox/${thread.reply_to}/reply`, { body: "" })
    expect(empty.status).toBe(422)
    // STOP was received from this handset: the send rules refuse it
    const stopped =
      (await agent.get(`/portal/api/inbox/conversation?handset=%2B255712300072&number=${encodeURIComponent(NUMBER)}`))
        .body.data
    const refused = await agent.post(`/portal/api/inbox/${stopped.reply_to}/reply`, { body: "Hello?" })
    expect(refused.status).toBe(422)
    const after = (await agent.get(`/portal/api/inbox/conversation?${q}`)).body.data
    expect(after.messages[0]).toMatchObject({ direction: "out", text: "Bei ni 5,000.", uid: reply.body.data.uid })
  })

  it("numbers are listed; auto replies are read by members and changed by owners only", async () => {
    const m = await signedIn(server, member.email)
    const numbers = await m.get("/portal/api/inbox/numbers")
    expect(numbers.body.data).toEqual([expect.objectContaining({ number: NUMBER, keyword: null })])
    const texts = await m.get("/portal/api/inbox/auto-replies")
    expect(texts.body.data).toMatchObject({ stop_en: null, defaults: expect.objectContaining({}) })
    expect((await m.request("PUT", "/portal/api/inbox/auto-replies", { body: { help_en: "Call 0800" } })).status)
      .toBe(403)
    const o = await signedIn(server, owner.email)
    const set = await o.request("PUT", "/portal/api/inbox/auto-replies", { body: { help_en: "Call 0800" } })
    expect(set.status).toBe(200)
    expect(set.body.data.help_en).toBe("Call 0800")
    const tooLong = await o.request("PUT", "/portal/api/inbox/auto-replies", { body: { help_en: "x".repeat(2000) } })
    expect(tooLong.status).toBe(422)
    expect((await m.get("/portal/api/inbox/auto-replies")).body.data.help_en).toBe("Call 0800")
  })

  it("another account sees none of it and cannot reply to it", async () => {
    const agent = await signedIn(server, stranger.email)
    const list = await agent.get("/portal/api/inbox")
    expect(list.body).toMatchObject({ data: [], unread: 0, meta: { total: 0 } })
    const q = `handset=${encodeURIComponent(HANDSET)}&number=${encodeURIComponent(NUMBER)}`
    expect((await agent.get(`/portal/api/inbox/conversation?${q}`)).status).toBe(404)
    const own = (await (await signedIn(server, owner.email)).get(`/portal/api/inbox/conversation?${q}`)).body.data
    expect((await agent.post(`/portal/api/inbox/${own.reply_to}/reply`, { body: "hi" })).status).toBe(404)
    expect((await agent.get("/portal/api/inbox/numbers")).body.data).toEqual([])
    expect((await agent.get("/portal/api/inbox/auto-replies")).body.data.help_en).toBeNull()
    const anonymous = await call(server, "GET", "/portal/api/inbox")
    expect(anonymous.status).toBe(401)
  })
})
