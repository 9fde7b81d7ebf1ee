/**
 * The send endpoints over a real socket (spec §4.2, §4.5, §4.6, §7, §8; decisions §5–7, §10, §12–15,
 * §24, §26): both single-send paths, bulk v1 and v2, idempotent replay through HTTP, every refusal
 * of the structured cases table with its status, `error_code` and `acceptance_state`, the sandbox
 * answers, and the duplicate-content limit. Uses the typed client as well as raw requests.
 */
import { SqlClient } from "@effect/sql"
import { Operator } from "@tuma/core"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, client, expectFirstFieldErrorMessage, setupAccount, startServer } from "./harness.js"

let server: TestServer
let acct: Awaited<ReturnType<typeof server.run<any, any>>>

beforeAll(async () => {
  server = await startServer({ rateLimit: { duplicateLimit: 3 } })
  acct = await server.run(setupAccount({ balances: { TZ: 1000, KE: 100 } }))
})
afterAll(() => server.close())

const single = (key: string, body: unknown, headers?: Record<string, string>) =>
  call(server, "POST", "/v1/sms/messages", { key, body, ...(headers ? { headers } : {}) })

const balanceOf = (accountId: string) =>
  server.run(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<
      { balance: number }
    >`SELECT COALESCE(SUM(balance), 0)::int AS balance FROM wallets WHERE account_id = ${accountId}`
    return rows[0].balance
  }))

const messagesOf = (accountId: string) =>
  server.run(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM messages WHERE account_id = ${accountId}`
    return rows[0].n
  }))

describe("single send", () => {
  it("202 with the message entry and encoding, on both paths (§4.2 alias)", async () => {
    for (const path of ["/v1/sms/messages", "/v1/sms/quick-message"]) {
      const a = await call(server, "POST", path, {
        key: acct.live,
        body: { recipient: "+255 712 345 678", sender_id: "TUMA", body: "Habari “rafiki” — karibu" }
      })
      expect(a.status).toBe(202)
      expect(a.body.success).toBe(true)
      expect(a.body.request_uid).toBe(a.headers.get("x-request-id"))
      expect(a.body.data.uid).toMatch(/^[0-9a-f-]{36}$/)
      expect(a.body.data.status).toBe("queued")
      expect(a.body.data.recipient).toBe("+255712345678")
      expect(a.body.data.encoding.final).toBe("GSM-7")
      expect(a.body.data.encoding.converted).toBe(true)
      expect(a.body.idempotent_replay).toBeUndefined()
    }
  })

  it("the typed client sends and reads the same contract", async () => {
    const result = await Effect.runPromise(
      Effect.flatMap(client(server, acct.live), (api) =>
        api.sms.sendMessage({
          payload: { recipient: "+255712345678", sender_id: "TUMA", body: "typed client" },
          headers: {}
        }))
    )
    expect(result.success).toBe(true)
    expect(result.data.status).toBe("queued")
    expect(result.data.encoding.segments).toBe(1)
  })

  it("idempotent replay: same key + same body answers the first message with idempotent_replay, charges once", async () => {
    const key = randomUUID()
    const before = await balanceOf(acct.account.id)
    const body = { recipient: "+255712345679", sender_id: "TUMA", body: "Once only" }
    const first = await single(acct.live, body, { "idempotency-key": key })
    const second = await single(acct.live, { body: "Once only", sender_id: "TUMA", recipient: "+255712345679" }, {
      "idempotency-key": key
    })
    expect(first.status).toBe(202)
    expect(second.status).toBe(202)
    expect(second.body.idempotent_replay).toBe(true)
    expect(second.body.data.uid).toBe(first.body.data.uid)
    expect(second.body.request_uid).not.toBe(first.body.request_uid)
    expect(await balanceOf(acct.account.id)).toBe(before - 1)
  })

  it("409 idempotency_key_reused: same key, different content", async () => {
    const key = randomUUID()
    expect(
      (await single(acct.live, { recipient: "+255712345670", sender_id: "TUMA", body: "A" }, {
        "idempotency-key": key
      })).status
    ).toBe(202)
    const b = await single(acct.live, { recipient: "+255712345670", sender_id: "TUMA", body: "B" }, {
      "idempotency-key": key
    })
    expect(b.status).toBe(409)
    expect(b.body.error).toBe("idempotency_key_reused")
    expect(b.body.error_code).toBe("IDEMPOTENCY_KEY_REUSED")
    expect(b.body.acceptance_state).toBe("DEFINITELY_NOT_ACCEPTED")
  })

  it("concurrent requests with one key produce one message (decisions §24)", async () => {
    const key = randomUUID()
    const before = await messagesOf(acct.account.id)
    const body = { recipient: "+255712345671", sender_id: "TUMA", body: "Concurrent" }
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => single(acct.live, body, { "idempotency-key": key }))
    )
    expect(answers.every((a) => a.status === 202)).toBe(true)
    expect(new Set(answers.map((a) => a.body.data.uid)).size).toBe(1)
    expect(await messagesOf(acct.account.id)).toBe(before + 1)
  })

  it("an Idempotency-Key that is not 1–255 visible characters is a 422 on the header", async () => {
    const a = await single(acct.live, { recipient: "+255712345678", sender_id: "TUMA", body: "x" }, {
      "idempotency-key": "k".repeat(300)
    })
    expect(a.status).toBe(422)
    expect(Object.keys(a.body.errors)).toEqual(["idempotency-key"])
  })

  it("an empty body after conversion is a 422 (decisions §10)", async () => {
    const a = await single(acct.live, { recipient: "+255712345678", sender_id: "TUMA", body: "😀😀" })
    expect(a.status).toBe(422)
    expect(a.body.acceptance_state).toBe("DEFINITELY_NOT_ACCEPTED")
  })

  it("the same sender and body more than the configured times answers 429 DUPLICATE_CONTENT_RATE_LIMITED", async () => {
    const body = { recipient: "+255712345672", sender_id: "TUMA", body: `Repeated ${randomUUID()}` }
    for (let i = 0; i < 3; i++) expect((await single(acct.live, body)).status).toBe(202)
    const fourth = await single(acct.live, body)
    expect(fourth.status).toBe(429)
    expect(fourth.body.error_code).toBe("DUPLICATE_CONTENT_RATE_LIMITED")
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(0)
    // another body is not limited
    expect((await single(acct.live, { ...body, body: "Something else entirely" })).status).toBe(202)
  })
})

describe("refusals (spec §7 structured cases, decisions §5)", () => {
  const refusal = async (
    setup: Parameters<typeof setupAccount>[0],
    then: (id: string) => Effect.Effect<unknown, unknown, Operator>,
    body: Record<string, unknown>,
    expected: { status: number; error_code: string; error?: string }
  ) => {
    const a = await server.run(Effect.gen(function*() {
      const created = yield* setupAccount(setup)
      yield* then(created.account.id)
      return created
    }))
    const before = await balanceOf(a.account.id)
    const answer = await single(a.live, { recipient: "+255712345678", sender_id: "TUMA", body: "Hello there", ...body })
    expect(answer.status).toBe(expected.status)
    expect(answer.body.success).toBe(false)
    expect(answer.body.error_code).toBe(expected.error_code)
    expect(answer.body.acceptance_state).toBe("DEFINITELY_NOT_ACCEPTED")
    if (expected.error) expect(answer.body.error).toBe(expected.error)
    expect(await balanceOf(a.account.id)).toBe(before)
    expect(await messagesOf(a.account.id)).toBe(0)
    return answer
  }
  const nothing = () => Effect.void

  it("ACCOUNT_INACTIVE", () =>
    refusal({}, (id) => Effect.flatMap(Operator, (op) => op.setAccountActive(id, false)), {}, {
      status: 422,
      error_code: "ACCOUNT_INACTIVE"
    }))

  it("SENDER_ID_NOT_APPROVED (also for a placeholder sender ID nobody owns)", async () => {
    await refusal({}, nothing, { sender_id: "OTHER" }, { status: 422, error_code: "SENDER_ID_NOT_APPROVED" })
    await refusal({ sender: null }, nothing, {}, { status: 422, error_code: "SENDER_ID_NOT_APPROVED" })
  })

  it("ROUTE_NOT_VERIFIED with error route_not_verified", () =>
    refusal(
      { routes: [], sender: null },
      (id) => Effect.flatMap(Operator, (op) => op.grantSenderId({ accountId: id, senderId: "TUMA", country: "TZ" })),
      {},
      {
        status: 422,
        error_code: "ROUTE_NOT_VERIFIED",
        error: "route_not_verified"
      }
    ))

  it("COUNTRY_NOT_AVAILABLE with error country_not_available", async () => {
    const a = await server.run(setupAccount({ balances: { KE: 10 } }))
    const answer = await single(a.live, { recipient: "+254712345678", sender_id: "TUMA", body: "Hello there" })
    expect(answer.status).toBe(422)
    expect(answer.body.error_code).toBe("COUNTRY_NOT_AVAILABLE")
    expect(answer.body.error).toBe("country_not_available")
  })

  it("a closed country is COUNTRY_NOT_AVAILABLE whatever the sender ID's state, on every send endpoint (decisions §29)", async () => {
    // TUMA is approved for TZ only; KE is closed
    const a = await server.run(setupAccount())
    const one = await single(a.live, { recipient: "+254712345678", sender_id: "TUMA", body: "Hello there" })
    expect(one.status).toBe(422)
    expect(one.body.error_code).toBe("COUNTRY_NOT_AVAILABLE")
    expect(one.body.acceptance_state).toBe("DEFINITELY_NOT_ACCEPTED")
    expect(one.body.message).toBe("Sending to Kenya is not available.")
    for (const path of ["/v1/sms/send-bulk", "/v2/sms/send-bulk"]) {
      const only = await call(server, "POST", path, {
        key: a.live,
        body: { recipients: ["+254712345678"], sender_id: "TUMA", message: "Hello there" }
      })
      expect(only.status).toBe(422)
      expect(only.body.error_code).toBe("COUNTRY_NOT_AVAILABLE")
      const mixed = await call(server, "POST", path, {
        key: a.live,
        body: { recipients: ["+255712345678", "+254712345678"], sender_id: "TUMA", message: "Hello there" }
      })
      expect(mixed.status).toBe(202)
      expect(mixed.body.data.failures.map((f: any) => f.error_code)).toEqual(["COUNTRY_NOT_AVAILABLE"])
    }
    // a sender ID that is not approved anywhere, to a closed country: still the market first
    const b = await server.run(setupAccount({ sender: null }))
    const none = await single(b.live, { recipient: "+254712345678", sender_id: "TUMA", body: "Hello there" })
    expect(none.body.error_code).toBe("COUNTRY_NOT_AVAILABLE")
    // an open country without the sender ID approved for it names the country, not "approved, not approved"
    const open = await single(b.live, { recipient: "+255712345678", sender_id: "TUMA", body: "Hello there" })
    expect(open.body.error_code).toBe("SENDER_ID_NOT_APPROVED")
    expect(open.body.message).not.toMatch(/approved, not approved/)
  })

  it("RECIPIENT_OPTED_OUT", () =>
    refusal({}, (id) => Effect.flatMap(Operator, (op) => op.addOptOut(id, "+255712345678")), {}, {
      status: 422,
      error_code: "RECIPIENT_OPTED_OUT"
    }))

  it("SPAM_POLICY", () =>
    refusal(
      {},
      (id) =>
        Effect.flatMap(
          Operator,
          (op) => op.addSpamRule({ accountId: id, kind: "blocked_phrase", pattern: "free money" })
        ),
      { body: "Get FREE MONEY now" },
      { status: 422, error_code: "SPAM_POLICY" }
    ))

  // providers are shared by every account: these use markets no other test routes to
  it("PROVIDER_CREDIT_EXHAUSTED", () =>
    refusal(
      { balances: { RW: 10 }, providerCredit: { RW: 0 } },
      () => Effect.flatMap(Operator, (op) => op.setMarketOpen("RW", true)),
      { recipient: "+250788123456" },
      { status: 422, error_code: "PROVIDER_CREDIT_EXHAUSTED" }
    ))

  it("NO_PROVIDER_ROUTE", () =>
    refusal(
      { providerCredit: null, balances: { UG: 10 } },
      () => Effect.flatMap(Operator, (op) => op.setMarketOpen("UG", true)),
      { recipient: "+256712345678" },
      { status: 422, error_code: "NO_PROVIDER_ROUTE" }
    ))

  it("INSUFFICIENT_BALANCE carries units_required and units_available (decisions §6)", async () => {
    const answer = await refusal({ balances: { TZ: 0 }, routes: ["TZ"] }, nothing, {}, {
      status: 422,
      error_code: "INSUFFICIENT_BALANCE"
    })
    expect(answer.body.units_required).toBe(1)
    expect(answer.body.units_available).toBe(0)
  })
})

describe("422 message is the first field error (decisions §29)", () => {
  it("a bad phone number on every send endpoint, and a bad template", async () => {
    const one = await single(acct.live, { recipient: "12345", sender_id: "TUMA", body: "Hello there" })
    expect(one.status).toBe(422)
    expect(one.body.message).toBe(one.body.errors.recipient[0])
    expect(one.body.acceptance_state).toBe("DEFINITELY_NOT_ACCEPTED")
    for (const path of ["/v1/sms/send-bulk", "/v2/sms/send-bulk"]) {
      const bulk = await call(server, "POST", path, {
        key: acct.live,
        body: { recipients: ["+255712000001", "12345"], sender_id: "TUMA", message: "Hello there" }
      })
      expect(bulk.status).toBe(422)
      expect(bulk.body.message).toBe(bulk.body.errors["recipients.1"][0])
    }
    const template = await call(server, "POST", "/v2/sms/send-bulk", {
      key: acct.live,
      body: { recipients: ["+255712000001"], sender_id: "TUMA", message: "Hi {= amount - }" }
    })
    expect(template.status).toBe(422)
    expectFirstFieldErrorMessage(template)
    const shape = await single(acct.live, { sender_id: "TUMA" })
    expect(shape.status).toBe(422)
    expectFirstFieldErrorMessage(shape)
  })
})

describe("bulk", () => {
  it("v1: 202 with campaign fields and results; a repeated number is sent once", async () => {
    const a = await call(server, "POST", "/v1/sms/send-bulk", {
      key: acct.live,
      body: {
        recipients: ["+255712000001", "+255712000002", "+255712000001"],
        sender_id: "TUMA",
        message: "Hello all",
        campaign_name: "v1 test"
      }
    })
    expect(a.status).toBe(202)
    expect(a.body.data.name).toBe("v1 test")
    expect(a.body.data.status).toBe("queued")
    expect(a.body.data.recipient_count).toBe(3)
    expect(a.body.data.queued_count).toBe(2)
    expect(a.body.data.results).toHaveLength(2)
    expect(a.body.data.failures).toHaveLength(1)
    expect(a.body.data.failures[0].error_code).toBe("DUPLICATE_RECIPIENT")
  })

  it("v1: message and body that differ are a 422 on both fields (decisions §13)", async () => {
    const a = await call(server, "POST", "/v1/sms/send-bulk", {
      key: acct.live,
      body: { recipients: ["+255712000001"], sender_id: "TUMA", message: "a", body: "b" }
    })
    expect(a.status).toBe(422)
    expect(Object.keys(a.body.errors).sort()).toEqual(["body", "message"])
  })

  it("v2: tags per recipient, per-recipient units, scheduled campaign", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString()
    const a = await call(server, "POST", "/v2/sms/send-bulk", {
      key: acct.live,
      body: {
        recipients: [{ to: "+255712000011", name: "Asha", amount: 12000, paid: 2000 }, "+255712000012"],
        message: "Hi {name}, balance {= amount - paid } TZS",
        sender_id: "TUMA",
        campaign_name: "v2 test",
        scheduled_at: at
      }
    })
    expect(a.status).toBe(202)
    expect(a.body.data.status).toBe("scheduled")
    expect(a.body.data.messages).toHaveLength(2)
    expect(a.body.data.messages.every((m: any) => m.units === 1)).toBe(true)
  })

  it("v2: 422 INSUFFICIENT_BALANCE when the balance cannot cover the whole campaign", async () => {
    const small = await server.run(setupAccount({ balances: { TZ: 1 } }))
    const a = await call(server, "POST", "/v2/sms/send-bulk", {
      key: small.live,
      body: { recipients: ["+255712000021", "+255712000022"], message: "Hello", sender_id: "TUMA" }
    })
    expect(a.status).toBe(422)
    expect(a.body.error_code).toBe("INSUFFICIENT_BALANCE")
    expect(a.body.units_required).toBe(2)
    expect(a.body.units_available).toBe(1)
    expect(a.body.shortfall).toEqual([{ country: "TZ", units_required: 2, units_available: 1 }])
  })

  it("v2: idempotent replay through HTTP returns the same campaign", async () => {
    const key = randomUUID()
    const body = { recipients: ["+255712000031"], message: "Once", sender_id: "TUMA" }
    const first = await call(server, "POST", "/v2/sms/send-bulk", {
      key: acct.live,
      body,
      headers: { "idempotency-key": key }
    })
    const again = await call(server, "POST", "/v2/sms/send-bulk", {
      key: acct.live,
      body,
      headers: { "idempotency-key": key }
    })
    expect(first.status).toBe(202)
    expect(again.body.idempotent_replay).toBe(true)
    expect(again.body.data.uid).toBe(first.body.data.uid)
  })

  it("scheduled_at in the past is a 422 (decisions §14)", async () => {
    const a = await call(server, "POST", "/v2/sms/send-bulk", {
      key: acct.live,
      body: { recipients: ["+255712000041"], message: "x", sender_id: "TUMA", scheduled_at: "2020-01-01T00:00:00Z" }
    })
    expect(a.status).toBe(422)
    expect(a.body.errors).toHaveProperty("scheduled_at")
  })
})

describe("sandbox (decisions §12)", () => {
  it("validates exactly like live (same 422), then answers synthetic success without storing or charging", async () => {
    const invalid = await single(acct.sandbox, { recipient: "nope", sender_id: "TUMA", body: "x" })
    const invalidLive = await single(acct.live, { recipient: "nope", sender_id: "TUMA", body: "x" })
    expect(invalid.status).toBe(422)
    expect(invalid.body.errors).toEqual(invalidLive.body.errors)
    const before = { balance: await balanceOf(acct.account.id), messages: await messagesOf(acct.account.id) }
    const ok = await single(acct.sandbox, { recipient: "+255712345678", sender_id: "TUMA", body: "sandbox hello" })
    expect(ok.status).toBe(202)
    expect(ok.body.mode).toBe("sandbox")
    expect(ok.body.data.uid).toMatch(/^[0-9a-f-]{36}$/)
    expect(await balanceOf(acct.account.id)).toBe(before.balance)
    expect(await messagesOf(acct.account.id)).toBe(before.messages)
    const bulk = await call(server, "POST", "/v2/sms/send-bulk", {
      key: acct.sandbox,
      body: { recipients: ["+255712000051"], message: "x", sender_id: "TUMA" }
    })
    expect(bulk.status).toBe(202)
    expect(bulk.body.mode).toBe("sandbox")
    expect(await messagesOf(acct.account.id)).toBe(before.messages)
  })

  it("sandbox balance is the constant of spec §2.5", async () => {
    const a = await call(server, "GET", "/v1/sms/balance", { key: acct.sandbox })
    expect(a.body).toMatchObject({
      success: true,
      mode: "sandbox",
      data: { wallet_uid: "sandbox_wallet", balance: 100000, currency: "SMS" }
    })
  })

  it("sandbox read of any well-formed UUID is delivered at once; a malformed one is the same 422 as live", async () => {
    const uid = randomUUID()
    const a = await call(server, "GET", `/v1/sms/messages/${uid}`, { key: acct.sandbox })
    expect(a.status).toBe(200)
    expect(a.body.mode).toBe("sandbox")
    expect(a.body.data).toEqual({ uid, status: "delivered", delivered_at: expect.any(String) })
    const bad = await call(server, "GET", "/v1/sms/messages/not-a-uuid", { key: acct.sandbox })
    expect(bad.status).toBe(422)
    expect(bad.body.message).toBe("Message UID must be a valid UUID.")
  })
})
