/**
 * The console API under `/console/api/…` (issue 15). Each route names the permission it needs
 * (see `Http.ts`) and calls one core use case (`Admin`, `WebhookAdmin`, `Reads`, `OperatorAccess`,
 * `SenderIdReview`) with the operator as `Actor`. The list of routes is docs/console.md's.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Admin, Reads } from "@tuma/core"
import type { CreateProviderInput } from "@tuma/core/admin/inputs"
import { Audit } from "@tuma/core/audit/Audit"
import { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import type { OperatorSignedIn } from "@tuma/core/operators/OperatorAccess"
import { SenderIdReview } from "@tuma/core/operators/Review"
import type { ReviewDecision } from "@tuma/core/operators/Review"
import { emailProblem } from "@tuma/core/portal/PortalAccess"
import { PortalConfig } from "@tuma/core/portal/PortalConfig"
import { WebhookAdmin } from "@tuma/core/webhooks/WebhookAdmin"
import { validationFailed } from "@tuma/domain/validation"
import { Effect } from "effect"
import { inviteOwner } from "../portal/OwnerInvitation.js"
import { PortalRequest } from "../portal/Session.js"
import type { ConsoleContext } from "./Http.js"
import { CONSOLE_CSRF_COOKIE, CONSOLE_SESSION_COOKIE, cookieOptions, okJson, param, route, str } from "./Http.js"
import { bindStates, overview } from "./Overview.js"

const randomToken = () => {
  const bytes = new Uint8Array(32)
  crypto.getRandomValues(bytes)
  return Buffer.from(bytes).toString("base64url")
}

const num = (body: Record<string, unknown>, key: string): number => {
  const v = body[key]
  return typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN
}
const optional = (s: string) => (s.trim() === "" ? undefined : s.trim())
/** Drops undefined values (the admin inputs use exact optional fields). */
const clean = <A extends Record<string, unknown>>(a: A): any =>
  Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined))

/** The operator as the session answers it. */
const sessionView = (signedIn: { operator: OperatorSignedIn["operator"]; session: OperatorSignedIn["session"] }) =>
  Effect.map(OperatorAccess, (access) => ({
    operator: {
      uid: signedIn.operator.id,
      email: signedIn.operator.email,
      name: signedIn.operator.name,
      role: signedIn.operator.role,
      totp_enrolled: signedIn.operator.totp_secret !== null
    },
    csrf_token: signedIn.session.csrf_token,
    idle_expires_at: access.expiresAt(signedIn.session).idle.toISOString()
  }))

const admin = <A, E>(f: (a: Admin["Type"]) => Effect.Effect<A, E>) => Effect.flatMap(Admin, f)
const hooks = <A, E>(f: (w: WebhookAdmin["Type"]) => Effect.Effect<A, E>) => Effect.flatMap(WebhookAdmin, f)

const decide = (decision: ReviewDecision) => (ctx: ConsoleContext) =>
  Effect.flatMap(SenderIdReview, (review) => {
    const reason = optional(str(ctx.body, "reason")) ?? null
    if (decision === "reject" && reason === null) {
      return Effect.fail(validationFailed({ reason: ["A reason is required to reject a sender ID."] }))
    }
    return review.decide(param(ctx, "uid"), decision, reason)
  })

/** The `/console/api` routes on the API's router. */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const portal = yield* PortalRequest
    const settings = yield* PortalConfig
    // the handlers run with the services of the server's layer (the router's own are the defaults)
    const services = yield* Effect.context<
      Admin | Reads | WebhookAdmin | OperatorAccess | SenderIdReview | PortalRequest | Audit
    >()
    type Handler = Parameters<typeof router.get>[1]
    const on = {
      get: (path: `/${string}`, h: Effect.Effect<any, any, any>) =>
        router.get(path, Effect.provide(h, services) as Handler),
      post: (path: `/${string}`, h: Effect.Effect<any, any, any>) =>
        router.post(path, Effect.provide(h, services) as Handler),
      put: (path: `/${string}`, h: Effect.Effect<any, any, any>) =>
        router.put(path, Effect.provide(h, services) as Handler),
      del: (path: `/${string}`, h: Effect.Effect<any, any, any>) =>
        router.del(path, Effect.provide(h, services) as Handler)
    }
    const base = "/console/api"

    // --- session -----------------------------------------------------------------------------
    yield* on.get(
      `${base}/session/csrf`,
      route("anonymous", (ctx) =>
        Effect.gen(function*() {
          const token = randomToken()
          const response = yield* okJson({ csrf_token: token })
          return HttpServerResponse.unsafeSetCookie(
            response,
            CONSOLE_CSRF_COOKIE,
            token,
            cookieOptions(portal.secure(ctx.request), "/console/api")
          )
        }))
    )
    yield* on.post(
      `${base}/session`,
      route("anonymous", (ctx) =>
        Effect.gen(function*() {
          const access = yield* OperatorAccess
          const outcome = yield* access.signIn({
            email: str(ctx.body, "email"),
            password: str(ctx.body, "password"),
            code: str(ctx.body, "code"),
            presentedSessionId: ctx.request.cookies[CONSOLE_SESSION_COOKIE],
            client: portal.client(ctx.request)
          })
          if (outcome._tag === "EnrolmentRequired") {
            return yield* okJson({ enrolment: { secret: outcome.secret, uri: outcome.uri } })
          }
          const view = yield* sessionView(outcome)
          const response = yield* okJson({ ...view, recovery_codes: outcome.recoveryCodes ?? null })
          return HttpServerResponse.unsafeSetCookie(
            response,
            CONSOLE_SESSION_COOKIE,
            outcome.sessionId,
            cookieOptions(portal.secure(ctx.request), "/console", settings.sessionAbsoluteMs)
          )
        }))
    )
    yield* on.get(`${base}/session`, route("signed-in", (ctx) => sessionView(ctx.signedIn!)))
    yield* on.del(
      `${base}/session`,
      route("signed-in", (ctx) =>
        Effect.gen(function*() {
          yield* Effect.flatMap(OperatorAccess, (a) => a.signOut(ctx.signedIn!.session.id_hash))
          const response = yield* okJson({ ok: true })
          return HttpServerResponse.unsafeSetCookie(
            response,
            CONSOLE_SESSION_COOKIE,
            "",
            cookieOptions(portal.secure(ctx.request), "/console", 0)
          )
        }))
    )
    yield* on.post(
      `${base}/session/recovery-codes`,
      route("signed-in", (ctx) =>
        Effect.flatMap(OperatorAccess, (a) =>
          a.regenerateRecoveryCodes(ctx.signedIn!.operator.id)).pipe(
            Effect.map((codes) => ({ recovery_codes: codes }))
          ))
    )
    yield* on.get(
      `${base}/invitations/:token`,
      route("anonymous", (ctx) =>
        Effect.flatMap(OperatorAccess, (a) => a.invitation(param(ctx, "token"))))
    )
    yield* on.post(
      `${base}/invitations/accept`,
      route("anonymous", (ctx) =>
        Effect.flatMap(OperatorAccess, (a) =>
          a.acceptInvitation({
            token: str(ctx.body, "token"),
            password: str(ctx.body, "password"),
            name: optional(str(ctx.body, "name"))
          })))
    )

    // --- operators ---------------------------------------------------------------------------
    yield* on.get(`${base}/operators`, route("operators.manage", () => Effect.flatMap(OperatorAccess, (a) => a.list)))
    yield* on.post(
      `${base}/operators`,
      route("operators.manage", (ctx) =>
        Effect.flatMap(OperatorAccess, (a) =>
          a.create({
            email: str(ctx.body, "email"),
            role: str(ctx.body, "role"),
            name: optional(str(ctx.body, "name")),
            linkBase: portal.baseUrl(ctx.request)
          })).pipe(Effect.map(({ operator }) => operator)))
    )
    yield* on.post(
      `${base}/operators/:uid/role`,
      route("operators.manage", (ctx) =>
        Effect.flatMap(OperatorAccess, (a) =>
          a.setRole(param(ctx, "uid"), str(ctx.body, "role"))))
    )
    for (const [action, disabled] of [["disable", true], ["enable", false]] as const) {
      yield* on.post(
        `${base}/operators/:uid/${action}`,
        route("operators.manage", (ctx) =>
          Effect.flatMap(OperatorAccess, (a) =>
            a.setDisabled(param(ctx, "uid"), disabled)))
      )
    }

    // --- overview ----------------------------------------------------------------------------
    yield* on.get(
      `${base}/overview`,
      route("read", () =>
        overview)
    )

    // --- accounts ----------------------------------------------------------------------------
    yield* on.get(
      `${base}/accounts`,
      route("read", (ctx) =>
        admin((a) => a.listAccounts(clean({ search: optional(ctx.query.get("search") ?? "") }))))
    )
    yield* on.post(
      `${base}/accounts`,
      route("accounts.manage", (ctx) =>
        Effect.gen(function*() {
          const email = str(ctx.body, "email")
          const ownerEmail = optional(str(ctx.body, "owner_email")) ?? email
          const problem = emailProblem(ownerEmail)
          if (problem !== undefined) return yield* validationFailed({ owner_email: [problem] })
          const account = yield* admin((a) =>
            a.createAccount(clean({
              name: str(ctx.body, "name"),
              email,
              country: optional(str(ctx.body, "country")),
              phone: optional(str(ctx.body, "phone"))
            }))
          )
          const owner_invitation = yield* inviteOwner(account.uid, ownerEmail, portal.baseUrl(ctx.request))
          return { ...account, owner_invitation: owner_invitation === null ? null : { email: owner_invitation.email } }
        }))
    )
    yield* on.get(
      `${base}/accounts/:uid`,
      route("read", (ctx) =>
        Effect.gen(function*() {
          const id = param(ctx, "uid")
          const detail = yield* admin((a) => a.getAccount(id))
          const senderIds = yield* admin((a) => a.listSenderIds({ account_uid: id }))
          const reads = yield* Reads
          const messages = yield* reads.listMessages(id, { per_page: 20 })
          return { ...detail, sender_ids: senderIds, recent_messages: messages }
        }))
    )
    for (const [action, f] of [["suspend", "suspendAccount"], ["activate", "activateAccount"]] as const) {
      yield* on.post(
        `${base}/accounts/:uid/${action}`,
        route("accounts.manage", (ctx) => admin((a) => a[f](param(ctx, "uid"))))
      )
    }

    // --- credit ------------------------------------------------------------------------------
    yield* on.post(
      `${base}/accounts/:uid/top-ups`,
      route("credit.manage", (ctx) =>
        Effect.gen(function*() {
          const reference = optional(str(ctx.body, "reference"))
          if (reference === undefined) {
            return yield* validationFailed({ reference: ["A reference (invoice, receipt) is required for a top-up."] })
          }
          return yield* admin((a) =>
            a.purchaseCredits(clean({
              account_uid: param(ctx, "uid"),
              country: str(ctx.body, "country").toUpperCase(),
              units: num(ctx.body, "units"),
              amount: optional(str(ctx.body, "amount")),
              currency: optional(str(ctx.body, "currency")),
              reference
            }))
          )
        }))
    )
    yield* on.get(
      `${base}/accounts/:uid/ledger`,
      route("read", (ctx) =>
        admin((a) =>
          a.ledger(param(ctx, "uid"), clean({ country: optional(ctx.query.get("country") ?? ""), limit: 200 }))
        ))
    )

    // --- sender IDs --------------------------------------------------------------------------
    yield* on.get(
      `${base}/sender-ids`,
      route("read", (ctx) =>
        Effect.map(
          admin((a) =>
            a.listSenderIds(clean({ status: (optional(ctx.query.get("status") ?? "") ?? "pending") as any }))
          ),
          // the review queue: oldest first
          (rows) =>
            [...rows].sort((x, y) => x.requested_at.localeCompare(y.requested_at))
        ))
    )
    yield* on.get(
      `${base}/sender-ids/:uid`,
      route("read", (ctx) => admin((a) => a.getSenderId(param(ctx, "uid"))))
    )
    yield* on.get(
      `${base}/sender-id-documents/:uid`,
      route("read", (ctx) =>
        Effect.map(
          admin((a) => a.getSenderIdDocument(param(ctx, "uid"))),
          ({ content, document }) => {
            const safe = /^(application\/pdf|image\/(png|jpeg))$/.test(document.content_type)
              ? document.content_type
              : "application/octet-stream"
            return HttpServerResponse.uint8Array(content, {
              contentType: safe,
              headers: {
                "content-disposition": `inline; filename="${document.filename.replace(/[^\w.-]/g, "_")}"`,
                "cache-control": "private, no-store",
                "x-content-type-options": "nosniff",
                // previewed inside the console only
                "content-security-policy":
                  "default-src 'none'; img-src 'self'; object-src 'self'; frame-ancestors 'self'",
                "x-frame-options": "SAMEORIGIN"
              }
            })
          }
        ))
    )
    yield* on.post(`${base}/sender-ids/:uid/approve`, route("sender_ids.review", decide("approve")))
    yield* on.post(`${base}/sender-ids/:uid/reject`, route("sender_ids.review", decide("reject")))
    yield* on.post(`${base}/sender-ids/:uid/suspend`, route("sender_ids.review", decide("suspend")))

    // --- routes and markets ------------------------------------------------------------------
    yield* on.get(`${base}/markets`, route("read", () => admin((a) => a.listMarkets)))
    for (const [action, open] of [["open", true], ["close", false]] as const) {
      yield* on.post(
        `${base}/markets/:country/${action}`,
        route("markets.manage", (ctx) => admin((a) => a.setMarketOpen(param(ctx, "country").toUpperCase(), open)))
      )
    }
    yield* on.post(
      `${base}/routes/verify`,
      route("markets.manage", (ctx) =>
        admin((a) =>
          a.verifyRoute({
            account_uid: str(ctx.body, "account_uid"),
            country: str(ctx.body, "country").toUpperCase(),
            phone: str(ctx.body, "phone")
          })
        ))
    )

    // --- providers ---------------------------------------------------------------------------
    yield* on.get(
      `${base}/providers`,
      route("read", () =>
        Effect.gen(function*() {
          const providers = yield* admin((a) => a.listProviders)
          const binds = yield* bindStates
          return providers.map((p) => ({ ...p, bind_up: binds.get(p.name) ?? null }))
        }))
    )
    yield* on.post(
      `${base}/providers`,
      route("providers.manage", (ctx) =>
        Effect.gen(function*() {
          const kind = optional(str(ctx.body, "kind")) ?? "simulated"
          const config = typeof ctx.body.config === "object" && ctx.body.config !== null ? ctx.body.config : undefined
          const country = optional(str(ctx.body, "country"))
          const credit = num(ctx.body, "credit")
          const input: CreateProviderInput = clean({
            name: str(ctx.body, "name"),
            kind,
            config,
            enabled: typeof ctx.body.enabled === "boolean" ? ctx.body.enabled : undefined,
            credits: country === undefined
              ? undefined
              : [{ country: country.toUpperCase(), credit: Number.isFinite(credit) ? credit : 0 }]
          })
          return yield* admin((a) => a.createProvider(input))
        }))
    )
    for (const [action, enabled] of [["enable", true], ["disable", false]] as const) {
      yield* on.post(
        `${base}/providers/:uid/${action}`,
        route("providers.manage", (ctx) => admin((a) => a.setProviderEnabled(param(ctx, "uid"), enabled)))
      )
    }
    yield* on.post(
      `${base}/providers/:uid/credit`,
      route("providers.manage", (ctx) =>
        admin((a) =>
          a.creditProvider(param(ctx, "uid"), {
            country: str(ctx.body, "country").toUpperCase(),
            units: num(ctx.body, "units"),
            operation: str(ctx.body, "operation") === "add" ? "add" : "set"
          })
        ))
    )
    yield* on.get(
      `${base}/country-routes/:country`,
      route("read", (ctx) => admin((a) => a.countryRoutes(param(ctx, "country").toUpperCase())))
    )
    yield* on.put(
      `${base}/country-routes/:country`,
      route("providers.manage", (ctx) =>
        admin((a) =>
          a.setCountryRoutes(param(ctx, "country").toUpperCase(), {
            provider_uids: Array.isArray(ctx.body.provider_uids) ? ctx.body.provider_uids.map(String) : []
          })
        ))
    )

    // --- spam rules and opt-outs -------------------------------------------------------------
    yield* on.get(`${base}/spam-rules`, route("read", () => admin((a) => a.listSpamRules())))
    yield* on.post(
      `${base}/spam-rules`,
      route("spam_rules.manage", (ctx) =>
        admin((a) =>
          a.addSpamRule(clean({
            account_uid: optional(str(ctx.body, "account_uid")) ?? null,
            kind: str(ctx.body, "kind"),
            pattern: str(ctx.body, "pattern"),
            description: optional(str(ctx.body, "description"))
          }))
        ))
    )
    for (const [action, enabled] of [["enable", true], ["disable", false]] as const) {
      yield* on.post(
        `${base}/spam-rules/:uid/${action}`,
        route("spam_rules.manage", (ctx) => admin((a) => a.setSpamRuleEnabled(param(ctx, "uid"), enabled)))
      )
    }
    yield* on.del(
      `${base}/spam-rules/:uid`,
      route("spam_rules.manage", (ctx) => Effect.as(admin((a) => a.removeSpamRule(param(ctx, "uid"))), { ok: true }))
    )
    yield* on.get(
      `${base}/accounts/:uid/opt-outs`,
      route("read", (ctx) => admin((a) => a.listOptOuts(param(ctx, "uid"))))
    )
    yield* on.post(
      `${base}/accounts/:uid/opt-outs`,
      route("opt_outs.manage", (ctx) =>
        admin((a) =>
          a.addOptOut(clean({
            account_uid: param(ctx, "uid"),
            recipient: str(ctx.body, "recipient"),
            reason: optional(str(ctx.body, "reason"))
          }))
        ))
    )
    yield* on.del(
      `${base}/accounts/:uid/opt-outs/:recipient`,
      route("opt_outs.manage", (ctx) =>
        Effect.as(
          admin((a) => a.removeOptOut(param(ctx, "uid"), param(ctx, "recipient"))),
          { ok: true }
        ))
    )

    // --- audit log ---------------------------------------------------------------------------
    yield* on.get(
      `${base}/audit-log`,
      route("read", (ctx) =>
        Effect.flatMap(Audit, (audit) => {
          const q = (k: string) => optional(ctx.query.get(k) ?? "")
          return audit.search(clean({
            actor: q("actor"),
            action: q("action"),
            target: q("target"),
            from: q("from"),
            to: q("to"),
            limit: q("limit"),
            before: q("before")
          }))
        }))
    )

    // --- webhook deliveries ------------------------------------------------------------------
    yield* on.get(
      `${base}/webhooks`,
      route(
        "read",
        (ctx) => hooks((w) => w.listEndpoints(clean({ accountId: optional(ctx.query.get("account") ?? "") })))
      )
    )
    yield* on.get(
      `${base}/webhooks/:uid/deliveries`,
      route("read", (ctx) =>
        hooks((w) =>
          w.listDeliveries(
            param(ctx, "uid"),
            clean({ status: optional(ctx.query.get("status") ?? "") as any, limit: 100 })
          )
        ))
    )
    yield* on.get(
      `${base}/webhook-deliveries/:uid`,
      route("read", (ctx) => hooks((w) => w.getDelivery(param(ctx, "uid"))))
    )
    yield* on.post(
      `${base}/webhook-deliveries/:uid/redeliver`,
      route("webhooks.redeliver", (ctx) => hooks((w) => w.redeliver(param(ctx, "uid"))))
    )
  })
)
