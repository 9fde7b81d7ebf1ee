/**
 * The second factor of a sign-in, one rule for the console's operators and the portal's users:
 * TOTP (RFC 6238 through `otpauth`: SHA-1, 6 digits, 30-second steps, one step of drift either
 * way; a step is accepted once, which the store enforces), and one-time recovery codes (ten, shown
 * once, stored as SHA-256 of their normal form).
 */
import { Secret, TOTP } from "otpauth"

/** The TOTP step, in seconds. */
export const PERIOD_S = 30
/** How many recovery codes an enrolment gives. */
export const RECOVERY_CODE_COUNT = 10

/** The TOTP of a base32 secret, labelled for an authenticator app (`issuer: label`). */
export const totpFor = (secret: string, label: string, issuer: string) =>
  new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret)
  })

/** A new random TOTP secret (160 bits, base32). */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32

/** The `otpauth://` address of a secret (what the QR code holds). */
export const totpUri = (secret: string, label: string, issuer: string): string =>
  totpFor(secret, label, issuer).toString()

/**
 * The TOTP step a code matches at `at` (±1 step), or undefined (not six digits, or wrong). The caller
 * accepts the step only if it is later than the last one used (no replay).
 */
export const totpStep = (secret: string, code: string, at: Date): number | undefined => {
  const token = code.replace(/\s/g, "")
  if (!/^\d{6}$/.test(token)) return undefined
  const delta = totpFor(secret, "", "").validate({ token, timestamp: at.getTime(), window: 1 })
  return delta === null ? undefined : Math.floor(at.getTime() / 1000 / PERIOD_S) + delta
}

/** A fresh recovery code: 10 characters of base32 in two groups (`abcde-fghij`). */
export const recoveryCode = (): string => {
  const s = new Secret({ size: 7 }).base32.toLowerCase().slice(0, 10)
  return `${s.slice(0, 5)}-${s.slice(5)}`
}

/** A recovery code as stored (before hashing): lowercase, no spaces or dashes. */
export const normalizeCode = (code: string): string => code.trim().toLowerCase().replace(/[\s-]/g, "")

/** Whether a code as typed looks like a TOTP code (six digits) rather than a recovery code. */
export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s/g, ""))
