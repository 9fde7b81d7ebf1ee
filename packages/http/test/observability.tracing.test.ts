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
import type { AddressInfo } from "node:net"
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
