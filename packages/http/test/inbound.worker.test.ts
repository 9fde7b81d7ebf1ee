/**
 * `tuma worker`'s layer (runtime/Worker.ts) receives MO like `tuma serve`: it holds the carrier
 * bind, and runs the same inbound pipeline — a message whose parts are still missing at the join
 * timeout is joined with what arrived (`complete: false`), a HELP word gets its automatic reply from
 * the number, both posted as `sms.received`. The server here runs no workers: everything below is
 * the worker's doing.
 */
import { Operator } from "@tuma/core"
import { makeSmscSimulator, type SmscSimulator } from "@tuma/providers/smsc/SmscSimulator"
import { Effect, Exit, Layer, Scope } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Worker from "../src/runtime/Worker.js"
import { call, setupAccount, startServer, type TestServer, unique } from "./harness.js"

let server: TestServer
let sim: SmscSimulator
let acct: { account: { id: string }; live: string; liveId: string }
const posted: Array<Record<string, unknown>> = []
const scope = Effect.runSync(Scope.make())
const ADMIN = "admin-token-inbound-worker"
const NUMBER = "+255700100300"
const receiver = createServer((req, res) => {
  let body = ""
  req.on("data", (c) => (body += c))
  req.on("end", () => {
    posted.push(JSON.parse(body))
    res.writeHead(200).end("ok")
  })
})

const waitFor = async <A>(what: string, f: () => A | undefined, ms = 15_000): Promise<A> => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const v = f()
    if (v !== undefined) return v
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()))
  // the receiver is on loopback: only the operator allow-list permits it
  process.env.TUMA_WEBHOOK_ALLOW = "127.0.0.1"
  server = await startServer({ adminToken: ADMIN })
  sim = await Effect.runPromise(Scope.extend(makeSmscSimulator({ receiptDelayMs: 20 }), scope))
  acct = await server.run(setupAccount({ balances: { TZ: 100 }, providerCredit: null }))
  await server.run(Effect.flatMap(Operator, (op) =>
    op.addProvider({
      name: unique("smsc"),
      kind: "smpp",
      config: { host: "127.0.0.1", port: sim.port, systemId: "tuma", password: "secret" },
      routes: [{ country: "TZ", credit: 1000 }]
    })))
  const admin = (path: string, body: unknown) => call(server, "POST", `/admin/v1${path}`, { key: ADMIN, body })
  expect((await admin("/inbound-numbers", { account_uid: acct.account.id, number: NUMBER })).status).toBe(201)
  const hook = await admin("/webhooks", {
    api_key_uid: acct.liveId,
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    events: ["sms.received"]
  })
  expect(hook.status).toBe(201)
  // the worker process's layer, over the same database (only the SqlClient is shared)
  await Effect.runPromise(Layer.buildWithScope(
    Worker.layer({
      driver: "Pglite",
      delivery: { pollIntervalMs: 100 },
      inbound: { joinWaitMs: 1_500, pollMs: 100 },
      env: { TUMA_WEBHOOK_POLL: "50ms", TUMA_WEBHOOK_ALLOW: "127.0.0.1" }
    }).pipe(Layer.provide(Layer.succeedContext(server.context))),
    scope
  ))
  await sim.waitUntil(() => sim.sessionCount > 0, 10_000)
}, 120_000)

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await server.close()
  receiver.close()
})

const udh = (ref: number, total: number, seq: number) => Buffer.from([5, 0x00, 3, ref, total, seq])

describe("tuma worker receives MO with the whole inbound pipeline", () => {
  it("parts missing at the timeout: joined with what arrived, complete false, posted", async () => {
    const from = "+255712300101"
    for (const seq of [3, 1]) {
      const status = await sim.sendMoPdu({
        source_addr: from.slice(1),
        destination_addr: NUMBER.slice(1),
        esm_class: 0x40,
        short_message: { udh: udh(21, 3, seq), message: `part${seq} ` }
      })
      expect(status).toBe(0)
    }
    const event = await waitFor("the incomplete message", () => posted.find((p) => p.from === from), 10_000)
    expect(event).toMatchObject({ event: "sms.received", to: NUMBER, text: "part1 part3 ", parts: 2, complete: false })
    const inbox = await call(server, "GET", `/v1/sms/inbound?from=${encodeURIComponent(from)}`, { key: acct.live })
    expect(inbox.body.data).toHaveLength(1)
    expect(inbox.body.data[0]).toMatchObject({ uid: event.message_id, complete: false, parts: 2 })
  })

  it("HELP gets its automatic reply from the number", async () => {
    const from = "+255712300102"
    expect(await sim.sendMo(from, NUMBER, "help")).toBe(0)
    const reply = await waitFor(
      "the HELP reply",
      () => sim.received.find((p) => p.destinationAddr === from.slice(1) && /Reply STOP to unsubscribe/.test(p.text))
    )
    expect(reply.sourceAddr).toBe(NUMBER.slice(1))
    const event = await waitFor("sms.received", () => posted.find((p) => p.from === from))
    expect(event).toMatchObject({ keyword: "HELP", text: "help" })
  })
})
