/**
 * The authentication matrix (spec §5, decisions §1–2) over a real socket: no key, malformed
 * header, malformed key, placeholder keys, unknown, revoked, expired, wrong IP, trusted proxy,
 * missing scope — each a 401 envelope — and the success path for live and sandbox keys.
 */
import { SqlClient } from "@effect/sql"
import { hashApiKey, Operator } from "@tuma/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, revokeKey, setupAccount, startServer } from "./harness.js"

let server: TestServer
let account: Awaited<ReturnType<typeof setup>>

const setup = () =>
  server.run(Effect.gen(function*() {
    const main = yield* setupAccount()
    const op = yield* Operator
    const readOnly = yield* op.issueApiKey({ accountId: main.account.id, mode: "live", scopes: ["sms:read"] })
    const expired = yield* op.issueApiKey({
      accountId: main.account.id,
      mode: "live",
      expiresAt: new Date(Date.now() - 60_000)
    })
    const revoked = yield* op.issueApiKey({ accountId: main.account.id, mode: "live" })
    const office = yield* op.issueApiKey({ accountId: main.account.id, mode: "live", allowedIps: ["10.1.0.0/16"] })
    const loopback = yield* op.issueApiKey({
      accountId: main.account.id,
      mode: "live",
      allowedIps: ["192.0.2.7", "127.0.0.0/8", "::1"]
    })
    return { ...main, readOnly, expired, revoked, office, loopback }
  }))

beforeAll(async () => {
  server = await startServer({ auth: { trustedProxies: ["127.0.0.1/32", "::1"] } })
  account = await setup()
})
afterAll(() => server.close())

const expect401 = (a: { status: number; body: any; headers: Headers }, text?: RegExp) => {
  expect(a.status).toBe(401)
  expect(a.body.success).toBe(false)
  expect(a.body.request_uid).toBe(a.headers.get("x-request-id"))
  if (text) expect(a.body.message).toMatch(text)
}

describe("refused keys answer 401 with the envelope", () => {
  it("no Authorization header", async () => {
    expect401(await call(server, "GET", "/v1/balance"), /missing/i)
  })

  it("a header that is not Bearer", async () => {
    expect401(
      await call(server, "GET", "/v1/balance", { headers: { authorization: `Basic ${account.live}` } }),
      /malformed/i
    )
  })

  it("a malformed key", async () => {
    expect401(await call(server, "GET", "/v1/balance", { key: "sk_live_123" }), /malformed/i)
    expect401(await call(server, "GET", "/v1/balance", { key: "tuma_prod_abcdefghijklmnopqrstuvwxyz" }), /malformed/i)
    expect401(await call(server, "GET", "/v1/balance", { key: "tuma_live_short" }), /malformed/i)
  })

  it("documentation placeholders (decisions §2)", async () => {
    for (
      const key of [
        "tuma_live_xxxxxxxxxxxxxxxxxxxxxxxx",
        "tuma_test_xxxxxxxx...",
        "YOUR_API_KEY",
        "tuma_live_XXXXXXXXXXXXXXXXXXXX"
      ]
    ) {
      expect401(await call(server, "GET", "/v1/balance", { key }), /placeholder/i)
    }
  })

  it("an issued key whose random part begins with \"api\" or \"Key\" is a key, not a placeholder", async () => {
    for (
      const key of [
        "tuma_live_api7Qm2XvL0pRk9sT3wYb8NcD1eF4gH6jK5lZaBq",
        "tuma_live_Key0x9Wm3Pq8Rt2Ys7Uv1Zb4Nc6Df5Gh0Jk3Lm8Qa"
      ]
    ) {
      await server.run(Effect.gen(function*() {
        const issued = yield* (yield* Operator).issueApiKey({ accountId: account.account.id, mode: "live" })
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE api_keys SET key_hash = ${hashApiKey(key)} WHERE id = ${issued.id}`
      }))
      const answer = await call(server, "GET", "/v1/balance", { key })
      expect(answer.status, answer.text).toBe(200)
    }
  })

  it("a well-formed key that was never issued", async () => {
    expect401(await call(server, "GET", "/v1/balance", { key: "tuma_live_AAAAbbbbCCCCddddEEEEffff0000" }), /invalid/i)
  })

  it("a revoked key (revocation clears the lookup cache)", async () => {
    expect((await call(server, "GET", "/v1/balance", { key: account.revoked.key })).status).not.toBe(401)
    await server.run(revokeKey(account.revoked.id))
    expect401(await call(server, "GET", "/v1/balance", { key: account.revoked.key }), /revoked/i)
  })

  it("an expired key, and a key the moment it expires", async () => {
    expect401(await call(server, "GET", "/v1/balance", { key: account.expired.key }), /expired/i)
    // issued here, not in the suite's set-up: on a loaded machine that can be seconds before this test
    const soonExpired = await server.run(
      Effect.flatMap(
        Operator,
        (op) => op.issueApiKey({ accountId: account.account.id, mode: "live", expiresAt: new Date(Date.now() + 3_000) })
      )
    )
    expect((await call(server, "GET", "/v1/balance", { key: soonExpired.key })).status).not.toBe(401)
    await new Promise((r) => setTimeout(r, 3_200))
    expect401(await call(server, "GET", "/v1/balance", { key: soonExpired.key }), /expired/i)
  })

  it("a key used from an address outside its allow-list", async () => {
    expect401(await call(server, "GET", "/v1/balance", { key: account.office.key }), /not allowed/i)
  })

  it("X-Forwarded-For is believed only from a trusted proxy", async () => {
    // the socket (127.0.0.1) is a configured trusted proxy: the client is the forwarded address
    const viaProxy = await call(server, "GET", "/v1/sms/messages/00000000-0000-4000-8000-000000000000", {
      key: account.office.key,
      headers: { "x-forwarded-for": "10.1.2.3" }
    })
    expect(viaProxy.status).not.toBe(401)
    const spoofed = await call(server, "GET", "/v1/balance", {
      key: account.office.key,
      headers: { "x-forwarded-for": "203.0.113.9" }
    })
    expect401(spoofed, /203\.0\.113\.9/)
    // a key allowing loopback: forwarded from an outside address is refused
    expect401(
      await call(server, "GET", "/v1/balance", {
        key: account.loopback.key,
        headers: { "x-forwarded-for": "198.51.100.1" }
      }),
      /not allowed/i
    )
    expect((await call(server, "GET", "/v1/balance", { key: account.loopback.key })).status).not.toBe(401)
  })

  it("a key without the endpoint's scope answers 401 by default (decisions §1)", async () => {
    const a = await call(server, "POST", "/v1/sms/messages", {
      key: account.readOnly.key,
      body: { recipient: "+255712345678", sender_id: "TUMA", body: "hi" }
    })
    expect401(a, /sms:send/)
    expect(
      (await call(server, "GET", "/v1/sender-ids", { key: account.readOnly.key })).status
    ).toBe(401)
    expect((await call(server, "GET", "/v1/sms/profile", { key: account.readOnly.key })).status).toBe(401)
  })

  it("authentication runs before validation: a bad body with a bad key is a 401, not a 422", async () => {
    const a = await call(server, "POST", "/v1/sms/messages", {
      key: "tuma_live_AAAAbbbbCCCCddddEEEEffff0000",
      body: {}
    })
    expect401(a)
  })
})

describe("accepted keys", () => {
  it("live and sandbox keys of the account authenticate", async () => {
    const live = await call(server, "POST", "/v1/sms/messages", {
      key: account.live,
      body: { recipient: "+255712345678", sender_id: "TUMA", body: "hello" }
    })
    expect(live.status).toBe(202)
    expect(live.body.mode).toBeUndefined()
    const sandbox = await call(server, "GET", "/v1/balance", { key: account.sandbox })
    expect(sandbox.status).toBe(200)
    expect(sandbox.body.mode).toBe("sandbox")
  })

  it("Authorization scheme is case-insensitive", async () => {
    const a = await call(server, "GET", "/v1/balance", { headers: { authorization: `bearer ${account.sandbox}` } })
    expect(a.status).toBe(200)
  })
})
