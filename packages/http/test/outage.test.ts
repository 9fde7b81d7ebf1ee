/**
 * A database outage under load (issue 27): every acknowledged message is final within seconds of
 * the database coming back, never after a lease (120 s by default) runs out.
 *
 * The server and its delivery workers reach PostgreSQL through a TCP proxy this test can cut: every
 * open connection is closed at once and new ones are refused until it is restored, as when the
 * server stops. Sends arrive at about 50 per second; the outage starts at a random moment of the
 * pipeline (a claim, a submit, a write, a receipt in flight) and lasts a random 0.3–1.5 s, 20 times
 * (`TUMA_OUTAGE_RUNS`). After each, every message of the account — acknowledged with 202 or not —
 * must be final within 15 s of the restore.
 */
import { SqlClient } from "@effect/sql"
import { Operator } from "@tuma/core"
import * as Database from "@tuma/store-sql/Database"
import { Effect, Exit, Layer, Scope } from "effect"
import net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as DeliveryWorkers from "../src/runtime/DeliveryWorkers.js"
import type { TestServer } from "./harness.js"
import { call, scratchDatabase, setupAccount, startServer, testDatabaseUrl, unique } from "./harness.js"

const RUNS = Number(process.env.TUMA_OUTAGE_RUNS ?? 20)
const FINAL_WITHIN_MS = 15_000

/** A TCP proxy to PostgreSQL that can be cut (every connection closed, new ones refused) and restored. */
const makeProxy = async (target: { host: string; port: number }) => {
  const open = new Set<net.Socket>()
  let down = false
  const server = net.createServer((client) => {
    if (down) return void client.destroy()
    const upstream = net.connect(target.port, target.host)
    open.add(client)
    open.add(upstream)
    const close = () => {
      client.destroy()
      upstream.destroy()
      open.delete(client)
      open.delete(upstream)
    }
    client.on("error", close).on("close", close)
    upstream.on("error", close).on("close", close)
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    port,
    cut: () => {
      down = true
      for (const s of open) s.destroy()
      open.clear()
    },
    restore: () => {
      down = false
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(testDatabaseUrl === undefined)("a database outage under load", () => {
  const scope = Effect.runSync(Scope.make())
  let proxy: Awaited<ReturnType<typeof makeProxy>>
  let server: TestServer
  let direct: TestServer["run"]
  let key: string
  let accountId: string

  beforeAll(async () => {
    const url = new URL(await Effect.runPromise(Scope.extend(scratchDatabase, scope)))
    proxy = await makeProxy({ host: url.hostname, port: Number(url.port || 5432) })
    const viaProxy = new URL(url)
    viaProxy.hostname = "127.0.0.1"
    viaProxy.port = String(proxy.port)
    server = await startServer({}, Database.postgres(viaProxy.toString(), { maxConnections: 6 }), scope)
    // the test's own reads go straight to the database, not through the proxy
    const reader = await Effect.runPromise(
      Layer.buildWithScope(Database.layer(Database.postgres(url.toString(), { maxConnections: 1 })), scope)
    )
    direct = (effect) => Effect.runPromise(Effect.provide(effect, reader) as Effect.Effect<any, any>)
    const acct = await server.run(setupAccount({ balances: { TZ: 1_000_000 }, providerCredit: null }))
    key = acct.live
    accountId = acct.account.id
    await server.run(Effect.flatMap(Operator, (op) =>
      op.addProvider({
        name: unique("sim"),
        kind: "simulated",
        config: { latencyMs: 5, receiptDelayMs: 100 },
        routes: [{ country: "TZ", credit: 1_000_000 }]
      })))
    await Effect.runPromise(
      Layer.buildWithScope(
        DeliveryWorkers.layer({ pollIntervalMs: 200 }).pipe(Layer.provide(Layer.succeedContext(server.context))),
        scope
      )
    )
  }, 120_000)

  afterAll(async () => {
    proxy?.restore()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await proxy?.close()
  })

  /** The account's messages not final yet. */
  const unfinished = () =>
    direct(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ id: string; status: string }>`SELECT id, status FROM messages
        WHERE account_id = ${accountId} AND status NOT IN ('delivered', 'failed')`)
    )

  it("every message is final within seconds of the restore, over outages at random points", async () => {
    const acknowledged: Array<string> = []
    let slowest = 0
    let seq = 0
    for (let run = 0; run < RUNS; run++) {
      let sending = true
      const inFlight: Array<Promise<void>> = []
      const sender = (async () => {
        while (sending) {
          const n = seq++
          inFlight.push(
            call(server, "POST", "/v1/sms/messages", {
              key,
              body: { recipient: `+2557${String(10_000_000 + n).slice(-8)}`, sender_id: "TUMA", body: `outage ${n}` }
            }).then((r) => {
              if (r.status === 202) acknowledged.push(r.body.data.uid)
            }, () => undefined)
          )
          await sleep(20)
        }
      })()
      await sleep(200 + Math.random() * 1000)
      proxy.cut()
      await sleep(300 + Math.random() * 1200)
      proxy.restore()
      const restoredAt = Date.now()
      await sleep(300)
      sending = false
      await sender
      await Promise.all(inFlight)
      let left = await unfinished()
      while (left.length > 0 && Date.now() - restoredAt < FINAL_WITHIN_MS) {
        await sleep(100)
        left = await unfinished()
      }
      expect(left, `run ${run + 1}: not final ${FINAL_WITHIN_MS} ms after the restore`).toEqual([])
      slowest = Math.max(slowest, Date.now() - restoredAt)
    }
    expect(acknowledged.length).toBeGreaterThan(RUNS * 20)
    const stored = await direct(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ n: number }>`SELECT count(*)::int AS n FROM messages
        WHERE account_id = ${accountId} AND id = ANY(${acknowledged}::uuid[])`)
    )
    // an acknowledged message is never lost
    expect(stored[0]!.n).toBe(acknowledged.length)
    console.log(
      `outage: ${RUNS} runs, ${acknowledged.length} acknowledged, all final; slowest ${slowest} ms after restore`
    )
  }, RUNS * 25_000)
})
