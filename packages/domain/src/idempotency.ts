/**
 * Idempotency (spec §8, decisions.md §24): a canonical fingerprint of (endpoint, parsed body) and the
 * new / replay / conflict decision for a stored record.
 */
import { Duration } from "effect"
import { sha256Hex } from "./crypto.js"
import { IdempotencyKeyReused } from "./errors.js"

/**
 * Canonical JSON of a parsed value: object keys sorted (UTF-16 code unit order) at every depth,
 * no whitespace, `undefined` object members dropped, array order kept, numbers as `JSON.stringify`
 * prints them (so `1.0` and `1`, `1e2` and `100` are the same once parsed). Values with `toJSON`
 * (dates) are replaced by its result, as `JSON.stringify` does.
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || value === undefined) return "null"
  switch (typeof value) {
    case "string":
      return JSON.stringify(value)
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null"
    case "boolean":
      return value ? "true" : "false"
    case "bigint":
      return value.toString()
    case "object": {
      const toJSON = "toJSON" in value ? value.toJSON : undefined
      if (typeof toJSON === "function") return canonicalJson(toJSON.call(value))
      if (Array.isArray(value)) {
        return `[${
          value.map((v) => (v === undefined || typeof v === "function" ? "null" : canonicalJson(v))).join(",")
        }]`
      }
      const entries: Array<[string, unknown]> = Object.entries(value)
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      const members: Array<string> = []
      for (const [k, v] of entries) {
        if (v === undefined || typeof v === "function" || typeof v === "symbol") continue
        members.push(`${JSON.stringify(k)}:${canonicalJson(v)}`)
      }
      return `{${members.join(",")}}`
    }
    default:
      return "null"
  }
}

/**
 * SHA-256 (lowercase hex) of the endpoint and the canonical JSON of the parsed body. Pass the same
 * `endpoint` for an endpoint and its aliases (e.g. `"POST /v1/sms/messages"` for
 * `/v1/sms/quick-message` too), since aliases behave identically.
 */
export const idempotencyFingerprint = (endpoint: string, body: unknown): string =>
  sha256Hex(`${endpoint}\n${canonicalJson(body)}`)

/** Retention of idempotency records (decisions.md §24). */
export const IDEMPOTENCY_TTL: Duration.Duration = Duration.hours(24)

/** The stored part the decision needs. */
export interface IdempotencyRecordLike {
  readonly fingerprint: string
  readonly created_at: Date
}

/**
 * What to do with a request carrying an `Idempotency-Key`, given the stored record `R` of that key (see
 * `decideIdempotency`).
 */
export type IdempotencyDecision<R> =
  /** No live record: process the request (and store a record). `expired` is the stale record, if any. */
  | { readonly _tag: "New"; readonly expired?: R | undefined }
  /** Same key, same content: answer the first response with `idempotent_replay: true`. */
  | { readonly _tag: "Replay"; readonly record: R }
  /** Same key, different content: 409 `IDEMPOTENCY_KEY_REUSED`. */
  | { readonly _tag: "Conflict"; readonly record: R; readonly error: IdempotencyKeyReused }

/**
 * Decides what a request with an idempotency key does. A record whose age is `ttl` or more counts
 * as absent (`New`, with the stale record in `expired`).
 */
export const decideIdempotency = <R extends IdempotencyRecordLike>(
  stored: R | undefined | null,
  fingerprint: string,
  now: Date,
  ttl: Duration.DurationInput = IDEMPOTENCY_TTL
): IdempotencyDecision<R> => {
  if (stored == null) return { _tag: "New" }
  if (isIdempotencyRecordExpired(stored, now, ttl)) return { _tag: "New", expired: stored }
  if (stored.fingerprint === fingerprint) return { _tag: "Replay", record: stored }
  return {
    _tag: "Conflict",
    record: stored,
    error: new IdempotencyKeyReused({
      message: "This Idempotency-Key was already used with a different request. Use a new key for a new message."
    })
  }
}

/** True when the record is at least `ttl` old at `now`. */
export const isIdempotencyRecordExpired = (
  stored: IdempotencyRecordLike,
  now: Date,
  ttl: Duration.DurationInput = IDEMPOTENCY_TTL
): boolean => now.getTime() - stored.created_at.getTime() >= Duration.toMillis(Duration.decode(ttl))
