/**
 * OpenTelemetry traces over OTLP/HTTP (issue 13), received by an in-process OTLP receiver: a send's
 * trace is HTTP request → `Send.single` → SQL statements, and the message's later spans — dispatch
 * submit, delivery receipt, webhook attempt — are roots of their own linked back to the span that
 * accepted it (through the trace context stored with the message). Without an endpoint nothing is
 * stored (the metrics test's server).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { connect } from "node:net"
import { gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "./harness.js"
import type { Tuma } from "./observabilityHarness.js"
import { defaultObservability, drivers, eventually, startTuma } from "./observabilityHarness.js"

interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ key: string; value: Record<string, unknown> }>
  readonly links?: ReadonlyArray<{ traceId: string; spanId: string }>
  readonly startTimeUnixNano: string
}

const attr = (span: OtlpSpan, key: string): unknown => {
  const a = span.attributes.find((x) => x.key === key)
  if (a === undefined) return undefined
  const v = a.value
  return v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.boolValue ?? v.doubleValue
}

/** An OTLP/HTTP JSON trace receiver. */
const startReceiver = async () => {
  const spans: Array<OtlpSpan> = []
  const contentTypes = new Set<string>()
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (d: Buffer) => chunks.push(d))
    req.on("end", () => {
      if (req.url !== "/v1/traces") return void res.writeHead(404).end()
      contentTypes.add(String(req.headers["content-type"]))
      let body = Buffer.concat(chunks)
      if (req.headers["content-encoding"] === "gzip") body = gunzipSync(body)
      const doc = JSON.parse(body.toString("utf8"))
      for (const rs of doc.resourceSpans ?? []) {
        for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push(s)
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((r) => server.close(() => r()))
  }
}

/** One keep-alive HTTP/1.1 connection: requests written at once, answers read by Content-Length. */
const openConnection = (host: string, port: number) =>
  new Promise<{
    readonly request: (
      method: string,
      path: string,
      options?: { authorization?: string; body?: unknown }
    ) => Promise<{ status: number; body: any }>
    readonly close: () => void
  }>((resolve, reject) => {
    const socket: Socket = connect(port, host, () => resolve({ request, close: () => socket.end() }))
    socket.on("error", reject)
    let buffered = Buffer.alloc(0)
    let waiting: ((answer: { status: number; body: any }) => void) | undefined
    socket.on("data", (d: Buffer) => {
      buffered = Buffer.concat([buffered, d])
      const head = buffered.indexOf("\r\n\r\n")
      if (head < 0 || waiting === undefined) return
      const headers = buffered.subarray(0, head).toString("latin1")
      const length = Number(/content-length: *(\d+)/i.exec(headers)?.[1] ?? 0)
      if (buffered.length < head + 4 + length) return
      const body = buffered.subarray(head + 4, head + 4 + length).toString("utf8")
      buffered = buffered.subarray(head + 4 + length)
      const done = waiting
      waiting = undefined
      done({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1]), body: body === "" ? undefined : JSON.parse(body) })
    })
    const request = (method: string, path: string, options: { authorization?: string; body?: unknown } = {}) =>
      new Promise<{ status: number; body: any }>((answer) => {
        waiting = answer
        const body = options.body === undefined ? "" : JSON.stringify(options.body)
        socket.write(
          `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n` +
            (options.authorization === undefined ? "" : `authorization: ${options.authorization}\r\n`) +
            (body === "" ? "" : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`) +
            `\r\n${body}`
        )
      })
  })

describe.each(drivers)("traces ($name)", ({ database }) => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let tuma: Tuma

  beforeAll(async () => {
    receiver = await startReceiver()
    tuma = await startTuma({
      database,
      observability: defaultObservability({ tracing: { endpoint: receiver.url, serviceName: "tuma-test", ratio: 1 } })
    })
  }, 120_000)

  afterAll(async () => {
    await tuma?.close()
    await receiver?.close()
  })

  it("a send's request, use case and SQL form one trace; its delivery spans link back to it", async () => {
    const startedNs = BigInt(Date.now()) * 1_000_000n
    const sent = await call(tuma, "POST", "/v1/sms/messages", {
      key: tuma.key,
      body: { recipient: "+255712345300", sender_id: "TUMA", body: "Traced message" }
    })
    expect(sent.status).toBe(202)
    const uid: string = sent.body.data.uid
    const requestUid: string = sent.body.request_uid

    const byName = (name: string) => receiver.spans.filter((s) => s.name === name && attr(s, "message_uid") === uid)
    await eventually(
      async () => byName("webhook.attempt").length > 0 && byName("delivery.receipt").length > 0 ? true : undefined,
      "the message's webhook attempt span",
      40_000
    )
    expect([...receiver.contentTypes]).toEqual(["application/json"])

    const http = receiver.spans.find((s) => attr(s, "request_uid") === requestUid)!
    expect(http, "the request's span").toBeDefined()
    expect(http.kind).toBe(2) // SERVER
    expect(http.parentSpanId ?? "").toBe("")
    expect(attr(http, "http.route")).toBe("/v1/sms/messages")
    expect(attr(http, "http.response.status_code")).toBe(202)

    const useCase = receiver.spans.find((s) => s.name === "Send.single" && attr(s, "message_uid") === uid)!
    expect(useCase, "the use case's span").toBeDefined()
    expect(useCase.traceId).toBe(http.traceId)
    expect(useCase.parentSpanId).toBe(http.spanId)

    // SQL statements of the request sit under the use case
    const inTrace = receiver.spans.filter((s) => s.traceId === http.traceId)
    const parentOf = new Map(inTrace.map((s) => [s.spanId, s.parentSpanId ?? ""]))
    const under = (s: OtlpSpan, ancestor: string) => {
      for (let p = s.parentSpanId ?? ""; p !== ""; p = parentOf.get(p) ?? "") if (p === ancestor) return true
      return false
    }
    const sql = inTrace.filter((s) => s.name === "sql.execute" && under(s, useCase.spanId))
    expect(sql.length).toBeGreaterThanOrEqual(1)

    // dispatch submit -> delivery receipt -> webhook attempt: each linked to the accepting span
    for (const name of ["dispatch.submit", "delivery.receipt", "webhook.attempt"]) {
      const [span] = byName(name)
      expect(span, name).toBeDefined()
      expect(span!.traceId, `${name} is a trace of its own`).not.toBe(http.traceId)
      expect(span!.links?.map((l) => [l.traceId, l.spanId]), name).toEqual([[http.traceId, useCase.spanId]])
    }
    expect(attr(byName("dispatch.submit")[0]!, "tuma.submit.outcome")).toBe("Accepted")
    expect(attr(byName("delivery.receipt")[0]!, "tuma.receipt.state")).toBe("delivered")
    expect(attr(byName("webhook.attempt")[0]!, "tuma.webhook.outcome")).toBe("success")

    // the trace context is stored with the message
    const rows = await tuma.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (q) => q<{ traceparent: string }>`SELECT traceparent FROM message_trace_context WHERE message_id = ${uid}`
      )
    )
    expect(rows).toEqual([{ traceparent: `00-${http.traceId}-${useCase.spanId}-01` }])

    // the workers' polling statements are not traced: every SQL span since the send has a parent
    const rootSql = receiver.spans.filter((s) =>
      s.name.startsWith("sql.") && (s.parentSpanId ?? "") === "" && BigInt(s.startTimeUnixNano) >= startedNs
    )
    expect(rootSql.map((s) => s.name)).toEqual([])
    // single sends are accepted in groups (one transaction for concurrent sends of the process): the
    // group's span links to every request in it, its statements are its children
    const group = receiver.spans.find((s) =>
      s.name === "SendStore.acceptGroup" && s.links?.some((l) => l.spanId === useCase.spanId)
    )!
    expect(group, "the acceptance group's span").toBeDefined()
    expect(receiver.spans.some((s) => s.name === "sql.transaction" && s.parentSpanId === group.spanId)).toBe(true)

    // no span carries the API key (the platform redacts Authorization)
    for (const s of receiver.spans) {
      for (const a of s.attributes) expect(JSON.stringify(a.value).includes(tuma.key), `${s.name} ${a.key}`).toBe(false)
    }
  })

  it("concurrent sends read from sockets in one turn of the event loop are accepted in shared groups", async () => {
    // On PGlite the statements run on the request thread: without the group loop's wait for the check
    // phase, every group would hold the one send whose request was read first (SqlSendStore `linger`)
    // 40 keep-alive connections, each used once first (so the server has accepted them all), then
    // every send written in one go: the server reads them all in one turn of its event loop
    const { hostname, port } = new URL(tuma.url)
    const sockets = await Promise.all(Array.from({ length: 40 }, () => openConnection(hostname, Number(port))))
    for (const socket of sockets) expect((await socket.request("GET", "/healthz")).status).toBe(200)
    const answers = sockets.map((socket, i) =>
      socket.request("POST", "/v1/sms/messages", {
        authorization: `Bearer ${tuma.key}`,
        body: { recipient: `+2557123454${String(i).padStart(2, "0")}`, sender_id: "TUMA", body: `Grouped ${i}` }
      })
    )
    const sent = await Promise.all(answers)
    sockets.forEach((socket) => socket.close())
    expect(sent.map((a) => a.status)).toEqual(sent.map(() => 202))
    const uids = new Set(sent.map((a) => a.body.data.uid as string))
    const useCases = await eventually(async () => {
      const found = receiver.spans.filter((s) => s.name === "Send.single" && uids.has(String(attr(s, "message_uid"))))
      return found.length === uids.size ? found : undefined
    }, "the sends' use-case spans")
    const ids = new Set(useCases.map((s) => s.spanId))
    const groups = await eventually(async () => {
      const found = receiver.spans.filter((s) =>
        s.name === "SendStore.acceptGroup" && s.links?.some((l) => ids.has(l.spanId))
      )
      const linked = found.reduce((n, g) => n + (g.links ?? []).filter((l) => ids.has(l.spanId)).length, 0)
      return linked === ids.size ? found : undefined
    }, "the groups of the sends")
    expect(Math.max(...groups.map((g) => Number(attr(g, "tuma.group.size"))))).toBeGreaterThan(1)
    expect(groups.length).toBeLessThan(ids.size / 2)
  })
})

describe("default sampling", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let tuma: Tuma
  const saved = process.env.OTEL_TRACES_SAMPLER

  beforeAll(async () => {
    delete process.env.OTEL_TRACES_SAMPLER
    receiver = await startReceiver()
    tuma = await startTuma({
      database: drivers[0]!.database,
      observability: defaultObservability({ tracing: { endpoint: receiver.url, serviceName: "tuma-test" } })
    })
  }, 120_000)

  afterAll(async () => {
    if (saved !== undefined) process.env.OTEL_TRACES_SAMPLER = saved
    await tuma?.close()
    await receiver?.close()
  })

  it("records about one new trace in ten, and every request whose caller sampled it", async () => {
    const roots = () => receiver.spans.filter((s) => attr(s, "http.route") === "/v1/balance" && s.kind === 2)
    for (let i = 0; i < 300; i++) expect((await call(tuma, "GET", "/v1/balance", { key: tuma.key })).status).toBe(200)
    await new Promise((r) => setTimeout(r, 2_500)) // the batch processor exports every second
    const sampled = roots().length
    // binomial(300, 0.1): mean 30, sd 5.2; all or none would mean the ratio is not applied
    expect(sampled).toBeGreaterThanOrEqual(10)
    expect(sampled).toBeLessThanOrEqual(60)
    // a caller's sampled traceparent is followed (parent-based), every time
    const traceIds = Array.from({ length: 20 }, (_, i) => `${(i + 1).toString(16).padStart(2, "0")}${"ab".repeat(15)}`)
    for (const traceId of traceIds) {
      const r = await call(tuma, "GET", "/v1/balance", {
        key: tuma.key,
        headers: { traceparent: `00-${traceId}-${"cd".repeat(8)}-01` }
      })
      expect(r.status).toBe(200)
    }
    await eventually(
      async () => traceIds.every((t) => roots().some((s) => s.traceId === t)) ? true : undefined,
      "the spans of the caller-sampled requests"
    )
  }, 120_000)
})
