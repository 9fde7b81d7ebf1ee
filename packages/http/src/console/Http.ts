/**
 * The console API's plumbing: the session and CSRF middlewares (declared in `api/shared.ts`), the
 * permission check, the `Actor`, and the envelope.
 *
 * - `ConsoleOperator`: the `tuma_console_session` cookie (HttpOnly, SameSite=Strict, Path=/console,
 *   Secure behind https) names a live operator session, else 401 `SESSION_REQUIRED`; every
 *   POST/PUT/PATCH/DELETE passes the portal's Origin check and carries `X-CSRF-Token` equal to the
 *   session's token, else 403 `CSRF_FAILED`; the role has the endpoint's `ConsolePermission`
 *   (`@tuma/domain/operatorRoles`), else 403 `ROLE_FORBIDDEN` whatever the UI showed;
 * - `ConsoleAnonymousCsrf` (sign-in, invitations): the Origin check and the double submit of the
 *   `tuma_console_csrf` cookie's token;
 * - both refuse a JSON body that does not parse with 422 `VALIDATION_FAILED` before any handler;
 * - the use case runs with the `Actor` of the operator (`kind: "operator"`, their id, e-mail and
 *   client address), so the audit log records who did it;
 * - answers are the API's envelope (`{ success, request_uid, data }`, `Cache-Control: no-store`;
 *   failures through the envelope middleware, domain failures mapped as the portal maps them).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Actor } from "@tuma/core/audit/Actor"
import { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import { operatorMay } from "@tuma/domain/operatorRoles"
import { Context, Effect, Layer, Option, Predicate } from "effect"
import { CSRF_HEADER } from "../portal/Api.js"
import { csrfFailed, PortalRequest, sameSecret, sessionCsrf, STATE_CHANGING } from "../portal/Session.js"
import { portalFailure } from "../portal/Views.js"
import type { Conflict, NotFound, ServiceUnavailable, TooManyRequests } from "../shared/Envelope.js"
import { failureStatus, Forbidden, requestUid, Unauthorized, Unprocessable } from "../shared/Envelope.js"
import { isDomainFailure } from "../shared/Errors.js"
import { ConsoleApi } from "./Api.js"
import type { Access, ConsoleOperatorContext } from "./api/shared.js"
import {
  CONSOLE_CSRF_COOKIE,
  CONSOLE_SESSION_COOKIE,
  ConsoleAnonymousCsrf,
  ConsoleOperator,
  ConsolePermission,
  CurrentOperator
} from "./api/shared.js"

export { CONSOLE_CSRF_COOKIE, CONSOLE_SESSION_COOKIE } from "./api/shared.js"

/** What a console endpoint may fail with (the envelope middleware answers each). */
export type ConsoleFailure =
  | Unauthorized
  | Forbidden
  | Unprocessable
  | NotFound
  | Conflict
  | TooManyRequests
  | ServiceUnavailable

const invalidBody = () =>
  Unprocessable.of({ message: "The request body is not valid.", error_code: "VALIDATION_FAILED" })

const isConsoleFailure = (e: unknown): e is ConsoleFailure => failureStatus(e) !== undefined

/** A failure of a use case as the envelope answers it (undefined: not one, the envelope's 500). */
const toFailure = (e: unknown): ConsoleFailure | undefined => {
  if (isConsoleFailure(e)) return e
  // sign-in failures (401, 429 with Retry-After) as the portal answers them
  if (isDomainFailure(e)) return portalFailure(e)
  if (Predicate.isTagged(e, "ParseError") || Predicate.isTagged(e, "RequestError")) return invalidBody()
  return undefined
}

/** A value as the JSON envelope of success. */
export const okJson = (data: unknown, headers: Record<string, string> = {}) =>
  Effect.map(requestUid, (request_uid) =>
    HttpServerResponse.unsafeJson({ success: true, request_uid, data }, {
      headers: { "cache-control": "no-store", ...headers }
    }))

/** A JSON body that does not parse answers 422 (before the endpoint's payload is decoded). */
const bodyParses = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<void, Unprocessable> =>
  STATE_CHANGING.has(request.method) && (request.headers["content-type"] ?? "").startsWith("application/json")
    ? Effect.mapError(Effect.asVoid(request.json), invalidBody)
    : Effect.void

/** The permission of each endpoint behind `ConsoleOperator`, by `METHOD path`. */
const permissions = (() => {
  const table = new Map<string, Access>()
  HttpApi.reflect(ConsoleApi, {
    onGroup() {},
    onEndpoint({ endpoint, mergedAnnotations }) {
      const access = Context.getOption(mergedAnnotations, ConsolePermission)
      if (Option.isSome(access)) table.set(`${endpoint.method} ${endpoint.path}`, access.value)
    }
  })
  return table
})()

const roleForbidden = (role: string, access: string) =>
  Forbidden.of({ message: `The ${role} role cannot do this (it needs ${access}).`, error_code: "ROLE_FORBIDDEN" })

const layerOperator = Layer.effect(
  ConsoleOperator,
  Effect.gen(function*() {
    const access = yield* OperatorAccess
    const portal = yield* PortalRequest
    return Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const { route } = yield* HttpRouter.RouteContext
      const id = request.cookies[CONSOLE_SESSION_COOKIE]
      const signedIn = id === undefined ? undefined : yield* access.authenticate(id)
      if (signedIn === undefined) {
        return yield* Effect.fail(Unauthorized.of({
          message: "Sign in to use the console (no session, or it has ended).",
          error_code: "SESSION_REQUIRED"
        }))
      }
      yield* sessionCsrf(request, portal, signedIn.session.csrf_token)
      const needed = permissions.get(`${route.method} ${route.path}`)
      if (needed === undefined) return yield* Effect.die(`console: no permission declared for ${route.path}`)
      if (needed !== "signed-in" && !operatorMay(signedIn.operator.role, needed)) {
        return yield* Effect.fail(roleForbidden(signedIn.operator.role, needed))
      }
      yield* bodyParses(request)
      const { ip } = portal.client(request)
      return {
        signedIn,
        actor: { kind: "operator", operatorId: signedIn.operator.id, name: signedIn.operator.email, ip }
      } satisfies ConsoleOperatorContext
    })
  })
)

const layerAnonymousCsrf = Layer.effect(
  ConsoleAnonymousCsrf,
  Effect.map(PortalRequest, (portal) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (STATE_CHANGING.has(request.method)) {
        if (!portal.originAllowed(request)) {
          return yield* Effect.fail(csrfFailed("the request comes from another site."))
        }
        const header = request.headers[CSRF_HEADER]
        const cookie = request.cookies[CONSOLE_CSRF_COOKIE]
        if (header === undefined || cookie === undefined || cookie.length < 32 || !sameSecret(cookie, header)) {
          return yield* Effect.fail(
            csrfFailed("the X-CSRF-Token header must repeat the token of GET /console/api/session/csrf.")
          )
        }
      }
      yield* bodyParses(request)
    }))
)

/** The two middlewares over `OperatorAccess` and `PortalRequest`. */
export const layerMiddlewares = Layer.merge(layerOperator, layerAnonymousCsrf)

/** The answer of a handler's result: data in the envelope, or a ready response; failures as the envelope's. */
const answer = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  self.pipe(
    Effect.catchAll((e) => {
      const failure = toFailure(e)
      return failure === undefined ? Effect.die(e) : Effect.fail(failure)
    }),
    Effect.flatMap((result) => HttpServerResponse.isServerResponse(result) ? Effect.succeed(result) : okJson(result))
  )

/** Runs `f` as the signed-in operator (the `Actor` of its changes) and answers its result. */
export const asOperator = <A, E, R>(f: (operator: ConsoleOperatorContext) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(CurrentOperator, (operator) => answer(Effect.provideService(f(operator), Actor, operator.actor)))

/** Runs `f` before sign-in (the `Actor` is the console with the client's address) and answers its result. */
export const anonymously = <A, E, R>(f: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const portal = yield* PortalRequest
    const { ip } = portal.client(request)
    return yield* answer(
      Effect.provideService(f(request), Actor, { kind: "system", operatorId: null, name: "console", ip })
    )
  })

/** Cookie options of the console. */
export const cookieOptions = (secure: boolean, path: string, maxAgeMs?: number) => ({
  httpOnly: true,
  sameSite: "strict" as const,
  path,
  secure,
  ...(maxAgeMs !== undefined ? { maxAge: `${Math.max(0, Math.floor(maxAgeMs / 1000))} seconds` as const } : {})
})
