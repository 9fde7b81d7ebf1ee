import { describe, expect, it } from "@effect/vitest"
import type { WebhookRequest } from "@tuma/core/ports/Notifiers"
import { buildWebhookBody, verifyWebhookSignature } from "@tuma/domain"
import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { makeHttpWebhookSenderUnsafe, nonPublicReason, parseAllowList, refuseAddress } from "../src/webhook/index.js"

interface Received {
  readonly headers: http.IncomingHttpHeaders
  readonly raw: Buffer
  readonly url: string
}

/** A real receiver on loopback; `respond` decides per request. */
const startReceiver = async (respond: (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void) => {
  const received: Array<Received> = []
  let connections = 0
  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks), url: req.url ?? "" })
      respond(req, res, received.length)
    })
  })
  server.on("connection", () => connections++)
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      })
  }
}

const secret = "whsec_unit"
const { body } = buildWebhookBody({
  messageId: "7a1c2f9e-8e8e-4a57-bb0e-1b2c3d4e5f60",
  to: "+255700000001",
  status: "delivered",
  senderId: "TUMA",
  finalAt: "2025-01-01T00:00:00Z",
  now: "2025-01-01T00:00:01Z"
})
const request = (url: string, extra: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url,
  body,
  secret,
  event: "sms.delivered",
  deliveryId: "dlv_1",
  timeoutMs: 2_000,
  ...extra
})

describe("HttpWebhookSender", () => {
  it.live("posts the exact body with a signature that verifies over the raw bytes, plus event and delivery ids", () =>
    Effect.gen(function*() {
      const rx = yield* Effect.promise(() => startReceiver((_q, s) => s.writeHead(204).end()))
      const sender = makeHttpWebhookSenderUnsafe({ allow: ["127.0.0.1"] })
      const r = yield* sender.send(request(rx.url))
      expect(r).toMatchObject({ outcome: "success", status: 204, error: null })
      expect(r.latencyMs).toBeGreaterThanOrEqual(0)
      const got = rx.received[0]
      expect(got.raw.toString("utf8")).toBe(body)
      expect(got.headers["content-type"]).toBe("application/json")
      expect(verifyWebhookSignature(got.raw, got.headers["x-service-signature"], secret)).toBe(true)
      expect(verifyWebhookSignature(got.raw, got.headers["x-service-signature"], "wrong")).toBe(false)
      expect(got.headers["x-service-event"]).toBe("sms.delivered")
      expect(got.headers["x-service-delivery"]).toBe("dlv_1")
      sender.close()
      yield* Effect.promise(rx.close)
    }))

  it.live("uses the configured signature header name", () =>
    Effect.gen(function*() {
      const rx = yield* Effect.promise(() => startReceiver((_q, s) => s.end("ok")))
      const sender = makeHttpWebhookSenderUnsafe({ allow: "127.0.0.1", signatureHeader: "X-Acme-Signature" })
      expect((yield* sender.send(request(rx.url))).outcome).toBe("success")
      const got = rx.received[0]
      expect(got.headers["x-service-signature"]).toBeUndefined()
      expect(verifyWebhookSignature(got.raw, got.headers["x-acme-signature"], secret)).toBe(true)
      sender.close()
      yield* Effect.promise(rx.close)
    }))

  it.live("counts any non-2xx as a failure and records the status", () =>
    Effect.gen(function*() {
      const codes = [500, 404, 201, 410, 299]
      const rx = yield* Effect.promise(() => startReceiver((_q, s, n) => s.writeHead(codes[n - 1]).end()))
      const sender = makeHttpWebhookSenderUnsafe({ allow: ["127.0.0.1"] })
      const results = []
      for (let i = 0; i < codes.length; i++) results.push(yield* sender.send(request(rx.url)))
      expect(results.map((r) => [r.outcome, r.status])).toEqual([
        ["failure", 500],
        ["failure", 404],
        ["success", 201],
        ["failure", 410],
        ["success", 299]
      ])
      expect(results[0].error).toBe("HTTP 500")
      sender.close()
      yield* Effect.promise(rx.close)
    }))

  it.live("does not follow redirects: a 3xx is a failed attempt and the target is never called", () =>
    Effect.gen(function*() {
      const target = yield* Effect.promise(() => startReceiver((_q, s) => s.end("ok")))
      const rx = yield* Effect.promise(() =>
        startReceiver((_q, s, n) => s.writeHead(n === 1 ? 302 : 307, { location: target.url }).end())
      )
      const sender = makeHttpWebhookSenderUnsafe({ allow: ["127.0.0.1"] })
      const a = yield* sender.send(request(rx.url))
      const b = yield* sender.send(request(rx.url))
      expect([a.outcome, a.status, b.outcome, b.status]).toEqual(["failure", 302, "failure", 307])
      expect(a.error).toContain("redirect 302 not followed")
      expect(target.received).toHaveLength(0)
      sender.close()
      yield* Effect.promise(rx.close)
      yield* Effect.promise(target.close)
    }))

  it.live("times out a hanging receiver at the deadline", () =>
    Effect.gen(function*() {
      const rx = yield* Effect.promise(() => startReceiver(() => {/* never answers */}))
      const sender = makeHttpWebhookSenderUnsafe({ allow: ["127.0.0.1"] })
      const started = Date.now()
      const r = yield* sender.send(request(rx.url, { timeoutMs: 300 }))
      const took = Date.now() - started
      expect(r).toMatchObject({ outcome: "failure", status: null, error: "timeout after 300 ms" })
      expect(took).toBeGreaterThanOrEqual(290)
      expect(took).toBeLessThan(2_000)
      sender.close()
      yield* Effect.promise(rx.close)
    }))

  it.live("reports connection errors as failures", () =>
    Effect.gen(function*() {
      const rx = yield* Effect.promise(() => startReceiver((_q, s) => s.end()))
      const url = rx.url
      yield* Effect.promise(rx.close)
      const sender = makeHttpWebhookSenderUnsafe({ allow: ["127.0.0.1"] })
      const r = yield* sender.send(request(url))
      expect(r.outcome).toBe("failure")
      expect(r.status).toBeNull()
      expect(r.error).toContain("ECONNREFUSED")
      const bad = yield* sender.send(request("ftp://example.com/x"))
      expect(bad.error).toContain("unsupported URL scheme")
      sender.close()
    }))

  it.live("refuses loopback without an allow-list entry, by IP literal and by hostname resolved at connect", () =>
    Effect.gen(function*() {
      const rx = yield* Effect.promise(() => startReceiver((_q, s) => s.end()))
      const closed = makeHttpWebhookSenderUnsafe()
      const literal = yield* closed.send(request(rx.url))
      expect(literal.outcome).toBe("failure")
      expect(literal.error).toContain("loopback")
      // `localhost` passes any hostname check; the address it resolves to is what is refused.
      const byName = yield* closed.send(request(`http://localhost:${rx.port}/hook`))
      expect(byName.outcome).toBe("failure")
      expect(byName.error).toContain("not on the webhook allow-list")
      expect(rx.received).toHaveLength(0)
      // Only the operator allow-list opens it (there is no per-endpoint exemption).
      const open = makeHttpWebhookSenderUnsafe({ allow: ["127.0.0.0/8", "::1"] })
      expect((yield* open.send(request(`http://localhost:${rx.port}/hook`))).outcome).toBe("success")
      expect(rx.received).toHaveLength(1)
      closed.close()
      open.close()
      yield* Effect.promise(rx.close)
    }))

  it.live("keeps connections alive across deliveries", () =>
    Effect.gen(function*() {
      const rx = yield* Effect.promise(() => startReceiver((_q, s) => s.end("ok")))
      const sender = makeHttpWebhookSenderUnsafe({ allow: ["127.0.0.1"] })
      for (let i = 0; i < 50; i++) expect((yield* sender.send(request(rx.url))).outcome).toBe("success")
      expect(rx.connections()).toBe(1)
      sender.close()
      yield* Effect.promise(rx.close)
    }))
})

describe("address policy", () => {
  it("classifies non-public addresses, including metadata and IPv4-mapped IPv6", () => {
    for (
      const a of [
        "127.0.0.1",
        "127.8.9.10",
        "10.1.2.3",
        "172.16.0.1",
        "172.31.255.255",
        "192.168.1.1",
        "169.254.169.254",
        "100.100.100.200",
        "0.0.0.0",
        "::1",
        "::",
        "fe80::1",
        "fd00:ec2::254",
        "fc00::1",
        "::ffff:127.0.0.1",
        "::ffff:a9fe:a9fe",
        "[::1]",
        "224.0.0.1"
      ]
    ) expect(nonPublicReason(a), a).not.toBeNull()
    for (const a of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect(nonPublicReason(a), a).toBeNull()
    }
    expect(nonPublicReason("169.254.169.254")).toBe("link-local/metadata")
  })

  it("lets the operator allow-list open specific ranges only", () => {
    const allow = parseAllowList("127.0.0.1, 10.0.0.0/8")
    expect(refuseAddress("127.0.0.1", allow)).toBeNull()
    expect(refuseAddress("10.9.9.9", allow)).toBeNull()
    expect(refuseAddress("127.0.0.2", allow)).toContain("loopback")
    expect(refuseAddress("169.254.169.254", allow)).toContain("metadata")
    expect(refuseAddress("8.8.8.8", allow)).toBeNull()
    expect(() => parseAllowList("example.com")).toThrow()
    expect(() => parseAllowList("10.0.0.0/40")).toThrow()
  })
})
