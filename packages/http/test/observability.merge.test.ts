/**
 * The `--workers` scrape design (docs/observability.md): expositions of several processes merged
 * into one, each sample labelled with its process, each family's HELP/TYPE once, nothing summed.
 */
import { describe, expect, it } from "vitest"
import { mergeExpositions } from "../src/observability/Merge.js"
import { parseExposition, valueOf } from "./observabilityHarness.js"

const worker = (requests: number, le1: number) =>
  `# HELP tuma_http_requests_total HTTP requests answered.
# UNIT tuma_http_requests_total 1
# TYPE tuma_http_requests_total counter
tuma_http_requests_total{method="POST",route="/v1/sms/messages",status="202"} ${requests}
# HELP tuma_http_request_duration_seconds Time to answer.
# TYPE tuma_http_request_duration_seconds histogram
tuma_http_request_duration_seconds_count{method="POST",route="/v1/sms/messages"} ${requests}
tuma_http_request_duration_seconds_sum{method="POST",route="/v1/sms/messages"} 0.5
tuma_http_request_duration_seconds_bucket{method="POST",route="/v1/sms/messages",le="0.01"} ${le1}
tuma_http_request_duration_seconds_bucket{method="POST",route="/v1/sms/messages",le="+Inf"} ${requests}
# HELP tuma_dispatch_queue_depth Messages waiting.
# TYPE tuma_dispatch_queue_depth gauge
tuma_dispatch_queue_depth 7
`

describe("merging the expositions of several processes", () => {
  const merged = mergeExpositions([{ process: "0", text: worker(3, 1) }, { process: "1", text: worker(5, 4) }])

  it("labels every sample with its process and writes each family's HELP and TYPE once", () => {
    expect(merged.match(/^# TYPE tuma_http_requests_total counter$/gm)).toHaveLength(1)
    expect(merged.match(/^# HELP tuma_http_request_duration_seconds /gm)).toHaveLength(1)
    expect(merged).toContain(
      `# TYPE tuma_http_request_duration_seconds histogram
tuma_http_request_duration_seconds_count{process="0",method="POST",route="/v1/sms/messages"} 3`
    )
    expect(merged).toContain(`tuma_dispatch_queue_depth{process="1"} 7`)
    const samples = parseExposition(merged)
    expect(samples.every((s) => s.labels.process === "0" || s.labels.process === "1")).toBe(true)
    expect(samples).toHaveLength(2 * 6)
  })

  it("keeps per-process series so sums and rates are taken in Prometheus", () => {
    const samples = parseExposition(merged)
    expect(valueOf(samples, "tuma_http_requests_total")).toBe(8)
    expect(valueOf(samples, "tuma_http_requests_total", { process: "1" })).toBe(5)
    expect(valueOf(samples, "tuma_http_request_duration_seconds_bucket", { le: "0.01" })).toBe(5)
  })

  it("escapes process names", () => {
    expect(mergeExpositions([{ process: "a\"b", text: "# TYPE x gauge\nx 1\n" }])).toBe(
      "# TYPE x gauge\nx{process=\"a\\\"b\"} 1\n"
    )
  })
})
