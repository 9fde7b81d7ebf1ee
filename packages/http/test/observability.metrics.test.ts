/**
 * Prometheus metrics at `/metrics` on their own loopback listener (issue 13), against a whole Tuma:
 * sends over HTTP, delivery over SMPP to the SMSC simulator with receipts, webhook attempts to a
 * local receiver. Every metric of the issue is in the scrape with the values the activity implies,
 * the labels are bounded (no account, key or message ids), the API port does not serve metrics,
 * and every query of the Grafana dashboard in docs/ and every alert rule of docs/observability.md
 * names series and labels the scrape has.
 */
import { SqlClient } from "@effect/sql"
import * as M from "@tuma/core/observability/Metrics"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as RuntimeMetrics from "../src/observability/Runtime.js"
import { call } from "./harness.js"
import type { Sample, Tuma } from "./observabilityHarness.js"
import { defaultObservability, drivers, eventually, scrape, startTuma, valueOf } from "./observabilityHarness.js"

const dashboard = JSON.parse(
  readFileSync(new URL("../../../docs/grafana/tuma-dashboard.json", import.meta.url), "utf8")
) as { panels: Array<{ type: string; title: string; targets?: Array<{ expr: string }> }> }

const observabilityDoc = readFileSync(new URL("../../../docs/observability.md", import.meta.url), "utf8")

/** Labels Prometheus adds at scrape time (not in the exposition). */
const TARGET_LABELS = new Set(["instance", "job", "le"])

describe.each(drivers)("metrics ($name)", ({ database }) => {
  let tuma: Tuma
  let before: Array<Sample>
  const uids: Array<string> = []

  beforeAll(async () => {
    tuma = await startTuma({ database, observability: defaultObservability() })
    before = (await scrape(tuma.metricsUrl!)).samples
    for (let i = 0; i < 2; i++) {
      const r = await call(tuma, "POST", "/v1/sms/messages", {
        key: tuma.key,
        body: { recipient: `+25571234510${i}`, sender_id: "TUMA", body: `Metrics test ${i}` }
      })
      expect(r.status).toBe(202)
      uids.push(r.body.data.uid)
    }
    const sandbox = await call(tuma, "POST", "/v1/sms/messages", {
      key: tuma.sandbox,
      body: { recipient: "+255712345199", sender_id: "TUMA", body: "Sandbox" }
    })
    expect(sandbox.status).toBe(202)
    const refused = await call(tuma, "POST", "/v1/sms/messages", {
      key: tuma.key,
      body: { recipient: "+255712345198", sender_id: "NOTMINE", body: "Refused" }
    })
    expect(refused.status).toBe(422)
    expect(refused.body.error_code).toBe("SENDER_ID_NOT_APPROVED")
    await eventually(async () => tuma.webhooks.length >= 2 ? true : undefined, "two webhooks")
  }, 120_000)

  afterAll(async () => {
    await tuma?.close()
  })

  const delta = (after: Array<Sample>, name: string, labels: Record<string, string> = {}) =>
    valueOf(after, name, labels) - valueOf(before, name, labels)

  it("serves Prometheus text on a loopback listener of its own, not on the API port", async () => {
    expect(new URL(tuma.metricsUrl!).hostname).toBe("127.0.0.1")
    const { contentType, text } = await scrape(tuma.metricsUrl!)
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(text).toMatch(/^# HELP tuma_http_requests_total /m)
    expect(text).toMatch(/^# TYPE tuma_http_requests_total counter$/m)
    expect(text).toMatch(/^# TYPE tuma_http_request_duration_seconds histogram$/m)
    const api = await fetch(`${tuma.url}/metrics`)
    expect(api.status).toBe(404)
  })

  it("exports counters with known label values at zero before their first event (issue 27)", () => {
    const has = (name: string, labels: Record<string, string>) =>
      before.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value
    // the first scrape came before any send, delivery or webhook of this server (the registry is the
    // process's: a driver run earlier in this file may have counted some, so presence is what counts)
    expect(has("tuma_webhook_deliveries_total", { outcome: "success" })).toBeTypeOf("number")
    expect(has("tuma_webhook_deliveries_total", { outcome: "failure" })).toBeTypeOf("number")
    for (const code of ["INSUFFICIENT_BALANCE", "SENDER_ID_NOT_APPROVED", "VALIDATION_FAILED", "SPAM_POLICY"]) {
      expect(has("tuma_messages_refused_total", { error_code: code }), code).toBeTypeOf("number")
    }
    expect(has("tuma_messages_accepted_total", { channel: "api", country: "TZ", mode: "live" })).toBeTypeOf("number")
    expect(has("tuma_messages_accepted_total", { channel: "web", country: "TZ", mode: "sandbox" })).toBeTypeOf("number")
    // this server's provider is new (a unique name): its series are exactly 0
    const provider = tuma.providerName
    expect(has("tuma_messages_final_total", { status: "delivered", provider })).toBe(0)
    expect(has("tuma_messages_final_total", { status: "failed", provider })).toBe(0)
  })

  it("stores no trace context while tracing is off", async () => {
    const [row] = await tuma.run(
      Effect.flatMap(SqlClient.SqlClient, (q) => q<{ n: number }>`SELECT count(*)::int AS n FROM message_trace_context`)
    )
    expect(row!.n).toBe(0)
  })

  it("has every metric of the issue and the process and runtime metrics", async () => {
    const { samples } = await eventually(async () => {
      const s = await scrape(tuma.metricsUrl!)
      return valueOf(s.samples, "tuma_messages_final_total") - valueOf(before, "tuma_messages_final_total") >= 2
        ? s
        : undefined
    }, "final states counted")
    const names = new Set(samples.map((s) => s.name.replace(/_(bucket|sum|count)$/, "")))
    for (const name of [...M.names, ...RuntimeMetrics.names]) expect(names, name).toContain(name)
  })

  it("counts requests, acceptances, refusals, final states, submits, receipts and webhooks", async () => {
    const { samples } = await scrape(tuma.metricsUrl!)
    const route = "/v1/sms/messages"
    expect(delta(samples, "tuma_http_requests_total", { method: "POST", route, status: "202" })).toBe(3)
    expect(delta(samples, "tuma_http_requests_total", { method: "POST", route, status: "422" })).toBe(1)
    expect(delta(samples, "tuma_http_request_duration_seconds_count", { method: "POST", route })).toBe(4)
    expect(delta(samples, "tuma_messages_accepted_total", { channel: "api", country: "TZ", mode: "live" })).toBe(2)
    expect(delta(samples, "tuma_messages_accepted_total", { channel: "api", country: "TZ", mode: "sandbox" })).toBe(1)
    expect(delta(samples, "tuma_messages_refused_total", { error_code: "SENDER_ID_NOT_APPROVED" })).toBe(1)
    const provider = tuma.providerName
    expect(delta(samples, "tuma_messages_final_total", { status: "delivered", provider })).toBe(2)
    expect(delta(samples, "tuma_dispatch_submit_duration_seconds_count", { provider })).toBe(2)
    expect(delta(samples, "tuma_delivery_receipt_delay_seconds_count", { provider })).toBe(2)
    expect(delta(samples, "tuma_webhook_deliveries_total", { outcome: "success" })).toBeGreaterThanOrEqual(2)
    expect(valueOf(samples, "tuma_provider_bind_up", { provider })).toBe(1)
    // 5,000 bought for TZ, one unit reserved per delivered single-part message
    expect(valueOf(samples, "tuma_provider_credit_units", { provider, country: "TZ" })).toBe(4998)
    expect(valueOf(samples, "tuma_dispatch_queue_depth")).toBe(0)
    expect(valueOf(samples, "tuma_webhook_queue_depth")).toBe(0)
    expect(valueOf(samples, "tuma_webhook_endpoints_disabled")).toBe(0)
    // two-way SMS: exported at zero before the first inbound message
    expect(valueOf(samples, "tuma_inbound_unrouted")).toBe(0)
    expect(valueOf(samples, "tuma_inbound_parts_waiting")).toBe(0)
    for (const outcome of ["routed", "unrouted", "duplicate"]) {
      expect(valueOf(samples, "tuma_inbound_messages_total", { outcome })).toBe(0)
    }
    expect(valueOf(samples, "process_resident_memory_bytes")).toBeGreaterThan(0)
    expect(valueOf(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0)
  })

  it("keeps label sets bounded: no account, key or message ids in any label", async () => {
    const { samples } = await scrape(tuma.metricsUrl!)
    const forbidden = [tuma.accountId, tuma.key, tuma.sandbox, ...uids]
    for (const s of samples) {
      for (const v of Object.values(s.labels)) {
        for (const f of forbidden) expect(v.includes(f), `${s.name} ${v}`).toBe(false)
        expect(v, `${s.name}: a uuid-looking label`).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/)
      }
    }
    // the message path of a read is reported by its route template
    await call(tuma, "GET", `/v1/sms/messages/${uids[0]}`, { key: tuma.key })
    const after = (await scrape(tuma.metricsUrl!)).samples
    expect(valueOf(after, "tuma_http_requests_total", { method: "GET", route: "/v1/sms/messages/:uid" }))
      .toBeGreaterThanOrEqual(1)
  })

  it("names in every dashboard query and alert rule a series and labels the scrape has", async () => {
    const { samples } = await scrape(tuma.metricsUrl!)
    const byName = new Map<string, Set<string>>()
    for (const s of samples) {
      const labels = byName.get(s.name) ?? new Set<string>()
      for (const k of Object.keys(s.labels)) labels.add(k)
      byName.set(s.name, labels)
    }
    const panels = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })))
    expect(panels.length).toBeGreaterThanOrEqual(15)
    // the alert rules of docs/observability.md ("What to alert on"), multi-line expressions joined
    const rulesYaml = /### What to alert on\s+```yaml\n([\s\S]*?)```/.exec(observabilityDoc)![1]!
    const alerts = [...rulesYaml.matchAll(/- alert: (\w+)[^\n]*\n\s+expr: ([\s\S]*?)(?=\n\s+for:|\n\s+- alert:|$)/g)]
      .map((m) => ({ panel: `alert ${m[1]}`, expr: m[2]!.replace(/\s+/g, " ") }))
    expect(alerts.length).toBeGreaterThanOrEqual(9)
    for (const { expr, panel } of [...panels, ...alerts]) {
      const metrics = [...expr.matchAll(/\b((?:tuma|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!)
      expect(metrics.length, `${panel}: names no metric`).toBeGreaterThan(0)
      const labelsOfQuery = new Set<string>()
      for (const m of metrics) {
        expect(byName.has(m), `${panel}: ${m} is not in the scrape`).toBe(true)
        for (const l of byName.get(m)!) labelsOfQuery.add(l)
      }
      const used = [
        ...[...expr.matchAll(/by \(([^)]*)\)/g)].flatMap((m) => m[1]!.split(",").map((s) => s.trim())),
        ...[...expr.matchAll(/\{([^}]*)\}/g)].flatMap((m) => [...m[1]!.matchAll(/([a-z_]+)\s*=~?/g)].map((x) => x[1]!))
      ]
      for (const l of used) {
        if (!TARGET_LABELS.has(l)) expect(labelsOfQuery.has(l), `${panel}: label ${l} of ${expr}`).toBe(true)
      }
    }
  })
})
