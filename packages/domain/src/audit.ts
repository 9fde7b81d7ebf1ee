/**
 * The audit log's pure rules: what an operator action records of the values it changed. Secrets
 * never reach the log — a password, an API key secret, an SMPP password, a token — and are
 * recorded as `"***"`.
 */

/** What a secret is recorded as. */
export const REDACTED = "***"

/**
 * Field names whose values are secrets (case-insensitive): passwords (`password`, `smpp_password`,
 * `passwd`), secrets (`secret`, `webhook_secret`), tokens, private keys, credentials, and `key`
 * itself (an issued API key). `key_hash` and `prefix` are not secrets and stay.
 */
const SECRET_FIELD = /pass(word|wd)?$|password|secret|token|credential|private|^key$|^api_key$/i

/** Whether a field of a recorded value holds a secret. */
export const isSecretField = (name: string): boolean => SECRET_FIELD.test(name)

/**
 * A copy of `value` fit for the audit log: every secret field (at any depth, in objects and arrays)
 * replaced by `"***"`, `Date`s as ISO strings, `undefined` fields dropped, `bigint`s as strings.
 * A non-null secret is replaced even when it is an object; `null` stays `null` (no secret to hide).
 */
export const redactSecrets = (value: unknown): unknown => {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return value.toISOString()
  if (typeof value === "bigint") return value.toString()
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`
  if (Array.isArray(value)) return value.map(redactSecrets)
  if (typeof value === "object") {
    const out: Record<string, unknown> = {}
    const entries: Array<[string, unknown]> = Object.entries(value)
    for (const [k, v] of entries) {
      if (v === undefined) continue
      out[k] = isSecretField(k) && v !== null ? REDACTED : redactSecrets(v)
    }
    return out
  }
  return value
}
