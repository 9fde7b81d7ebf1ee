/**
 * max_binds and the failed-bind lockout across processes (docs/smpp.md "Credentials"): two SMPP listeners
 * (two servers, as two `tuma serve` processes or `--workers 2`) on one PostgreSQL 15 database
 * (TUMA_TEST_DATABASE_URL); node-smpp is the ESME. A bind through one process takes the credentials'
 * last place for the other; five failed binds spread over both lock the system_id in both.
 */
import { Database } from "@tuma/store-sql"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { scratchDatabase, setupAccount, testDatabaseUrl, unique } from "../harness.js"
import { bind, createCredentials, eventually, startSmppServer } from "./support.js"

describe.skipIf(testDatabaseUrl === undefined)("SMPP binds across processes on one PostgreSQL", () => {
  const scope = Effect.runSync(Scope.make())
  let a: Awaited<ReturnType<typeof startSmppServer>>
  let b: Awaited<ReturnType<typeof startSmppServer>>
  let accountUid: string

  beforeAll(async () => {
    const url = await Effect.runPromise(Scope.extend(scratchDatabase, scope) as Effect.Effect<string, unknown>)
    a = await startSmppServer({}, Database.postgres(url, { maxConnections: 5 }))
    b = await startSmppServer({}, Database.postgres(url, { maxConnections: 5 }))
    accountUid = (await a.run(setupAccount())).account.id
  }, 120_000)
  afterAll(async () => {
    await a.close()
    await b.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  const credentials = async (extra: Record<string, unknown> = {}) => {
    const system_id = unique("p").slice(0, 15)
    const made = await createCredentials(a, { account_uid: accountUid, system_id, ...extra })
    expect(made.status).toBe(201)
    return { systemId: system_id, password: made.body.data.password as string }
  }

  it("counts max_binds over every process: the last place taken in one is refused in the other", async () => {
    const c = await credentials({ max_binds: 1 })
    const first = await bind(a.smppPort, c.systemId, c.password, "bind_transceiver")
    expect(first.resp.command_status).toBe(0)
    const second = await bind(b.smppPort, c.systemId, c.password, "bind_transceiver")
    expect(second.resp.command_status).toBe(0x0d)
    second.session.close()
    // the place is free again once the first bind is gone from the live list
    first.session.close()
    await eventually(async () => {
      const again = await bind(b.smppPort, c.systemId, c.password, "bind_receiver")
      again.session.close()
      return again.resp.command_status === 0
    }, 10_000)
  })

  it("locks a system_id after five failed binds spread over both processes, in both", async () => {
    const c = await credentials()
    for (const [i, server] of [a, b, a, b, a].entries()) {
      const wrong = await bind(server.smppPort, c.systemId, `wrong${i}`, "bind_transmitter")
      expect(wrong.resp.command_status).toBe(0x0d)
      wrong.session.close()
    }
    for (const server of [a, b]) {
      const right = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
      expect(right.resp.command_status).toBe(0x0d)
      right.session.close()
    }
  })
})
