/**
 * Handlers of the admin API (`/admin/v1`) over core's `Admin` and `WebhookAdmin`, and the operator
 * authentication (`RequireAdmin`: `AdminToken.ts`). Changing or revoking a key clears this process's auth cache.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Admin } from "@tuma/core"
import type { DeliveryView, WebhookEndpoint } from "@tuma/core"
import { adminTokenActor } from "@tuma/core/audit/Actor"
import { emailProblem } from "@tuma/core/portal/PortalAccess"
import { WebhookAdmin } from "@tuma/core/webhooks/WebhookAdmin"
import { Cidr } from "@tuma/domain"
import { validationFailed } from "@tuma/domain/validation"
import { Effect, Layer, Option } from "effect"
import { TumaApi } from "../Api.js"
import { AdminInboundLive } from "../inbound/AdminHttp.js"
import { inviteOwner } from "../portal/OwnerInvitation.js"
import { requestLinkBase } from "../portal/Session.js"
import { ServerConfig } from "../runtime/Config.js"
import { clearingKeyCache } from "../shared/Auth.js"
import { requestUid, Unauthorized } from "../shared/Envelope.js"
import type { DomainFailure } from "../shared/Errors.js"
import { toApiFailure } from "../shared/Errors.js"
import { RequireAdmin } from "../shared/Security.js"
import { AdminSmppLive } from "../smpp/AdminHttp.js"
import { endpointView } from "../webhooks/views.js"
import { adminTokenProblem } from "./AdminToken.js"
import { AdminAuditLive } from "./AuditHttp.js"

export const layerAdminAuth = Layer.effect(
  RequireAdmin,
  Effect.map(ServerConfig, (config) => {
    const trusted = Cidr.matcher(config.auth.trustedProxies)
    const hasProxies = config.auth.trustedProxies.length > 0
    return {
      // the admin token acts as the named system operator "admin-token", from the client's address
      adminBearer: () =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
          const problem = adminTokenProblem(config.adminToken, request.headers["authorization"])
          if (problem !== null) return Effect.fail(Unauthorized.of({ message: problem }))
          const socket = Option.getOrUndefined(request.remoteAddress)
          const ip = hasProxies ? Cidr.clientAddress(socket, request.headers["x-forwarded-for"], trusted) : socket
          return Effect.succeed(adminTokenActor(ip ?? null))
        })
    }
  })
)

/** Envelope of an admin answer. */
const ok = <A, E extends DomainFailure, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(
    Effect.mapError(effect, (e) => toApiFailure(e)),
    (data) => Effect.map(requestUid, (request_uid) => ({ success: true as const, request_uid, data }))
  )
const done = <E extends DomainFailure, R>(effect: Effect.Effect<unknown, E, R>) =>
  ok(Effect.as(effect, { ok: true as const }))

const iso = (d: Date | null) => (d === null ? null : d.toISOString())

const deliveryView = (d: DeliveryView) => ({
  uid: d.id,
  endpoint_uid: d.endpointId,
  event: d.event,
  status: d.status,
  message_uid: d.messageId,
  recipient: d.recipient,
  attempts: d.attempts,
  next_attempt_at: iso(d.nextAttemptAt),
  last_status: d.lastStatus,
  last_error: d.lastError,
  completed_at: iso(d.completedAt)
})

export const AdminAccountsLive = HttpApiBuilder.group(TumaApi, "adminAccounts", (handlers) =>
  Effect.gen(function*() {
    const admin = yield* Admin
    return handlers
      .handle("createAccount", ({ payload }) =>
        ok(Effect.gen(function*() {
          const ownerProblem = payload.owner_email === undefined ? undefined : emailProblem(payload.owner_email)
          if (ownerProblem !== undefined) return yield* validationFailed({ owner_email: [ownerProblem] })
          const account = yield* admin.createAccount(payload)
          const owner_invitation = yield* inviteOwner(
            account.uid,
            payload.owner_email ?? account.email,
            yield* requestLinkBase
          ).pipe(Effect.catchTag("ValidationFailed", () => Effect.succeed(null)))
          return { ...account, owner_invitation }
        })))
      .handle("listAccounts", ({ urlParams }) => ok(admin.listAccounts(urlParams)))
      .handle("getAccount", ({ path }) => ok(admin.getAccount(path.account_uid)))
      .handle("suspendAccount", ({ path }) => ok(clearingKeyCache(admin.suspendAccount(path.account_uid))))
      .handle("activateAccount", ({ path }) => ok(clearingKeyCache(admin.activateAccount(path.account_uid))))
      .handle("issueApiKey", ({ payload }) => ok(admin.issueApiKey(payload)))
      .handle("listApiKeys", ({ path }) => ok(admin.listApiKeys(path.account_uid)))
      .handle("getApiKey", ({ path }) => ok(admin.getApiKey(path.key_uid)))
      .handle("updateApiKey", ({ path, payload }) => ok(clearingKeyCache(admin.updateApiKey(path.key_uid, payload))))
      .handle("revokeApiKey", ({ path }) => ok(clearingKeyCache(admin.revokeApiKey(path.key_uid))))
  }))

export const AdminWalletsLive = HttpApiBuilder.group(TumaApi, "adminWallets", (handlers) =>
  Effect.gen(function*() {
    const admin = yield* Admin
    return handlers
      .handle("purchaseCredits", ({ payload }) => ok(admin.purchaseCredits(payload)))
      .handle("correctCredits", ({ payload }) => ok(admin.correctCredits(payload)))
      .handle("listWallets", ({ path }) => ok(admin.listWallets(path.account_uid)))
      .handle("ledger", ({ path, urlParams }) => ok(admin.ledger(path.account_uid, urlParams)))
      .handle("enableWallet", ({ path }) => ok(admin.setWalletEnabled(path.account_uid, path.country, true)))
      .handle("disableWallet", ({ path }) => ok(admin.setWalletEnabled(path.account_uid, path.country, false)))
      .handle("verifyRoute", ({ payload }) => ok(admin.verifyRoute(payload)))
      .handle("listRoutes", ({ path }) => ok(admin.listRoutes(path.account_uid)))
      .handle("removeRoute", ({ path }) => done(admin.removeRoute(path.account_uid, path.country)))
      .handle("listMarkets", () => ok(admin.listMarkets))
      .handle("openMarket", ({ path }) => ok(admin.setMarketOpen(path.country, true)))
      .handle("closeMarket", ({ path }) => ok(admin.setMarketOpen(path.country, false)))
  }))

export const AdminSenderIdsLive = HttpApiBuilder.group(TumaApi, "adminSenderIds", (handlers) =>
  Effect.gen(function*() {
    const admin = yield* Admin
    return handlers
      .handle("listSenderIds", ({ urlParams }) => ok(admin.listSenderIds(urlParams)))
      .handle("getSenderId", ({ path }) => ok(admin.getSenderId(path.sender_id_uid)))
      .handle("getSenderIdDocument", ({ path }) =>
        ok(Effect.map(admin.getSenderIdDocument(path.document_uid), ({ content, document }) => ({
          document,
          content_base64: Buffer.from(content).toString("base64")
        }))))
      .handle("grantSenderId", ({ payload }) =>
        ok(admin.grantSenderId(payload)))
      .handle("approveSenderId", ({ path }) =>
        ok(admin.approveSenderId(path.sender_id_uid)))
      .handle("rejectSenderId", ({ path, payload }) => ok(admin.rejectSenderId(path.sender_id_uid, payload.reason)))
      .handle("suspendSenderId", ({ path, payload }) => ok(admin.suspendSenderId(path.sender_id_uid, payload.reason)))
      .handle("reinstateSenderId", ({ path }) => ok(admin.reinstateSenderId(path.sender_id_uid)))
      .handle("createRequirement", ({ payload }) => ok(admin.createRequirement(payload)))
      .handle("listRequirements", ({ urlParams }) => ok(admin.listRequirements(urlParams)))
      .handle("deleteRequirement", ({ path }) => done(admin.deleteRequirement(path.requirement_uid)))
  }))

export const AdminPolicyLive = HttpApiBuilder.group(TumaApi, "adminPolicy", (handlers) =>
  Effect.gen(function*() {
    const admin = yield* Admin
    return handlers
      .handle("addOptOut", ({ payload }) => ok(admin.addOptOut(payload)))
      .handle("listOptOuts", ({ path }) => ok(admin.listOptOuts(path.account_uid)))
      .handle("removeOptOut", ({ path }) => done(admin.removeOptOut(path.account_uid, path.recipient)))
      .handle("addSpamRule", ({ payload }) => ok(admin.addSpamRule(payload)))
      .handle("listSpamRules", ({ urlParams }) => ok(admin.listSpamRules(urlParams)))
      .handle("removeSpamRule", ({ path }) => done(admin.removeSpamRule(path.rule_uid)))
      .handle("enableSpamRule", ({ path }) => ok(admin.setSpamRuleEnabled(path.rule_uid, true)))
      .handle("disableSpamRule", ({ path }) => ok(admin.setSpamRuleEnabled(path.rule_uid, false)))
  }))

export const AdminProvidersLive = HttpApiBuilder.group(TumaApi, "adminProviders", (handlers) =>
  Effect.gen(function*() {
    const admin = yield* Admin
    return handlers
      .handle("createProvider", ({ payload }) => ok(admin.createProvider(payload)))
      .handle("listProviders", () => ok(admin.listProviders))
      .handle("getProvider", ({ path }) => ok(admin.getProvider(path.provider_uid)))
      .handle("enableProvider", ({ path }) => ok(admin.setProviderEnabled(path.provider_uid, true)))
      .handle("disableProvider", ({ path, payload }) =>
        ok(admin.setProviderEnabled(path.provider_uid, false, { confirmNoRoute: payload.confirm_no_route === true })))
      .handle("creditProvider", ({ path, payload }) =>
        ok(admin.creditProvider(path.provider_uid, payload)))
      .handle("countryRoutes", ({ path }) =>
        ok(admin.countryRoutes(path.country)))
      .handle("setCountryRoutes", ({ path, payload }) => ok(admin.setCountryRoutes(path.country, payload)))
  }))

export const AdminWebhooksLive = HttpApiBuilder.group(TumaApi, "adminWebhooks", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookAdmin
    const withSecret = (r: { readonly endpoint: WebhookEndpoint; readonly secret: string }) => ({
      endpoint: endpointView(r.endpoint),
      secret: r.secret
    })
    return handlers
      .handle("createWebhook", ({ payload }) =>
        ok(Effect.map(
          webhooks.createEndpoint({ apiKeyId: payload.api_key_uid, url: payload.url, events: payload.events }).pipe(
            // a refused URL is a 422 on the field `url`
            Effect.mapError((e) =>
              e._tag === "InvalidWebhookUrl"
                ? { _tag: e._tag, error_code: e.error_code, message: e.message, errors: { url: [e.message] } }
                : e
            )
          ),
          withSecret
        )))
      .handle("listWebhooks", ({ urlParams }) =>
        ok(Effect.map(
          webhooks.listEndpoints({ accountId: urlParams.account_uid, apiKeyId: urlParams.api_key_uid }),
          (list) => list.map(endpointView)
        )))
      .handle("getWebhook", ({ path }) => ok(Effect.map(webhooks.getEndpoint(path.webhook_uid), endpointView)))
      .handle("setWebhookEvents", ({ path, payload }) =>
        ok(Effect.map(webhooks.setEvents(path.webhook_uid, payload.events), endpointView)))
      .handle(
        "regenerateWebhookSecret",
        ({ path }) =>
          ok(Effect.map(webhooks.regenerateSecret(path.webhook_uid), withSecret))
      )
      .handle("enableWebhook", ({ path }) => ok(Effect.map(webhooks.enableEndpoint(path.webhook_uid), endpointView)))
      .handle("disableWebhook", ({ path, payload }) =>
        ok(Effect.map(webhooks.disableEndpoint(path.webhook_uid, payload.reason ?? undefined), endpointView)))
      .handle("listWebhookDeliveries", ({ path, urlParams }) =>
        ok(Effect.map(
          webhooks.listDeliveries(path.webhook_uid, { limit: urlParams.limit }),
          (list) =>
            list.map(deliveryView)
        )))
      .handle("redeliverWebhook", ({ path }) =>
        ok(Effect.map(webhooks.redeliver(path.delivery_uid), (r) => ({ delivery_uid: r.deliveryId }))))
      .handle("getWebhookDelivery", ({ path }) =>
        ok(Effect.map(webhooks.getDelivery(path.delivery_uid), (d) => ({
          delivery: deliveryView(d.delivery),
          body: d.body,
          attempts: d.attempts.map((a) => ({
            attempt: a.attempt,
            attempted_at: a.attemptedAt.toISOString(),
            outcome: a.outcome,
            response_status: a.responseStatus,
            latency_ms: a.latencyMs,
            error: a.error
          }))
        }))))
      .handle("redeliverWebhookSince", ({ path, payload }) =>
        ok(Effect.map(
          webhooks.redeliverSince(path.webhook_uid, payload.since),
          (r) => ({ delivery_uids: r.deliveryIds })
        )))
  }))

export const AdminLive = Layer.mergeAll(
  AdminAccountsLive,
  AdminWalletsLive,
  AdminSenderIdsLive,
  AdminPolicyLive,
  AdminProvidersLive,
  AdminWebhooksLive,
  AdminAuditLive,
  AdminSmppLive,
  AdminInboundLive
)
