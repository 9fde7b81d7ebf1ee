/**
 * The console API over HTTP (docs/console.md): sessions with TOTP, the double-submit CSRF token
 * before sign-in and the session's after, the permission of each endpoint, lenient bodies, and
 * the envelope of every answer — what the console's browser app relies on.
 */
import { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, setupAccount } from "../harness.js"
import type { Answer, PortalServer } from "../portal/harness.js"
import { Agent, drivers, PASSWORD, startPortal } from "../portal/harness.js"

/** The RFC 6238 code of a base32 secret now. */
const totp = (secret: string) => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
  let bits = ""
  for (const c of secret.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0")
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)))
  const h = createHmac("sha1", key).update(counter).digest()
  const o = h[h.length - 1] & 0xf
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, "0")
}

/** A console client: the agent with the console's CSRF token handling. */
class Operator extends Agent {
  override async preSession() {
    const r = await this.request("GET", "/console/api/session/csrf")
    this.csrf = r.body.data.csrf_token
    return r
  }
  override async signIn(email: string, code = "") {
    if (this.csrf === undefined) await this.preSession()
    const r = await this.request("POST", "/console/api/session", { body: { email, password: PASSWORD, code } })
    if (r.status === 200 && r.body.data.csrf_token !== undefined) this.csrf = r.body.data.csrf_token
    return r
  }
}

const expectFailure = (r: Answer, status: number, code?: string) => {
  expect(r.status).toBe(status)
  expect(r.body.success).toBe(false)
  expect(typeof r.body.request_uid).toBe("string")
  if (code !== undefined) expect(r.body.error_code).toBe(code)
}

describe.each(drivers)("the console API (%s)", (driver) => {
  let server: PortalServer
  let admin: Operator
  let reviewer: Operator
  let accountId: string
  let liveKey: string
  const adminEmail = `admin-${driver}@tuma.example`
  const reviewerEmail = `reviewer-${driver}@tuma.example`

  beforeAll(async () => {
    server = await startPortal(driver)
    const setup = await server.run(setupAccount())
    accountId = setup.account.id
    liveKey = setup.live
    await server.run(Effect.flatMap(OperatorAccess, (access) =>
      Effect.all([
        access.ensure({ email: adminEmail, role: "admin", password: PASSWORD, name: "Ada" }),
        access.ensure({ email: reviewerEmail, role: "reviewer", password: PASSWORD, name: "Rita" })
      ])))
    admin = new Operator(server)
    reviewer = new Operator(server)
  }, 120_000)
  afterAll(async () => {
    await server?.close()
  })

  it("signs in: the pre-session token, TOTP enrolment, the session cookie", async () => {
    expectFailure(await admin.request("GET", "/console/api/session"), 401, "SESSION_REQUIRED")
    const csrf = await admin.preSession()
    expect(csrf.headers.get("cache-control")).toBe("no-store")
    expect(csrf.headers.getSetCookie()[0]).toMatch(
      /^tuma_console_csrf=.*Path=\/console\/api.*HttpOnly.*SameSite=Strict/
    )
    expectFailure(
      await admin.request("POST", "/console/api/session", { body: {}, csrf: false }),
      403,
      "CSRF_FAILED"
    )
    expectFailure(
      await admin.request("POST", "/console/api/session", { body: {}, origin: "https://evil.example" }),
      403,
      "CSRF_FAILED"
    )
    // an empty body reads as an empty object: blank credentials, refused by the use case
    expectFailure(
      await admin.request("POST", "/console/api/session", { headers: { "content-type": "application/json" } }),
      401
    )
    const malformed = await fetch(`${server.url}/console/api/session`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-csrf-token": admin.csrf!,
        cookie: `tuma_console_csrf=${admin.cookies.get("tuma_console_csrf")}`
      },
      body: "{not json"
    })
    expect(malformed.status).toBe(422)
    expect(await malformed.json()).toMatchObject({ success: false, error_code: "VALIDATION_FAILED" })
    expectFailure(await admin.request("POST", "/console/api/session", { body: [1] }), 401)
    expectFailure(
      await admin.request("POST", "/console/api/session", { body: { email: adminEmail, password: "nope", code: "" } }),
      401
    )
    const enrol = await admin.signIn(adminEmail)
    expect(enrol.status).toBe(200)
    const secret = enrol.body.data.enrolment.secret
    const signedIn = await admin.signIn(adminEmail, totp(secret))
    expect(signedIn.status).toBe(200)
    expect(signedIn.body.data.recovery_codes).toHaveLength(10)
    expect(signedIn.headers.getSetCookie()[0]).toMatch(
      /^tuma_console_session=.*Path=\/console.*HttpOnly.*SameSite=Strict/
    )
    const me = await admin.request("GET", "/console/api/session")
    expect(me.body.data.operator).toMatchObject({ email: adminEmail, role: "admin", totp_enrolled: true })
    expect((await admin.request("POST", "/console/api/session/recovery-codes")).status).toBe(200)
    expect((await reviewer.signIn(reviewerEmail)).status).toBe(200)
  })

  it("answers each area's reads", async () => {
    for (
      const path of [
        "/overview",
        "/accounts",
        "/accounts?search=zzz",
        `/accounts/${accountId}`,
        `/accounts/${accountId}/ledger?country=TZ`,
        "/sender-ids",
        "/sender-ids?status=approved",
        "/markets",
        "/providers",
        "/country-routes/tz",
        "/spam-rules",
        `/accounts/${accountId}/opt-outs`,
        "/audit-log?limit=5",
        "/webhooks",
        `/webhooks?account=${accountId}`,
        "/operators"
      ]
    ) {
      const r = await admin.request("GET", `/console/api${path}`)
      expect(r.status, path).toBe(200)
      expect(r.body.success).toBe(true)
      expect(r.headers.get("cache-control")).toBe("no-store")
    }
    expectFailure(await admin.request("GET", "/console/api/sender-ids?status=bogus"), 422, "VALIDATION_FAILED")
    expectFailure(
      await admin.request("GET", "/console/api/webhooks/nope/deliveries?status=bogus"),
      422,
      "VALIDATION_FAILED"
    )
    expectFailure(await admin.request("GET", "/console/api/webhook-deliveries/nope"), 404)
    expectFailure(await admin.request("GET", "/console/api/sender-ids/nope"), 404)
    expectFailure(await admin.request("GET", "/console/api/sender-id-documents/nope"), 404)
    expectFailure(await reviewer.request("GET", "/console/api/operators"), 403, "ROLE_FORBIDDEN")
  })

  it("inbound numbers: listed, assigned (aliases as text), conflicts 409, changed, removed, audited; unrouted", async () => {
    const path = "/console/api/inbound-numbers"
    expect((await admin.request("GET", path)).body.data).toEqual([])
    const body = { account_uid: accountId, number: "15500", keyword: "vote", aliases: "kura, chagua" }
    expectFailure(await reviewer.request("POST", path, { body }), 403, "ROLE_FORBIDDEN")
    const created = await admin.request("POST", path, { body })
    expect(created.body.data).toMatchObject({ number: "15500", keyword: "VOTE", aliases: ["KURA", "CHAGUA"] })
    const uid = created.body.data.uid
    expectFailure(await admin.request("POST", path, { body: { ...body, keyword: "kura", aliases: "" } }), 409)
    expectFailure(await admin.request("POST", path, { body: { ...body, number: "12" } }), 422, "VALIDATION_FAILED")
    const changed = await admin.request("PATCH", `${path}/${uid}`, { body: { aliases: "kura" } })
    expect(changed.body.data).toMatchObject({ keyword: "VOTE", aliases: ["KURA"] })
    const dedicated = await admin.request("PATCH", `${path}/${uid}`, { body: { keyword: "" } })
    expect(dedicated.body.data).toMatchObject({ keyword: null, aliases: [] })
    expect((await reviewer.request("GET", `${path}?account=${accountId}`)).body.data.map((n: any) => n.uid)).toEqual([
      uid
    ])
    expect((await admin.request("DELETE", `${path}/${uid}`)).body.data).toEqual({ ok: true })
    expectFailure(await admin.request("DELETE", `${path}/${uid}`), 404)
    const audit = (await admin.request("GET", "/console/api/audit-log?action=inbound_number.*&limit=10")).body.data
    expect(audit.map((e: any) => e.action)).toEqual([
      "inbound_number.delete",
      "inbound_number.update",
      "inbound_number.update",
      "inbound_number.create"
    ])
    const unrouted = await reviewer.request("GET", "/console/api/inbound/unrouted?page=x")
    expect(unrouted.body.data).toMatchObject({ messages: [], meta: { current_page: 1, total: 0 } })
  })

  it("SMPP credentials: the edit form's PATCH changes the limits (text fields), refuses bad ones by field, needs accounts.manage", async () => {
    const created = await admin.request("POST", "/console/api/smpp-accounts", {
      body: { account_uid: accountId, system_id: `edit-${driver}`, rate: "50", burst: "", max_binds: "2" }
    })
    expect(created.status).toBe(200)
    const path = `/console/api/smpp-accounts/${created.body.data.uid}`
    const changed = await admin.request("PATCH", path, {
      body: { rate: "80", burst: "120", max_binds: "4", allowed_ips: "196.41.2.10, 196.41.3.0/24" }
    })
    expect(changed.status).toBe(200)
    expect(changed.body.data).toMatchObject({
      throughput: { rate: 80, burst: 120 },
      max_binds: 4,
      allowed_ips: ["196.41.2.10", "196.41.3.0/24"]
    })
    const refused = await admin.request("PATCH", path, {
      body: { rate: "20000", burst: "", max_binds: "0", allowed_ips: "196.41.2.300" }
    })
    expectFailure(refused, 422, "VALIDATION_FAILED")
    expect(Object.keys(refused.body.errors).sort()).toEqual(["allowed_ips.0", "max_binds", "throughput.rate"])
    expect(refused.body.details.errors.max_binds[0]).toEqual({
      code: "smpp.max_binds",
      params: { min: "1", max: "100" }
    })
    expect(refused.body.details.errors["throughput.rate"][0].code).toBe("smpp.rate")
    expectFailure(await admin.request("PATCH", path, { body: { rate: "many" } }), 422, "VALIDATION_FAILED")
    expectFailure(await reviewer.request("PATCH", path, { body: { max_binds: "9" } }), 403, "ROLE_FORBIDDEN")
    expectFailure(await admin.request("PATCH", "/console/api/smpp-accounts/nope", { body: { max_binds: "3" } }), 404)
    // refused changes changed nothing; a blank address field means any address
    const open = await admin.request("PATCH", path, { body: { allowed_ips: "" } })
    expect(open.body.data).toMatchObject({ throughput: { rate: 80, burst: 120 }, max_binds: 4, allowed_ips: [] })
  })

  it("changes, each with its permission and the session's CSRF token", async () => {
    const post = (who: Operator, path: string, body?: unknown, method = "POST") =>
      who.request(method, `/console/api${path}`, body === undefined ? {} : { body })
    expectFailure(await post(admin, "/accounts", {}), 422, "VALIDATION_FAILED")
    expectFailure(await post(admin, "/accounts"), 422, "VALIDATION_FAILED")
    const created = await post(admin, "/accounts", { name: "Duka", email: "duka@example.com", country: "TZ" })
    expect(created.status).toBe(200)
    const uid = created.body.data.uid
    expectFailure(await post(reviewer, "/accounts", { name: "X" }), 403, "ROLE_FORBIDDEN")
    expectFailure(
      await admin.request("POST", `/console/api/accounts/${uid}/suspend`, { csrf: false }),
      403,
      "CSRF_FAILED"
    )
    expect((await post(admin, `/accounts/${uid}/suspend`)).status).toBe(200)
    expect((await post(admin, `/accounts/${uid}/activate`)).status).toBe(200)
    expectFailure(await post(admin, `/accounts/${uid}/top-ups`, { country: "tz" }), 422)
    expect((await post(admin, `/accounts/${uid}/top-ups`, { country: "tz", units: "500", reference: "INV-1" })).status)
      .toBe(200)
    expect((await post(admin, `/accounts/${uid}/corrections`, { country: "TZ", units: -5, reason: "typo" })).status)
      .toBe(
        200
      )
    expectFailure(await post(admin, `/accounts/${uid}/corrections`, { country: "TZ", units: 1 }), 422)
    // a correction names a purchase or an adjustment, never a message's debit (domain `isCorrectable`)
    const sent = await call(server, "POST", "/v1/sms/messages", {
      key: liveKey,
      body: { recipient: "+255712345678", sender_id: "TUMA", body: "hi" }
    })
    expect(sent.status).toBe(202)
    const ledger = (await admin.request("GET", `/console/api/accounts/${accountId}/ledger`)).body.data
    const debit = ledger.find((e: { kind: string }) => e.kind === "debit")
    const purchase = ledger.find((e: { kind: string }) => e.kind === "purchase")
    const namesDebit = await post(admin, `/accounts/${accountId}/corrections`, {
      country: "TZ",
      units: 1,
      reason: "refund by hand",
      corrects: debit.id
    })
    expectFailure(namesDebit, 422, "VALIDATION_FAILED")
    expect(namesDebit.body.errors.corrects[0]).toMatch(
      /is a debit: a correction names a purchase or an earlier adjustment/
    )
    expect(
      (await post(admin, `/accounts/${accountId}/corrections`, {
        country: "TZ",
        units: -1,
        reason: "top-up was 999",
        corrects: purchase.id
      })).status
    ).toBe(200)
    expect((await post(admin, "/markets/tz/close")).status).toBe(200)
    expect((await post(admin, "/markets/tz/open")).status).toBe(200)
    await post(admin, "/routes/verify", { account_uid: accountId, country: "tz", phone: "255712345678" })
    const provider = await post(admin, "/providers", { name: "extra", country: "tz", credit: "100" })
    expect(provider.status).toBe(200)
    const puid = provider.body.data.uid
    await post(admin, `/providers/${puid}/credit`, { country: "tz", units: 50, operation: "add" })
    await post(admin, `/providers/${puid}/disable`)
    await post(admin, `/providers/${puid}/enable`)
    await post(admin, "/country-routes/tz", { provider_uids: [puid] }, "PUT")
    await post(admin, "/country-routes/tz", { provider_uids: "x" }, "PUT")
    expectFailure(await post(reviewer, "/spam-rules"), 422)
    const rule = await post(reviewer, "/spam-rules", { kind: "blocked_phrase", pattern: "win big" })
    expect(rule.status).toBe(200)
    await post(reviewer, `/spam-rules/${rule.body.data.uid}/disable`)
    await post(reviewer, `/spam-rules/${rule.body.data.uid}/enable`)
    expect((await post(reviewer, `/spam-rules/${rule.body.data.uid}`, undefined, "DELETE")).body.data).toEqual({
      ok: true
    })
    expect((await post(reviewer, `/accounts/${accountId}/opt-outs`, { recipient: "+255712000001" })).status).toBe(200)
    await post(reviewer, `/accounts/${accountId}/opt-outs/%2B255712000001`, undefined, "DELETE")
    expectFailure(await post(reviewer, "/sender-ids/nope/approve"), 404)
    await post(reviewer, "/sender-ids/nope/reject", {})
    expectFailure(await post(reviewer, "/webhook-deliveries/nope/redeliver"), 403, "ROLE_FORBIDDEN")
    const invited = await post(admin, "/operators", { email: `sam-${driver}@tuma.example`, role: "support" })
    expect(invited.status).toBe(200)
    const ouid = invited.body.data.uid
    await post(admin, `/operators/${ouid}/role`, { role: "emperor" })
    await post(admin, `/operators/${ouid}/role`, { role: "reviewer" })
    await post(admin, `/operators/${ouid}/disable`)
    await post(admin, `/operators/${ouid}/enable`)
    expectFailure(await admin.request("GET", "/console/api/invitations/nope"), 404)
    const stranger = new Operator(server)
    await stranger.preSession()
    const accepted = await stranger.request("POST", "/console/api/invitations/accept", {
      body: { token: "nope", password: PASSWORD }
    })
    expect(accepted.status).toBe(404)
    expect(accepted.body.success).toBe(false)
    const out = await admin.request("DELETE", "/console/api/session")
    expect(out.body.data).toEqual({ ok: true })
    expect(out.headers.getSetCookie()[0]).toMatch(/^tuma_console_session=;.*Max-Age=0/)
    expectFailure(await admin.request("GET", "/console/api/session"), 401, "SESSION_REQUIRED")
  })
})
