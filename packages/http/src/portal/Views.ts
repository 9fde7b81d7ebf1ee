/**
 * Portal wire views of core rows, and portal failures to envelope failures.
 */
import type { AccountSummaryRow, TokenRow, UserRow } from "@tuma/core"
import type { SignedIn } from "@tuma/core/portal/PortalAccess"
import { Effect } from "effect"
import { requestUid } from "../shared/Envelope.js"
import { Forbidden, TooManyRequests, Unauthorized } from "../shared/Envelope.js"
import type { DomainFailure } from "../shared/Errors.js"
import { toApiFailure } from "../shared/Errors.js"
import type { PortalAccount, PortalUser, PortalUserContext, SessionView } from "./Api.js"
import { CurrentPortalUser } from "./Api.js"

const iso = (d: Date | null) => (d === null ? null : d.toISOString())

export const userView = (u: UserRow): PortalUser => ({
  uid: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  locale: u.locale,
  time_zone: u.time_zone,
  created_at: u.created_at.toISOString(),
  last_sign_in_at: iso(u.last_sign_in_at),
  two_factor: u.two_factor
})

export const accountView = (a: AccountSummaryRow): PortalAccount => ({
  uid: a.id,
  name: a.name,
  email: a.email,
  active: a.active
})

export const invitationView = (t: TokenRow) => ({
  uid: t.id,
  email: t.email,
  role: t.role ?? "member" as const,
  invited_by: t.invited_by,
  created_at: t.created_at.toISOString(),
  expires_at: t.expires_at.toISOString(),
  accepted_at: iso(t.used_at)
})

export const sessionView = (
  signedIn: Pick<SignedIn, "session" | "user" | "account">,
  expires: { readonly idle: Date; readonly absolute: Date }
): SessionView => ({
  user: userView(signedIn.user),
  account: accountView(signedIn.account),
  csrf_token: signedIn.session.csrf_token,
  idle_expires_at: expires.idle.toISOString(),
  absolute_expires_at: expires.absolute.toISOString()
})

/** `{ success: true, request_uid, data }`. */
export const ok = <A>(data: A) =>
  Effect.map(requestUid, (request_uid) => ({ success: true as const, request_uid, data }))

export const done = ok({ ok: true as const })

/** A core failure as the envelope answers it (sign-in failures: 401 and 429). */
export const portalFailure = (e: DomainFailure) => {
  switch (e.error_code) {
    case "INVALID_CREDENTIALS":
      return Unauthorized.of({ message: e.message, error_code: e.error_code })
    case "LOGIN_LOCKED": {
      const retry = String(Math.max(1, Math.ceil(e.retry_after_seconds ?? 1)))
      return TooManyRequests.of({ message: e.message, error_code: e.error_code }, { "retry-after": retry })
    }
    case "OWNER_REQUIRED":
      return Forbidden.of({ message: e.message, error_code: e.error_code })
    default:
      return toApiFailure(e)
  }
}

export const mapFailure = <A, E extends DomainFailure, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapError(effect, portalFailure)

/** `f` of the request's signed-in portal user. */
export const withUser = <A, E, R>(f: (user: PortalUserContext) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(CurrentPortalUser, f)

/** Runs a core change and answers `{ ok: true }` (a core failure as its envelope failure). */
export const doneAfter = <A, E extends DomainFailure, R>(change: Effect.Effect<A, E, R>) =>
  Effect.zipRight(mapFailure(change), done)

/** Runs a core change and answers its result as `view` shows it (a core failure as its envelope failure). */
export const okAfter = <A, B, E extends DomainFailure, R>(change: Effect.Effect<A, E, R>, view: (a: A) => B) =>
  Effect.flatMap(mapFailure(change), (a) => ok(view(a)))
