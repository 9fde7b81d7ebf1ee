/**
 * The security part of the contract: one `HttpApiMiddleware` tag per API-key scope (spec §5.4),
 * each providing the authenticated key, plus the operator tag for `/admin/v1`.
 *
 * The implementations live in `Auth.ts`; the tags stay here so the contract (and the typed
 * client built from it) does not depend on any server code.
 */
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import { Actor } from "@tuma/core/audit/Actor"
import { Context, Schema } from "effect"
import { Forbidden, TooManyRequests, Unauthorized } from "./Envelope.js"

/** The scope of an API key (spec §5.4); each endpoint requires one. */
export const Scope = Schema.Literal(
  "sms:read",
  "sms:send",
  "sender-ids:read",
  "sender-ids:write",
  "profile:read",
  "sms:inbound"
)
export type Scope = typeof Scope.Type
/** Every scope of the API. */
export const allScopes: ReadonlyArray<Scope> = Scope.literals

/** The API key a request was authenticated with. */
export interface AuthenticatedKey {
  readonly keyId: string
  readonly accountId: string
  /** `live` keys send and charge; `test` (sandbox) keys answer synthetic success (decisions §12). */
  readonly mode: "live" | "test"
  readonly scopes: ReadonlySet<string>
}

/** The API key a request was authenticated with, provided to handlers by the `Require…` middlewares. */
export class CurrentApiKey extends Context.Tag("@tuma/http/CurrentApiKey")<CurrentApiKey, AuthenticatedKey>() {}

/** The API key bearer scheme (`Authorization: Bearer tuma_live_…`). */
export const bearer = HttpApiSecurity.bearer.pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "API key: `Authorization: Bearer tuma_live_…` (live) or `tuma_test_…` (sandbox)."
  )
)

const failure = Schema.Union(Unauthorized, Forbidden, TooManyRequests)

/** Middleware: a valid API key with scope `sms:read`. */
export class RequireSmsRead extends HttpApiMiddleware.Tag<RequireSmsRead>()("@tuma/http/RequireSmsRead", {
  provides: CurrentApiKey,
  failure,
  security: { bearer }
}) {}

/** Middleware: a valid API key with scope `sms:inbound` (two-way SMS: read the inbox). */
export class RequireSmsInbound extends HttpApiMiddleware.Tag<RequireSmsInbound>()("@tuma/http/RequireSmsInbound", {
  provides: CurrentApiKey,
  failure,
  security: { bearer }
}) {}

/** Middleware: a valid API key with scope `sms:send`. */
export class RequireSmsSend extends HttpApiMiddleware.Tag<RequireSmsSend>()("@tuma/http/RequireSmsSend", {
  provides: CurrentApiKey,
  failure,
  security: { bearer }
}) {}

/** Middleware: a valid API key with scope `sender-ids:read`. */
export class RequireSenderIdsRead extends HttpApiMiddleware.Tag<RequireSenderIdsRead>()(
  "@tuma/http/RequireSenderIdsRead",
  { provides: CurrentApiKey, failure, security: { bearer } }
) {}

/** Middleware: a valid API key with scope `sender-ids:write`. */
export class RequireSenderIdsWrite extends HttpApiMiddleware.Tag<RequireSenderIdsWrite>()(
  "@tuma/http/RequireSenderIdsWrite",
  { provides: CurrentApiKey, failure, security: { bearer } }
) {}

/** Middleware: a valid API key with scope `profile:read`. */
export class RequireProfileRead extends HttpApiMiddleware.Tag<RequireProfileRead>()(
  "@tuma/http/RequireProfileRead",
  { provides: CurrentApiKey, failure, security: { bearer } }
) {}

/** The scope each API key middleware requires, by the middleware's key: the one declaration of it. */
export const scopeOfMiddleware: ReadonlyMap<string, Scope> = new Map<string, Scope>([
  [RequireSmsRead.key, "sms:read"],
  [RequireSmsSend.key, "sms:send"],
  [RequireSenderIdsRead.key, "sender-ids:read"],
  [RequireSenderIdsWrite.key, "sender-ids:write"],
  [RequireProfileRead.key, "profile:read"],
  [RequireSmsInbound.key, "sms:inbound"]
])

/** The scope of a middleware of `scopeOfMiddleware` (a programming error otherwise). */
export const scopeOf = (middleware: { readonly key: string }): Scope => {
  const scope = scopeOfMiddleware.get(middleware.key)
  if (scope === undefined) throw new Error(`no scope declared for ${middleware.key}`)
  return scope
}

/** The operator bearer scheme of `/admin/v1` (`TUMA_ADMIN_TOKEN`). */
export const adminBearer = HttpApiSecurity.bearer.pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "Operator token: `Authorization: Bearer $TUMA_ADMIN_TOKEN` (the admin API is refused when it is unset)."
  )
)

/**
 * Operator access to `/admin/v1` (bearer `TUMA_ADMIN_TOKEN`); provides the `Actor` the audit log
 * records: `{ kind: "admin-token", name: "admin-token", ip: <client address> }`.
 */
export class RequireAdmin extends HttpApiMiddleware.Tag<RequireAdmin>()("@tuma/http/RequireAdmin", {
  provides: Actor,
  failure: Unauthorized,
  security: { adminBearer }
}) {}
