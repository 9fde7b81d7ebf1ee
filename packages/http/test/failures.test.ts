/**
 * When the store goes away (PostgreSQL database dropped under a running server): `/readyz` answers
 * 503, a live send answers 503 with `acceptance_state: UNKNOWN` (decisions §5), any other endpoint
 * 500 `INTERNAL` — always the JSON envelope with the request id, never an empty body.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, setupAccount, startServer, testDatabaseUrl } from "./harness.js"

describe.skipIf(testDatabaseUrl === undefined)("store failures", () => {
  let server: TestServer
  const name = `tuma_http_fail_${Date.now().toString(36)}`
  const admin = (statement: string) =>
    Effect.runPromise(
      Effect.scoped(Effect.flatMap(
        PgClient.make({ url: Redacted.make(testDatabaseUrl!), maxConnections: 1 }),
        (sql) => sql.unsafe(statement)
      )).pipe(Effect.provide(Reactivity.layer))
    )

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`)
    const url = new URL(testDatabaseUrl!)
    url.pathname = `/${name}`
    const { postgres } = await import("@tuma/store-sql/Database")
    server = await startServer({ auth: { cacheTtlMillis: 60_000 } }, postgres(url.toString(), { maxConnections: 2 }))
  })
  afterAll(async () => {
    await server?.close().catch(() => undefined)
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined)
  })

  it("503 UNKNOWN for a live send, 500 elsewhere, 503 on readyz", async () => {
    const a = await server.run(setupAccount())
    // warm the key into the auth cache so authentication does not need the store
    expect((await call(server, "GET", "/v1/balance", { key: a.live })).status).toBe(200)
    await admin(`DROP DATABASE ${name} WITH (FORCE)`)

    const send = await call(server, "POST", "/v1/sms/messages", {
      key: a.live,
      body: { recipient: "+255712345678", sender_id: "TUMA", body: "into the void" },
      headers: { "idempotency-key": "k-1" }
    })
    expect(send.status).toBe(503)
    expect(send.body).toMatchObject({ success: false, error_code: "INTERNAL", acceptance_state: "UNKNOWN" })
    expect(send.body.request_uid).toBe(send.headers.get("x-request-id"))

    const balance = await call(server, "GET", "/v1/balance", { key: a.live })
    expect(balance.status).toBe(500)
    expect(balance.body).toMatchObject({ success: false, error_code: "INTERNAL" })
    expect(balance.body.message.length).toBeGreaterThan(0)

    const ready = await call(server, "GET", "/readyz")
    expect(ready.status).toBe(503)
    expect(ready.body.success).toBe(false)
    expect((await call(server, "GET", "/healthz")).status).toBe(200)
  })
})
