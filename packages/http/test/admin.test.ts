/**
 * The operator surface over a real socket: the admin token (and refusal when none is configured),
 * and an operator setting an account up end to end through `/admin/v1` — account, keys (shown once;
 * scopes, allowed IPs, expiry; revocation takes effect at once), purchases, routes, markets, sender
 * IDs, requirements, opt-outs, spam rules, providers and credit, webhook endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, expectFirstFieldErrorMessage, startServer, unique } from "./harness.js"

const ADMIN = "another-admin-secret"
let server: TestServer
let closed: TestServer

beforeAll(async () => {
  server = await startServer({ adminToken: ADMIN })
  closed = await startServer({})
})
afterAll(async () => {
  await server.close()
  await closed.close()
})

const admin = (method: string, path: string, body?: unknown, token = ADMIN) =>
  call(server, method, `/admin/v1${path}`, {
    headers: { authorization: `Bearer ${token}` },
    ...(body !== undefined ? { body } : {})
  })

describe("admin authentication", () => {
  it("is refused with 401 when TUMA_ADMIN_TOKEN is not configured", async () => {
    const r = await call(closed, "GET", "/admin/v1/markets", { headers: { authorization: "Bearer anything" } })
    expect(r.status).toBe(401)
    expect(r.body.message).toMatch(/TUMA_ADMIN_TOKEN/)
  })

  it("refuses a missing or wrong token, and API keys", async () => {
    expect((await call(server, "GET", "/admin/v1/markets")).status).toBe(401)
    expect((await admin("GET", "/markets", undefined, "wrong")).status).toBe(401)
    expect((await admin("GET", "/markets", undefined, "tuma_live_AAAAbbbbCCCCddddEEEEffff0000")).status).toBe(401)
    const ok = await admin("GET", "/markets")
    expect(ok.status).toBe(200)
    expect(ok.body.data.map((m: any) => m.iso2)).toEqual(expect.arrayContaining(["TZ", "KE"]))
  })
})

describe("an operator sets an account up and it sends", () => {
  it("end to end", async () => {
    const account = await admin("POST", "/accounts", {
      name: "Acme Ltd",
      email: `${unique("ops")}@acme.example`,
      phone: "+255700111222",
      country: "TZ",
      phone_verified: true
    })
    expect(account.status).toBe(201)
    const accountUid = account.body.data.uid

    const key = await admin("POST", "/api-keys", {
      account_uid: accountUid,
      mode: "live",
      name: "backend",
      scopes: ["sms:send", "sms:read"],
      allowed_ips: ["127.0.0.1", "::1"]
    })
    expect(key.status).toBe(201)
    expect(key.body.data.key).toMatch(/^tuma_live_/)
    const liveKey = key.body.data.key
    const keyUid = key.body.data.api_key.uid
    // shown once: listings never contain the key
    const keys = await admin("GET", `/accounts/${accountUid}/api-keys`)
    expect(JSON.stringify(keys.body)).not.toContain(liveKey)

    expect((await admin("POST", "/purchases", { account_uid: accountUid, country: "TZ", units: 50 })).status).toBe(201)
    expect((await admin("POST", "/routes", { account_uid: accountUid, country: "TZ", phone: "+255700111222" })).status)
      .toBe(201)
    const grant = await admin("POST", "/sender-ids", { account_uid: accountUid, sender_id: "Acme", country: "TZ" })
    expect(grant.status).toBe(201)
    const provider = await admin("POST", "/providers", {
      name: unique("prov"),
      kind: "simulated",
      credits: [{ country: "TZ", credit: 100 }]
    })
    expect(provider.status).toBe(201)
    const credit = await admin("POST", `/providers/${provider.body.data.uid}/credit`, {
      country: "TZ",
      units: 50,
      operation: "add"
    })
    expect(credit.body.data.credits).toEqual([expect.objectContaining({ country: "TZ", balance: 150 })])

    const send = await call(server, "POST", "/v1/sms/messages", {
      key: liveKey,
      body: { recipient: "+255712345678", sender_id: "ACME", body: "Hello from Acme" }
    })
    expect(send.status).toBe(202)

    const ledger = await admin("GET", `/accounts/${accountUid}/ledger`)
    expect(ledger.body.data.map((e: any) => e.kind)).toEqual(expect.arrayContaining(["purchase", "debit"]))

    // opt-out and spam rule take effect on the next send
    expect((await admin("POST", "/opt-outs", { account_uid: accountUid, recipient: "+255712000999" })).status).toBe(201)
    const optedOut = await call(server, "POST", "/v1/sms/messages", {
      key: liveKey,
      body: { recipient: "+255712000999", sender_id: "ACME", body: "Hello" }
    })
    expect(optedOut.body.error_code).toBe("RECIPIENT_OPTED_OUT")
    const rule = await admin("POST", "/spam-rules", {
      account_uid: accountUid,
      kind: "blocked_phrase",
      pattern: "win a car"
    })
    expect(rule.status).toBe(201)
    const spam = await call(server, "POST", "/v1/sms/messages", {
      key: liveKey,
      body: { recipient: "+255712345678", sender_id: "ACME", body: "You WIN A CAR today" }
    })
    expect(spam.body.error_code).toBe("SPAM_POLICY")
    expect((await admin("DELETE", `/spam-rules/${rule.body.data.uid}`)).status).toBe(200)

    // scopes: the key cannot read the profile
    expect((await call(server, "GET", "/v1/sms/profile", { key: liveKey })).status).toBe(401)
    const widened = await admin("PATCH", `/api-keys/${keyUid}`, { scopes: ["sms:send", "sms:read", "profile:read"] })
    expect(widened.body.data.scopes).toContain("profile:read")
    expect((await call(server, "GET", "/v1/sms/profile", { key: liveKey })).status).toBe(200)

    // allowed IPs changed to elsewhere: refused at once
    await admin("PATCH", `/api-keys/${keyUid}`, { allowed_ips: ["10.0.0.0/8"] })
    expect((await call(server, "GET", "/v1/balance", { key: liveKey })).status).toBe(401)
    await admin("PATCH", `/api-keys/${keyUid}`, { allowed_ips: [] })
    expect((await call(server, "GET", "/v1/balance", { key: liveKey })).status).toBe(200)

    // suspend the account: sends refused; activate again
    await admin("POST", `/accounts/${accountUid}/suspend`)
    const inactive = await call(server, "POST", "/v1/sms/messages", {
      key: liveKey,
      body: { recipient: "+255712345678", sender_id: "ACME", body: "Hello again" }
    })
    expect(inactive.body.error_code).toBe("ACCOUNT_INACTIVE")
    await admin("POST", `/accounts/${accountUid}/activate`)

    // webhook endpoint for the key: secret shown at creation and regeneration
    const hook = await admin("POST", "/webhooks", {
      api_key_uid: keyUid,
      url: "https://hooks.example.com/tuma"
    })
    expect(hook.status).toBe(201)
    expect(hook.body.data.secret).toMatch(/^whsec_/)
    const regenerated = await admin("POST", `/webhooks/${hook.body.data.endpoint.uid}/regenerate-secret`)
    expect(regenerated.body.data.secret).not.toBe(hook.body.data.secret)
    const disabled = await admin("POST", `/webhooks/${hook.body.data.endpoint.uid}/disable`, { reason: "maintenance" })
    expect(disabled.body.data.enabled).toBe(false)
    const enabled = await admin("POST", `/webhooks/${hook.body.data.endpoint.uid}/enable`)
    expect(enabled.body.data).toMatchObject({ enabled: true, consecutive_failures: 0 })

    // revocation takes effect on the next request
    const revoked = await admin("POST", `/api-keys/${keyUid}/revoke`)
    expect(revoked.body.data.status).toBe("revoked")
    const after = await call(server, "GET", "/v1/balance", { key: liveKey })
    expect(after.status).toBe(401)
    expect(after.body.message).toMatch(/revoked/)
  })

  it("markets open and close; unknown resources are 404; invalid input is 422", async () => {
    const opened = await admin("POST", "/markets/UG/open")
    expect(opened.body.data.open).toBe(true)
    const closedMarket = await admin("POST", "/markets/UG/close")
    expect(closedMarket.body.data.open).toBe(false)
    expect((await admin("GET", "/accounts/00000000-0000-4000-8000-000000000000")).status).toBe(404)
    const invalid = await admin("POST", "/accounts", { name: "", email: "not-an-email" })
    expect(invalid.status).toBe(422)
    expect(invalid.body.errors).toHaveProperty("email")
    expectFirstFieldErrorMessage(invalid)
  })

  it("a carrier Tuma could not start is refused (422 per config field), nothing stored; the console's snake_case is one it can", async () => {
    const before = (await admin("GET", "/providers")).body.data.length
    const name = unique("smsc")
    const bare = await admin("POST", "/providers", { name, kind: "smpp", config: {} })
    expect(bare.status).toBe(422)
    expect(Object.keys(bare.body.errors).sort()).toEqual([
      "config.host",
      "config.password",
      "config.port",
      "config.systemId"
    ])
    const badPort = await admin("POST", "/providers", {
      name,
      kind: "smpp",
      config: { host: "smsc.example", port: 0, system_id: "tuma", password: "pw" }
    })
    expect(badPort.status).toBe(422)
    expect(Object.keys(badPort.body.errors)).toEqual(["config.port"])
    expect((await admin("GET", "/providers")).body.data.length).toBe(before)
    const ok = await admin("POST", "/providers", {
      name,
      kind: "smpp",
      enabled: false,
      config: { host: "smsc.example", port: 2775, system_id: "tuma", password: "pw" }
    })
    expect(ok.status).toBe(201)
  })
})

describe("the last carrier of a market", () => {
  it("is disabled only with confirm_no_route: true (409 otherwise, nothing changes); a second carrier needs none", async () => {
    expect((await admin("POST", "/markets/RW/open")).status).toBe(200)
    try {
      const create = async (name: string) => {
        const r = await admin("POST", "/providers", {
          name,
          kind: "simulated",
          credits: [{ country: "RW", credit: 100 }]
        })
        expect(r.status).toBe(201)
        return r.body.data.uid as string
      }
      const first = await create(unique("rw-first"))
      // no body, an empty body or a false flag: refused with the market it would leave, nothing changes
      for (const body of [undefined, {}, { confirm_no_route: false }]) {
        const refused = await admin("POST", `/providers/${first}/disable`, body)
        expect(refused.status).toBe(409)
        expect(refused.body.error_code).toBe("CONFLICT")
        expect(refused.body.message).toMatch(/leaves RW without a carrier/)
        expect(refused.body.details).toBeUndefined()
      }
      expect((await admin("GET", `/providers/${first}`)).body.data.enabled).toBe(true)
      const audit = await admin(
        "GET",
        `/audit-log?action=provider.disable&target=${encodeURIComponent(`provider:${first}`)}`
      )
      expect(audit.body.data).toEqual([])
      // with the flag: disabled (and recorded)
      const confirmed = await admin("POST", `/providers/${first}/disable`, { confirm_no_route: true })
      expect(confirmed.status).toBe(200)
      expect(confirmed.body.data.enabled).toBe(false)
      expect((await admin("POST", `/providers/${first}/enable`)).status).toBe(200)
      // a second carrier of the market: the first is disabled without a flag (old clients unchanged)
      await create(unique("rw-second"))
      const plain = await admin("POST", `/providers/${first}/disable`)
      expect(plain.status).toBe(200)
      expect(plain.body.data.enabled).toBe(false)
    } finally {
      expect((await admin("POST", "/markets/RW/close")).status).toBe(200)
    }
  })
})
