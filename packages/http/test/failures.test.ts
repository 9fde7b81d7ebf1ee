/**
 * When the store goes away (PostgreSQL database dropped under a running server): `/readyz` answers
 * 503; a send — whether its key is cached or must be looked up — was certainly not stored, so it
 * answers 503 `DEFINITELY_NOT_ACCEPTED` with `Retry-After` (decisions §5); any other endpoint 500
 * `INTERNAL` — always the JSON envelope with the request id, never an empty body. Only a send whose
 * COMMIT was lost answers 503 `UNKNOWN`; a transaction the server refused is `DEFINITELY_NOT_ACCEPTED`.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, setupAccount, startServer, startServerOnPostgres, testDatabaseUrl } from "./harness.js"

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

  it("503 DEFINITELY_NOT_ACCEPTED with Retry-After for sends (cached key or not), 500 elsewhere, 503 on readyz", async () => {
    const a = await server.run(setupAccount())
    const cold = await server.run(setupAccount())
    // warm one key into the auth cache so authentication does not need the store
    expect((await call(server, "GET", "/v1/balance", { key: a.live })).status).toBe(200)
    await admin(`DROP DATABASE ${name} WITH (FORCE)`)

    const notAccepted = (answer: Awaited<ReturnType<typeof call>>) => {
      expect(answer.status, answer.text).toBe(503)
      expect(answer.body).toMatchObject({ success: false, acceptance_state: "DEFINITELY_NOT_ACCEPTED" })
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(answer.body.request_uid).toBe(answer.headers.get("x-request-id"))
    }
    // the key is cached: the idempotency look-up / snapshot fail, before the transaction
    notAccepted(
      await call(server, "POST", "/v1/sms/messages", {
        key: a.live,
        body: { recipient: "+255712345678", sender_id: "TUMA", body: "into the void" },
        headers: { "idempotency-key": "k-1" }
      })
    )
    for (const path of ["/v1/sms/send-bulk", "/v2/sms/send-bulk"]) {
      notAccepted(
        await call(server, "POST", path, {
          key: a.live,
          body: { recipients: ["+255712345678"], sender_id: "TUMA", message: "into the void" }
        })
      )
    }
    // the key is not cached: authentication itself needs the store
    notAccepted(
      await call(server, "POST", "/v1/sms/messages", {
        key: cold.live,
        body: { recipient: "+255712345678", sender_id: "TUMA", body: "into the void" }
      })
    )

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

const drivers: ReadonlyArray<[string, () => Promise<TestServer>, boolean]> = [
  ["pglite", () => startServer(), true],
  ["postgres", () => startServerOnPostgres(), testDatabaseUrl !== undefined]
]

for (const [driver, start, enabled] of drivers) {
  describe.skipIf(!enabled)(`failures inside the acceptance transaction (${driver})`, () => {
    let server: TestServer
    beforeAll(async () => {
      server = await start()
      await server.run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql.unsafe(`
        CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
        CREATE TRIGGER test_refuse BEFORE INSERT ON messages
          FOR EACH ROW WHEN (NEW.text = 'refuse me') EXECUTE FUNCTION test_refuse();
        CREATE FUNCTION test_lose_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$;
        CREATE CONSTRAINT TRIGGER test_lose_commit AFTER INSERT ON messages DEFERRABLE INITIALLY DEFERRED
          FOR EACH ROW WHEN (NEW.text = 'lose my commit') EXECUTE FUNCTION test_lose_commit();`)))
    })
    afterAll(() => server?.close())

    const count = (accountId: string) =>
      server.run(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql<{ n: number }>`SELECT count(*)::int AS n FROM messages WHERE account_id = ${accountId}`)
      ).then((rows) =>
        rows[0].n
      )

    it("a statement the server refuses rolls back: 503 DEFINITELY_NOT_ACCEPTED, nothing stored", async () => {
      const a = await server.run(setupAccount())
      const answer = await call(server, "POST", "/v1/sms/messages", {
        key: a.live,
        body: { recipient: "+255712345678", sender_id: "TUMA", body: "refuse me" },
        headers: { "idempotency-key": "refused-1" }
      })
      expect(answer.status, answer.text).toBe(503)
      expect(answer.body.acceptance_state).toBe("DEFINITELY_NOT_ACCEPTED")
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(await count(a.account.id)).toBe(0)
    })

    it.skipIf(driver === "pglite")(
      "a connection lost during COMMIT: 503 UNKNOWN (the idempotency key reconciles)",
      async () => {
        const a = await server.run(setupAccount())
        const answer = await call(server, "POST", "/v1/sms/messages", {
          key: a.live,
          body: { recipient: "+255712345678", sender_id: "TUMA", body: "lose my commit" },
          headers: { "idempotency-key": "lost-1" }
        })
        expect(answer.status, answer.text).toBe(503)
        expect(answer.body.acceptance_state).toBe("UNKNOWN")
        // the server still answers afterwards
        const ok = await call(server, "POST", "/v1/sms/messages", {
          key: a.live,
          body: { recipient: "+255712345678", sender_id: "TUMA", body: "fine" }
        })
        expect(ok.status, ok.text).toBe(202)
      }
    )
  })
}
