/**
 * The receipt outbox's rules (docs/smpp.md "Receipts"): a receipt held past the configured hold with no
 * receiver bound is expired — never delivered afterwards — and counted (`tuma_smpp_outbox_expired_total`);
 * receipts never go down a bind of another system id (two accounts bound at once, each receives only
 * its own). node-smpp is the ESME.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Metric } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as M from "../../src/smpp/Metrics.js"
import { setupAccount, unique } from "../harness.js"
import { bind, createCredentials, eventually, request, sleep, type smpp, startSmppServer } from "./support.js"

let server: Awaited<ReturnType<typeof startSmppServer>>
const HOLD_SECONDS = 3

beforeAll(async () => {
  server = await startSmppServer({ receiptHoldHours: HOLD_SECONDS / 3600, responseTimeoutMs: 500 })
})
afterAll(() => server.close())

const credentials = async (accountUid: string) => {
  const system_id = unique("o").slice(0, 15)
  const answer = await createCredentials(server, { account_uid: accountUid, system_id })
  expect(answer.status).toBe(201)
  return { systemId: system_id, password: answer.body.data.password as string }
}

const sql = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  server.run(Effect.flatMap(SqlClient.SqlClient, f))

const submit = (session: smpp.Session, text: string) =>
  request(session, "submit_sm", {
    source_addr: "TUMA",
    dest_addr_ton: 1,
    destination_addr: "255712345678",
    short_message: Buffer.from(text)
  })

const deliver = (id: unknown) =>
  sql((s) =>
    s`UPDATE messages SET status = 'delivered', delivered_at = now(), updated_at = now() WHERE id = ${String(id)}`
  )

const stateOf = async (id: unknown) =>
  (await sql<{ state: string }>((s) => s`SELECT state FROM smpp_receipts WHERE message_id = ${String(id)}`))[0]?.state

describe("the receipt outbox", () => {
  it("expires a receipt held past the hold with no receiver bound, counts it, and never delivers it", async () => {
    const acct = await server.run(setupAccount({ balances: { TZ: 100 } }))
    const c = await credentials(acct.account.id)
    const tx = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    const sent = await submit(tx.session, "nobody will take my receipt")
    expect(sent.command_status).toBe(0)
    tx.session.close()
    const expiredBefore = (await Effect.runPromise(Metric.value(M.outboxExpired))).count
    await deliver(sent.message_id)
    expect(await stateOf(sent.message_id)).toBe("pending")
    await eventually(async () => (await stateOf(sent.message_id)) === "expired", 4 * HOLD_SECONDS * 1000)
    expect((await Effect.runPromise(Metric.value(M.outboxExpired))).count).toBeGreaterThan(expiredBefore)
    // a receiver bound afterwards gets nothing
    const rx = await bind(server.smppPort, c.systemId, c.password, "bind_receiver")
    const got: Array<unknown> = []
    rx.session.on("deliver_sm", (pdu: smpp.PDU) => {
      got.push(pdu)
      rx.session.send(pdu.response())
    })
    await sleep(800)
    expect(got).toEqual([])
    rx.session.close()
  })

  it("sends receipts only down binds of the system id that submitted (two accounts bound at once)", async () => {
    const binds = await Promise.all([0, 1].map(async () => {
      const acct = await server.run(setupAccount({ balances: { TZ: 100 } }))
      const c = await credentials(acct.account.id)
      const { session } = await bind(server.smppPort, c.systemId, c.password, "bind_transceiver")
      const receipts: Array<string> = []
      session.on("deliver_sm", (pdu: smpp.PDU) => {
        receipts.push(String(pdu.receipted_message_id))
        session.send(pdu.response())
      })
      const ids: Array<string> = []
      for (let i = 0; i < 4; i++) {
        const r = await submit(session, `message ${i} of ${c.systemId}`)
        expect(r.command_status).toBe(0)
        ids.push(String(r.message_id))
      }
      return { session, receipts, ids }
    }))
    for (const b of binds) for (const id of b.ids) await deliver(id)
    await eventually(() => binds.every((b) => b.receipts.length >= b.ids.length), 10_000)
    await sleep(300)
    for (const b of binds) {
      expect([...b.receipts].sort()).toEqual([...b.ids].sort())
      b.session.close()
    }
  })
})
