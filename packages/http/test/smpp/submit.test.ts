/**
 * submit_sm / data_sm through the send use case and receipts back (issue 28, docs/smpp.md), with node-smpp
 * as the ESME over a socket: the uid readable by GET /v1/sms/messages/{uid} (channel smpp), refusals
 * mapped to command_status, data_coding 8, long messages (UDH 8-bit, sar_* 16-bit, message_payload)
 * joined into one message, the window, throttling in parts, and receipts (deliver_sm esm_class 0x04,
 * receipted_message_id, message_state) held while nothing is bound and retried until acknowledged.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, setupAccount, unique } from "../harness.js"
import { bind, createCredentials, eventually, next, request, sleep, startSmppServer } from "./support.js"

let server: Awaited<ReturnType<typeof startSmppServer>>
let acct: { account: { id: string }; live: string }

beforeAll(async () => {
  server = await startSmppServer({ window: 3, concatTimeoutMs: 800, responseTimeoutMs: 500 })
  acct = await server.run(setupAccount({ balances: { TZ: 1000 } }))
})
afterAll(() => server.close())

const credentials = async (extra: Record<string, unknown> = {}) => {
  const system_id = unique("m").slice(0, 15)
  const answer = await createCredentials(server, { account_uid: acct.account.id, system_id, ...extra })
  expect(answer.status).toBe(201)
  return { systemId: system_id, password: answer.body.data.password as string, uid: answer.body.data.uid as string }
}

const sql = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  server.run(Effect.flatMap(SqlClient.SqlClient, f))

const submit = (session: Parameters<typeof request>[0], fields: Record<string, unknown>) =>
  request(session, "submit_sm", {
    source_addr: "TUMA",
    dest_addr_ton: 1,
    destination_addr: "255712345678",
    data_coding: 0,
    ...fields
  })

describe("submit_sm", () => {
  it("accepts through the REST send rules: the message_id is the uid, readable with the account's key", async () => {
    const c = await credentials()
    const { session } = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    const resp = await submit(session, { short_message: Buffer.from("Hello from SMPP") })
    expect(resp.command_status).toBe(0)
    const read = await call(server, "GET", `/v1/sms/messages/${resp.message_id}`, { key: acct.live })
    expect(read.status).toBe(200)
    expect(read.body.data).toMatchObject({ uid: resp.message_id, channel: "smpp", recipient: "+255712345678" })
    const ucs2 = Buffer.from("Habari 你好", "utf16le").swap16()
    const u = await submit(session, { data_coding: 8, short_message: ucs2 })
    const rows = await sql<{ text: string; encoding: string }>((s) =>
      s`SELECT text, encoding FROM messages WHERE id = ${u.message_id}`
    )
    expect(rows[0]).toEqual({ text: "Habari 你好", encoding: "Unicode" })
    session.close()
  })

  it("decides the submits of a window together, each with its own answer: a refused one refuses no neighbour", async () => {
    const c = await credentials()
    const { session } = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    // written in one go: they reach the server in one read and go to the send use case as one batch
    const [a, refused, b] = await Promise.all([
      submit(session, { short_message: Buffer.from("first of the window") }),
      submit(session, { source_addr: "NOTMINE", short_message: Buffer.from("second of the window") }),
      submit(session, { short_message: Buffer.from("third of the window") })
    ])
    expect([a.command_status, refused.command_status, b.command_status]).toEqual([0, 0x0a, 0])
    expect(a.message_id).not.toBe(b.message_id)
    const rows = await sql<{ text: string }>((s) =>
      s`SELECT text FROM messages WHERE id IN (${String(a.message_id)}, ${String(b.message_id)}) ORDER BY text`
    )
    expect(rows.map((r) => r.text)).toEqual(["first of the window", "third of the window"])
    session.close()
  })

  it("maps refusals to command_status and charges nothing: unapproved sender, unknown data_coding, receiver bind", async () => {
    const c = await credentials()
    const { session } = await bind(server.smppPort, c.systemId, c.password, "bind_transceiver")
    const before = await sql<{ n: number }>((s) => s`SELECT count(*)::int AS n FROM messages`)
    expect((await submit(session, { source_addr: "NOTMINE", short_message: Buffer.from("x") })).command_status)
      .toBe(0x0a)
    expect((await submit(session, { data_coding: 4, short_message: Buffer.from("x") })).command_status).toBe(0x104)
    expect(
      (await submit(session, { destination_addr: "12", dest_addr_ton: 0, short_message: Buffer.from("x") }))
        .command_status
    ).toBe(0x0b)
    const after = await sql<{ n: number }>((s) => s`SELECT count(*)::int AS n FROM messages`)
    expect(after[0]!.n).toBe(before[0]!.n)
    const rx = await bind(server.smppPort, c.systemId, c.password, "bind_receiver")
    expect((await submit(rx.session, { short_message: Buffer.from("x") })).command_status).toBe(0x04)
    session.close()
    rx.session.close()
  })

  it("joins long messages (UDH 8-bit, sar_* 16-bit) into one message answered with one uid; a lone part is refused", async () => {
    const c = await credentials()
    const { session } = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    const a = "A".repeat(153)
    const b = "B".repeat(20)
    const udh = (seq: number) => Buffer.from([5, 0, 3, 0x42, 2, seq])
    const [r1, r2] = await Promise.all([
      submit(session, { esm_class: 0x40, short_message: Buffer.concat([udh(1), Buffer.from(a)]) }),
      submit(session, { esm_class: 0x40, short_message: Buffer.concat([udh(2), Buffer.from(b)]) })
    ])
    expect([r1.command_status, r2.command_status]).toEqual([0, 0])
    expect(r1.message_id).toBe(r2.message_id)
    const rows = await sql<{ text: string; units: number }>((s) =>
      s`SELECT text, units FROM messages WHERE id = ${r1.message_id}`
    )
    expect(rows[0]).toEqual({ text: a + b, units: 2 })
    const sar = (seq: number) => ({ sar_msg_ref_num: 0x1234, sar_total_segments: 2, sar_segment_seqnum: seq })
    const [s1, s2] = await Promise.all([
      submit(session, { ...sar(2), short_message: Buffer.from(" world") }),
      submit(session, { ...sar(1), short_message: Buffer.from("hello") })
    ])
    expect(s1.message_id).toBe(s2.message_id)
    const joined = await sql<{ text: string }>((s) => s`SELECT text FROM messages WHERE id = ${s1.message_id}`)
    expect(joined[0]!.text).toBe("hello world")
    const payload = await request(session, "data_sm", {
      source_addr: "TUMA",
      dest_addr_ton: 1,
      destination_addr: "255712345678",
      message_payload: Buffer.from("C".repeat(200))
    })
    expect(payload.command_status).toBe(0)
    const lone = await submit(session, {
      esm_class: 0x40,
      short_message: Buffer.concat([udh(1), Buffer.from("x")]).fill(9, 3, 4)
    })
    expect(lone.command_status).toBe(0x45)
    session.close()
  })

  it("decodes data_coding 1 (IA5) and 3 (Latin-1), and joins parts with a 16-bit UDH reference", async () => {
    const c = await credentials()
    const { session } = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    const text = async (id: unknown) =>
      (await sql<{ text: string }>((s) => s`SELECT text FROM messages WHERE id = ${String(id)}`))[0]!.text
    const ia5 = await submit(session, { data_coding: 1, short_message: Buffer.from("Plain ASCII @ 10:30") })
    expect(ia5.command_status).toBe(0)
    expect(await text(ia5.message_id)).toBe("Plain ASCII @ 10:30")
    const latin1 = await submit(session, { data_coding: 3, short_message: Buffer.from("Café à Zürich", "latin1") })
    expect(latin1.command_status).toBe(0)
    expect(await text(latin1.message_id)).toBe("Café à Zürich")
    // IE 0x08: a 16-bit reference (0x1234), 2 parts
    const udh16 = (seq: number) => Buffer.from([6, 8, 4, 0x12, 0x34, 2, seq])
    const [p1, p2] = await Promise.all([
      submit(session, { esm_class: 0x40, short_message: Buffer.concat([udh16(1), Buffer.from("sixteen ")]) }),
      submit(session, { esm_class: 0x40, short_message: Buffer.concat([udh16(2), Buffer.from("bit ref")]) })
    ])
    expect([p1.command_status, p2.command_status]).toEqual([0, 0])
    expect(p1.message_id).toBe(p2.message_id)
    expect(await text(p1.message_id)).toBe("sixteen bit ref")
    session.close()
  })

  it("answers ESME_RMSGQFUL past the window and ESME_RTHROTTLED past the throughput (in parts)", async () => {
    const c = await credentials()
    const { session } = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    const udh = (seq: number) => Buffer.from([5, 0, 3, 0x77, 5, seq])
    const held = [1, 2, 3].map((seq) =>
      submit(session, { esm_class: 0x40, short_message: Buffer.concat([udh(seq), Buffer.from("x")]) })
    )
    expect((await submit(session, { short_message: Buffer.from("over the window") })).command_status).toBe(0x14)
    await Promise.all(held)
    const slow = await credentials({ throughput: { rate: 2, burst: 2 } })
    const t = await bind(server.smppPort, slow.systemId, slow.password, "bind_transmitter")
    // a 2-part message takes the whole burst of 2; the next one part is throttled
    expect((await submit(t.session, { short_message: Buffer.from("D".repeat(200)) })).command_status).toBe(0)
    expect((await submit(t.session, { short_message: Buffer.from("x") })).command_status).toBe(0x58)
    await sleep(600)
    expect((await submit(t.session, { short_message: Buffer.from("x") })).command_status).toBe(0)
    session.close()
    t.session.close()
  })
})

describe("receipts", () => {
  const finish = (id: string, status: "delivered" | "failed") =>
    sql((s) =>
      status === "delivered"
        ? s`UPDATE messages SET status = 'delivered', delivered_at = now(), updated_at = now() WHERE id = ${id}`
        : s`UPDATE messages SET status = 'failed', failed_at = now(), updated_at = now() WHERE id = ${id}`
    )

  it("sends one deliver_sm per final state to a receiver of the system id, held while none is bound, retried until acknowledged", async () => {
    const c = await credentials()
    const tx = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    const sent = await submit(tx.session, { short_message: Buffer.from("Receipt me please, twenty+ chars") })
    tx.session.close()
    await finish(sent.message_id as string, "delivered")
    // nobody bound: held
    await sleep(300)
    const pending = await sql<{ state: string }>((s) =>
      s`SELECT state FROM smpp_receipts WHERE message_id = ${sent.message_id}`
    )
    expect(pending[0]!.state).toBe("pending")
    // a receiver that does not answer: the receipt comes again on the next bind
    const mute = await bind(server.smppPort, c.systemId, c.password, "bind_receiver")
    const ignored = await next(mute.session, "deliver_sm")
    expect(ignored.receipted_message_id).toBe(sent.message_id)
    mute.session.destroy()
    const rx = await bind(server.smppPort, c.systemId, c.password, "bind_receiver")
    const dlr = await next(rx.session, "deliver_sm", 10_000)
    rx.session.send(dlr.response())
    expect(dlr.esm_class).toBe(0x04)
    expect(dlr.receipted_message_id).toBe(sent.message_id)
    expect(dlr.message_state).toBe(2)
    const text = String((dlr.short_message as { message: string }).message)
    expect(text).toMatch(
      new RegExp(
        `^id:${sent.message_id} sub:001 dlvrd:001 submit date:\\d{10} done date:\\d{10} stat:DELIVRD err:000 text:Receipt me please, t$`
      )
    )
    await eventually(async () =>
      (await sql<{ state: string }>((s) => s`SELECT state FROM smpp_receipts WHERE message_id = ${sent.message_id}`))[0]
        ?.state === "acknowledged"
    )
    // one receipt per message: a second final write adds none
    await finish(sent.message_id as string, "failed")
    const count = await sql<{ n: number }>((s) =>
      s`SELECT count(*)::int AS n FROM smpp_receipts WHERE message_id = ${sent.message_id}`
    )
    expect(count[0]!.n).toBe(1)
    rx.session.close()
  })

  it("sends an intermediate receipt (ENROUTE, esm_class 0x20) when the carrier accepts, only if registered_delivery asks (0x10)", async () => {
    const c = await credentials()
    const { session } = await bind(server.smppPort, c.systemId, c.password, "bind_transceiver")
    const got: Array<Record<string, unknown>> = []
    session.on("deliver_sm", (pdu: Record<string, unknown> & { response: () => unknown }) => {
      got.push(pdu)
      session.send(pdu.response() as Parameters<typeof session.send>[0])
    })
    const asked = await submit(session, { registered_delivery: 0x11, short_message: Buffer.from("tell me on the way") })
    const plain = await submit(session, { registered_delivery: 0x01, short_message: Buffer.from("final only") })
    const sent = (id: unknown) =>
      sql((s) => s`UPDATE messages SET status = 'sent', sent_at = now(), updated_at = now() WHERE id = ${String(id)}`)
    await sent(asked.message_id)
    await sent(plain.message_id)
    await eventually(() => got.length >= 1)
    const enroute = got[0]!
    expect(enroute.esm_class).toBe(0x20)
    expect(enroute.receipted_message_id).toBe(asked.message_id)
    expect(enroute.message_state).toBe(1)
    expect(String((enroute.short_message as { message: string }).message)).toMatch(/dlvrd:000 .* stat:ENROUTE err:000 /)
    // the final receipt follows as today; one intermediate per message, none for the submit that did not ask
    await finish(asked.message_id as string, "delivered")
    await finish(plain.message_id as string, "delivered")
    await eventually(() => got.length >= 3)
    await sleep(300)
    expect(got.map((p) => [p.receipted_message_id, p.esm_class]).sort()).toEqual(
      [[asked.message_id, 0x04], [asked.message_id, 0x20], [plain.message_id, 0x04]].sort()
    )
    session.close()
  })

  it("a failed message's receipt says UNDELIV with message_state 5 and a network_error_code", async () => {
    const c = await credentials()
    const { session } = await bind(server.smppPort, c.systemId, c.password, "bind_transceiver")
    const sent = await submit(session, { short_message: Buffer.from("will fail") })
    await finish(sent.message_id as string, "failed")
    const dlr = await next(session, "deliver_sm", 10_000)
    session.send(dlr.response())
    expect(dlr.message_state).toBe(5)
    expect(String((dlr.short_message as { message: string }).message)).toContain("stat:UNDELIV")
    expect(dlr.network_error_code).toBeDefined()
    session.close()
  })
})
