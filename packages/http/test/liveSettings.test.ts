/**
 * Operator changes take effect in every process within 2 s, without a restart (decisions §30).
 *
 * PostgreSQL: two servers over one database with separate pools (as two processes are): the
 * operator changes settings through the admin API of `admin`, customers send through `edge`, whose
 * process also runs the delivery workers. PGlite lives in one process: one server plays both.
 * `edge` caches API-key look-ups for a minute, so only the change notification can make it see a
 * revocation in time.
 */
import { SqlClient } from "@effect/sql"
import { makeSmscSimulator, type SmscSimulator } from "@tuma/providers/smsc/SmscSimulator"
import * as Database from "@tuma/store-sql/Database"
import { Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as DeliveryWorkers from "../src/runtime/DeliveryWorkers.js"
import {
  call,
  scratchDatabase,
  setupAccount,
  startServer,
  testDatabaseUrl,
  type TestServer,
  unique
} from "./harness.js"

const ADMIN = "live-settings-admin-token"
/** decisions §30 */
const WITHIN_MS = 2_000

const drivers = testDatabaseUrl !== undefined ? ["pglite", "postgres"] as const : ["pglite"] as const

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Calls `f` until `ok` holds; answers the time it took, or fails after `ms`. */
const within = async <A>(ms: number, f: () => Promise<A>, ok: (a: A) => boolean): Promise<number> => {
  const started = Date.now()
  let last: A
  do {
    last = await f()
    if (ok(last)) return Date.now() - started
    await sleep(25)
  } while (Date.now() - started <= ms)
  throw new Error(`not obeyed within ${ms} ms: ${JSON.stringify(last)}`)
}

describe.each(drivers)("operator changes reach every process within 2 s (%s)", (driver) => {
  const scope = Effect.runSync(Scope.make())
  let admin: TestServer
  let edge: TestServer
  let sim: SmscSimulator

  beforeAll(async () => {
    sim = await Effect.runPromise(Scope.extend(makeSmscSimulator({ receiptDelayMs: 20 }), scope))
    const database = driver === "pglite"
      ? Database.pglite("memory://")
      : Database.postgres(
        await Effect.runPromise(Scope.extend(scratchDatabase, scope) as Effect.Effect<string, unknown>),
        { maxConnections: 5 }
      )
    const overrides = { adminToken: ADMIN, auth: { cacheTtlMillis: 60_000 } }
    edge = await startServer(overrides, database, scope)
    admin = driver === "pglite" ? edge : await startServer(overrides, database, scope)
    await Effect.runPromise(
      Layer.buildWithScope(
        DeliveryWorkers.layer({ pollIntervalMs: 200 }).pipe(Layer.provide(Layer.succeedContext(edge.context))),
        scope
      )
    )
  }, 120_000)

  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  const adminCall = (method: string, path: string, body?: unknown) =>
    call(admin, method, `/admin/v1${path}`, { headers: { authorization: `Bearer ${ADMIN}` }, body })
  const send = (key: string, recipient: string) =>
    call(edge, "POST", "/v1/sms/messages", { key, body: { recipient, sender_id: "TUMA", body: "live settings" } })
  const messageRow = (uid: string) =>
    edge.run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.map(
        sql<{ status: string; provider_id: string | null; failure_reason: string | null }>`
          SELECT status, provider_id, failure_reason FROM messages WHERE id = ${uid}`,
        (rows) => rows[0]!
      )))
  const settled = async (uid: string) => {
    let row = await messageRow(uid)
    const deadline = Date.now() + 20_000
    while (row.status !== "delivered" && row.status !== "failed" && Date.now() < deadline) {
      await sleep(50)
      row = await messageRow(uid)
    }
    return row
  }
  const createProvider = async (name: string, kind: string, config: unknown) => {
    const r = await adminCall("POST", "/providers", { name, kind, config, credits: [{ country: "TZ", credit: 1000 }] })
    expect(r.status).toBe(201)
    return r.body.data.uid as string
  }
  /** Leaves TZ without any enabled provider (the tests of this file share the market). */
  const disableAllProviders = async () => {
    const list = await adminCall("GET", "/providers")
    for (const p of list.body.data) {
      if (p.enabled) {
        // the last carrier of TZ is disabled only when the operator confirms it
        const r = await adminCall("POST", `/providers/${p.uid}/disable`, { confirm_no_route: true })
        expect(r.status).toBe(200)
      }
    }
  }

  it("a provider created while the server runs is started (bound) and the next send is routed to it", async () => {
    const { live } = await edge.run(setupAccount({ balances: { TZ: 100 }, providerCredit: null }))
    await disableAllProviders()
    // no provider: refused before acceptance, nothing charged
    expect((await send(live, "+255712000101")).body.error_code).toBe("NO_PROVIDER_ROUTE")

    const bindsBefore = sim.counters.binds
    const uid = await createProvider(unique("smsc"), "smpp", {
      host: "127.0.0.1",
      port: sim.port,
      systemId: "tuma",
      password: "secret"
    })
    // accepted right after the change: routed by the new settings, never failed for want of the provider
    const sent = await send(live, "+255712000102")
    expect(sent.status).toBe(202)
    const row = await settled(sent.body.data.uid)
    expect(row.failure_reason).toBeNull()
    expect(row).toMatchObject({ status: "delivered", provider_id: uid })
    expect(sim.counters.binds).toBeGreaterThan(bindsBefore)
    expect(sim.received.some((p) => p.destinationAddr === "255712000102")).toBe(true)
  }, 60_000)

  it("a route change moves the next send to the newly preferred provider; a disabled one gets nothing", async () => {
    const { live } = await edge.run(setupAccount({ balances: { TZ: 100 }, providerCredit: null }))
    await disableAllProviders()
    const first = await createProvider(unique("first"), "simulated", { receiptDelayMs: 20 })
    const second = await createProvider(unique("second"), "simulated", { receiptDelayMs: 20 })
    const before = await send(live, "+255712000201")
    expect((await settled(before.body.data.uid)).provider_id).toBe(first)

    const put = await adminCall("PUT", "/markets/TZ/routes", { provider_uids: [second, first] })
    expect(put.status).toBe(200)
    const after = await send(live, "+255712000202")
    expect(after.status).toBe(202)
    expect(await settled(after.body.data.uid)).toMatchObject({ status: "delivered", provider_id: second })

    expect((await adminCall("POST", `/providers/${second}/disable`)).status).toBe(200)
    const fallback = await send(live, "+255712000203")
    expect(fallback.status).toBe(202)
    expect(await settled(fallback.body.data.uid)).toMatchObject({ status: "delivered", provider_id: first })
  }, 60_000)

  it("a closed market refuses sends in the other process within 2 s, and reopens", async () => {
    const { live } = await edge.run(setupAccount({ balances: { TZ: 100 } }))
    expect((await send(live, "+255712000301")).status).toBe(202)
    expect((await adminCall("POST", "/markets/TZ/close")).status).toBe(200)
    await within(WITHIN_MS, () => send(live, "+255712000302"), (r) => r.body?.error_code === "COUNTRY_NOT_AVAILABLE")
    expect((await adminCall("POST", "/markets/TZ/open")).status).toBe(200)
    await within(WITHIN_MS, () => send(live, "+255712000303"), (r) => r.status === 202)
  }, 60_000)

  it(
    "a key revoked in one process is refused by the other within 2 s, although it caches keys for a minute",
    async () => {
      const { live, liveId } = await edge.run(setupAccount({ balances: { TZ: 100 } }))
      // the edge process has the key in its cache
      expect((await send(live, "+255712000401")).status).toBe(202)
      expect((await adminCall("POST", `/api-keys/${liveId}/revoke`)).status).toBe(200)
      const took = await within(WITHIN_MS, () => send(live, "+255712000402"), (r) => r.status === 401)
      expect(took).toBeLessThanOrEqual(WITHIN_MS)
    },
    60_000
  )
})
