/**
 * Chaos, scaled down for CI (`pnpm bench:smpp-chaos` runs 10,000 against real processes): 1,000 submits
 * over a transceiver with a window of 50 on PostgreSQL 15 (TUMA_TEST_DATABASE_URL), delivery on (the
 * simulated carrier delivers), while the ESME's connection is cut once (destroyed, no unbind) and Tuma
 * restarts once (a new server on the same port and database). Every message stored yields exactly one
 * receipt row and reaches the ESME; every submit the ESME saw accepted gets its receipt; none is lost.
 */
import { SqlClient } from "@effect/sql"
import { Database } from "@tuma/store-sql"
import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { bindTransceiver, newCounts, receiptSummary, submitAll, submitFields } from "../../bench/smpp/esme.js"
import { scratchDatabase, setupAccount, testDatabaseUrl, unique } from "../harness.js"
import { createCredentials, eventually, startSmppServer } from "./support.js"

const TOTAL = 1_000

describe.skipIf(testDatabaseUrl === undefined)("SMPP chaos (PostgreSQL)", () => {
  it("1,000 submits through a cut connection and a restart: one receipt per message, none lost", async () => {
    const scope = Effect.runSync(Scope.make())
    const url = await Effect.runPromise(Scope.extend(scratchDatabase, scope) as Effect.Effect<string, unknown>)
    const db = Database.postgres(url, { maxConnections: 8 })
    let server = await startSmppServer({ receiptPollMs: 50 }, db, true)
    const port = server.smppPort
    const acct = await server.run(setupAccount({ balances: { TZ: 100_000 } }))
    const systemId = unique("c").slice(0, 15)
    const created = await createCredentials(server, {
      account_uid: acct.account.id,
      system_id: systemId,
      throughput: { rate: 10_000 }
    })
    const password = created.body.data.password as string
    const counts = newCounts()
    const t0 = Date.now()
    const queue = Array.from({ length: TOTAL }, (_, i) => i)
    let answered = 0
    let cut = false
    let restart: Promise<void> | undefined
    let session = await bindTransceiver(port, systemId, password, counts)
    while (queue.length > 0 || session === undefined) {
      if (session !== undefined) {
        const current = session
        await submitAll(current, queue, {
          window: 50,
          counts,
          fields: submitFields("TUMA"),
          answered: () => {
            answered++
            if (!cut && answered >= TOTAL * 0.3) {
              cut = true
              current.socket.destroy() // the ESME's connection drops: no unbind
            }
            if (cut && restart === undefined && answered >= TOTAL * 0.6) {
              // Tuma restarts while submits and receipts are in flight
              restart = server.close().then(async () => {
                server = await startSmppServer({ receiptPollMs: 50, port }, db, true)
              })
            }
          }
        })
      }
      if (restart !== undefined) await restart
      session = await bindTransceiver(port, systemId, password, counts)
    }
    expect(cut && restart !== undefined).toBe(true)
    const submitted = Date.now() - t0
    // every stored SMPP message ends with one receipt row, acknowledged by the ESME
    const unfinished = async () =>
      (await server.run(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql<{ n: number }>`SELECT count(*)::int AS n FROM messages WHERE channel = 'smpp' AND status = 'sent'`)
      ))[0]!.n
    const stored = async () =>
      (await server.run(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql<{ messages: number; acknowledged: number; receipts: number }>`SELECT
          (SELECT count(*)::int FROM messages WHERE channel = 'smpp') AS messages,
          (SELECT count(*)::int FROM smpp_receipts WHERE state = 'acknowledged') AS acknowledged,
          (SELECT count(*)::int FROM smpp_receipts) AS receipts`)
      ))[0]!
    // the simulated carrier keeps its pending receipts in memory: those of messages it had when Tuma
    // stopped are gone with it. A carrier's late receipt finishes them (as a worker process would write it)
    await eventually(async () => {
      const s = await stored()
      return s.acknowledged + (await unfinished()) >= s.messages
    }, 15_000)
    await server.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE messages SET status = 'delivered', delivered_at = now(), updated_at = now()
        WHERE channel = 'smpp' AND status = 'sent'`
      )
    )
    await eventually(async () => {
      const s = await stored()
      return s.acknowledged === s.messages && counts.receipts.size >= s.messages
    }, 15_000)
    const s = await stored()
    const r = receiptSummary(counts)
    console.log(
      `smpp chaos (CI): submits=${TOTAL} accepted=${counts.accepted.size} unanswered=${counts.unanswered} ` +
        `retried=${counts.retried} stored=${s.messages} receipts=${r.distinct} duplicates=${r.duplicates} ` +
        `accepted_without_receipt=${r.acceptedWithoutReceipt} submit_ms=${submitted} total_ms=${Date.now() - t0}`
    )
    expect(counts.refused).toBe(0)
    // what the ESME saw accepted is stored; the rest were in flight at the cut (stored or not)
    expect(counts.accepted.size).toBeGreaterThanOrEqual(TOTAL - counts.unanswered)
    expect(s.messages).toBeGreaterThanOrEqual(counts.accepted.size)
    expect(s.messages).toBeLessThanOrEqual(counts.accepted.size + counts.unanswered)
    expect(s.receipts).toBe(s.messages)
    expect(r.distinct).toBe(s.messages)
    expect(r.acceptedWithoutReceipt).toBe(0)
    // at least once: a receipt whose deliver_sm_resp was cut with the connection may come twice
    expect(r.duplicates).toBeLessThanOrEqual(counts.unanswered + 50)
    session?.close()
    await server.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }, 60_000)
})
