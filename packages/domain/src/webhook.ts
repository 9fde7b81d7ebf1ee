/**
 * Delivery webhooks (spec §6, decisions.md §22–23, §27): the payload and the exact bytes that are
 * signed and sent, the signature, the retry schedule and the consecutive-failure rule.
 *
 * Pure: no I/O, no clock reads (every time is an argument). `node:crypto` is used for HMAC only.
 */
import { Schema } from "effect"
import { hmacSha256Hex, timingSafeEqual } from "./crypto.js"

// ---------------------------------------------------------------------------------------------
// Events and payload
// ---------------------------------------------------------------------------------------------

/**
 * The events an endpoint can subscribe to: the two of spec §6 (a message's final state) and the
 * two-way events (`inbound.ts`, `inboundEvents.ts`): a message received, an opt-out changed.
 */
export const WebhookEventType = Schema.Literal("sms.delivered", "sms.failed", "sms.received", "optout.changed")
export type WebhookEventType = typeof WebhookEventType.Type

/**
 * The portal's "test webhook" event: posted once, at the customer's request, and recorded among the
 * endpoint's deliveries with its attempt; never subscribed to, never retried (decisions.md).
 */
export const WEBHOOK_TEST_EVENT = "webhook.test"

/** What a recorded delivery carries: a subscribable event or the test event. */
export const DeliveryEventType = Schema.Literal(...WebhookEventType.literals, WEBHOOK_TEST_EVENT)
export type DeliveryEventType = typeof DeliveryEventType.Type

/** Final message states that produce an event. */
export type WebhookFinalStatus = "delivered" | "failed"

/** The events an endpoint gets when it names none: the two delivery events (as before two-way SMS). */
export const DEFAULT_WEBHOOK_EVENTS: ReadonlyArray<WebhookEventType> = ["sms.delivered", "sms.failed"]

/** The event posted for a final message status. */
export const webhookEventFor = (status: WebhookFinalStatus): "sms.delivered" | "sms.failed" =>
  status === "delivered" ? "sms.delivered" : "sms.failed"

/** ISO 8601 date-time with an explicit numeric offset, e.g. `2025-03-01T09:30:00+03:00`. */
const IsoWithOffset = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/)
)

/**
 * The webhook body of spec §6, fields in the specification's order (the order they are serialised).
 * `delivered_at` is the moment the message reached its final state: the carrier's delivery
 * confirmation for `sms.delivered`, the moment of failure for `sms.failed` (the spec types it as a
 * string, never null).
 */
export const WebhookPayload = Schema.Struct({
  event: Schema.Literal("sms.delivered", "sms.failed"),
  message_id: Schema.String,
  to: Schema.String,
  status: Schema.String,
  sender_id: Schema.String,
  error: Schema.NullOr(Schema.String),
  delivered_at: IsoWithOffset,
  timestamp: Schema.Int
})
export type WebhookPayload = typeof WebhookPayload.Type

/** A moment: a `Date`, epoch milliseconds, or an ISO 8601 string. */
export type Instant = Date | number | string

const toEpochMillis = (instant: Instant): number => {
  const ms = instant instanceof Date ? instant.getTime() : typeof instant === "number" ? instant : Date.parse(instant)
  if (!Number.isFinite(ms)) throw new RangeError(`invalid instant: ${String(instant)}`)
  return ms
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/**
 * Formats an instant as ISO 8601 with a numeric offset and whole seconds:
 * `formatIsoWithOffset(0)` is `1970-01-01T00:00:00+00:00`; with `offsetMinutes = 180`,
 * `1970-01-01T03:00:00+03:00`. The offset is a presentation choice; the instant is unchanged.
 */
export const formatIsoWithOffset = (instant: Instant, offsetMinutes = 0): string => {
  if (!Number.isInteger(offsetMinutes) || Math.abs(offsetMinutes) > 18 * 60) {
    throw new RangeError(`invalid UTC offset: ${offsetMinutes} minutes`)
  }
  const ms = toEpochMillis(instant)
  const local = new Date(Math.floor(ms / 1000) * 1000 + offsetMinutes * 60_000)
  const sign = offsetMinutes < 0 ? "-" : "+"
  const abs = Math.abs(offsetMinutes)
  return `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}

/** What a webhook payload is built from: the message and its final state. */
export interface WebhookPayloadInput {
  readonly messageId: string
  readonly to: string
  readonly status: WebhookFinalStatus
  readonly senderId: string
  /** Failure reason for `failed`; ignored (sent as null) for `delivered`. */
  readonly error?: string | null | undefined
  /** When the message reached its final state. */
  readonly finalAt: Instant
  /** When the event is emitted (the `timestamp` field, unix seconds). */
  readonly now: Instant
  /** Offset used to print `delivered_at` (minutes east of UTC). Default 0 (`+00:00`). */
  readonly utcOffsetMinutes?: number | undefined
}

/** Builds the spec §6 payload. */
export const buildWebhookPayload = (input: WebhookPayloadInput): WebhookPayload => ({
  event: webhookEventFor(input.status),
  message_id: input.messageId,
  to: input.to,
  status: input.status,
  sender_id: input.senderId,
  error: input.status === "delivered" ? null : (input.error ?? "Message delivery failed"),
  delivered_at: formatIsoWithOffset(input.finalAt, input.utcOffsetMinutes ?? 0),
  timestamp: Math.floor(toEpochMillis(input.now) / 1000)
})

/**
 * The exact JSON text that is signed and sent (compact, fields in spec order). Build it once and
 * store it: retries resend these same bytes with the same signature.
 */
export const serializeWebhookPayload = (payload: WebhookPayload): string =>
  JSON.stringify({
    event: payload.event,
    message_id: payload.message_id,
    to: payload.to,
    status: payload.status,
    sender_id: payload.sender_id,
    error: payload.error,
    delivered_at: payload.delivered_at,
    timestamp: payload.timestamp
  })

/** Payload plus its serialised body. */
export const buildWebhookBody = (
  input: WebhookPayloadInput
): { readonly payload: WebhookPayload; readonly body: string } => {
  const payload = buildWebhookPayload(input)
  return { payload, body: serializeWebhookPayload(payload) }
}

// ---------------------------------------------------------------------------------------------
// Signature (decisions.md §22, §27)
// ---------------------------------------------------------------------------------------------

/** Default signature header (decisions.md §22); deployments may rename it (§27). */
export const DEFAULT_SIGNATURE_HEADER = "X-Service-Signature"
/** Header naming a webhook's event (`sms.delivered`, `sms.failed`). */
export const EVENT_HEADER = "X-Service-Event"
/** Header carrying a webhook delivery's unique id; receivers deduplicate on it. */
export const DELIVERY_HEADER = "X-Service-Delivery"

/** Lowercase hex HMAC-SHA256 of the exact raw body with the endpoint's secret. */
export const signWebhook = (rawBody: string | Uint8Array, secret: string): string => hmacSha256Hex(secret, rawBody)

const HEX64 = /^[0-9a-f]{64}$/

/**
 * Checks a signature header against the raw body, in constant time. Tolerates surrounding
 * whitespace, upper-case hex, an optional `sha256=` prefix and Node's `string[]` header form
 * (the first value is used). Anything else (missing, wrong length, non-hex) is `false`.
 * Always pass the raw bytes received, never a re-serialised object.
 */
export const verifyWebhookSignature = (
  rawBody: string | Uint8Array,
  signatureHeader: string | ReadonlyArray<string> | null | undefined,
  secret: string
): boolean => {
  const raw = typeof signatureHeader === "string" ? signatureHeader : signatureHeader?.[0]
  if (raw === undefined || raw === null) return false
  let candidate = raw.trim().toLowerCase()
  if (candidate.startsWith("sha256=")) candidate = candidate.slice(7).trim()
  const expected = Buffer.from(signWebhook(rawBody, secret), "utf8")
  // Compare same-length buffers only; a malformed header still costs one comparison.
  const given = HEX64.test(candidate) ? Buffer.from(candidate, "utf8") : Buffer.alloc(expected.length)
  const equal = timingSafeEqual(given, expected)
  return equal && HEX64.test(candidate)
}

// ---------------------------------------------------------------------------------------------
// Retries and the consecutive-failure rule (decisions.md §23)
// ---------------------------------------------------------------------------------------------

/** When failed webhook deliveries are retried and after how many failures an endpoint is disabled. */
export interface WebhookRetryPolicy {
  /** Delay before each retry, in milliseconds; its length is the number of retries. */
  readonly retryDelaysMs: ReadonlyArray<number>
  /** Consecutive failed attempts on one endpoint that disable it. */
  readonly disableAfterConsecutiveFailures: number
  /** Per-attempt request timeout, in milliseconds. */
  readonly timeoutMs: number
}

/** 4 retries at 30 s, 2 min, 10 min and 1 h; disable after 10 consecutive failures; 10 s timeout. */
export const defaultWebhookRetryPolicy: WebhookRetryPolicy = {
  retryDelaysMs: [30_000, 120_000, 600_000, 3_600_000],
  disableAfterConsecutiveFailures: 10,
  timeoutMs: 10_000
}

/** Total attempts a delivery may take (the first plus the retries). */
export const maxAttempts = (policy: WebhookRetryPolicy): number => policy.retryDelaysMs.length + 1

/**
 * Delay before the next attempt after attempt number `attemptsMade` (1-based) failed, or `null`
 * when the retries are exhausted (the delivery is then finally failed).
 */
export const retryDelayAfter = (policy: WebhookRetryPolicy, attemptsMade: number): number | null => {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError(`invalid attempt: ${attemptsMade}`)
  const delay = policy.retryDelaysMs[attemptsMade - 1]
  return delay === undefined ? null : delay
}

/** Outcome of one HTTP attempt. */
export type WebhookAttemptOutcome = "success" | "failure"

/** Any 2xx is success; 1xx, 3xx (redirects are never followed), 4xx and 5xx are failures. */
export const classifyWebhookStatus = (status: number | null | undefined): WebhookAttemptOutcome =>
  status !== null && status !== undefined && status >= 200 && status <= 299 ? "success" : "failure"

/** An endpoint's failure count and whether it is disabled. */
export interface WebhookEndpointHealth {
  readonly consecutiveFailures: number
  readonly disabled: boolean
}

/** An endpoint's health after one delivery attempt. */
export interface WebhookEndpointHealthChange extends WebhookEndpointHealth {
  /** True exactly once: on the failed attempt that crossed the threshold. Notify then. */
  readonly justDisabled: boolean
}

/**
 * The consecutive-failure rule: a success resets the count; a failure increments it and, on reaching
 * the threshold, disables the endpoint. An endpoint already disabled stays as it is (only an
 * operator re-enables it, see {@link reenableWebhookEndpoint}).
 */
export const applyWebhookAttempt = (
  health: WebhookEndpointHealth,
  outcome: WebhookAttemptOutcome,
  policy: Pick<WebhookRetryPolicy, "disableAfterConsecutiveFailures"> = defaultWebhookRetryPolicy
): WebhookEndpointHealthChange => {
  // Attempts still in flight when the endpoint was disabled change nothing: it stays disabled with
  // the count that disabled it, until an operator re-enables it.
  if (health.disabled) return { ...health, justDisabled: false }
  if (outcome === "success") return { consecutiveFailures: 0, disabled: false, justDisabled: false }
  const consecutiveFailures = health.consecutiveFailures + 1
  const reached = consecutiveFailures >= policy.disableAfterConsecutiveFailures
  return { consecutiveFailures, disabled: reached, justDisabled: reached }
}

/** Re-enabling resets the count (decisions.md §23). Missed events are not resent by this. */
export const reenableWebhookEndpoint = (_health: WebhookEndpointHealth): WebhookEndpointHealth => ({
  consecutiveFailures: 0,
  disabled: false
})

// ---------------------------------------------------------------------------------------------
// Endpoint URLs
// ---------------------------------------------------------------------------------------------

/**
 * Null when `url` is usable as a webhook endpoint (absolute http/https, a host, no fragment, at
 * most 2048 characters), otherwise why not. Where it may connect to is checked at send time.
 */
export const webhookUrlProblem = (url: string): string | null => {
  if (url.length > 2048) return "URL is longer than 2048 characters"
  if (url.includes("\u0000")) return "URL must not contain the NUL character (U+0000)"
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "URL is not an absolute URL"
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "URL scheme must be http or https"
  if (parsed.hostname === "") return "URL has no host"
  if (parsed.hash !== "") return "URL must not contain a fragment"
  return null
}
