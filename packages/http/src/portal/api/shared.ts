/**
 * The portal contract's security declarations: cookies, the CSRF header, roles, the signed-in
 * user and the middlewares every portal endpoint stands behind (`forMember`, `forOwner`, `beforeSignIn`).
 */
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import { Context, Schema } from "effect"
import { behind, done, NullTs, Ts } from "../../shared/apiSchemas.js"
import { Forbidden, Unauthorized } from "../../shared/Envelope.js"

export const PortalDone = done("PortalDone")

// --- security ------------------------------------------------------------------------------

/** Cookie holding the session id (HttpOnly). */
export const SESSION_COOKIE = "tuma_portal_session"
/** Cookie holding the pre-session CSRF token (double submit before sign-in). */
export const CSRF_COOKIE = "tuma_portal_csrf"
/** Header every state-changing portal request carries. */
export const CSRF_HEADER = "x-csrf-token"

export const PortalRole = Schema.Literal("owner", "member")
export type PortalRole = typeof PortalRole.Type

export const Locale = Schema.Literal("en", "sw")
export type Locale = typeof Locale.Type

/** The signed-in user of a portal request. */
export interface PortalUserContext {
  readonly userId: string
  readonly accountId: string
  readonly role: PortalRole
  /** SHA-256 of the session id (the stored key). */
  readonly sessionId: string
  readonly email: string
  readonly timeZone: string
}

export class CurrentPortalUser extends Context.Tag("@tuma/http/CurrentPortalUser")<
  CurrentPortalUser,
  PortalUserContext
>() {}

const sessionFailure = Schema.Union(Unauthorized, Forbidden)

/** A signed-in user (owner or member); CSRF-checked on state changes. */
export class PortalSession extends HttpApiMiddleware.Tag<PortalSession>()("@tuma/http/PortalSession", {
  provides: CurrentPortalUser,
  failure: sessionFailure
}) {}

/** A signed-in owner; CSRF-checked on state changes. Members get 403. */
export class PortalOwner extends HttpApiMiddleware.Tag<PortalOwner>()("@tuma/http/PortalOwner", {
  provides: CurrentPortalUser,
  failure: sessionFailure
}) {}

/** State changes without a session (sign in, accept invitation, password reset): the pre-session
 * CSRF token (double submit) and the Origin check. */
export class PortalAnonymousCsrf extends HttpApiMiddleware.Tag<PortalAnonymousCsrf>()(
  "@tuma/http/PortalAnonymousCsrf",
  { failure: Forbidden }
) {}

export const PortalUser = Schema.Struct({
  uid: Schema.String,
  email: Schema.String,
  name: Schema.String,
  role: PortalRole,
  locale: Locale,
  time_zone: Schema.String.annotations({ description: "IANA zone, default Africa/Dar_es_Salaam" }),
  created_at: Ts,
  last_sign_in_at: NullTs,
  /** Signs in with a second factor (TOTP). */
  two_factor: Schema.Boolean
}).annotations({ identifier: "PortalUser" })
export type PortalUser = typeof PortalUser.Type

/** Any signed-in user: owner or member. */
export const forMember = behind(PortalSession)
/** A signed-in owner (a member gets 403). */
export const forOwner = behind(PortalOwner)
/** A state change before sign-in: the pre-session CSRF token and the Origin check. */
export const beforeSignIn = behind(PortalAnonymousCsrf)
