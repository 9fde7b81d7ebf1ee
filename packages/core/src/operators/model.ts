/**
 * The operator users' views, outcomes and rules shared by the parts of `OperatorAccess`: the TOTP of a
 * secret, recovery codes, the invitation link, the console's view of an operator, the errors.
 */
import { ResourceNotFound } from "@tuma/domain/errors"
import type { OperatorRole } from "@tuma/domain/operatorRoles"
import * as Totp from "@tuma/domain/totp"
import type { OperatorSessionRow, OperatorUserRow } from "../ports/OperatorUserStore.js"

/** The issuer shown by authenticator apps. */
export const TOTP_ISSUER = "Tuma console"
export { normalizeCode, PERIOD_S, RECOVERY_CODE_COUNT, recoveryCode } from "@tuma/domain/totp"

/** The TOTP of a base32 secret for an operator's e-mail (the domain's rule, the console's issuer). */
export const totpFor = (secret: string, email: string) => Totp.totpFor(secret, email, TOTP_ISSUER)

/** An e-mail as stored: trimmed, lowercase. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase()

/** The invitation link of a token. */
export const operatorInvitationLink = (base: string, token: string) =>
  `${base.replace(/\/+$/, "")}/console/accept-invitation?token=${encodeURIComponent(token)}`

/** An operator user as the console shows it (no secrets). */
export interface OperatorView {
  readonly uid: string
  readonly email: string
  readonly name: string
  readonly role: OperatorRole
  readonly status: "invited" | "active" | "disabled"
  readonly totp_enrolled: boolean
  readonly created_at: string
  readonly last_sign_in_at: string | null
}

/** The view of a row. */
export const operatorView = (row: OperatorUserRow): OperatorView => ({
  uid: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  status: row.disabled_at !== null ? "disabled" : row.password_hash === null ? "invited" : "active",
  totp_enrolled: row.totp_secret !== null,
  created_at: row.created_at.toISOString(),
  last_sign_in_at: row.last_sign_in_at?.toISOString() ?? null
})

/** The outcome of a sign-in with the right password and code. */
export interface OperatorSignedIn {
  readonly _tag: "SignedIn"
  /** The raw session id: goes into the cookie, never stored. */
  readonly sessionId: string
  readonly session: OperatorSessionRow
  readonly operator: OperatorUserRow
  /** Present once: the recovery codes of a new enrolment. */
  readonly recoveryCodes: ReadonlyArray<string> | undefined
}

/** The right password from an admin not enrolled yet: enrol this secret, then sign in with a code. */
export interface EnrolmentRequired {
  readonly _tag: "EnrolmentRequired"
  readonly secret: string
  readonly uri: string
}

/** Who is signed in. */
export interface OperatorAuthenticated {
  readonly session: OperatorSessionRow
  readonly operator: OperatorUserRow
}

/** The client of a request (for lockout and the session record). */
export interface OperatorClient {
  readonly ip: string | null
  readonly userAgent: string | null
}

/** No such operator (404). */
export const notFound = (id: string) =>
  new ResourceNotFound({ message: "The operator was not found.", resource: "operator", id })
/** An invitation used, expired or unknown (404). */
export const invitationInvalid = () =>
  new ResourceNotFound({
    message: "This invitation is not valid: it was used or has expired.",
    resource: "operator_invitation",
    id: ""
  })
