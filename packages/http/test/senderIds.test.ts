/**
 * Sender-ID requests over a real socket (spec §4.9, §7; decisions §17–18): JSON with base64
 * documents and multipart with file parts, formats by content, the size ceiling of the
 * requirement, the 409/422 codes, sandbox, and the operator moves through the admin API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, expectFirstFieldErrorMessage, setupAccount, startServer, unique } from "./harness.js"

const ADMIN = "admin-secret-for-tests"
const SAMPLE = "Your order 1234 has shipped and will arrive tomorrow. Thank you for shopping!"
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n")
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)])

let server: TestServer
let acct: any
let requirement: any

const admin = (method: string, path: string, body?: unknown) =>
  call(server, method, `/admin/v1${path}`, {
    headers: { authorization: `Bearer ${ADMIN}` },
    ...(body !== undefined ? { body } : {})
  })

const name = () => `S${unique("").slice(-8).toUpperCase()}`

beforeAll(async () => {
  server = await startServer({ adminToken: ADMIN })
  acct = await server.run(setupAccount({ balances: { TZ: 1000 } }))
  const r = await admin("POST", "/requirements", {
    name: "Certificate of incorporation",
    is_required: true,
    accepted_formats: ["pdf", "png"],
    max_size_kb: 1,
    country: "TZ"
  })
  expect(r.status).toBe(201)
  requirement = r.body.data
})
afterAll(() => server.close())

const jsonRequest = (overrides: Record<string, unknown> = {}) => ({
  sender_id: name(),
  sample_message: SAMPLE,
  purpose: "Transactional",
  documents_base64: [{
    requirement_uid: requirement.uid,
    filename: "incorporation.pdf",
    content_base64: PDF.toString("base64")
  }],
  ...overrides
})

describe("JSON with base64 documents", () => {
  it("201 with the pending record and message, on both paths", async () => {
    for (const path of ["/v1/sender-ids", "/v1/sms/sender-ids"]) {
      const body = jsonRequest()
      const r = await call(server, "POST", path, { key: acct.live, body })
      expect(r.status).toBe(201)
      expect(r.body.success).toBe(true)
      expect(typeof r.body.message).toBe("string")
      expect(r.body.data).toMatchObject({ sender_id: body.sender_id, status: "pending", is_usable: false })
      expect(r.body.data.submitted_document_uids).toHaveLength(1)
    }
  })

  it("409 sender_id_already_requested for the same name again", async () => {
    const body = jsonRequest()
    expect((await call(server, "POST", "/v1/sender-ids", { key: acct.live, body })).status).toBe(201)
    const again = await call(server, "POST", "/v1/sender-ids", {
      key: acct.live,
      body: jsonRequest({ sender_id: body.sender_id })
    })
    expect(again.status).toBe(409)
    expect(again.body.error).toBe("sender_id_already_requested")
  })

  it("a document whose content is not an accepted format is a 422 on its content path", async () => {
    const r = await call(server, "POST", "/v1/sender-ids", {
      key: acct.live,
      body: jsonRequest({
        documents_base64: [{
          requirement_uid: requirement.uid,
          filename: "incorporation.pdf",
          content_base64: Buffer.from("GIF89a not a pdf").toString("base64")
        }]
      })
    })
    expect(r.status).toBe(422)
    expect(Object.keys(r.body.errors)).toContain("documents_base64.0.content_base64")
    expectFirstFieldErrorMessage(r)
  })

  it("a document over the requirement's max_size_kb is a 422", async () => {
    const big = Buffer.concat([PDF, Buffer.alloc(2048, 0x20)])
    const r = await call(server, "POST", "/v1/sender-ids", {
      key: acct.live,
      body: jsonRequest({
        documents_base64: [{
          requirement_uid: requirement.uid,
          filename: "big.pdf",
          content_base64: big.toString("base64")
        }]
      })
    })
    expect(r.status).toBe(422)
    expect(JSON.stringify(r.body.errors)).toMatch(/kilobytes/)
  })

  it("a missing required document, an invalid name and a short sample are all reported at once", async () => {
    const r = await call(server, "POST", "/v1/sender-ids", {
      key: acct.live,
      body: { sender_id: "A!", sample_message: "short", purpose: "Nope" }
    })
    expect(r.status).toBe(422)
    expect(Object.keys(r.body.errors).sort()).toEqual(
      expect.arrayContaining(["purpose", "sample_message", "sender_id"])
    )
    expectFirstFieldErrorMessage(r)
  })

  it("422 sender_id_not_eligible when too few credits were purchased", async () => {
    const poor = await server.run(setupAccount({ balances: { TZ: 10 } }))
    const r = await call(server, "POST", "/v1/sender-ids", { key: poor.live, body: jsonRequest() })
    expect(r.status).toBe(422)
    expect(r.body.error).toBe("sender_id_not_eligible")
  })

  it("422 route_not_verified and country_not_available (spec §7 structured cases)", async () => {
    // KE is closed: country_not_available
    const ke = "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c02"
    const closed = await call(server, "POST", "/v1/sender-ids", {
      key: acct.live,
      body: jsonRequest({ country_uid: ke })
    })
    expect(closed.status).toBe(422)
    expect(closed.body.error).toBe("country_not_available")
    // an eligible account without a verified TZ route: route_not_verified
    const noRoute = await server.run(setupAccount({ balances: { TZ: 1000 }, routes: [], sender: null }))
    const r = await call(server, "POST", "/v1/sender-ids", { key: noRoute.live, body: jsonRequest() })
    expect(r.status).toBe(422)
    expect(r.body.error).toBe("route_not_verified")
  })

  it("sandbox validates like live and answers a record that is not stored", async () => {
    const body = jsonRequest()
    const r = await call(server, "POST", "/v1/sender-ids", { key: acct.sandbox, body })
    expect(r.status).toBe(201)
    expect(r.body.mode).toBe("sandbox")
    const list = await call(server, "GET", "/v1/sender-ids", { key: acct.live })
    expect(list.body.data.map((s: any) => s.sender_id)).not.toContain(body.sender_id)
    const invalid = await call(server, "POST", "/v1/sender-ids", { key: acct.sandbox, body: { sender_id: "x" } })
    expect(invalid.status).toBe(422)
  })
})

describe("multipart with file parts", () => {
  const form = (fields: Record<string, string>, files: Array<[string, Buffer, string]>) => {
    const fd = new FormData()
    for (const [k, v] of Object.entries(fields)) fd.append(k, v)
    for (const [field, bytes, filename] of files) fd.append(field, new Blob([bytes]), filename)
    return fd
  }

  it("201 with documents[<requirement_uid>] and protection_documents[]", async () => {
    const sender = name()
    const r = await call(server, "POST", "/v1/sender-ids", {
      key: acct.live,
      raw: form(
        { sender_id: sender, sample_message: SAMPLE, purpose: "Notification", protection_requested: "true" },
        [
          [`documents[${requirement.uid}]`, PDF, "incorporation.pdf"],
          ["protection_documents[]", PNG, "trademark.png"]
        ]
      )
    })
    expect(r.status).toBe(201)
    expect(r.body.data.sender_id).toBe(sender)
    expect(r.body.data.submitted_document_uids).toHaveLength(2)
  })

  it("a part whose bytes are not an accepted format is a 422 named in multipart terms", async () => {
    const r = await call(server, "POST", "/v1/sender-ids", {
      key: acct.live,
      raw: form(
        { sender_id: name(), sample_message: SAMPLE, purpose: "Notification" },
        [[`documents[${requirement.uid}]`, Buffer.from("plain text"), "incorporation.pdf"]]
      )
    })
    expect(r.status).toBe(422)
    expect(Object.keys(r.body.errors).join(",")).toContain(requirement.uid)
  })

  it("protection requested without a protection document is refused", async () => {
    const r = await call(server, "POST", "/v1/sender-ids", {
      key: acct.live,
      raw: form(
        { sender_id: name(), sample_message: SAMPLE, purpose: "Notification", protection_requested: "true" },
        [[`documents[${requirement.uid}]`, PDF, "incorporation.pdf"]]
      )
    })
    expect(r.status).toBe(422)
  })
})

describe("operator moves through the admin API (decisions §18)", () => {
  it("approve makes it usable; reject requires a reason; an illegal move is 409", async () => {
    const body = jsonRequest()
    const created = await call(server, "POST", "/v1/sender-ids", { key: acct.live, body })
    const uid = created.body.data.uid
    const noReason = await admin("POST", `/sender-ids/${uid}/reject`, {})
    expect(noReason.status).toBe(422)
    const approved = await admin("POST", `/sender-ids/${uid}/approve`)
    expect(approved.status).toBe(200)
    expect(approved.body.data).toMatchObject({ status: "approved", is_usable: true })
    const illegal = await admin("POST", `/sender-ids/${uid}/reject`, { reason: "late" })
    expect(illegal.status).toBe(409)
    const suspended = await admin("POST", `/sender-ids/${uid}/suspend`, { reason: "abuse" })
    expect(suspended.body.data.status).toBe("suspended")
    const list = await call(server, "GET", "/v1/sender-ids", { key: acct.live })
    expect(list.body.data.find((s: any) => s.uid === uid)).toMatchObject({ status: "suspended", is_usable: false })
  })
})
