/**
 * What the portal access use cases answer and refuse, and their small pure helpers (tokens, e-mail
 * addresses, time zones, links); see `PortalAccess.ts`.
 */
import { randomBase64url, sha256Base64url } from "@tuma/domain/crypto"
import { Effect, Schema } from "effect"
import type { AccountSummaryRow, SessionRow, UserRow } from "../ports/PortalStore.js"

// --- errors ----------------------------------------------------------------------------------

/** `INVALID_CREDENTIALS`: a wrong e-mail, password or code (HTTP 401; the same answer for an unknown e-mail). */
export class InvalidCredentials extends Schema.TaggedError<InvalidCredentials>()("InvalidCredentials", {
  message: Schema.String
}) {
  readonly error_code = "INVALID_CREDENTIALS" as const
}

/** `LOGIN_LOCKED`: too many failed sign-ins; retry after `retry_after_seconds` (HTTP 429). */
export class LoginLocked extends Schema.TaggedError<LoginLocked>()("LoginLocked", {
  message: Schema.String,
  retry_after_seconds: Schema.Number
}) {
  readonly error_code = "LOGIN_LOCKED" as const
}

// --- shapes ----------------------------------------------------------------------------------

/** A successful sign-in: the new session (its raw id for the cookie), the user and the account. */
export interface SignedIn {
  /** The raw session id: goes into the cookie, never stored. */
  readonly sessionId: string
  readonly session: SessionRow
  readonly user: UserRow
  readonly account: AccountSummaryRow
}

/** An enrolment to finish: the secret and its `otpauth://` address (the QR code). */
export interface TwoFactorEnrolment {
  readonly secret: string
  readonly uri: string
}

/** What the password alone leads to when a second factor is needed. */
export type SecondFactorStep =
  | { readonly _tag: "CodeRequired" }
  | ({ readonly _tag: "EnrolmentRequired" } & TwoFactorEnrolment)

/** A live session found by its cookie, with its user. */
export interface Authenticated {
  readonly session: SessionRow
  readonly user: UserRow
}

/** Who made a request, as recorded with a session: client address and user agent. */
export interface ClientInfo {
  readonly ip: string | null
  readonly userAgent: string | null
}

/** A new random token (32 bytes, base64url): session ids, CSRF tokens, e-mailed tokens. */
export const randomToken = (): string => randomBase64url(32)
/** SHA-256 of a token (base64url): what is stored in place of the token. */
export const sha256 = (s: string): string => sha256Base64url(s)

/**
 * A new session's secret and times (a portal or console session): a random session id (the
 * cookie's; only its hash is stored), a CSRF token, and the absolute expiry `absoluteMs` after `at`.
 */
export const sessionSecrets = (at: Date, absoluteMs: number) => {
  const sessionId = randomToken()
  return {
    sessionId,
    row: {
      id_hash: sha256(sessionId),
      csrf_token: randomToken(),
      created_at: at,
      last_seen_at: at,
      absolute_expires_at: new Date(at.getTime() + absoluteMs)
    }
  }
}

/** The request's client as recorded with a session (the user agent cut to 300 characters). */
export const sessionClient = (client: ClientInfo) => ({
  ip: client.ip,
  user_agent: client.userAgent?.slice(0, 300) ?? null
})

/** A plausible e-mail address (something@host.tld). */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** An e-mail address as stored and compared: trimmed, lowercase. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase()

/** Why an e-mail address is refused, or undefined. */
export const emailProblem = (email: string) =>
  EMAIL.test(email.trim()) && email.length <= 254 ? undefined : "The email must be a valid email address."

/** IANA zone names the runtime knows. */
export const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz })
    return tz.length > 0 && tz.length <= 64
  } catch {
    return false
  }
}

/** The portal link of an e-mailed invitation. */
export const invitationLink = (base: string, token: string) =>
  `${base.replace(/\/+$/, "")}/portal/accept-invitation?token=${encodeURIComponent(token)}`
/** The portal link of an e-mailed password reset. */
export const resetLink = (base: string, token: string) =>
  `${base.replace(/\/+$/, "")}/portal/reset-password?token=${encodeURIComponent(token)}`

/** A session's times, as the portal's and the console's sessions both keep them. */
export interface SessionTimes {
  readonly absolute_expires_at: Date
  readonly last_seen_at: Date
}

/** The session has passed its absolute lifetime or been idle for `idleMs`: it is over. */
export const sessionEnded = (session: SessionTimes, now: Date, idleMs: number): boolean =>
  session.absolute_expires_at.getTime() <= now.getTime() || session.last_seen_at.getTime() + idleMs <= now.getTime()

/** Refresh the idle expiry at most once a minute (one write per minute of use, not per request). */
export const sessionNeedsTouch = (session: SessionTimes, now: Date, idleMs: number): boolean =>
  now.getTime() - session.last_seen_at.getTime() >= Math.min(60_000, idleMs / 4)

/** What `authenticate` needs of a sessions store (the portal's and the console's). */
export interface SessionLookup<Found extends { readonly session: SessionTimes }> {
  readonly session: (idHash: string) => Effect.Effect<Found | undefined>
  readonly deleteSession: (idHash: string) => Effect.Effect<unknown>
  readonly touchSession: (idHash: string, now: Date) => Effect.Effect<unknown>
}

/**
 * The live session named by the raw id of a cookie, with its idle expiry refreshed when due
 * (`sessionNeedsTouch`); an ended one — or one `refused` (a disabled operator) — is deleted and
 * answers undefined, as does a malformed id.
 */
export const authenticateSession = <Found extends { readonly session: SessionTimes }>(
  store: SessionLookup<Found>,
  now: Effect.Effect<Date>,
  idleMs: number,
  sessionId: string,
  refused: (found: Found) => boolean = () => false
): Effect.Effect<Found | undefined> =>
  Effect.gen(function*() {
    if (sessionId === "" || sessionId.length > 200) return undefined
    const idHash = sha256(sessionId)
    const found = yield* store.session(idHash)
    if (found === undefined) return undefined
    const t = yield* now
    if (refused(found) || sessionEnded(found.session, t, idleMs)) {
      yield* store.deleteSession(idHash)
      return undefined
    }
    if (sessionNeedsTouch(found.session, t, idleMs)) {
      yield* store.touchSession(idHash, t)
      return { ...found, session: { ...found.session, last_seen_at: t } }
    }
    return found
  })
