/**
 * SMPP receipts survive a restart of Tuma, on PostgreSQL 15 (TUMA_TEST_DATABASE_URL): a message submitted
 * before the restart reaches its final state while Tuma is down; after the restart the ESME binds a receiver
 * and gets the receipt; an inbound message for the account stored while nothing was bound reaches the
 * receiver bound after the restart.
 */
import { SqlClient } from "@effect/sql"
import { Database } from "@tuma/store-sql"
import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { scratchDatabase, setupAccount, testDatabaseUrl, unique } from "../harness.js"
import { bind, createCredentials, next, request, startSmppServer } from "./support.js"

const insertInbound = (id: string, accountId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`INSERT INTO inbound_messages (id, account_id, provider, from_addr, to_addr, text, encoding, parts, complete,
        received_at, created_at)
      VALUES (${id}, ${accountId}, 'carrier', '+255712000333', '15500', 'Nipigie kesho', 'GSM-7', 1, true, now(), now())`
  )

describe.skipIf(testDatabaseUrl === undefined)("SMPP on PostgreSQL across a restart", () => {
  it("delivers the receipt of a message that became final while Tuma was down", async () => {
    const scope = Effect.runSync(Scope.make())
    const url = await Effect.runPromise(Scope.extend(scratchDatabase, scope) as Effect.Effect<string, unknown>)
    const db = Database.postgres(url, { maxConnections: 5 })
    const first = await startSmppServer({}, db)
    const acct = await first.run(setupAccount())
    const systemId = unique("r").slice(0, 15)
    const created = await createCredentials(first, { account_uid: acct.account.id, system_id: systemId })
    const password = created.body.data.password as string
    const tx = await bind(first.smppPort, systemId, password, "bind_transmitter")
    const sent = await request(tx.session, "submit_sm", {
      source_addr: "TUMA",
      dest_addr_ton: 1,
      destination_addr: "255712345678",
      short_message: Buffer.from("across a restart")
    })
    expect(sent.command_status).toBe(0)
    tx.session.close()
    await first.close()
    // Tuma is down: the carrier's receipt is written by another process (a worker)
    const worker = await startSmppServer({}, db)
    await worker.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE messages SET status = 'delivered', delivered_at = now(), updated_at = now()
        WHERE id = ${sent.message_id as string}`
      )
    )
    await worker.close()
    const second = await startSmppServer({}, db)
    const rx = await bind(second.smppPort, systemId, password, "bind_receiver")
    const dlr = await next(rx.session, "deliver_sm", 10_000)
    rx.session.send(dlr.response())
    expect(dlr.receipted_message_id).toBe(sent.message_id)
    expect(String((dlr.short_message as { message: string }).message)).toContain("stat:DELIVRD")
    rx.session.close()
    await second.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  it("delivers an inbound message stored before the restart to the receiver bound after it", async () => {
    const scope = Effect.runSync(Scope.make())
    const url = await Effect.runPromise(Scope.extend(scratchDatabase, scope) as Effect.Effect<string, unknown>)
    const db = Database.postgres(url, { maxConnections: 5 })
    const first = await startSmppServer({}, db)
    const acct = await first.run(setupAccount())
    const systemId = unique("q").slice(0, 15)
    const created = await createCredentials(first, { account_uid: acct.account.id, system_id: systemId })
    const id = crypto.randomUUID()
    // as the delivery writer stores a routed message: the outbox row is written with it
    await first.run(insertInbound(id, acct.account.id))
    await first.close()
    const second = await startSmppServer({}, db)
    const rx = await bind(second.smppPort, systemId, created.body.data.password as string, "bind_receiver")
    const mo = await next(rx.session, "deliver_sm", 10_000)
    rx.session.send(mo.response())
    expect(mo.esm_class).toBe(0)
    expect(mo.source_addr).toBe("255712000333")
    expect(String((mo.short_message as { message: string }).message)).toBe("Nipigie kesho")
    rx.session.close()
    await second.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })
})
