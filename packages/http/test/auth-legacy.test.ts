/**
 * decisions §1: `auth.missingScopeStatus = 403` restores the older answer for a key without the
 * endpoint's scope; every other refusal stays 401.
 */
import { Operator } from "@tuma/core"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, setupAccount, startServer } from "./harness.js"

let server: TestServer
let readOnly: string

beforeAll(async () => {
  server = await startServer({ auth: { missingScopeStatus: 403 } })
  readOnly = await server.run(Effect.gen(function*() {
    const { account } = yield* setupAccount()
    const op = yield* Operator
    return (yield* op.issueApiKey({ accountId: account.id, mode: "live", scopes: ["sms:read"] })).key
  }))
})
afterAll(() => server.close())

it("a missing scope answers 403 with the envelope", async () => {
  const a = await call(server, "POST", "/v1/sms/messages", {
    key: readOnly,
    body: { recipient: "+255712345678", sender_id: "TUMA", body: "hi" }
  })
  expect(a.status).toBe(403)
  expect(a.body.success).toBe(false)
  expect(a.body.message).toMatch(/sms:send/)
  expect(a.body.request_uid).toBe(a.headers.get("x-request-id"))
})

it("a missing key still answers 401", async () => {
  expect((await call(server, "GET", "/v1/balance")).status).toBe(401)
})
