/**
 * Hostile input at the HTTP edge (issue 9, items 7, 8 and 12), over a real socket: deeply nested
 * JSON is refused with 400 before it is parsed, multipart without a boundary is 400, paths under
 * `/admin/v1` check the operator token before anything else, providers of unknown kind are 422,
 * webhook URLs to private destinations (any spelling) are 422 at registration (item 11).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Answer, TestServer } from "./harness.js"
import { call, setupAccount, startServer, startServerOnPostgres, testDatabaseUrl, unique } from "./harness.js"

const ADMIN = "hostile-admin-secret"
let server: TestServer
let live: string

beforeAll(async () => {
  server = await startServer({ adminToken: ADMIN })
  ;({ live } = await server.run(setupAccount()))
})
afterAll(() => server.close())

const expectEnvelope = (a: Answer, status: number) => {
  expect(a.status).toBe(status)
  expect(a.body.success).toBe(false)
  expect(a.body.request_uid).toBe(a.headers.get("x-request-id"))
}

const messageCount = () =>
  server.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM messages`))
    .then((rows) => rows[0].n)

describe("deeply nested JSON (item 7)", () => {
  const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels)

  it("3,000 levels (6 KB) answer 400 MALFORMED_JSON on a send, nothing is sent", async () => {
    const before = await messageCount()
    const a = await call(server, "POST", "/v1/sms/messages", {
      key: live,
      raw: deep(3000),
      headers: { "content-type": "application/json" }
    })
    expectEnvelope(a, 400)
    expect(a.body.error_code).toBe("MALFORMED_JSON")
    expect(a.body.acceptance_state).toBe("DEFINITELY_NOT_ACCEPTED")
    expect(a.body.message).toMatch(/nested deeper than 64 levels/)
    expect(await messageCount()).toBe(before)
  })

  it("deep values inside an object, on every JSON endpoint (bulk, sender IDs, admin)", async () => {
    const raw = `{"recipient":"+255712000001","sender_id":"TUMA","body":${deep(3000)}}`
    for (const [path, key] of [["/v2/sms/send-bulk", live], ["/v1/sender-ids", live]] as const) {
      const a = await call(server, "POST", path, { key, raw, headers: { "content-type": "application/json" } })
      expectEnvelope(a, 400)
      expect(a.body.message).toMatch(/nested deeper/)
    }
    const admin = await call(server, "POST", "/admin/v1/accounts", {
      raw: `{"name":${deep(500)}}`,
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` }
    })
    expectEnvelope(admin, 400)
  })

  it("no content-type (read as JSON) is guarded too", async () => {
    const a = await call(server, "POST", "/v1/sms/messages", { key: live, raw: new TextEncoder().encode(deep(3000)) })
    expectEnvelope(a, 400)
  })

  it("brackets inside strings do not count; 64 levels are still decoded (422 by field)", async () => {
    const a = await call(server, "POST", "/v1/sms/messages", {
      key: live,
      body: { recipient: "+255712000001", sender_id: "TUMA", body: "{[".repeat(100) }
    })
    expect(a.status, a.text).toBe(202)
    const b = await call(server, "POST", "/v1/sms/messages", {
      key: live,
      raw: `{"recipient":"+255712000001","sender_id":"TUMA","body":${deep(63)}}`,
      headers: { "content-type": "application/json" }
    })
    expectEnvelope(b, 422)
    expect(Object.keys(b.body.errors)).toEqual(["body"])
  })

  it("authentication still comes first: no key, deep body → 401", async () => {
    const a = await call(server, "POST", "/v1/sms/messages", {
      raw: deep(3000),
      headers: { "content-type": "application/json" }
    })
    expectEnvelope(a, 401)
  })
})

describe("multipart without a boundary (item 8)", () => {
  it("answers 400 with a clear message, before reading the body", async () => {
    for (const ct of ["multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; charset=utf-8"]) {
      const a = await call(server, "POST", "/v1/sender-ids", {
        key: live,
        raw: "--x\r\ncontent-disposition: form-data; name=\"sender_id\"\r\n\r\nACME\r\n--x--\r\n",
        headers: { "content-type": ct }
      })
      expectEnvelope(a, 400)
      expect(a.body.message).toMatch(/boundary/)
    }
  })

  it("a proper multipart body still reaches the handler (422 by field, not 400)", async () => {
    const form = new FormData()
    form.append("sender_id", "ACME")
    const a = await call(server, "POST", "/v1/sender-ids", { key: live, raw: form })
    expect(a.status).not.toBe(400)
    expect(a.status).not.toBe(500)
  })
})

describe("/admin/v1: the token before anything else (item 12)", () => {
  it("unknown paths answer 401 without a token or with a wrong one, 404 with the right one", async () => {
    for (const path of ["/admin/v1/nothing", "/admin/v1", "/admin/v1/accounts/x/y/z"]) {
      const none = await call(server, "GET", path)
      expectEnvelope(none, 401)
      const wrong = await call(server, "GET", path, { headers: { authorization: "Bearer wrong" } })
      expectEnvelope(wrong, 401)
      const right = await call(server, "GET", path, { headers: { authorization: `Bearer ${ADMIN}` } })
      expectEnvelope(right, 404)
    }
  })

  it("a known admin path with a wrong method answers 401 without a token, 405 with it", async () => {
    expectEnvelope(await call(server, "DELETE", "/admin/v1/markets"), 401)
    const right = await call(server, "DELETE", "/admin/v1/markets", { headers: { authorization: `Bearer ${ADMIN}` } })
    expectEnvelope(right, 405)
  })

  it("bad payloads on admin endpoints answer 401 without a token (not 422)", async () => {
    expectEnvelope(await call(server, "POST", "/admin/v1/providers", { body: { name: 5 } }), 401)
  })

  it("a provider of unknown kind is refused with 422 by field path and not stored", async () => {
    const name = unique("p")
    const a = await call(server, "POST", "/admin/v1/providers", {
      body: { name, kind: "carrier-pigeon" },
      headers: { authorization: `Bearer ${ADMIN}` }
    })
    expectEnvelope(a, 422)
    expect(a.body.errors.kind[0]).toMatch(/simulated or smpp/)
    const list = await call(server, "GET", "/admin/v1/providers", { headers: { authorization: `Bearer ${ADMIN}` } })
    expect(list.body.data.map((p: any) => p.name)).not.toContain(name)
    for (const kind of ["simulated", "smpp"]) {
      const ok = await call(server, "POST", "/admin/v1/providers", {
        // an smpp carrier must say where it is and how to bind (a carrier Tuma could not start is refused)
        body: {
          name: unique("p"),
          kind,
          enabled: false,
          ...(kind === "smpp" ? { config: { host: "smsc.example", port: 2775, system_id: "t", password: "p" } } : {})
        },
        headers: { authorization: `Bearer ${ADMIN}` }
      })
      expect(ok.status).toBe(201)
    }
  })
})

describe("webhook URLs to private destinations are refused at registration (item 11)", () => {
  const refusedUrls = [
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.5/hook",
    "http://[fd00:ec2::254]/hook",
    "http://100.100.100.200/hook",
    "http://2130706433/hook",
    "http://0x7f000001/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://127.0.0.1:9000/hook",
    "http://localhost:9000/hook",
    "http://0177.0.0.1/hook"
  ]
  const drivers: Array<readonly [string, () => Promise<TestServer>]> = [
    ["PGlite", () => startServer({ adminToken: ADMIN })]
  ]
  if (testDatabaseUrl !== undefined) {
    drivers.push(["PostgreSQL", () => startServerOnPostgres({ adminToken: ADMIN })])
  }
  const adminCall = (s: TestServer, method: string, path: string, body?: unknown) =>
    call(s, method, `/admin/v1${path}`, {
      headers: { authorization: `Bearer ${ADMIN}` },
      ...(body !== undefined ? { body } : {})
    })

  for (const [driver, start] of drivers) {
    it(`422 by field url for every private spelling, nothing stored; public hosts pass (${driver})`, async () => {
      const s = await start()
      try {
        const { liveId } = await s.run(setupAccount())
        for (const url of refusedUrls) {
          const a = await adminCall(s, "POST", "/webhooks", { api_key_uid: liveId, url })
          expectEnvelope(a, 422)
          expect(a.body.error_code, url).toBe("INVALID_WEBHOOK_URL")
          expect(a.body.errors.url[0], url).toMatch(/refused/)
        }
        // a per-endpoint exemption no longer exists: the old flag is ignored like any unknown field
        const flagged = await adminCall(s, "POST", "/webhooks", {
          api_key_uid: liveId,
          url: "http://127.0.0.1:9000/hook",
          allow_private: true
        })
        expectEnvelope(flagged, 422)
        expect((await adminCall(s, "GET", `/webhooks?api_key_uid=${liveId}`)).body.data).toEqual([])
        const ok = await adminCall(s, "POST", "/webhooks", { api_key_uid: liveId, url: "https://93.184.215.14/hook" })
        expect(ok.status).toBe(201)
        expect(ok.body.data.endpoint).not.toHaveProperty("allow_private")
      } finally {
        await s.close()
      }
    })
  }

  it("only the operator allow-list (TUMA_WEBHOOK_ALLOW) permits private destinations", async () => {
    process.env.TUMA_WEBHOOK_ALLOW = "127.0.0.0/8, 10.0.0.0/8"
    const s = await startServer({ adminToken: ADMIN }).finally(() => delete process.env.TUMA_WEBHOOK_ALLOW)
    try {
      const { liveId } = await s.run(setupAccount())
      for (const url of ["http://10.0.0.5/hook", "http://2130706433/hook", "http://[::ffff:127.0.0.1]/hook"]) {
        const a = await adminCall(s, "POST", "/webhooks", { api_key_uid: liveId, url })
        expect(a.status, url).toBe(201)
      }
      // not on the list: still refused
      const metadata = await adminCall(s, "POST", "/webhooks", { api_key_uid: liveId, url: "http://169.254.169.254/" })
      expectEnvelope(metadata, 422)
    } finally {
      await s.close()
    }
  })
})
