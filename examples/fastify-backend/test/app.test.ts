/**
 * The example backend over a real socket (Fastify listening on a free port, `fetch` as the
 * client), Tuma on the embedded store in memory: its own auth, the send and balance routes, and
 * Tuma's typed refusals as this backend's own responses — each leaving the balance untouched.
 */
import { Operator } from "@tuma/core"
import { Database } from "@tuma/store-sql"
import { Effect } from "effect"
import assert from "node:assert/strict"
import { after, before, describe, it } from "node:test"
import { buildApp } from "../src/app.js"
import { provisionCarrier, provisionOrganisation } from "../src/provision.js"
import { makeTuma } from "../src/tuma.js"
import { Users } from "../src/users.js"

const tuma = makeTuma(Database.pglite("memory://"))
const users = new Users()
const app = buildApp({ tuma, users })
let base = ""
let shopAccountId = ""

before(async () => {
  const [shop, farm] = await tuma.runPromise(Effect.gen(function*() {
    yield* provisionCarrier
    const shop = yield* provisionOrganisation({ name: "Shop", email: "ops@shop.example", credits: 5, senderId: "SHOP" })
    const farm = yield* provisionOrganisation({ name: "Farm", email: "ops@farm.example", credits: 1, senderId: "FARM" })
    return [shop, farm] as const
  }))
  shopAccountId = shop.tumaAccountId
  users.add("asha@shop.example", "correct horse", shop)
  users.add("juma@farm.example", "battery staple", farm)
  base = await app.listen({ port: 0, host: "127.0.0.1" })
})
after(() => app.close())

const call = async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { "content-type": "application/json" } : {})
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {})
  })
  return { status: res.status, body: await res.json() as any }
}
const login = async (email: string, password: string) => (await call("POST", "/login", { body: { email, password } }))
const tokenOf = async (email: string, password: string) => (await login(email, password)).body.token as string
const credits = async (token: string) => (await call("GET", "/credits", { token })).body

describe("the example backend's own auth", () => {
  it("refuses a wrong password and a request without a session, in its own format, sending nothing", async () => {
    assert.deepEqual(await login("asha@shop.example", "wrong"), {
      status: 401,
      body: { error: "unauthenticated", detail: "wrong e-mail or password" }
    })
    const res = await call("POST", "/notifications/sms", { body: { phone: "+255712345678", text: "hi" } })
    assert.deepEqual(res, { status: 401, body: { error: "unauthenticated", detail: "log in first" } })
    assert.equal((await call("GET", "/credits", { token: "forged" })).status, 401)
    assert.equal((await credits(await tokenOf("asha@shop.example", "correct horse"))).total, 5)
  })
})

describe("send and balance through Tuma's use cases", () => {
  it("sends one SMS and charges the user's organisation, not another", async () => {
    const asha = await tokenOf("asha@shop.example", "correct horse")
    const juma = await tokenOf("juma@farm.example", "battery staple")
    const before = await credits(asha)
    const res = await call("POST", "/notifications/sms", {
      token: asha,
      body: { phone: "+255 712 345 678", text: "Your order 1234 is ready" }
    })
    assert.equal(res.status, 201)
    assert.equal(res.body.status, "queued")
    assert.equal(res.body.units, 1)
    assert.equal(res.body.encoding, "GSM-7")
    assert.match(res.body.id, /^[0-9a-f-]{36}$/)
    assert.deepEqual(await credits(asha), { total: before.total - 1, countries: { TZ: before.countries.TZ - 1 } })
    assert.deepEqual(await credits(juma), { total: 1, countries: { TZ: 1 } })
  })

  it("maps ValidationFailed to 400 invalid_request with Tuma's field errors, charging nothing", async () => {
    const asha = await tokenOf("asha@shop.example", "correct horse")
    const before = await credits(asha)
    const res = await call("POST", "/notifications/sms", { token: asha, body: { phone: "12", text: "hello" } })
    assert.equal(res.status, 400)
    assert.equal(res.body.error, "invalid_request")
    assert.deepEqual(Object.keys(res.body.fields), ["recipient"])
    assert.deepEqual(await credits(asha), before)
  })

  it("maps InsufficientBalance to 402 out_of_credit with the figures, charging nothing", async () => {
    const juma = await tokenOf("juma@farm.example", "battery staple")
    const long = "Mavuno ya wiki hii: ".padEnd(200, "x") // 2 GSM-7 parts, the wallet holds 1 unit
    const res = await call("POST", "/notifications/sms", { token: juma, body: { phone: "+255713000001", text: long } })
    assert.equal(res.status, 402)
    assert.equal(res.body.error, "out_of_credit")
    assert.equal(res.body.needed, 2)
    assert.equal(res.body.available, 1)
    assert.deepEqual(await credits(juma), { total: 1, countries: { TZ: 1 } })
  })

  it("maps RecipientOptedOut to 409 recipient_opted_out", async () => {
    await tuma.runPromise(Effect.flatMap(Operator, (o) => o.addOptOut(shopAccountId, "+255714000009", "STOP")))
    const asha = await tokenOf("asha@shop.example", "correct horse")
    const before = await credits(asha)
    const res = await call("POST", "/notifications/sms", {
      token: asha,
      body: { phone: "+255714000009", text: "Sale!" }
    })
    assert.equal(res.status, 409)
    assert.equal(res.body.error, "recipient_opted_out")
    assert.deepEqual(await credits(asha), before)
  })

  it("answers malformed JSON in its own error format", async () => {
    const asha = await tokenOf("asha@shop.example", "correct horse")
    const res = await fetch(`${base}/notifications/sms`, {
      method: "POST",
      headers: { authorization: `Bearer ${asha}`, "content-type": "application/json" },
      body: "{not json"
    })
    assert.equal(res.status, 400)
    assert.equal((await res.json() as any).error, "bad_request")
  })
})
