/**
 * The hashes, MACs and random bytes the rules use, without `node:crypto` (domain and core import
 * no platform module; lint refuses `node:*` there): SHA-256 and HMAC-SHA256 from `@noble/hashes`
 * (pure, synchronous, the same digests as any implementation), random bytes from Web Crypto
 * (`globalThis.crypto.getRandomValues`, in Node 20 and every browser).
 */
import { hmac } from "@noble/hashes/hmac.js"
import { sha256 } from "@noble/hashes/sha2.js"

const encoder = new TextEncoder()
const bytesOf = (data: string | Uint8Array): Uint8Array => typeof data === "string" ? encoder.encode(data) : data

/** SHA-256 of `data` (a string is hashed as UTF-8). */
export const sha256Bytes = (data: string | Uint8Array): Uint8Array => sha256(bytesOf(data))

/** SHA-256 of `data`, lowercase hex. */
export const sha256Hex = (data: string | Uint8Array): string => Buffer.from(sha256Bytes(data)).toString("hex")

/** SHA-256 of `data`, base64url without padding. */
export const sha256Base64url = (data: string | Uint8Array): string =>
  Buffer.from(sha256Bytes(data)).toString("base64url")

/** HMAC-SHA256 of `data` with `key`, lowercase hex. */
export const hmacSha256Hex = (key: string | Uint8Array, data: string | Uint8Array): string =>
  Buffer.from(hmac(sha256, bytesOf(key), bytesOf(data))).toString("hex")

/** `n` cryptographically random bytes (Web Crypto). */
export const randomBytes = (n: number): Uint8Array => {
  const bytes = new Uint8Array(n)
  // getRandomValues fills at most 65,536 bytes a call
  for (let at = 0; at < n; at += 65_536) globalThis.crypto.getRandomValues(bytes.subarray(at, at + 65_536))
  return bytes
}

/** `n` random bytes, base64url without padding (tokens, secrets). */
export const randomBase64url = (n: number): string => Buffer.from(randomBytes(n)).toString("base64url")

/**
 * Whether `a` and `b` hold the same bytes, in time that depends on their length only (never on
 * where they differ). Different lengths are unequal.
 */
export const timingSafeEqual = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i]
  return diff === 0
}
