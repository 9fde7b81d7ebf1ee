/**
 * The envelope on every answer (decisions §3–5, spec §7): request ids, 400/404/405/413/415/422,
 * health, docs and the OpenAPI document — over a real socket.
 */
import { Validator } from "@seriousme/openapi-schema-validator"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, setupAccount, startServer } from "./harness.js"

let server: TestServer
let live: string

beforeAll(async () => {
  server = await startServer({ maxBodyBytes: 64 * 1024 })
  ;({ live } = await server.run(setupAccount()))
})
afterAll(() => server.close())

const expectEnvelopeFailure = (
  answer: { status: number; headers: Headers; body: any; text: string },
  status: number
) => {
  expect(answer.status).toBe(status)
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/)
  expect(answer.body.success).toBe(false)
  expect(typeof answer.body.message).toBe("string")
  expect(answer.body.message.length).toBeGreaterThan(0)
  expect(answer.body.request_uid).toMatch(/^[0-9a-f-]{36}$/)
  expect(answer.headers.get("x-request-id")).toBe(answer.body.request_uid)
}

describe("request ids", () => {
  it("every answer carries request_uid equal to X-Request-Id, unique per request", async () => {
    const a = await call(server, "GET", "/healthz")
    const b = await call(server, "GET", "/healthz")
    expect(a.status).toBe(200)
    expect(a.body.success).toBe(true)
    expect(a.body.request_uid).toBe(a.headers.get("x-request-id"))
    expect(b.body.request_uid).not.toBe(a.body.request_uid)
  })

  it("readyz answers when the store answers", async () => {
    const a = await call(server, "GET", "/readyz")
    expect(a.status).toBe(200)
    expect(a.body.data.status).toBe("ready")
  })
})

describe("failures are always the JSON envelope", () => {
  it("404 for an unknown route", async () => {
    const a = await call(server, "GET", "/v1/nothing-here")
    expectEnvelopeFailure(a, 404)
  })

  it("405 with Allow for a known path with the wrong method", async () => {
    const a = await call(server, "DELETE", "/v1/sms/messages", { key: live })
    expectEnvelopeFailure(a, 405)
    expect(a.headers.get("allow")).toContain("GET")
    expect(a.headers.get("allow")).toContain("POST")
    const b = await call(server, "PUT", "/v1/balance", { key: live, body: {} })
    expectEnvelopeFailure(b, 405)
    expect(b.headers.get("allow")).toBe("GET")
  })

  it("400 for a body that claims to be JSON but cannot be parsed; nothing is read", async () => {
    const a = await call(server, "POST", "/v1/sms/messages", {
      key: live,
      raw: "{\"recipient\": \"+255712345678\",",
      headers: { "content-type": "application/json" }
    })
    expectEnvelopeFailure(a, 400)
    expect(a.body.acceptance_state).toBe("DEFINITELY_NOT_ACCEPTED")
  })

  it("413 for a body over the limit", async () => {
    const a = await call(server, "POST", "/v1/sms/messages", {
      key: live,
      raw: JSON.stringify({ recipient: "+255712345678", sender_id: "TUMA", body: "x".repeat(100 * 1024) }),
      headers: { "content-type": "application/json" }
    })
    expectEnvelopeFailure(a, 413)
  })

  it("415 for a body that is not JSON", async () => {
    const a = await call(server, "POST", "/v1/sms/messages", {
      key: live,
      raw: "recipient=%2B255712345678",
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
    expectEnvelopeFailure(a, 415)
    const b = await call(server, "POST", "/v1/sms/messages", {
      key: live,
      raw: "hello",
      headers: { "content-type": "text/plain" }
    })
    expectEnvelopeFailure(b, 415)
  })

  it("422 lists every invalid field by path, not only the first", async () => {
    const a = await call(server, "POST", "/v1/sms/messages", {
      key: live,
      body: { recipient: "not a number", sender_id: "X".repeat(40), bodi: "misspelt" }
    })
    expectEnvelopeFailure(a, 422)
    expect(a.body.error_code).toBe("VALIDATION_FAILED")
    expect(a.body.acceptance_state).toBe("DEFINITELY_NOT_ACCEPTED")
    expect(Object.keys(a.body.errors).sort()).toEqual(["body", "recipient", "sender_id"])
    for (const messages of Object.values(a.body.errors)) {
      expect(Array.isArray(messages)).toBe(true)
      expect((messages as Array<string>).length).toBeGreaterThan(0)
    }
  })

  it("422 paths inside arrays read recipients.N and recipients.N.to", async () => {
    const a = await call(server, "POST", "/v2/sms/send-bulk", {
      key: live,
      body: {
        recipients: ["+255712345678", "abc", { to: "xyz", name: "A" }, 42],
        message: "Hi {name}",
        sender_id: "TUMA"
      }
    })
    expectEnvelopeFailure(a, 422)
    expect(a.body.errors).toHaveProperty(["recipients.1"])
    expect(a.body.errors).toHaveProperty(["recipients.2.to"])
    expect(a.body.errors).toHaveProperty(["recipients.3"])
  })

  it("unknown fields are ignored (decisions §25)", async () => {
    const a = await call(server, "POST", "/v1/sms/messages", {
      key: live,
      body: { recipient: "+255712345678", sender_id: "TUMA", body: "Hello", reference: "abc-1", extra: { a: 1 } }
    })
    expect(a.status).toBe(202)
  })
})

describe("documentation", () => {
  it("/openapi.json describes the envelope and errors", async () => {
    const a = await call(server, "GET", "/openapi.json")
    expect(a.status).toBe(200)
    expect(a.headers.get("x-request-id")).toBeTruthy()
    const spec = a.body
    expect(spec.openapi).toBe("3.1.0")
    const send = spec.paths["/v1/sms/messages"].post
    expect(Object.keys(send.responses)).toEqual(expect.arrayContaining(["202", "400", "401", "409", "422", "429"]))
    expect(JSON.stringify(spec.components.schemas.Unprocessable)).toContain("request_uid")
    expect(JSON.stringify(spec)).not.toContain("HttpApiDecodeError")
  })

  it("/openapi.json is a valid OpenAPI 3.1 document (third-party validator)", async () => {
    const a = await call(server, "GET", "/openapi.json")
    const validator = new Validator()
    const result = await validator.validate(a.body)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe("3.1")
  })

  it("every documented failure is the envelope (success, request_uid, message)", async () => {
    const spec = (await call(server, "GET", "/openapi.json")).body
    const resolve = (schema: any): any =>
      schema.$ref !== undefined ? resolve(spec.components.schemas[schema.$ref.split("/").pop()]) : schema
    let checked = 0
    for (const [path, methods] of Object.entries<any>(spec.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        for (const [status, response] of Object.entries<any>(op.responses)) {
          if (Number(status) < 400) continue
          const schema = resolve(response.content["application/json"].schema)
          const members = schema.anyOf ?? [schema]
          for (const m of members.map(resolve)) {
            expect(m.required, `${method} ${path} ${status}`).toEqual(
              expect.arrayContaining(["success", "request_uid", "message"])
            )
            checked++
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(50)
  })

  it("/docs serves the interactive documentation", async () => {
    const a = await call(server, "GET", "/docs")
    expect(a.status).toBe(200)
    expect(a.headers.get("content-type")).toMatch(/text\/html/)
    expect(a.text).toContain("openapi")
    // the page is built on the first request (Docs.ts): Scalar's inline bundle and the API's spec
    expect(a.text).toContain(`<script id="api-reference" type="application/json">`)
    expect(a.text).toContain("@scalar/api-reference")
    expect(a.text.length).toBeGreaterThan(1_000_000)
    const again = await call(server, "GET", "/docs")
    expect(again.text).toBe(a.text)
  })
})
