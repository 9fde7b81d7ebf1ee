/**
 * The single send beside the router (`FastSend.ts`, issue 12) answers exactly as the router does:
 * two servers, one with the fast path and one without (`fastSend: false`), each given the same
 * requests — successes, replays, every failure the envelope, authentication, the schemas and the
 * send can answer — must give the same status, the same body (ids and times aside) and the same
 * headers. Requests the fast path must not take (other types, chunked or oversized bodies) are
 * left to the router, and while the fast path is on it really serves the rest (its count moves).
 */
import { Effect } from "effect"
import { request as httpRequest } from "node:http"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { InFlight } from "../src/Server.js"
import { FastSendSlot } from "../src/sms/FastSend.js"
import type { Answer, TestServer } from "./harness.js"
import { call, setupAccount, startServer } from "./harness.js"

interface Side {
  readonly server: TestServer
  readonly live: string
  readonly sandbox: string
  readonly readOnly: string
  readonly poor: string
  readonly limited: string
}

/** Requests per key per minute: more than any key but `limited` is given. */
const LIMIT = 40

let fast: Side
let slow: Side

const side = async (fastSend: boolean): Promise<Side> => {
  const server = await startServer({
    fastSend,
    maxBodyBytes: 4096,
    rateLimit: { limit: LIMIT, windowMillis: 60_000, duplicateLimit: 2 }
  })
  const a = await server.run(setupAccount({ balances: { TZ: 1000 } }))
  const b = await server.run(setupAccount({ scopes: ["sms:read"] }))
  const c = await server.run(setupAccount({ balances: { TZ: 1 } }))
  const d = await server.run(setupAccount())
  return { server, live: a.live, sandbox: a.sandbox, readOnly: b.live, poor: c.live, limited: d.sandbox }
}

beforeAll(async () => {
  ;[fast, slow] = await Promise.all([side(true), side(false)])
}, 60_000)
afterAll(() => Promise.all([fast?.server.close(), slow?.server.close()]))

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/

/** The answer with what differs between two servers (ids, times) replaced by placeholders. */
const normal = (answer: Answer) => {
  const scrub = (v: unknown): unknown =>
    typeof v === "string"
      ? (UUID.test(v) ? "<uuid>" : TIME.test(v) ? "<time>" : v)
      : Array.isArray(v)
      ? v.map(scrub)
      : typeof v === "object" && v !== null
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrub(x)]))
      : v
  const headers = [...answer.headers.entries()]
    .filter(([name]) => name !== "date" && name !== "x-request-id")
    // seconds counted down from a window: the two servers' answers may fall either side of a second
    .map(([name, value]) => [name, name === "x-ratelimit-reset" || name === "retry-after" ? "<seconds>" : value])
  return {
    status: answer.status,
    // the key order too: clients that print or hash answers see the same text
    text: answer.body === undefined ? answer.text : JSON.stringify(scrub(answer.body)),
    headers: headers.sort(([a], [b]) => a.localeCompare(b)),
    requestIdHeader: answer.headers.get("x-request-id") === (answer.body?.request_uid ?? null)
  }
}

type Key = "live" | "sandbox" | "readOnly" | "poor" | "limited" | "none"

const both = async (
  path: string,
  options: { key?: Key; body?: unknown; raw?: string; headers?: Record<string, string> }
) => {
  const send = (s: Side) =>
    call(s.server, "POST", path, {
      ...(options.key === undefined || options.key === "none" ? {} : { key: s[options.key] }),
      ...(options.body !== undefined ? { body: options.body } : {}),
      ...(options.raw !== undefined ? { raw: options.raw } : {}),
      headers: { ...(options.raw !== undefined ? { "content-type": "application/json" } : {}), ...options.headers }
    })
  const before = fast.server.run(Effect.map(FastSendSlot, (s) => s.claimed))
  const f = await send(fast)
  const s = await send(slow)
  const claimed = (await fast.server.run(Effect.map(FastSendSlot, (x) => x.claimed))) - (await before)
  return { fast: f, slow: s, claimed }
}

const ok = { recipient: "+255712345678", sender_id: "TUMA", body: "Habari yako" }

describe("the single send beside the router answers as the router does", () => {
  const cases: ReadonlyArray<readonly [string, string, Parameters<typeof both>[1]]> = [
    ["an accepted send", "/v1/sms/messages", { key: "live", body: ok }],
    ["the alias", "/v1/sms/quick-message", { key: "live", body: { ...ok, body: "Alias send" } }],
    ["a query string", "/v1/sms/messages?x=1", { key: "live", body: { ...ok, body: "With a query" } }],
    ["unknown fields ignored (decisions §25)", "/v1/sms/messages", {
      key: "live",
      body: { ...ok, body: "Extra fields", reference: "abc", nested: { a: [1] } }
    }],
    ["a conversion notice", "/v1/sms/messages", { key: "live", body: { ...ok, body: "Smart “quotes” – dash…" } }],
    ["a sandbox key", "/v1/sms/messages", { key: "sandbox", body: ok }],
    ["no key", "/v1/sms/messages", { key: "none", body: ok }],
    ["a placeholder key", "/v1/sms/messages", {
      body: ok,
      headers: { authorization: "Bearer tuma_live_xxxxxxxxxxxxxxxx" }
    }],
    ["a malformed key", "/v1/sms/messages", { body: ok, headers: { authorization: "Bearer nope" } }],
    ["an unknown key", "/v1/sms/messages", {
      body: ok,
      headers: { authorization: "Bearer tuma_live_AAAAAAAAAAAAAAAAAAAAAAAA" }
    }],
    ["a key without sms:send", "/v1/sms/messages", { key: "readOnly", body: ok }],
    ["authentication before the body: no key and bad JSON", "/v1/sms/messages", { key: "none", raw: "{nope" }],
    ["malformed JSON", "/v1/sms/messages", { key: "live", raw: "{\"recipient\": " }],
    ["JSON nested too deep", "/v1/sms/messages", { key: "live", raw: "[".repeat(80) + "]".repeat(80) }],
    ["an empty body", "/v1/sms/messages", { key: "live", raw: "" }],
    ["a JSON array", "/v1/sms/messages", { key: "live", raw: "[1,2]" }],
    ["missing fields", "/v1/sms/messages", { key: "live", body: { recipient: "+255712345678" } }],
    ["wrong types", "/v1/sms/messages", { key: "live", body: { recipient: 5, sender_id: null, body: true } }],
    ["an invalid recipient", "/v1/sms/messages", { key: "live", body: { ...ok, recipient: "12" } }],
    ["a bad Idempotency-Key header", "/v1/sms/messages", {
      key: "live",
      body: ok,
      headers: { "idempotency-key": "has space" }
    }],
    ["a sender ID not granted", "/v1/sms/messages", { key: "live", body: { ...ok, sender_id: "OTHER" } }],
    ["a closed market", "/v1/sms/messages", { key: "live", body: { ...ok, recipient: "+14155550100" } }],
    ["insufficient balance", "/v1/sms/messages", { key: "poor", body: { ...ok, body: "x".repeat(400) } }]
  ]
  for (const [name, path, options] of cases) {
    it(name, async () => {
      const { claimed, fast: f, slow: s } = await both(path, options)
      expect(normal(f)).toEqual(normal(s))
      expect(f.headers.get("x-request-id")).toMatch(UUID)
      expect(claimed).toBe(1)
    })
  }

  it("an idempotent replay and a reused key", async () => {
    const headers = { "idempotency-key": "fast-path-1" }
    const first = await both("/v1/sms/messages", { key: "live", body: { ...ok, body: "Once" }, headers })
    const again = await both("/v1/sms/messages", { key: "live", body: { ...ok, body: "Once" }, headers })
    const other = await both("/v1/sms/messages", { key: "live", body: { ...ok, body: "Other" }, headers })
    expect(first.fast.status).toBe(202)
    expect(again.fast.body.idempotent_replay).toBe(true)
    expect(again.fast.body.data.uid).toBe(first.fast.body.data.uid)
    expect(other.fast.status).toBe(409)
    for (const x of [first, again, other]) expect(normal(x.fast)).toEqual(normal(x.slow))
  })

  it("the duplicate-content limit (decisions §7)", async () => {
    const body = { ...ok, body: "The same text every time" }
    const answers = []
    for (let i = 0; i < 3; i++) answers.push(await both("/v1/sms/messages", { key: "sandbox", body }))
    expect(answers.map((a) => a.fast.status)).toEqual([202, 202, 429])
    expect(answers[2].fast.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/)
    for (const x of answers) expect(normal(x.fast)).toEqual(normal(x.slow))
  })

  it("the per-key rate limit answers 429 with its headers", async () => {
    const answers = []
    for (let i = 0; i < LIMIT + 2; i++) {
      answers.push(await both("/v1/sms/messages", { key: "limited", body: { ...ok, body: `limit ${i}` } }))
    }
    const limited = answers.filter((a) => a.fast.status === 429)
    expect(limited.length).toBe(2)
    expect(limited[0].fast.headers.get("retry-after")).not.toBeNull()
    for (const x of answers) expect(normal(x.fast)).toEqual(normal(x.slow))
  })
})

describe("requests left to the router", () => {
  const left: ReadonlyArray<readonly [string, string, Parameters<typeof both>[1]]> = [
    ["another content type (415)", "/v1/sms/messages", {
      key: "live",
      raw: "x",
      headers: { "content-type": "text/plain" }
    }],
    ["a body over the limit (413)", "/v1/sms/messages", { key: "live", body: { ...ok, body: "y".repeat(5000) } }],
    ["a bulk send", "/v2/sms/send-bulk", { key: "live", body: { recipients: [] } }],
    ["a trailing slash", "/v1/sms/messages/", { key: "live", body: { ...ok, body: "Trailing slash" } }]
  ]
  for (const [name, path, options] of left) {
    it(name, async () => {
      const { claimed, fast: f, slow: s } = await both(path, options)
      expect(claimed).toBe(0)
      expect(normal(f)).toEqual(normal(s))
    })
  }

  it("a chunked body (no Content-Length)", async () => {
    const before = await fast.server.run(Effect.map(FastSendSlot, (s) => s.claimed))
    const url = new URL(fast.server.url + "/v1/sms/messages")
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { authorization: `Bearer ${fast.live}`, "content-type": "application/json" }
      }, (res) => {
        res.resume()
        res.on("end", () => resolve(res.statusCode ?? 0))
      })
      req.on("error", reject)
      req.write(JSON.stringify({ ...ok, body: "Chunked" }).slice(0, 20))
      req.end(JSON.stringify({ ...ok, body: "Chunked" }).slice(20))
    })
    expect(status).toBe(202)
    expect(await fast.server.run(Effect.map(FastSendSlot, (s) => s.claimed))).toBe(before)
  })
})

describe("a client that goes away", () => {
  const claimedNow = () => fast.server.run(Effect.map(FastSendSlot, (s) => s.claimed))

  /** Sends the head of a send and `bodyBytes` of its 60-byte body on a raw socket, then closes it. */
  const abandon = async (bodyBytes: number) => {
    const url = new URL(fast.server.url)
    const body = JSON.stringify({ ...ok, body: "Abandoned send 0123456789" }).padEnd(60, " ")
    const socket = connect(Number(url.port), url.hostname)
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
    socket.write(
      `POST /v1/sms/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${fast.live}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` + body.slice(0, bodyBytes)
    )
    await new Promise((resolve) => setTimeout(resolve, 100))
    socket.destroy()
    await new Promise((resolve) => setTimeout(resolve, 300))
  }

  it("before its body arrived: claimed, and no longer counted in flight", async () => {
    const [before, inFlight] = [await claimedNow(), InFlight.count]
    await abandon(10)
    expect(await claimedNow()).toBe(before + 1)
    expect(InFlight.count).toBe(inFlight)
  })

  it("after its body arrived: no longer counted in flight, and the server answers the next client", async () => {
    const inFlight = InFlight.count
    await abandon(60)
    expect(InFlight.count).toBe(inFlight)
    const next = await call(fast.server, "POST", "/v1/sms/messages", { key: fast.live, body: { ...ok, body: "After" } })
    expect(next.status).toBe(202)
  })
})
