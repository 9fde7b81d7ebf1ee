/** The portal's sessions and CSRF, as the contract declares them: cookies, header, roles and middlewares. */
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import { Context, Schema } from "effect"
import { Forbidden, Unauthorized } from "../shared/Envelope.js"

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
