/**
 * The portal's session and CSRF middlewares (the tags are in `PortalApi.ts`):
 *
 * - `PortalSession` / `PortalOwner`: the `tuma_portal_session` cookie names a live session
 *   (else 401 `SESSION_REQUIRED`); on POST/PATCH/PUT/DELETE the request's origin is the portal's
 *   and `X-CSRF-Token` equals the session's token (else 403 `CSRF_FAILED`); `PortalOwner` also
 *   requires the owner role (else 403 `OWNER_REQUIRED`).
 * - `PortalAnonymousCsrf` (sign-in, invitations, password reset): the origin check, and
 *   `X-CSRF-Token` equal to the `tuma_portal_csrf` cookie (double submit) — or, when the browser
 *   is signed in already, to its session's token (what `GET /portal/api/session/csrf` answered).
 *
 * Cookies are HttpOnly, SameSite=Lax, Path=/portal, and `Secure` when the request came over TLS,
 * or with `X-Forwarded-Proto: https` from a trusted proxy (`TUMA_TRUSTED_PROXIES`), or when the
 * public URL is https.
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Actor } from "@tuma/core/audit/Actor"
import { PortalAccess } from "@tuma/core/portal/PortalAccess"
import type { Authenticated, ClientInfo, SignedIn } from "@tuma/core/portal/PortalAccess"
import { PortalConfig } from "@tuma/core/portal/PortalConfig"
import { Cidr } from "@tuma/domain"
import { Context, Effect, Layer, Option } from "effect"
import { timingSafeEqual } from "node:crypto"
import { IncomingMessage } from "node:http"
import { TLSSocket } from "node:tls"
import { ServerConfig } from "../runtime/Config.js"
import { Forbidden, Unauthorized } from "../shared/Envelope.js"
import type { PortalUserContext } from "./Api.js"
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  CurrentPortalUser,
  PortalAnonymousCsrf,
  PortalOwner,
  PortalSession,
  SESSION_COOKIE
} from "./Api.js"

/** The methods that change state: the CSRF checks apply to them. */
export const STATE_CHANGING: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** Whether two secrets are the same (constant time; an empty one never matches). */
export const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y)
}

const originOf = (url: string | undefined): string | undefined => {
  if (url === undefined || url === "") return undefined
  try {
    const u = new URL(url)
    return u.origin === "null" ? "null" : u.origin
  } catch {
    return "null"
  }
}

/** What the portal handlers need to know about a request beyond its body. */
export class PortalRequest extends Context.Tag("@tuma/http/PortalRequest")<PortalRequest, {
  readonly client: (request: HttpServerRequest.HttpServerRequest) => ClientInfo
  readonly secure: (request: HttpServerRequest.HttpServerRequest) => boolean
  /** `scheme://host` the client used (public URL when configured). */
  readonly baseUrl: (request: HttpServerRequest.HttpServerRequest) => string
  readonly originAllowed: (request: HttpServerRequest.HttpServerRequest) => boolean
  readonly setSessionCookie: (signedIn: SignedIn) => Effect.Effect<void, never, HttpServerRequest.HttpServerRequest>
  readonly clearSessionCookie: Effect.Effect<void, never, HttpServerRequest.HttpServerRequest>
  readonly setCsrfCookie: (token: string) => Effect.Effect<void, never, HttpServerRequest.HttpServerRequest>
}>() {
  static readonly layer = Layer.effect(
    PortalRequest,
    Effect.gen(function*() {
      const server = yield* ServerConfig
      const settings = yield* PortalConfig
      const trusted = Cidr.matcher(server.auth.trustedProxies)
      const hasProxies = server.auth.trustedProxies.length > 0
      const publicOrigin = originOf(settings.publicUrl)
      const extraOrigins = new Set(settings.allowedOrigins.map((o) => originOf(o) ?? o))

      const socketAddress = (request: HttpServerRequest.HttpServerRequest) =>
        Option.getOrUndefined(request.remoteAddress)
      const fromProxy = (request: HttpServerRequest.HttpServerRequest) => {
        const socket = socketAddress(request)
        return hasProxies && socket !== undefined && trusted(socket)
      }
      const secure = (request: HttpServerRequest.HttpServerRequest) => {
        const source = request.source
        if (source instanceof IncomingMessage && source.socket instanceof TLSSocket && source.socket.encrypted) {
          return true
        }
        if (fromProxy(request)) {
          const proto = request.headers["x-forwarded-proto"]?.split(",")[0]?.trim().toLowerCase()
          if (proto !== undefined) return proto === "https"
        }
        return publicOrigin?.startsWith("https:") === true
      }
      const hostOf = (request: HttpServerRequest.HttpServerRequest) => {
        if (fromProxy(request)) {
          const forwarded = request.headers["x-forwarded-host"]?.split(",")[0]?.trim()
          if (forwarded) return forwarded
        }
        return request.headers["host"]
      }
      const requestOrigin = (request: HttpServerRequest.HttpServerRequest) => {
        const host = hostOf(request)
        return host === undefined ? undefined : `${secure(request) ? "https" : "http"}://${host.toLowerCase()}`
      }
      const cookieOptions = (request: HttpServerRequest.HttpServerRequest, path: string, maxAgeMs?: number) => ({
        httpOnly: true,
        sameSite: "lax" as const,
        path,
        secure: secure(request),
        ...(maxAgeMs !== undefined ? { maxAge: `${Math.max(0, Math.floor(maxAgeMs / 1000))} seconds` as const } : {})
      })
      const appendCookie = (
        name: string,
        value: string,
        options: (
          request: HttpServerRequest.HttpServerRequest
        ) => Parameters<typeof HttpServerResponse.unsafeSetCookie>[3]
      ) =>
        Effect.flatMap(
          HttpServerRequest.HttpServerRequest,
          (request) =>
            HttpApp.appendPreResponseHandler((_req, response) =>
              Effect.succeed(HttpServerResponse.unsafeSetCookie(response, name, value, options(request)))
            )
        )

      return {
        client: (request) => {
          const socket = socketAddress(request)
          const ip = hasProxies ? Cidr.clientAddress(socket, request.headers["x-forwarded-for"], trusted) : socket
          return { ip: ip ?? null, userAgent: request.headers["user-agent"] ?? null }
        },
        secure,
        baseUrl: (request) => settings.publicUrl?.replace(/\/+$/, "") ?? requestOrigin(request) ?? "http://127.0.0.1",
        originAllowed: (request) => {
          const origin = request.headers["origin"] ?? originOf(request.headers["referer"])
          // no Origin and no Referer: not a browser's cross-site form or fetch; the token decides
          if (origin === undefined) return true
          const o = origin.toLowerCase()
          if (o === "null") return false
          return o === requestOrigin(request) || o === publicOrigin || extraOrigins.has(o)
        },
        setSessionCookie: (signedIn) =>
          appendCookie(
            SESSION_COOKIE,
            signedIn.sessionId,
            (request) => cookieOptions(request, "/portal", settings.sessionAbsoluteMs)
          ),
        clearSessionCookie: appendCookie(SESSION_COOKIE, "", (request) => cookieOptions(request, "/portal", 0)),
        setCsrfCookie: (token) => appendCookie(CSRF_COOKIE, token, (request) => cookieOptions(request, "/portal/api"))
      }
    })
  )
}

const unauthorized = () =>
  Unauthorized.of({
    message: "Sign in to use the portal (no session, or it has ended).",
    error_code: "SESSION_REQUIRED"
  })

/** `scheme://host` the client of this request used: the base of the links an invitation or a reset mails. */
export const requestLinkBase = Effect.zipWith(
  PortalRequest,
  HttpServerRequest.HttpServerRequest,
  (portal, request) => portal.baseUrl(request)
)

/** Runs a change as the signed-in portal user, for the audit log (`{ kind: "system", name: "portal:<email>", ip }`:
 * the actor kinds are the operators'; a customer acting in the portal is told apart by the `portal:` name). */
export const asPortalUser = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const user = yield* CurrentPortalUser
    const portal = yield* PortalRequest
    const { ip } = portal.client(yield* HttpServerRequest.HttpServerRequest)
    return yield* Effect.provideService(self, Actor, {
      kind: "system",
      operatorId: null,
      name: `portal:${user.email}`,
      ip
    })
  })

/** The 403 `CSRF_FAILED` answer, saying why. */
export const csrfFailed = (why: string) =>
  Forbidden.of({ message: `Request refused: ${why}`, error_code: "CSRF_FAILED" })

/**
 * The CSRF checks of a request made with a session (the portal's and the console's): on a state
 * change, the Origin must be allowed and `X-CSRF-Token` must repeat the session's token.
 */
export const sessionCsrf = (
  request: HttpServerRequest.HttpServerRequest,
  portal: PortalRequest["Type"],
  csrfToken: string
): Effect.Effect<void, Forbidden> => {
  if (!STATE_CHANGING.has(request.method)) return Effect.void
  if (!portal.originAllowed(request)) return Effect.fail(csrfFailed("the request comes from another site."))
  const token = request.headers[CSRF_HEADER]
  return token === undefined || !sameSecret(token, csrfToken)
    ? Effect.fail(csrfFailed("the X-CSRF-Token header is missing or wrong."))
    : Effect.void
}

/** The session of the request: its cookie looked up and, on state changes, the CSRF checks. */
const currentSession = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const access = yield* PortalAccess
  const portal = yield* PortalRequest
  const id = request.cookies[SESSION_COOKIE]
  const found: Authenticated | undefined = id === undefined ? undefined : yield* access.authenticate(id)
  if (found === undefined) return yield* Effect.fail(unauthorized())
  yield* sessionCsrf(request, portal, found.session.csrf_token)
  return found
})

const userContext = (found: Authenticated): PortalUserContext => ({
  userId: found.user.id,
  accountId: found.user.account_id,
  role: found.user.role,
  sessionId: found.session.id_hash,
  email: found.user.email,
  timeZone: found.user.time_zone
})

/** The three middlewares over `PortalAccess` and `PortalRequest`. */
export const layerMiddlewares = Layer.mergeAll(
  Layer.effect(
    PortalSession,
    Effect.map(
      Effect.context<PortalAccess | PortalRequest>(),
      (context) => currentSession.pipe(Effect.map(userContext), Effect.provide(context))
    )
  ),
  Layer.effect(
    PortalOwner,
    Effect.map(Effect.context<PortalAccess | PortalRequest>(), (context) =>
      currentSession.pipe(
        Effect.flatMap((found) =>
          found.user.role === "owner"
            ? Effect.succeed(userContext(found))
            : Effect.fail(Forbidden.of({
              message: "Only an owner of the account can do this.",
              error_code: "OWNER_REQUIRED"
            }))
        ),
        Effect.provide(context)
      ))
  ),
  Layer.effect(
    PortalAnonymousCsrf,
    Effect.gen(function*() {
      const portal = yield* PortalRequest
      const access = yield* PortalAccess
      return Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (!portal.originAllowed(request)) {
          return yield* Effect.fail(csrfFailed("the request comes from another site."))
        }
        const header = request.headers[CSRF_HEADER]
        if (header !== undefined) {
          // double submit: the pre-session cookie's token …
          const cookie = request.cookies[CSRF_COOKIE]
          if (cookie !== undefined && cookie.length >= 32 && sameSecret(cookie, header)) return
          // … or, from a browser that is signed in already, its session's token
          const id = request.cookies[SESSION_COOKIE]
          const found = id === undefined ? undefined : yield* access.authenticate(id)
          if (found !== undefined && sameSecret(found.session.csrf_token, header)) return
        }
        return yield* Effect.fail(
          csrfFailed("the X-CSRF-Token header must repeat the token of GET /portal/api/session/csrf.")
        )
      })
    })
  )
)
