/**
 * Read endpoints over a real socket (spec §4.1, §4.3, §4.4, §4.7, §4.8, §4.10; §2.3, §2.5, §2.8):
 * both balance paths, list with filters and meta, read one (own → 200, another account's → 404,
 * malformed → 422), profile, sender-ID list and requirements on both paths.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, setupAccount, startServer } from "./harness.js"

let server: TestServer
let a: Awaited<ReturnType<typeof setupAccountRun>>
let b: Awaited<ReturnType<typeof setupAccountRun>>
let sentUids: Array<string> = []

const setupAccountRun = () => server.run(setupAccount({ balances: { TZ: 500 } }))

beforeAll(async () => {
  server = await startServer()
  a = await setupAccountRun()
  b = await setupAccountRun()
  sentUids = []
  for (let i = 0; i < 3; i++) {
    const r = await call(server, "POST", "/v1/sms/messages", {
      key: a.live,
      body: { recipient: `+25571234560${i}`, sender_id: "TUMA", body: `Message number ${i}` }
    })
    sentUids.push(r.body.data.uid)
  }
})
afterAll(() => server.close())

describe("balance", () => {
  it("live balance on both paths: string figures per enabled wallet", async () => {
    for (const path of ["/v1/balance", "/v1/sms/balance"]) {
      const r = await call(server, "GET", path, { key: a.live })
      expect(r.status).toBe(200)
      expect(r.body.mode).toBeUndefined()
      expect(r.body.data.currency).toBe("SMS")
      expect(r.body.data.balance).toBe("497")
      expect(r.body.data.countries).toEqual([
        { wallet_uid: expect.any(String), country: "TZ", calling_code: "255", balance: "497" }
      ])
    }
  })
})

describe("messages", () => {
  it("lists the account's messages newest first with meta (§2.3)", async () => {
    const r = await call(server, "GET", "/v1/sms/messages?per_page=2", { key: a.live })
    expect(r.status).toBe(200)
    expect(r.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 })
    expect(r.body.data.map((m: any) => m.uid)).toEqual([sentUids[2], sentUids[1]])
    const page2 = await call(server, "GET", "/v1/sms/messages?per_page=2&page=2", { key: a.live })
    expect(page2.body.data.map((m: any) => m.uid)).toEqual([sentUids[0]])
  })

  it("filters by status, channel and dates; invalid filters are 422 by field", async () => {
    const today = new Date().toISOString().slice(0, 10)
    const r = await call(server, "GET", `/v1/sms/messages?status=queued&channel=api&from=${today}&to=${today}`, {
      key: a.live
    })
    expect(r.body.meta.total).toBe(3)
    const none = await call(server, "GET", "/v1/sms/messages?status=delivered", { key: a.live })
    expect(none.body.meta.total).toBe(0)
    const bad = await call(server, "GET", "/v1/sms/messages?status=lost&per_page=0&from=2024-13-01", { key: a.live })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors).sort()).toEqual(["from", "per_page", "status"])
  })

  it("per_page above 100 is capped at 100", async () => {
    const r = await call(server, "GET", "/v1/sms/messages?per_page=500", { key: a.live })
    expect(r.body.meta.per_page).toBe(100)
  })

  it("reads its own message; another account's message is 404 with the spec's text (§4.4, §5.8)", async () => {
    const own = await call(server, "GET", `/v1/sms/messages/${sentUids[0]}`, { key: a.live })
    expect(own.status).toBe(200)
    expect(own.body.data.uid).toBe(sentUids[0])
    expect(own.body.data.recipient).toBe("+255712345600")
    const foreign = await call(server, "GET", `/v1/sms/messages/${sentUids[0]}`, { key: b.live })
    expect(foreign.status).toBe(404)
    expect(foreign.body.message).toBe("SMS message was not found for this API key.")
    const unknown = await call(server, "GET", `/v1/sms/messages/${randomUUID()}`, { key: a.live })
    expect(unknown.status).toBe(404)
    const malformed = await call(server, "GET", "/v1/sms/messages/123", { key: a.live })
    expect(malformed.status).toBe(422)
    expect(malformed.body.message).toBe("Message UID must be a valid UUID.")
  })

  it("a delivered message reads as the full live entry, not the sandbox shape", async () => {
    await server.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE messages SET status = 'delivered', sent_at = now(), delivered_at = now() WHERE id = ${sentUids[1]}`
      )
    )
    const r = await call(server, "GET", `/v1/sms/messages/${sentUids[1]}`, { key: a.live })
    expect(r.body.mode).toBeUndefined()
    expect(r.body.data).toMatchObject({ uid: sentUids[1], status: "delivered", recipient: "+255712345601", units: 1 })
    expect(r.body.data.delivered_at).toEqual(expect.any(String))
  })

  it("another account's list does not show them", async () => {
    const r = await call(server, "GET", "/v1/sms/messages", { key: b.live })
    expect(r.body.meta.total).toBe(0)
  })
})

describe("profile and sender IDs", () => {
  it("profile (§2.8)", async () => {
    const r = await call(server, "GET", "/v1/sms/profile", { key: a.live })
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      uid: a.account.id,
      name: "Test Co",
      phone: "+255712000000",
      country: { iso2: "TZ", calling_code: "255", name: "Tanzania" },
      balances: [{ country: "TZ", balance: 497, currency: "SMS" }]
    })
    expect(r.body.data.routes).toHaveLength(1)
  })

  it("sender-ID list on both paths (§4.7)", async () => {
    for (const path of ["/v1/sender-ids", "/v1/sms/sender-ids"]) {
      const r = await call(server, "GET", path, { key: a.live })
      expect(r.status).toBe(200)
      expect(r.body.data).toEqual([
        expect.objectContaining({ sender_id: "TUMA", status: "approved", is_usable: true, country_code: "255" })
      ])
    }
  })

  it("requirements on both paths (§4.8, §2.7)", async () => {
    for (const path of ["/v1/sender-ids/requirements", "/v1/sms/sender-ids/requirements"]) {
      const r = await call(server, "GET", path, { key: a.live })
      expect(r.status).toBe(200)
      expect(r.body.data.eligibility.purchased_units).toBe(500)
      expect(r.body.data.sender_id_rules).toMatchObject({ min_length: 3, max_length: 11 })
      expect(r.body.data.purposes).toContain("Transactional")
    }
  })
})
