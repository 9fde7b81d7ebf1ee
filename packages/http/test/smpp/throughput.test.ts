/**
 * SMPP throughput across processes, on PostgreSQL 15 (TUMA_TEST_DATABASE_URL): two servers on one database
 * (as `--workers 2` or two `tuma serve`) share one token bucket per credentials. Each bind submits at the
 * credentials' rate, so together they offer twice it: the accepted count stays within the bucket
 * (burst + rate × time) and close to it, the rest is answered ESME_RTHROTTLED.
 */
import { Database } from "@tuma/store-sql"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { scratchDatabase, setupAccount, testDatabaseUrl, unique } from "../harness.js"
import { bind, createCredentials, request, sleep, startSmppServer } from "./support.js"

describe.skipIf(testDatabaseUrl === undefined)("SMPP throughput across processes (PostgreSQL)", () => {
  const scope = Effect.runSync(Scope.make())
  let servers: Array<Awaited<ReturnType<typeof startSmppServer>>> = []
  beforeAll(async () => {
    const url = await Effect.runPromise(Scope.extend(scratchDatabase, scope) as Effect.Effect<string, unknown>)
    const db = Database.postgres(url, { maxConnections: 5 })
    servers = [await startSmppServer({}, db), await startSmppServer({}, db)]
  })
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()))
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  it("two processes together accept the credentials' rate, not twice it", async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]]
    const acct = await a.run(setupAccount({ balances: { TZ: 100_000 } }))
    const rate = 40
    const systemId = unique("t").slice(0, 15)
    const created = await createCredentials(a, {
      account_uid: acct.account.id,
      system_id: systemId,
      throughput: { rate, burst: rate }
    })
    const password = created.body.data.password as string
    const binds = [
      await bind(a.smppPort, systemId, password, "bind_transmitter"),
      await bind(b.smppPort, systemId, password, "bind_transmitter")
    ]
    // each bind offers the whole rate, paced: 2 × rate in all, for `seconds`
    const seconds = 3
    const counts = { ok: 0, throttled: 0, other: 0 }
    const start = Date.now()
    let n = 0
    const inFlight: Array<Promise<void>> = []
    for (let tick = 0; tick < seconds * rate; tick++) {
      for (const { session } of binds) {
        const i = n++
        inFlight.push(
          request(session, "submit_sm", {
            source_addr: "TUMA",
            dest_addr_ton: 1,
            destination_addr: `2557120${String(i).padStart(5, "0")}`,
            short_message: Buffer.from(`throughput probe ${i}`)
          }).then((r) => {
            if (r.command_status === 0) counts.ok++
            else if (r.command_status === 0x58) counts.throttled++
            else counts.other++
          })
        )
      }
      const due = start + ((tick + 1) * 1000) / rate
      await sleep(Math.max(0, due - Date.now()))
    }
    await Promise.all(inFlight)
    const elapsed = (Date.now() - start) / 1000
    binds.forEach(({ session }) => session.close())
    expect(counts.other).toBe(0)
    // never more than the bucket gives: burst + rate × elapsed
    expect(counts.ok).toBeLessThanOrEqual(rate + rate * elapsed)
    // and close to it: a process's lease is not lost to the other one
    expect(counts.ok).toBeGreaterThanOrEqual(0.9 * (rate + rate * seconds))
    expect(counts.throttled).toBe(n - counts.ok)
  }, 20_000)
})
