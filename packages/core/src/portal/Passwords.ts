/**
 * Portal passwords: scrypt through the `Scrypt` port (N = 2^15, r = 8, p = 1, 64-byte key, 16-byte
 * salt), stored as `scrypt$N$r$p$<salt b64url>$<key b64url>` so the cost can grow without a
 * migration. Verification is constant-time and reads the cost from the stored string.
 */
import { randomBytes, timingSafeEqual } from "@tuma/domain/crypto"
import { Effect } from "effect"
import { Scrypt } from "../ports/Scrypt.js"

/** The shortest password accepted (characters). */
export const PASSWORD_MIN_LENGTH = 10
/** The longest password accepted (characters). */
export const PASSWORD_MAX_LENGTH = 200

const N = 1 << 15
const R = 8
const P = 1
const KEY_LENGTH = 64

const derive = (password: string, salt: Uint8Array, n: number, r: number, p: number) =>
  Effect.flatMap(
    Scrypt,
    (scrypt) => scrypt.derive(password.normalize("NFKC"), salt, { N: n, r, p, keyLength: KEY_LENGTH })
  )

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")

/** The stored form of a new password. */
export const hashPassword = (password: string): Effect.Effect<string> =>
  Effect.suspend(() => {
    const salt = randomBytes(16)
    return Effect.map(
      derive(password, salt, N, R, P),
      (key) => `scrypt$${N}$${R}$${P}$${base64url(salt)}$${base64url(key)}`
    )
  })

/** Whether `password` matches the stored form (false for a malformed stored form). */
export const verifyPassword = (password: string, stored: string): Effect.Effect<boolean> =>
  Effect.suspend(() => {
    const parts = stored.split("$")
    if (parts.length !== 6 || parts[0] !== "scrypt") return Effect.succeed(false)
    const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])]
    if (![n, r, p].every((x) => Number.isInteger(x) && x > 0) || n > 1 << 20) return Effect.succeed(false)
    const expected = Buffer.from(parts[5], "base64url")
    return Effect.map(
      derive(password, Buffer.from(parts[4], "base64url"), n, r, p),
      (key) => timingSafeEqual(key, expected)
    )
  })

/** A stored form that matches no password: verified against when the e-mail is unknown, so an
 * unknown address costs as much time as a wrong password. */
export const DUMMY_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString("base64url")}$${
  Buffer.alloc(KEY_LENGTH).toString("base64url")
}`

/** The password rules (length only, as NIST SP 800-63B); undefined when acceptable. */
export const passwordProblem = (password: string): string | undefined => {
  const n = [...password].length
  if (n < PASSWORD_MIN_LENGTH) return `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`
  if (n > PASSWORD_MAX_LENGTH) return `The password must not be greater than ${PASSWORD_MAX_LENGTH} characters.`
  return undefined
}
