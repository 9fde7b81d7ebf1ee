/**
 * API keys: issue (the key is answered once; only its SHA-256 is stored), list, read, update, revoke.
 */
import type { ValidationFailed } from "@tuma/domain"
import { Cidr, isPlaceholderKey, parseIsoDateTime, validationFailed } from "@tuma/domain"
import { randomBytes } from "@tuma/domain/crypto"
import { Effect, Either, Option } from "effect"
import { hashApiKey } from "../ports/ApiKeys.js"
import type { ApiKeyRow } from "../ports/OperatorStore.js"
import type { AdminContext } from "./context.js"
import { notFound, UUID } from "./context.js"
import type { AdminService } from "./service.js"
import { apiKeyView } from "./viewsOf.js"

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

/** Every scope of spec §5.4. */
export const API_KEY_SCOPES = [
  "sms:read",
  "sms:send",
  "sender-ids:read",
  "sender-ids:write",
  "profile:read",
  "sms:inbound"
] as const

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
/** How many random base62 characters follow `tuma_live_` / `tuma_test_` in a key. */
export const API_KEY_RANDOM_LENGTH = 40

/**
 * A new key: `tuma_<mode>_` + 40 base62 characters (≈ 238 bits), drawn without modulo bias. Only
 * letters and digits, so it matches the auth middleware's key pattern and survives any URL; never a
 * documentation placeholder (drawn again in the unlikely case).
 */
export const generateApiKey = (mode: "live" | "test"): string => {
  for (;;) {
    let s = ""
    while (s.length < API_KEY_RANDOM_LENGTH) {
      for (const b of randomBytes(64)) {
        if (b < 248 && s.length < API_KEY_RANDOM_LENGTH) s += BASE62[b % 62]
      }
    }
    const key = `tuma_${mode}_${s}`
    // never one the auth middleware would take for a documentation placeholder
    if (!isPlaceholderKey(key)) return key
  }
}

/** Shown in listings: `tuma_live_AbCd…`. */
export const apiKeyPrefix = (key: string): string => key.slice(0, 14)

/** What is stored for a key: its SHA-256 hex digest (the key itself never is); defined by the `ApiKeys` port. */
export { hashApiKey }

/**
 * An IPv4/IPv6 address or CIDR (`10.0.0.0/8`, `2001:db8::/32`): exactly what the key's allow-list
 * matcher (`Cidr.matcher`) will parse.
 */
export const isIpOrCidr = (value: string): boolean => Cidr.parseBlock(value.trim()) !== undefined

/** Scopes, allowed IPs/CIDRs and expiry of a key payload, checked together (422 by field). */
export const checkKeyFields = (
  input: {
    readonly scopes?: ReadonlyArray<string> | undefined
    readonly allowed_ips?: ReadonlyArray<string> | undefined
    readonly expires_at?: string | null | undefined
  },
  at: Date
): Either.Either<{ expires: Date | null | undefined }, ValidationFailed> => {
  const errors: Record<string, Array<string>> = {}
  ;(input.scopes ?? []).forEach((s, i) => {
    if (!API_KEY_SCOPES.some((scope) => scope === s)) {
      errors[`scopes.${i}`] = [`The selected scopes.${i} is invalid: scopes are ${API_KEY_SCOPES.join(", ")}.`]
    }
  })
  ;(input.allowed_ips ?? []).forEach((ip, i) => {
    if (!isIpOrCidr(ip)) errors[`allowed_ips.${i}`] = [`The allowed_ips.${i} field must be an IP address or CIDR.`]
  })
  let expires: Date | null | undefined = input.expires_at === null ? null : undefined
  if (typeof input.expires_at === "string") {
    const parsed = parseIsoDateTime(input.expires_at)
    if (parsed === undefined) errors.expires_at = ["The expires_at field must be a valid ISO 8601 date-time."]
    else if (parsed.getTime() <= at.getTime()) {
      errors.expires_at = ["The expires_at field must be a date-time in the future."]
    } else expires = parsed
  }
  return Object.keys(errors).length > 0 ? Either.left(validationFailed(errors)) : Either.right({ expires })
}

/** API keys: issue (the key is answered once; only its SHA-256 is stored), list, read, update, revoke. */
export const makeApiKeys = (
  ctx: AdminContext
): Pick<AdminService, "issueApiKey" | "listApiKeys" | "getApiKey" | "updateApiKey" | "revokeApiKey"> => {
  const { admin, op, ids, now, account, apiKeyRow } = ctx
  return {
    issueApiKey: (input) =>
      Effect.gen(function*() {
        const at = yield* now
        const { expires } = yield* checkKeyFields(input, at)
        yield* account(input.account_uid)
        const mode = input.mode ?? "live"
        const key = generateApiKey(mode)
        const row: ApiKeyRow = {
          id: yield* ids.uuidV4,
          account_id: input.account_uid,
          name: input.name?.trim() ?? "",
          key_hash: hashApiKey(key),
          prefix: apiKeyPrefix(key),
          mode,
          scopes: [...new Set(input.scopes ?? API_KEY_SCOPES)],
          allowed_ips: (input.allowed_ips ?? []).map((ip) => ip.trim()),
          expires_at: expires ?? null,
          revoked_at: null,
          last_used_at: null,
          created_at: at
        }
        yield* op.insertApiKey(row)
        return { key, api_key: apiKeyView(row, at) }
      }),

    listApiKeys: (accountId) =>
      Effect.gen(function*() {
        yield* account(accountId)
        const at = yield* now
        return (yield* admin.listApiKeys(accountId)).map((k) => apiKeyView(k, at))
      }),

    getApiKey: (keyId) => Effect.zipWith(apiKeyRow(keyId), now, apiKeyView),

    updateApiKey: (keyId, input) =>
      Effect.gen(function*() {
        const at = yield* now
        const { expires } = yield* checkKeyFields(input, at)
        yield* apiKeyRow(keyId)
        const updated = yield* admin.updateApiKey(keyId, {
          name: input.name?.trim(),
          scopes: input.scopes === undefined ? undefined : [...new Set(input.scopes)],
          allowed_ips: input.allowed_ips?.map((ip) => ip.trim()),
          expires_at: expires
        })
        return yield* Option.match(updated, {
          onNone: () => Effect.fail(notFound("api_key", keyId)),
          onSome: (row) => Effect.succeed(apiKeyView(row, at))
        })
      }),

    revokeApiKey: (keyId) =>
      Effect.gen(function*() {
        const at = yield* now
        const revoked = UUID.test(keyId) ? yield* admin.revokeApiKey(keyId, at) : Option.none()
        return yield* Option.match(revoked, {
          onNone: () => Effect.fail(notFound("api_key", keyId)),
          onSome: (row) => Effect.succeed(apiKeyView(row, at))
        })
      })
  }
}
