/**
 * The webhook operator surface over a real socket (`/admin/v1`): deliveries of an endpoint, one
 * delivery with its exact body and attempts, redelivery of one event and of everything since a time.
 * (No workers run in this server: deliveries stay pending, which is what is listed.)
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, setupAccount, startServer } from "./harness.js"

const ADMIN = "webhook-admin-secret"
let server: TestServer

beforeAll(async () => {
  server = await startServer({ adminToken: ADMIN })
})
afterAll(async () => {
  await server.close()
})

const admin = (method: string, path: string, body?: unknown) =>
  call(server, method, `/admin/v1${path}`, {
    headers: { authorization: `Bearer ${ADMIN}` },
    ...(body !== undefined ? { body } : {})
  })

/** A message of `apiKeyId` that reached `delivered` (the trigger queues its webhook deliveries). */
const deliveredMessage = (accountId: string, apiKeyId: string) =>
  server.run(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = crypto.randomUUID()
    const now = new Date()
    const [market] = yield* sql<{ id: string }>`SELECT id FROM markets WHERE iso2 = 'TZ'`
    yield* sql`INSERT INTO messages ${
      sql.insert({
        id,
        account_id: accountId,
        api_key_id: apiKeyId,
        market_id: market.id,
        country: "TZ",
        recipient: "+255712345678",
        sender_id: "TUMA",
        text: "hi",
        encoding: "GSM-7",
        parts: 1,
        units: 1,
        channel: "api",
        status: "sent",
        created_at: now,
        queued_at: now,
        sent_at: now,
        updated_at: now
      })
    }`
    yield* sql`UPDATE messages SET status = 'delivered', delivered_at = ${now}, updated_at = ${now} WHERE id = ${id}`
    return id
  }))

describe("admin webhooks: deliveries, attempts, redelivery", () => {
  it("lists deliveries, shows one with its exact body, redelivers one and everything since a time", async () => {
    const { account, liveId } = await server.run(setupAccount())
    const created = await admin("POST", "/webhooks", { api_key_uid: liveId, url: "https://hooks.example.com/tuma" })
    expect(created.status).toBe(201)
    const endpoint = created.body.data.endpoint.uid
    const secret = created.body.data.secret
    const first = await deliveredMessage(account.id, liveId)
    const second = await deliveredMessage(account.id, liveId)

    const list = await admin("GET", `/webhooks/${endpoint}/deliveries`)
    expect(list.status).toBe(200)
    expect(list.body.data.map((d: any) => d.message_uid).sort()).toEqual([first, second].sort())
    expect(list.body.data.every((d: any) => d.status === "pending" && d.event === "sms.delivered")).toBe(true)

    const uid = list.body.data.find((d: any) => d.message_uid === first).uid
    const detail = await admin("GET", `/webhook-deliveries/${uid}`)
    expect(detail.status).toBe(200)
    expect(detail.body.data.attempts).toEqual([])
    expect(JSON.parse(detail.body.data.body)).toMatchObject({ event: "sms.delivered", message_id: first })
    // the body shown is the exact compact text that is signed and posted
    expect(detail.body.data.body).toBe(JSON.stringify(JSON.parse(detail.body.data.body)))
    expect(typeof secret).toBe("string")

    const again = await admin("POST", `/webhook-deliveries/${uid}/redeliver`)
    expect(again.status).toBe(202)
    expect(again.body.data.delivery_uid).not.toBe(uid)

    const since = await admin("POST", `/webhooks/${endpoint}/redeliver`, {
      since: new Date(Date.now() - 60_000).toISOString()
    })
    expect(since.status).toBe(202)
    expect(since.body.data.delivery_uids).toHaveLength(2)
    expect((await admin("GET", `/webhooks/${endpoint}/deliveries`)).body.data).toHaveLength(5)

    const bad = await admin("POST", `/webhooks/${endpoint}/redeliver`, { since: "yesterday-ish" })
    expect(bad.status).toBe(422)
    expect(bad.body.errors).toHaveProperty("since")
    const missing = await admin("GET", `/webhook-deliveries/${crypto.randomUUID()}`)
    expect(missing.status).toBe(404)
    expect(missing.body.success).toBe(false)
  })
})
