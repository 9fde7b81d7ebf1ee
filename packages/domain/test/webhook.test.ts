import { describe, expect, it } from "@effect/vitest"
import { FastCheck, Schema } from "effect"
import { createHmac } from "node:crypto"
import {
  applyWebhookAttempt,
  buildWebhookBody,
  buildWebhookPayload,
  classifyWebhookStatus,
  defaultWebhookRetryPolicy,
  formatIsoWithOffset,
  maxAttempts,
  reenableWebhookEndpoint,
  retryDelayAfter,
  serializeWebhookPayload,
  signWebhook,
  verifyWebhookSignature,
  WebhookPayload,
  webhookUrlProblem
} from "../src/index.js"

const delivered = {
  messageId: "0b8d7c1e-4f7a-4e59-9c3e-2a9b6f0d1c11",
  to: "+255712345678",
  status: "delivered" as const,
  senderId: "TUMA",
  finalAt: "2025-03-01T06:30:15.250Z",
  now: 1_740_810_617_999
}

describe("webhook payload", () => {
  it("has exactly the spec §6 fields, in order, with the exact bytes that are signed", () => {
    const { body, payload } = buildWebhookBody(delivered)
    expect(body).toBe(
      `{"event":"sms.delivered","message_id":"0b8d7c1e-4f7a-4e59-9c3e-2a9b6f0d1c11","to":"+255712345678",` +
        `"status":"delivered","sender_id":"TUMA","error":null,"delivered_at":"2025-03-01T06:30:15+00:00",` +
        `"timestamp":1740810617}`
    )
    expect(Object.keys(JSON.parse(body))).toEqual([
      "event",
      "message_id",
      "to",
      "status",
      "sender_id",
      "error",
      "delivered_at",
      "timestamp"
    ])
    expect(Schema.decodeUnknownSync(WebhookPayload)(JSON.parse(body))).toEqual(payload)
  })

  it("reports failures as sms.failed with the reason and the moment of failure", () => {
    const p = buildWebhookPayload({ ...delivered, status: "failed", error: "Absent subscriber" })
    expect(p.event).toBe("sms.failed")
    expect(p.status).toBe("failed")
    expect(p.error).toBe("Absent subscriber")
    expect(p.delivered_at).toBe("2025-03-01T06:30:15+00:00")
    expect(buildWebhookPayload({ ...delivered, status: "failed" }).error).not.toBeNull()
    expect(buildWebhookPayload({ ...delivered, error: "ignored" }).error).toBeNull()
  })

  it("prints delivered_at with a numeric offset, the same instant whatever the offset", () => {
    expect(formatIsoWithOffset(0)).toBe("1970-01-01T00:00:00+00:00")
    expect(formatIsoWithOffset("2025-03-01T22:30:00Z", 180)).toBe("2025-03-02T01:30:00+03:00")
    expect(formatIsoWithOffset("2025-03-01T02:00:00Z", -330)).toBe("2025-02-28T20:30:00-05:30")
    FastCheck.assert(
      FastCheck.property(
        FastCheck.integer({ min: 0, max: 4_102_444_800_000 }),
        FastCheck.integer({ min: -720, max: 840 }),
        (ms, offset) => {
          const s = formatIsoWithOffset(ms, offset)
          expect(s).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
          expect(Date.parse(s)).toBe(Math.floor(ms / 1000) * 1000)
        }
      )
    )
    expect(() => formatIsoWithOffset("not a date")).toThrow()
  })
})

describe("webhook signature", () => {
  const secret = "whsec_test_secret"

  it("is the lowercase hex HMAC-SHA256 of the raw body", () => {
    const body = serializeWebhookPayload(buildWebhookPayload(delivered))
    const expected = createHmac("sha256", secret).update(body).digest("hex")
    expect(signWebhook(body, secret)).toBe(expected)
    expect(signWebhook(Buffer.from(body), secret)).toBe(expected)
    expect(expected).toMatch(/^[0-9a-f]{64}$/)
  })

  it("verifies over the raw body, tolerant of header whitespace, case and array form", () => {
    const body = serializeWebhookPayload(buildWebhookPayload(delivered))
    const sig = signWebhook(body, secret)
    expect(verifyWebhookSignature(body, sig, secret)).toBe(true)
    expect(verifyWebhookSignature(Buffer.from(body), `  ${sig.toUpperCase()}\t`, secret)).toBe(true)
    expect(verifyWebhookSignature(body, [sig], secret)).toBe(true)
    expect(verifyWebhookSignature(body, `sha256=${sig}`, secret)).toBe(true)
  })

  it("rejects a wrong secret, a changed body, a re-serialised body and malformed headers", () => {
    const body = serializeWebhookPayload(buildWebhookPayload(delivered))
    const sig = signWebhook(body, secret)
    expect(verifyWebhookSignature(body, sig, "other")).toBe(false)
    expect(verifyWebhookSignature(body.replace("+255", "+254"), sig, secret)).toBe(false)
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(body), null, 2), sig, secret)).toBe(false)
    for (const bad of [undefined, null, "", "abc", sig.slice(1), `${sig}0`, "z".repeat(64), []]) {
      expect(verifyWebhookSignature(body, bad as any, secret)).toBe(false)
    }
  })

  it("accepts its own signature for any body and secret, and rejects any single-character flip", () => {
    FastCheck.assert(
      FastCheck.property(
        FastCheck.string(),
        FastCheck.string({ minLength: 1 }),
        FastCheck.nat(63),
        (body, key, i) => {
          const sig = signWebhook(body, key)
          expect(verifyWebhookSignature(body, sig, key)).toBe(true)
          const flipped = sig.slice(0, i) + (sig[i] === "0" ? "1" : "0") + sig.slice(i + 1)
          expect(verifyWebhookSignature(body, flipped, key)).toBe(false)
        }
      )
    )
  })
})

describe("webhook retries and endpoint health", () => {
  it("retries 4 times at 30 s, 2 min, 10 min, 1 h, then stops", () => {
    const p = defaultWebhookRetryPolicy
    expect(maxAttempts(p)).toBe(5)
    expect([1, 2, 3, 4, 5].map((n) => retryDelayAfter(p, n))).toEqual([30_000, 120_000, 600_000, 3_600_000, null])
    expect(p.timeoutMs).toBe(10_000)
    expect(() => retryDelayAfter(p, 0)).toThrow()
  })

  it("follows a configured schedule", () => {
    const p = { ...defaultWebhookRetryPolicy, retryDelaysMs: [5, 10] }
    expect(maxAttempts(p)).toBe(3)
    expect([1, 2, 3].map((n) => retryDelayAfter(p, n))).toEqual([5, 10, null])
  })

  it("counts any 2xx as success and everything else as failure", () => {
    expect([200, 201, 204, 299].map(classifyWebhookStatus)).toEqual(Array(4).fill("success"))
    expect([100, 199, 300, 301, 302, 307, 308, 400, 404, 500, 503, null, undefined].map(classifyWebhookStatus))
      .toEqual(Array(13).fill("failure"))
  })

  it("disables after 10 consecutive failures, exactly once, and a success resets the count", () => {
    let h = { consecutiveFailures: 0, disabled: false }
    const flags: Array<boolean> = []
    for (let i = 0; i < 9; i++) {
      const next = applyWebhookAttempt(h, "failure")
      flags.push(next.justDisabled)
      h = next
    }
    expect(h).toMatchObject({ consecutiveFailures: 9, disabled: false })
    expect(flags.every((f) => !f)).toBe(true)
    const reset = applyWebhookAttempt(h, "success")
    expect(reset.consecutiveFailures).toBe(0)
    const tenth = applyWebhookAttempt(h, "failure")
    expect(tenth).toEqual({ consecutiveFailures: 10, disabled: true, justDisabled: true })
    const eleventh = applyWebhookAttempt(tenth, "failure")
    expect(eleventh).toEqual({ consecutiveFailures: 10, disabled: true, justDisabled: false })
    expect(applyWebhookAttempt(tenth, "success")).toEqual(eleventh)
    expect(reenableWebhookEndpoint(eleventh)).toEqual({ consecutiveFailures: 0, disabled: false })
  })

  it("disables after exactly N failures with no success between, for any threshold", () => {
    FastCheck.assert(
      FastCheck.property(
        FastCheck.integer({ min: 1, max: 30 }),
        FastCheck.array(FastCheck.boolean(), { maxLength: 80 }),
        (threshold, outcomes) => {
          let h = { consecutiveFailures: 0, disabled: false }
          let run = 0
          let disabledAt = -1
          outcomes.forEach((ok, i) => {
            if (h.disabled) return
            run = ok ? 0 : run + 1
            const next = applyWebhookAttempt(h, ok ? "success" : "failure", {
              disableAfterConsecutiveFailures: threshold
            })
            if (next.justDisabled) disabledAt = i
            h = next
          })
          expect(h.disabled).toBe(disabledAt >= 0)
          if (h.disabled) expect(run).toBe(threshold)
          else expect(h.consecutiveFailures).toBe(run)
        }
      )
    )
  })
})

describe("webhook endpoint URLs", () => {
  it("accepts absolute http(s) URLs and refuses anything else", () => {
    expect(webhookUrlProblem("https://example.com/hooks/tuma?x=1")).toBeNull()
    expect(webhookUrlProblem("http://127.0.0.1:4000/hook")).toBeNull()
    expect(webhookUrlProblem("/relative")).toContain("absolute")
    expect(webhookUrlProblem("ftp://example.com/x")).toContain("scheme")
    expect(webhookUrlProblem("https://example.com/#frag")).toContain("fragment")
    expect(webhookUrlProblem(`https://example.com/${"a".repeat(2100)}`)).toContain("2048")
  })
})
