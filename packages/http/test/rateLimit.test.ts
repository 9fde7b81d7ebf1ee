/**
 * Rate limits (decisions §7) over a real socket: per key per window with 429, Retry-After and
 * X-RateLimit-*; other keys unaffected. On PostgreSQL (TUMA_TEST_DATABASE_URL), two servers with
 * their own connection pools share one database and together admit exactly the limit.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, setupAccount, startServer, startServerOnPostgres, testDatabaseUrl } from "./harness.js"

describe("per key per window (embedded store)", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ rateLimit: { limit: 5, windowMillis: 60_000 } })
  })
  afterAll(() => server.close())

  it("the request over the limit answers 429 with Retry-After and X-RateLimit-*", async () => {
    const a = await server.run(setupAccount())
    const statuses: Array<number> = []
    for (let i = 0; i < 5; i++) statuses.push((await call(server, "GET", "/v1/balance", { key: a.live })).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    const over = await call(server, "GET", "/v1/balance", { key: a.live })
    expect(over.status).toBe(429)
    expect(over.body.success).toBe(false)
    expect(over.body.error_code).toBe("RATE_LIMITED")
    expect(over.body.request_uid).toBe(over.headers.get("x-request-id"))
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(over.headers.get("x-ratelimit-limit")).toBe("5")
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0")
    expect(Number(over.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0)
    // a send over the limit is refused before acceptance
    const send = await call(server, "POST", "/v1/sms/messages", {
      key: a.live,
      body: { recipient: "+255712345678", sender_id: "TUMA", body: "x" }
    })
    expect(send.status).toBe(429)
    expect(send.body.acceptance_state).toBe("DEFINITELY_NOT_ACCEPTED")
    // the account's other key has its own budget
    expect((await call(server, "GET", "/v1/balance", { key: a.sandbox })).status).toBe(200)
  })
})

describe.skipIf(testDatabaseUrl === undefined)("shared by several servers on one PostgreSQL", () => {
  let one: TestServer
  let two: TestServer
  beforeAll(async () => {
    one = await startServerOnPostgres({ rateLimit: { limit: 20, windowMillis: 60_000 } })
    const { startServer: start } = await import("./harness.js")
    const { postgres } = await import("@tuma/store-sql/Database")
    two = await start({ rateLimit: { limit: 20, windowMillis: 60_000 } }, postgres((one as any).databaseUrl))
  })
  afterAll(async () => {
    await two?.close()
    await one?.close()
  })

  it("two servers together admit exactly the limit, under concurrency", async () => {
    const a = await one.run(setupAccount())
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(i % 2 === 0 ? one : two, "GET", "/v1/balance", { key: a.live }))
    )
    const ok = answers.filter((r) => r.status === 200).length
    const limited = answers.filter((r) => r.status === 429).length
    expect(ok).toBe(20)
    expect(limited).toBe(40)
  })
})

describe.skipIf(testDatabaseUrl === undefined)("leased in blocks by several servers on one PostgreSQL", () => {
  let one: TestServer
  let two: TestServer
  beforeAll(async () => {
    one = await startServerOnPostgres({ rateLimit: { limit: 200, windowMillis: 60_000 } })
    const { postgres } = await import("@tuma/store-sql/Database")
    two = await startServer({ rateLimit: { limit: 200, windowMillis: 60_000 } }, postgres((one as any).databaseUrl))
  })
  afterAll(async () => {
    await two?.close()
    await one?.close()
  })

  it("together never over the limit; at most one lease (limit/20) refused early", async () => {
    const a = await one.run(setupAccount())
    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, i) => call(i % 2 === 0 ? one : two, "GET", "/v1/balance", { key: a.live }))
    )
    const ok = answers.filter((r) => r.status === 200).length
    expect(ok).toBeLessThanOrEqual(200)
    expect(ok).toBeGreaterThanOrEqual(190)
    expect(answers.filter((r) => r.status === 429).length).toBe(400 - ok)
  })
})

describe.skipIf(testDatabaseUrl === undefined)("a slow client on PostgreSQL (issue 9 item 1)", () => {
  let one: TestServer
  let two: TestServer
  beforeAll(async () => {
    one = await startServerOnPostgres({ rateLimit: { limit: 600, windowMillis: 60_000 } })
    const { postgres } = await import("@tuma/store-sql/Database")
    two = await startServer({ rateLimit: { limit: 600, windowMillis: 60_000 } }, postgres((one as any).databaseUrl))
  })
  afterAll(async () => {
    await two?.close()
    await one?.close()
  })

  const charged = async (keyId: string) => {
    const { SqlClient } = await import("@effect/sql")
    const rows = await one.run(Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql<{ count: string }>`SELECT count FROM rate_limit_counters
          WHERE key = ${`req:${keyId}`} AND expires_at > (extract(epoch from statement_timestamp()) * 1000)::bigint`
    ))
    return rows.length === 0 ? 0 : Number(rows[0].count)
  }

  it("2 requests/s through two servers: never 429, and the store never charges more than was asked", async () => {
    const a = await one.run(setupAccount())
    let made = 0
    const started = Date.now()
    for (let i = 0; i < 16; i++) {
      const at = started + i * 500
      await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())))
      const res = await call(i % 2 === 0 ? one : two, "GET", "/v1/balance", { key: a.live })
      made++
      expect(res.status).toBe(200)
      // the window is 60 s and every request so far is in it: the charge can only be what was used
      expect(await charged(a.liveId)).toBeLessThanOrEqual(made)
    }
  }, 30_000)

  it("a burst's unused leased tokens are given back: the store ends up charging exactly what was admitted", async () => {
    const a = await one.run(setupAccount())
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(i % 2 === 0 ? one : two, "GET", "/v1/balance", { key: a.live }))
    )
    expect(answers.every((r) => r.status === 200)).toBe(true)
    // leases last ≤ 1 s and the settle runs every 200 ms: within a few seconds the charge is exact
    let now = await charged(a.liveId)
    for (let i = 0; i < 25 && now !== 100; i++) {
      await new Promise((r) => setTimeout(r, 200))
      now = await charged(a.liveId)
    }
    expect(now).toBe(100)
  })
})
