/**
 * The console API's plumbing (issue 15): sessions, CSRF, roles, and the envelope.
 *
 * - `tuma_console_session` cookie (HttpOnly, SameSite=Strict, Path=/console, Secure behind https)
 *   names a live operator session, else 401 `SESSION_REQUIRED`;
 * - every POST/PUT/PATCH/DELETE passes the portal's Origin check and carries `X-CSRF-Token`: the
 *   session's token, or before sign-in the `tuma_console_csrf` cookie's (double submit), else 403
 *   `CSRF_FAILED`;
 * - each route names the permission it needs (`@tuma/domain/operatorRoles`); a role without it
 *   gets 403 `ROLE_FORBIDDEN` whatever the UI showed;
 * - the use case runs with the `Actor` of the operator (`kind: "operator"`, their id, e-mail and
 *   client address), so the audit log records who did it;
 * - answers are the API's envelope (`{ success, request_uid, data }`; failures through the
 *   envelope middleware, domain failures mapped by `toApiFailure`).
 *
 * Why plain routes rather than an `HttpApi` contract like the portal's: the console is an internal
 * operator tool whose endpoints wrap `Admin` one to one, its browser app is the only client, and
 * it stays out of the public OpenAPI document; the contract modules are also being reworked in
 * parallel (docs/console.md).
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Actor } from "@tuma/core/audit/Actor"
import type { OperatorAuthenticated } from "@tuma/core/operators/OperatorAccess"
import { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import type { OperatorPermission } from "@tuma/domain/operatorRoles"
import { operatorMay } from "@tuma/domain/operatorRoles"
import { Effect, identity, Option, Predicate, Schema } from "effect"
import { CSRF_HEADER } from "../portal/Api.js"
import { csrfFailed, PortalRequest, sameSecret, sessionCsrf, STATE_CHANGING } from "../portal/Session.js"
import { portalFailure } from "../portal/Views.js"
import { failureStatus, Forbidden, requestUid, Unauthorized, Unprocessable } from "../shared/Envelope.js"
import { isDomainFailure } from "../shared/Errors.js"

/** Cookie holding the console session id (HttpOnly). */
export const CONSOLE_SESSION_COOKIE = "tuma_console_session"
/** Cookie holding the console's pre-session CSRF token. */
export const CONSOLE_CSRF_COOKIE = "tuma_console_csrf"

/** Who a route is for: anyone (with the pre-session CSRF check on changes) or a permission. */
export type Access = "anonymous" | "signed-in" | OperatorPermission

/** What a handler gets. */
export interface ConsoleContext {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly params: Readonly<Record<string, string | undefined>>
  readonly query: URLSearchParams
  /** The JSON body (an empty object when there is none or it is not an object). */
  readonly body: Record<string, unknown>
  /** The signed-in operator (undefined on anonymous routes). */
  readonly signedIn: OperatorAuthenticated | undefined
}

/** A failure of a use case as the envelope answers it. */
const toFailure = (e: unknown) => {
  if (failureStatus(e) !== undefined) return e
  // sign-in failures (401, 429 with Retry-After) as the portal answers them
  if (isDomainFailure(e)) return portalFailure(e)
  if (Predicate.isTagged(e, "ParseError") || Predicate.isTagged(e, "RequestError")) {
    return Unprocessable.of({ message: "The request body is not valid.", error_code: "VALIDATION_FAILED" })
  }
  return e
}

/** A value as the JSON envelope of success. */
export const okJson = (data: unknown, headers: Record<string, string> = {}) =>
  Effect.map(requestUid, (request_uid) =>
    HttpServerResponse.unsafeJson({ success: true, request_uid, data }, {
      headers: { "cache-control": "no-store", ...headers }
    }))

/** A JSON object; any other JSON value reads as an empty body. */
const asObject = Schema.decodeUnknownOption(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
const readBody = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<Record<string, unknown>, unknown> =>
  STATE_CHANGING.has(request.method) && (request.headers["content-type"] ?? "").startsWith("application/json")
    ? Effect.map(request.json, (v) => Option.getOrElse(asObject(v), () => ({})))
    : Effect.succeed({})

/** The signed-in operator of the request, CSRF-checked on changes. */
const currentOperator = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const access = yield* OperatorAccess
  const portal = yield* PortalRequest
  const id = request.cookies[CONSOLE_SESSION_COOKIE]
  const found = id === undefined ? undefined : yield* access.authenticate(id)
  if (found === undefined) {
    return yield* Effect.fail(Unauthorized.of({
      message: "Sign in to use the console (no session, or it has ended).",
      error_code: "SESSION_REQUIRED"
    }))
  }
  yield* sessionCsrf(request, portal, found.session.csrf_token)
  return found
})

/** The pre-session check of anonymous changes (sign-in, invitations): Origin and double submit. */
const anonymousCsrf = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const portal = yield* PortalRequest
  if (!STATE_CHANGING.has(request.method)) return
  if (!portal.originAllowed(request)) return yield* Effect.fail(csrfFailed("the request comes from another site."))
  const header = request.headers[CSRF_HEADER]
  const cookie = request.cookies[CONSOLE_CSRF_COOKIE]
  if (header !== undefined && cookie !== undefined && cookie.length >= 32 && sameSecret(cookie, header)) return
  return yield* Effect.fail(
    csrfFailed("the X-CSRF-Token header must repeat the token of GET /console/api/session/csrf.")
  )
})

/**
 * A route handler: the access check, the body, the `Actor`, and failures mapped to the envelope.
 * The handler answers either data (wrapped in the envelope) or a ready `HttpServerResponse`.
 */
export const route = <A, E, R>(access: Access, handler: (ctx: ConsoleContext) => Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params = yield* HttpRouter.params
    const portal = yield* PortalRequest
    let signedIn: OperatorAuthenticated | undefined
    if (access === "anonymous") {
      yield* anonymousCsrf
    } else {
      signedIn = yield* currentOperator
      if (access !== "signed-in" && !operatorMay(signedIn.operator.role, access)) {
        return yield* Effect.fail(Forbidden.of({
          message: `The ${signedIn.operator.role} role cannot do this (it needs ${access}).`,
          error_code: "ROLE_FORBIDDEN"
        }))
      }
    }
    const body = yield* readBody(request)
    const query = new URLSearchParams(request.url.split("?")[1] ?? "")
    const client = portal.client(request)
    const result = yield* handler({ request, params, query, body, signedIn }).pipe(
      Effect.provideService(
        Actor,
        signedIn === undefined
          ? { kind: "system", operatorId: null, name: "console", ip: client.ip }
          : { kind: "operator", operatorId: signedIn.operator.id, name: signedIn.operator.email, ip: client.ip }
      ),
      Effect.mapError(toFailure)
    )
    return HttpServerResponse.isServerResponse(result) ? result : yield* okJson(result)
  }).pipe(Effect.mapError(toFailure))

// Body and query fields: read as leniently as the console's forms send them; the use case checks
// the meaning (a missing name is its field error, not a refused body).

const text = (v: unknown): string => typeof v === "string" ? v : typeof v === "number" ? String(v) : ""

const textField = (f: (s: string) => string) =>
  Schema.optionalToRequired(Schema.Unknown, Schema.String, {
    decode: (o) => f(text(Option.getOrUndefined(o))),
    encode: Option.some
  })

/** A text field: a string, a number as its digits, "" when absent or of another type. */
export const Text = textField(identity)

/** A country code field, upper-cased ("" when absent). */
export const CountryText = textField((s) => s.toUpperCase())

/** A trimmed text field, absent when blank (the admin inputs' exact optional fields). */
export const OptionalText = Schema.optionalToOptional(Schema.Unknown, Schema.String, {
  decode: (o) => Option.filter(Option.map(o, (v) => text(v).trim()), (s) => s !== ""),
  encode: identity
})

/** A number field: a number or a numeric string; NaN otherwise (the use case refuses it). */
export const Num = Schema.optionalToRequired(Schema.Unknown, Schema.Number, {
  decode: (o) => {
    const v = Option.getOrUndefined(o)
    return typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN
  },
  encode: Option.some
})

const decodedFrom = (read: (ctx: ConsoleContext) => unknown) =>
<B, I, A, E, R>(
  fields: Schema.Schema<B, I>,
  handler: (ctx: ConsoleContext, input: B) => Effect.Effect<A, E, R>
) => {
  const decode = Schema.decodeUnknown(fields)
  return (ctx: ConsoleContext) => Effect.flatMap(decode(read(ctx)), (input) => handler(ctx, input))
}

/** A handler of the body decoded by `fields` (a `ParseError` answers 422 `VALIDATION_FAILED`). */
export const withBody = decodedFrom((ctx) => ctx.body)

/** A handler of the query string decoded by `fields`. */
export const withQuery = decodedFrom((ctx) => Object.fromEntries(ctx.query))

/** The path parameter (always present on its route). */
export const param = (ctx: ConsoleContext, name: string): string => ctx.params[name] ?? ""

/** Cookie options of the console. */
export const cookieOptions = (secure: boolean, path: string, maxAgeMs?: number) => ({
  httpOnly: true,
  sameSite: "strict" as const,
  path,
  secure,
  ...(maxAgeMs !== undefined ? { maxAge: `${Math.max(0, Math.floor(maxAgeMs / 1000))} seconds` as const } : {})
})
