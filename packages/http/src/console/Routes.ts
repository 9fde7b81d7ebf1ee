/**
 * The console API under `/console/api/…` (issue 15). Each route names the permission it needs
 * (see `Http.ts`) and calls one core use case (`Admin`, `WebhookAdmin`, `Reads`, `OperatorAccess`,
 * `SenderIdReview`) with the operator as `Actor`. The list of routes is docs/console.md's.
 *
 * Why one file of ≈560 lines: the console API's route table (one route per line with its
 * permission), each calling one core use case.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Admin, Reads } from "@tuma/core"
import { Audit } from "@tuma/core/audit/Audit"
import * as ManualRules from "@tuma/core/operators/ManualRules"
import { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import type { OperatorSignedIn } from "@tuma/core/operators/OperatorAccess"
import { SenderIdReview } from "@tuma/core/operators/Review"
import type { ReviewDecision } from "@tuma/core/operators/Review"
import { emailProblem, PortalAccess } from "@tuma/core/portal/PortalAccess"
import { PortalConfig } from "@tuma/core/portal/PortalConfig"
import type { DeliveryStatus } from "@tuma/core/ports/WebhookStore"
import { WebhookAdmin } from "@tuma/core/webhooks/WebhookAdmin"
import { SenderIdStatus } from "@tuma/domain/stateMachines"
import { validationFailed } from "@tuma/domain/validation"
import { Effect, Schema } from "effect"
import { inviteOwner } from "../portal/OwnerInvitation.js"
import { PortalRequest } from "../portal/Session.js"
import type { ConsoleContext } from "./Http.js"
import {
  CONSOLE_CSRF_COOKIE,
  CONSOLE_SESSION_COOKIE,
  cookieOptions,
  CountryText,
  Num,
  okJson,
  OptionalText,
  param,
  route,
  Text,
  withBody,
  withQuery
} from "./Http.js"
import { bindStates, overview } from "./Overview.js"

const randomToken = () => {
  const bytes = new Uint8Array(32)
  crypto.getRandomValues(bytes)
  return Buffer.from(bytes).toString("base64url")
}

/** The statuses a list may filter on (another value answers 422 `VALIDATION_FAILED`). */
const senderIdStatus = Schema.decodeUnknown(SenderIdStatus)
const deliveryStatus = Schema.decodeUnknown(
  Schema.Literal("pending", "succeeded", "failed", "skipped") satisfies Schema.Schema<DeliveryStatus>
)

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

const decide = (decision: ReviewDecision) =>
  withBody(
    Schema.Struct({ reason: OptionalText }),
    (ctx: ConsoleContext, { reason }) =>
      Effect.flatMap(SenderIdReview, (review) =>
        Effect.flatMap(
          decision === "reject" ? ManualRules.rejectionReason(reason) : Effect.succeed(reason ?? null),
          (checked) => review.decide(param(ctx, "uid"), decision, checked)
        ))
  )

/** The `/console/api` routes on the API's router. */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const portal = yield* PortalRequest
    const settings = yield* PortalConfig
    // the handlers run with the services of the server's layer (the router's own are the defaults)
    type Services =
      | Admin
      | Reads
      | WebhookAdmin
      | OperatorAccess
      | PortalAccess
      | SenderIdReview
      | PortalRequest
      | Audit
    const services = yield* Effect.context<Services>()
    const method = (add: typeof router.get) =>
    <E>(
      path: `/${string}`,
      h: Effect.Effect<HttpServerResponse.HttpServerResponse, E, Services | HttpRouter.HttpRouter.Provided>
    ) => add(path, Effect.provide(h, services))
    const on = { get: method(router.get), post: method(router.post), put: method(router.put), del: method(router.del) }
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
      route(
        "anonymous",
        withBody(Schema.Struct({ email: Text, password: Text, code: Text }), (ctx, body) =>
          Effect.gen(function*() {
            const access = yield* OperatorAccess
            const outcome = yield* access.signIn({
              ...body,
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
      route(
        "anonymous",
        withBody(
          Schema.Struct({ token: Text, password: Text, name: OptionalText }),
          (_, body) => Effect.flatMap(OperatorAccess, (a) => a.acceptInvitation(body))
        )
      )
    )

    // --- operators ---------------------------------------------------------------------------
    yield* on.get(`${base}/operators`, route("operators.manage", () => Effect.flatMap(OperatorAccess, (a) => a.list)))
    yield* on.post(
      `${base}/operators`,
      route(
        "operators.manage",
        withBody(Schema.Struct({ email: Text, role: Text, name: OptionalText }), (ctx, body) =>
          Effect.flatMap(OperatorAccess, (a) =>
            a.create({ ...body, linkBase: portal.baseUrl(ctx.request) })).pipe(
              Effect.map(({ operator }) =>
                operator
              )
            ))
      )
    )
    yield* on.post(
      `${base}/operators/:uid/role`,
      route(
        "operators.manage",
        withBody(
          Schema.Struct({ role: Text }),
          (ctx, { role }) => Effect.flatMap(OperatorAccess, (a) => a.setRole(param(ctx, "uid"), role))
        )
      )
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
      route(
        "read",
        withQuery(Schema.Struct({ search: OptionalText }), (_, query) => admin((a) => a.listAccounts(query)))
      )
    )
    yield* on.post(
      `${base}/accounts`,
      route(
        "accounts.manage",
        withBody(
          Schema.Struct({
            name: Text,
            email: Text,
            country: OptionalText,
            phone: OptionalText,
            owner_email: OptionalText
          }),
          (ctx, { owner_email, ...input }) =>
            Effect.gen(function*() {
              const ownerEmail = owner_email ?? input.email
              const problem = emailProblem(ownerEmail)
              if (problem !== undefined) return yield* validationFailed({ owner_email: [problem] })
              const account = yield* admin((a) => a.createAccount(input))
              const owner_invitation = yield* inviteOwner(account.uid, ownerEmail, portal.baseUrl(ctx.request))
              return {
                ...account,
                owner_invitation: owner_invitation === null ? null : { email: owner_invitation.email }
              }
            })
        )
      )
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
      route(
        "credit.manage",
        withBody(
          Schema.Struct({
            country: CountryText,
            units: Num,
            amount: OptionalText,
            currency: OptionalText,
            reference: OptionalText
          }),
          (ctx, { reference, ...input }) =>
            Effect.flatMap(
              ManualRules.topUpReference(reference),
              (checked) =>
                admin((a) => a.purchaseCredits({ ...input, account_uid: param(ctx, "uid"), reference: checked }))
            )
        )
      )
    )
    yield* on.get(
      `${base}/accounts/:uid/ledger`,
      route(
        "read",
        withQuery(
          Schema.Struct({ country: OptionalText }),
          (ctx, query) => admin((a) => a.ledger(param(ctx, "uid"), { ...query, limit: 200 }))
        )
      )
    )

    // --- sender IDs --------------------------------------------------------------------------
    yield* on.get(
      `${base}/sender-ids`,
      route(
        "read",
        withQuery(Schema.Struct({ status: OptionalText }), (_, query) =>
          Effect.gen(function*() {
            const status = yield* senderIdStatus(query.status ?? "pending")
            const rows = yield* admin((a) => a.listSenderIds({ status }))
            // the review queue: oldest first
            return [...rows].sort((x, y) => x.requested_at.localeCompare(y.requested_at))
          }))
      )
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
      route(
        "markets.manage",
        withBody(
          Schema.Struct({ account_uid: Text, country: CountryText, phone: Text }),
          (_, input) => admin((a) => a.verifyRoute(input))
        )
      )
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
      route(
        "providers.manage",
        withBody(
          Schema.Struct({
            name: Text,
            kind: OptionalText,
            config: Schema.optional(Schema.Unknown),
            enabled: Schema.optional(Schema.Unknown),
            country: OptionalText,
            credit: Num
          }),
          (_, { country, credit, ...body }) =>
            admin((a) =>
              a.createProvider({
                name: body.name,
                kind: body.kind ?? "simulated",
                ...(typeof body.config === "object" && body.config !== null ? { config: body.config } : {}),
                ...(typeof body.enabled === "boolean" ? { enabled: body.enabled } : {}),
                ...(country === undefined
                  ? {}
                  : { credits: [{ country: country.toUpperCase(), credit: Number.isFinite(credit) ? credit : 0 }] })
              })
            )
        )
      )
    )
    for (const [action, enabled] of [["enable", true], ["disable", false]] as const) {
      yield* on.post(
        `${base}/providers/:uid/${action}`,
        route("providers.manage", (ctx) => admin((a) => a.setProviderEnabled(param(ctx, "uid"), enabled)))
      )
    }
    yield* on.post(
      `${base}/providers/:uid/credit`,
      route(
        "providers.manage",
        withBody(Schema.Struct({ country: CountryText, units: Num, operation: Text }), (ctx, body) =>
          admin((a) =>
            a.creditProvider(param(ctx, "uid"), { ...body, operation: body.operation === "add" ? "add" : "set" })
          ))
      )
    )
    yield* on.get(
      `${base}/country-routes/:country`,
      route("read", (ctx) =>
        admin((a) =>
          a.countryRoutes(param(ctx, "country").toUpperCase())
        ))
    )
    yield* on.put(
      `${base}/country-routes/:country`,
      route(
        "providers.manage",
        withBody(
          Schema.Struct({
            provider_uids: Schema.optional(Schema.Unknown)
          }),
          (ctx, body) =>
            admin((a) =>
              a.setCountryRoutes(param(ctx, "country").toUpperCase(), {
                provider_uids: Array.isArray(body.provider_uids) ? body.provider_uids.map(String) : []
              })
            )
        )
      )
    )

    // --- spam rules and opt-outs -------------------------------------------------------------
    yield* on.get(`${base}/spam-rules`, route("read", () => admin((a) => a.listSpamRules())))
    yield* on.post(
      `${base}/spam-rules`,
      route(
        "spam_rules.manage",
        withBody(
          Schema.Struct({ account_uid: OptionalText, kind: Text, pattern: Text, description: OptionalText }),
          (_, { account_uid, ...input }) => admin((a) => a.addSpamRule({ ...input, account_uid: account_uid ?? null }))
        )
      )
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
      route(
        "opt_outs.manage",
        withBody(
          Schema.Struct({ recipient: Text, reason: OptionalText }),
          (ctx, input) => admin((a) => a.addOptOut({ ...input, account_uid: param(ctx, "uid") }))
        )
      )
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
      route(
        "read",
        withQuery(
          Schema.Struct({
            actor: OptionalText,
            action: OptionalText,
            target: OptionalText,
            from: OptionalText,
            to: OptionalText,
            limit: OptionalText,
            before: OptionalText
          }),
          (_, query) => Effect.flatMap(Audit, (audit) => audit.search(query))
        )
      )
    )

    // --- webhook deliveries ------------------------------------------------------------------
    yield* on.get(
      `${base}/webhooks`,
      route(
        "read",
        withQuery(
          Schema.Struct({ account: OptionalText }),
          (_, { account }) => hooks((w) => w.listEndpoints(account === undefined ? {} : { accountId: account }))
        )
      )
    )
    yield* on.get(
      `${base}/webhooks/:uid/deliveries`,
      route(
        "read",
        withQuery(
          Schema.Struct({ status: OptionalText }),
          (ctx, query) =>
            Effect.flatMap(
              query.status === undefined
                ? Effect.succeed({})
                : Effect.map(deliveryStatus(query.status), (status) => ({ status })),
              (filter) => hooks((w) => w.listDeliveries(param(ctx, "uid"), { ...filter, limit: 100 }))
            )
        )
      )
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
