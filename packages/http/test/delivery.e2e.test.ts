/**
 * End to end over real sockets (delivery engineer): HTTP send → delivery worker → SMSC simulator over
 * SMPP → delivery receipt → GET reads `delivered` with `sent_at` and `delivered_at`; a 3-part
 * Unicode message; a failed receipt. The workers run in the server's process over its store, as
 * `tuma serve` runs them.
 */
import { Operator } from "@tuma/core"
import { makeSmscSimulator, type SmscSimulator } from "@tuma/providers/smsc/SmscSimulator"
import { Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as DeliveryWorkers from "../src/runtime/DeliveryWorkers.js"
import { call, setupAccount, startServer, type TestServer, unique } from "./harness.js"

let server: TestServer
let sim: SmscSimulator
let key: string
const scope = Effect.runSync(Scope.make())

beforeAll(async () => {
  server = await startServer()
  sim = await Effect.runPromise(Scope.extend(makeSmscSimulator({ receiptDelayMs: 50 }), scope))
  const acct = await server.run(setupAccount({ balances: { TZ: 100 }, providerCredit: null }))
  key = acct.live
  await server.run(Effect.flatMap(Operator, (op) =>
    op.addProvider({
      name: unique("smsc"),
      kind: "smpp",
      config: { host: "127.0.0.1", port: sim.port, systemId: "tuma", password: "secret" },
      routes: [{ country: "TZ", credit: 1000 }]
    })))
  await Effect.runPromise(
    Layer.buildWithScope(
      DeliveryWorkers.layer({ pollIntervalMs: 200 }).pipe(Layer.provide(Layer.succeedContext(server.context))),
      scope
    )
  )
}, 120_000)

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await server.close()
})

const readUntilFinal = async (uid: string) => {
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    const r = await call(server, "GET", `/v1/sms/messages/${uid}`, { key })
    if (r.body?.data?.status === "delivered" || r.body?.data?.status === "failed") return r.body.data
    await new Promise((res) => setTimeout(res, 100))
  }
  throw new Error(`message ${uid} not final in time`)
}

describe("HTTP send to delivered over SMPP", () => {
  it("a sent message reads delivered with sent_at and delivered_at", async () => {
    const sent = await call(server, "POST", "/v1/sms/messages", {
      key,
      body: { recipient: "+255712345001", sender_id: "TUMA", body: "Karibu Tuma!" }
    })
    expect(sent.status, sent.text).toBe(202)
    expect(sent.body.data.status).toBe("queued")
    const m = await readUntilFinal(sent.body.data.uid)
    expect(m.status).toBe("delivered")
    expect(m.sent_at).not.toBeNull()
    expect(m.delivered_at).not.toBeNull()
    expect(Date.parse(m.queued_at)).toBeLessThanOrEqual(Date.parse(m.sent_at))
    expect(Date.parse(m.sent_at)).toBeLessThanOrEqual(Date.parse(m.delivered_at))
    expect(m.failure_reason).toBeNull()
    const part = sim.received.find((p) => p.destinationAddr === "255712345001")!
    expect(m.provider_message_id).toBe(part.messageId)
    expect(part).toMatchObject({ sourceAddr: "TUMA", sourceTon: 5, dataCoding: 0, text: "Karibu Tuma!" })
    expect(m.delivery_report).toMatchObject({ status: "delivered", delivery_status: "DELIVRD" })
  })

  it("a 3-part Unicode message is sent as 3 UCS-2 parts and reads delivered once every part is", async () => {
    const text = "Привет! Это сообщение из трёх частей, отправленное через Tuma по SMPP. ".repeat(2) + "Конец."
    const sent = await call(server, "POST", "/v1/sms/messages", {
      key,
      body: { recipient: "+255712345002", sender_id: "TUMA", body: text }
    })
    expect(sent.status, sent.text).toBe(202)
    expect(sent.body.data.encoding.final).toBe("Unicode")
    const m = await readUntilFinal(sent.body.data.uid)
    expect(m.status).toBe("delivered")
    const parts = sim.received.filter((p) => p.destinationAddr === "255712345002")
    expect(parts).toHaveLength(3)
    expect(parts.map((p) => [p.dataCoding, p.concat?.seq, p.concat?.total])).toEqual([[8, 1, 3], [8, 2, 3], [8, 3, 3]])
    expect(parts.map((p) => p.text).join("")).toBe(text)
  })

  it("a failed receipt reads failed with a human-readable failure_reason", async () => {
    sim.setReceiptStatus((p) => (p.destinationAddr === "255712345003" ? "UNDELIV" : "DELIVRD"))
    const sent = await call(server, "POST", "/v1/sms/messages", {
      key,
      body: { recipient: "+255712345003", sender_id: "TUMA", body: "Will not arrive" }
    })
    const m = await readUntilFinal(sent.body.data.uid)
    expect(m.status).toBe("failed")
    expect(m.delivered_at).toBeNull()
    expect(m.failure_reason).toBe(
      "Delivery failed: the carrier could not deliver the message to the handset (UNDELIV, error 001)."
    )
  })
})
