/**
 * The plain decisions of one webhook attempt (HttpWebhookSender.ts), apart from sockets and timers: which
 * URLs can be called, and what an answer's status means.
 */
import type { WebhookAttemptResult } from "@tuma/core/ports/Notifiers"

/** A failed attempt: why, how long it took, and the status when the endpoint answered. */
export const failure = (error: string, latencyMs: number, status: number | null = null): WebhookAttemptResult => ({
  outcome: "failure",
  status,
  latencyMs,
  error
})

/** The URL of an endpoint, or why it cannot be called (not a URL, not http(s)). */
export const parseTarget = (requestUrl: string): URL | string => {
  let url: URL
  try {
    url = new URL(requestUrl)
  } catch {
    return `invalid URL: ${requestUrl}`
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `unsupported URL scheme: ${url.protocol}`
  return url
}

/** The result of an attempt answered with `status`: 2xx succeeds; a redirect is not followed; else a failure. */
export const answerOf = (status: number, location: string | undefined, latencyMs: number): WebhookAttemptResult => {
  if (status >= 200 && status <= 299) return { outcome: "success", status, latencyMs, error: null }
  if (status >= 300 && status <= 399) {
    return failure(`redirect ${status} not followed${location ? ` (Location: ${location})` : ""}`, latencyMs, status)
  }
  return failure(`HTTP ${status}`, latencyMs, status)
}
