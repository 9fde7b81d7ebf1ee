/**
 * The console contract's shared declarations: the security middlewares every console endpoint
 * stands behind (`needs`, `beforeSignIn`), the permission each endpoint declares, the lenient body
 * and query fields the console's forms send, and the group maker (kept out of the public OpenAPI
 * document).
 *
 * - `ConsoleOperator`: the `tuma_console_session` cookie names a live operator session (else 401
 *   `SESSION_REQUIRED`); on POST/PUT/PATCH/DELETE the Origin check and `X-CSRF-Token` equal to the
 *   session's token (else 403 `CSRF_FAILED`); then the endpoint's `ConsolePermission` (else 403
 *   `ROLE_FORBIDDEN`).
 * - `ConsoleAnonymousCsrf` (sign-in, accepting an invitation): the Origin check and `X-CSRF-Token`
 *   equal to the `tuma_console_csrf` cookie (double submit).
 *
 * Free of `node:` imports, like the portal's contract.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as OpenApi from "@effect/platform/OpenApi"
import type { ActorValue } from "@tuma/core/audit/Actor"
import type { OperatorAuthenticated } from "@tuma/core/operators/OperatorAccess"
import type { OperatorPermission } from "@tuma/domain/operatorRoles"
import { Context, identity, Option, Predicate, Schema } from "effect"
import { behind, done, group } from "../../shared/apiSchemas.js"
import { Forbidden, ServiceUnavailable, TooManyRequests, Unauthorized, Unprocessable } from "../../shared/Envelope.js"

/** Cookie holding the console session id (HttpOnly). */
export const CONSOLE_SESSION_COOKIE = "tuma_console_session"
/** Cookie holding the console's pre-session CSRF token. */
export const CONSOLE_CSRF_COOKIE = "tuma_console_csrf"

/** What an endpoint behind `ConsoleOperator` needs: a signed-in operator, or one with a permission. */
export type Access = "signed-in" | OperatorPermission

/** The signed-in operator of a console request, and the `Actor` its changes are recorded as. */
export interface ConsoleOperatorContext {
  readonly signedIn: OperatorAuthenticated
  readonly actor: ActorValue
}
export class CurrentOperator extends Context.Tag("@tuma/http/CurrentOperator")<
  CurrentOperator,
  ConsoleOperatorContext
>() {}

/** The permission an endpoint behind `ConsoleOperator` declares (read by the middleware). */
export class ConsolePermission extends Context.Tag("@tuma/http/ConsolePermission")<ConsolePermission, Access>() {}

/** A signed-in operator with the endpoint's permission; CSRF-checked on state changes. */
export class ConsoleOperator extends HttpApiMiddleware.Tag<ConsoleOperator>()("@tuma/http/ConsoleOperator", {
  provides: CurrentOperator,
  failure: Schema.Union(Unauthorized, Forbidden, Unprocessable)
}) {}

/** State changes before sign-in: the pre-session CSRF token (double submit) and the Origin check. */
export class ConsoleAnonymousCsrf extends HttpApiMiddleware.Tag<ConsoleAnonymousCsrf>()(
  "@tuma/http/ConsoleAnonymousCsrf",
  { failure: Schema.Union(Forbidden, Unprocessable) }
) {}

/** Puts an endpoint behind `ConsoleOperator` with the permission it needs: `needs("read")(endpoint)`. */
export const needs = (access: Access) => behind(ConsoleOperator, Context.make(ConsolePermission, access))

/** A state change before sign-in. */
export const beforeSignIn = behind(ConsoleAnonymousCsrf)

/**
 * A group of the console API, left out of the public OpenAPI document. Its errors are the group's,
 * not the console API's (a sub-API's errors would join every endpoint of `TumaApi`).
 */
export const consoleGroup = <const Name extends string>(name: Name, title: string) =>
  group(name, title)
    .addError(Unauthorized)
    .addError(Forbidden)
    .addError(TooManyRequests)
    .addError(ServiceUnavailable)
    .annotate(OpenApi.Exclude, true)

// --- fields --------------------------------------------------------------------------------
// Read as leniently as the console's forms send them; the use case checks the meaning (a missing
// name is its field error, not a refused body). None of them fails to decode.

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
const trimmed = (o: Option.Option<string>) => Option.filter(Option.map(o, (s) => s.trim()), (s) => s !== "")
/** A trimmed text field, absent when blank (the admin inputs' exact optional fields). */
export const OptionalText = Schema.optionalToOptional(Schema.Unknown, Schema.String, {
  decode: (o) => trimmed(Option.map(o, text)),
  encode: identity
})
/** A query parameter as `OptionalText`; repeated, its last value. */
export const QueryText = Schema.optionalToOptional(
  Schema.Union(Schema.String, Schema.Array(Schema.String)),
  Schema.String,
  {
    decode: (o) => trimmed(Option.map(o, (v) => (typeof v === "string" ? v : v[v.length - 1] ?? ""))),
    encode: identity
  }
)
/** A number field: a number or a numeric string; NaN otherwise (the use case refuses it). */
export const Num = Schema.optionalToRequired(Schema.Unknown, Schema.Number, {
  decode: (o) => {
    const v = Option.getOrUndefined(o)
    return typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN
  },
  encode: Option.some
})
/** Any JSON value, kept as sent. */
export const Anything = Schema.optional(Schema.Unknown)

/** A JSON body of `fields`: any other JSON value (an array, a string, none) reads as an empty object. */
export const body = <F extends Schema.Struct.Fields>(fields: F, identifier: string) =>
  Schema.transform(Schema.Unknown, Schema.Struct(fields), {
    strict: false,
    decode: (u) => (Predicate.isRecord(u) ? u : {}),
    encode: identity
  }).annotations({ identifier })

/** A query string of `fields`. */
export const query = <F extends Schema.Struct.Fields>(fields: F) => Schema.Struct(fields)

// --- paths and answers ---------------------------------------------------------------------

export const UidPath = Schema.Struct({ uid: Schema.String })
export const CountryPath = Schema.Struct({ country: Schema.String })
/** `data: { ok: true }`. */
export const ConsoleDone = done("ConsoleDone")
/** `POST <path>/:uid/<action>` for each action of a pair (enable/disable, suspend/activate). */
export const uidAction = <const Name extends string>(name: Name, path: `/${string}`) =>
  HttpApiEndpoint.post(name, path).setPath(UidPath)
