/**
 * Inbound messages to the customer's SMPP bind (docs/smpp.md "Inbound messages"): the SMSC simulator (the
 * carrier) sends a mobile-originated message to Tuma's carrier bind; it is stored, routed to the account
 * of the number, and delivered as a deliver_sm (esm_class 0x00, source the handset, destination the
 * number) to a receiver bind of the account's credentials (node-smpp as the ESME) — held while none is
 * bound, acknowledged only by deliver_sm_resp, a long text as UDH-concatenated parts (UCS-2 when it did
 * not arrive in GSM-7), and never to another account's bind.
 */
import { SqlClient } from "@effect/sql"
import { Operator } from "@tuma/core"
import { makeSmscSimulator, type SmscSimulator } from "@tuma/providers/smsc/SmscSimulator"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, setupAccount, unique } from "../harness.js"
import { ADMIN, bind, createCredentials, eventually, sleep, smpp, startSmppServer } from "./support.js"

let server: Awaited<ReturnType<typeof startSmppServer>>
let sim: SmscSimulator
const scope = Effect.runSync(Scope.make())
const NUMBER = "+255700300400"
let acct: { account: { id: string } }
let other: { account: { id: string } }

beforeAll(async () => {
  server = await startSmppServer({ responseTimeoutMs: 500 }, undefined, true)
  sim = await Effect.runPromise(Scope.extend(makeSmscSimulator({ receiptDelayMs: 20 }), scope))
  acct = await server.run(setupAccount({ balances: { TZ: 100 }, providerCredit: null }))
  other = await server.run(setupAccount({ balances: { TZ: 100 }, providerCredit: null }))
  await server.run(Effect.flatMap(Operator, (op) =>
    op.addProvider({
      name: unique("smsc"),
      kind: "smpp",
      config: { host: "127.0.0.1", port: sim.port, systemId: "tuma", password: "secret" },
      routes: [{ country: "TZ", credit: 1000 }]
    })))
  const assigned = await call(server, "POST", "/admin/v1/inbound-numbers", {
    key: ADMIN,
    body: { account_uid: acct.account.id, number: NUMBER }
  })
  expect(assigned.status).toBe(201)
  await sim.waitUntil(() => sim.sessionCount > 0, 20_000)
}, 120_000)

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await server.close()
})

const credentials = async (accountUid: string) => {
  const system_id = unique("i").slice(0, 15)
  const answer = await createCredentials(server, { account_uid: accountUid, system_id })
  expect(answer.status).toBe(201)
  return { systemId: system_id, password: answer.body.data.password as string, uid: answer.body.data.uid as string }
}

const sql = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  server.run(Effect.flatMap(SqlClient.SqlClient, f))

/** Collects every deliver_sm a session gets, answering each (or not: `answer` false). */
const collect = (session: smpp.Session, answer = true) => {
  const got: Array<smpp.PDU> = []
  session.on("deliver_sm", (pdu: smpp.PDU) => {
    got.push(pdu)
    if (answer) session.send(pdu.response())
  })
  return got
}

const textOf = (pdu: smpp.PDU) => {
  const sm = pdu.short_message as { message?: string | Buffer }
  return typeof sm.message === "string" ? sm.message : Buffer.isBuffer(sm.message) ? sm.message.toString() : ""
}

const inboundState = async (from: string) =>
  (await sql<{ state: string; smpp_account_id: string | null }>((s) =>
    s`SELECT o.state, o.smpp_account_id FROM smpp_inbound o JOIN inbound_messages m ON m.id = o.inbound_id
      WHERE m.from_addr LIKE ${"%" + from.slice(1)}`
  ))[0]

describe("inbound messages over the SMPP server", () => {
  it("holds an inbound message while no receiver is bound, then delivers it (esm_class 0, handset → number) until acknowledged", async () => {
    const c = await credentials(acct.account.id)
    const strangers = await credentials(other.account.id)
    const from = "+255712000111"
    expect(await sim.sendMo(from, NUMBER, "Habari, nataka kujua bei")).toBe(0)
    await eventually(async () => (await inboundState(from))?.state === "pending", 15_000)
    // another account's receiver gets nothing of it
    const stranger = await bind(server.smppPort, strangers.systemId, strangers.password, "bind_receiver")
    const strangerGot = collect(stranger.session)
    // a receiver that does not answer: it comes again on the next bind
    const mute = await bind(server.smppPort, c.systemId, c.password, "bind_receiver")
    const ignored = collect(mute.session, false)
    await eventually(() => ignored.length > 0, 10_000)
    mute.session.destroy()
    expect((await inboundState(from))?.state).toBe("pending")
    const rx = await bind(server.smppPort, c.systemId, c.password, "bind_transceiver")
    const got = collect(rx.session)
    await eventually(() => got.length > 0, 10_000)
    const pdu = got[0]!
    expect(pdu.esm_class).toBe(0)
    expect(pdu.source_addr).toBe("255712000111")
    expect(pdu.destination_addr).toBe("255700300400")
    expect(pdu.data_coding).toBe(0)
    expect(textOf(pdu)).toBe("Habari, nataka kujua bei")
    await eventually(async () => (await inboundState(from))?.state === "acknowledged")
    expect((await inboundState(from))?.smpp_account_id).toBe(c.uid)
    await sleep(300)
    expect(strangerGot).toEqual([])
    rx.session.close()
    stranger.session.close()
  })

  it("delivers a long text as concatenated parts with a UDH, in UCS-2 when it did not arrive in GSM-7", async () => {
    const c = await credentials(acct.account.id)
    const rx = await bind(server.smppPort, c.systemId, c.password, "bind_receiver")
    const got = collect(rx.session)
    const from = "+255712000222"
    const text = "Asante sana 😀 ".repeat(6).trim()
    // UCS-2 from the carrier (data_coding 8), 94 characters: one deliver_sm there, two parts to the ESME
    const status = await sim.sendMoPdu({
      source_addr: from.slice(1),
      destination_addr: NUMBER.slice(1),
      data_coding: 8,
      short_message: Buffer.from(text, "utf16le").swap16()
    })
    expect(status).toBe(0)
    await eventually(() => got.length >= 2, 15_000)
    expect(got.every((p) => p.esm_class === 0x40 && p.data_coding === 8)).toBe(true)
    // node-smpp splits the UDH off: IE 0x00 (8-bit reference), length 3, reference, total, sequence
    const parts = got.map((p) => {
      const sm = p.short_message as { udh: Array<Buffer>; message: string }
      const ie = sm.udh[0]!
      return { ref: ie[2]!, total: ie[3]!, seq: ie[4]!, text: sm.message }
    }).sort((a, b) => a.seq - b.seq)
    expect(new Set(parts.map((p) => p.ref)).size).toBe(1)
    expect(parts.map((p) => p.seq)).toEqual(parts.map((_, i) => i + 1))
    expect(parts.every((p) => p.total === parts.length)).toBe(true)
    expect(parts.map((p) => p.text).join("")).toBe(text)
    await eventually(async () => (await inboundState(from))?.state === "acknowledged")
    rx.session.close()
  })
})
