/**
 * Handlers of the portal's `portalKeys` group: API keys over core's `Admin` and webhook endpoints
 * over `WebhookAdmin`, every id checked to belong to the session's account first (another
 * account's key or endpoint answers 404, as an unknown one). A revocation clears this process's
 * key cache at once. The test event is core's `webhooks/TestWebhook.ts` (signed with the endpoint's
 * secret, posted by the same `WebhookSender` the workers use, synchronously, then recorded among the
 * endpoint's deliveries).
 *
 * The changes go through `Admin` / `WebhookAdmin`, which record them in the audit log: the actor is
 * the portal user (`{ kind: "system", name: "portal:<email>", ip }` — the actor kinds are the
 * operators'; a customer acting in the portal is told apart by the `portal:` name).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Admin } from "@tuma/core"
import { WebhookSender, WebhookStore } from "@tuma/core"
import { PortalReadStore } from "@tuma/core"
import { testWebhook } from "@tuma/core/webhooks/TestWebhook"
import { WebhookAdmin } from "@tuma/core/webhooks/WebhookAdmin"
import { validationFailed } from "@tuma/domain"
import { Effect, Option } from "effect"
import { TumaApi } from "../Api.js"
import { clearingKeyCache } from "../shared/Auth.js"
import { NotFound } from "../shared/Envelope.js"
import { toApiFailure } from "../shared/Errors.js"
import { endpointView } from "../webhooks/views.js"
import type { PortalUserContext } from "./Api.js"
import { CurrentPortalUser } from "./Api.js"
import { deliveryView } from "./MessagingHandlers.js"
import { asPortalUser } from "./Session.js"
import { mapFailure, ok } from "./Views.js"

const notFound = (message: string) => NotFound.of({ message, error_code: "NOT_FOUND" })

export const PortalKeysLive = HttpApiBuilder.group(TumaApi, "portalKeys", (handlers) =>
  Effect.gen(function*() {
    const admin = yield* Admin
    const hooks = yield* WebhookAdmin
    const sender = yield* WebhookSender
    const store = yield* PortalReadStore
    const webhookStore = yield* WebhookStore

    const ownKey = (user: PortalUserContext, keyId: string) =>
      admin.getApiKey(keyId).pipe(
        Effect.catchAll(() => Effect.fail(notFound("The API key was not found."))),
        Effect.filterOrFail((k) => k.account_uid === user.accountId, () => notFound("The API key was not found."))
      )

    const ownEndpoint = (user: PortalUserContext, endpointId: string) =>
      hooks.getEndpoint(endpointId).pipe(
        Effect.catchAll(() => Effect.fail(notFound("The webhook endpoint was not found."))),
        Effect.filterOrFail(
          (e) => e.accountId === user.accountId,
          () => notFound("The webhook endpoint was not found.")
        )
      )

    return handlers
      .handle("listApiKeys", () =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const keys = yield* admin.listApiKeys(user.accountId).pipe(mapFailure)
          return yield* ok(keys)
        }))
      .handle("createApiKey", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          if (payload.name.trim() === "" || [...payload.name].length > 100) {
            return yield* Effect.fail(
              toApiFailure(validationFailed({ name: ["The name is required (at most 100 characters)."] }))
            )
          }
          const issued = yield* admin.issueApiKey({
            account_uid: user.accountId,
            mode: payload.mode,
            name: payload.name.trim(),
            ...(payload.scopes !== undefined ? { scopes: payload.scopes } : {}),
            ...(payload.allowed_ips !== undefined ? { allowed_ips: payload.allowed_ips } : {}),
            ...(payload.expires_at !== undefined ? { expires_at: payload.expires_at } : {})
          }).pipe(mapFailure, asPortalUser)
          return yield* ok({ key: issued.key, api_key: issued.api_key })
        }))
      .handle("revokeApiKey", ({ path }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          yield* ownKey(user, path.key_uid)
          const revoked = yield* admin.revokeApiKey(path.key_uid).pipe(mapFailure, asPortalUser, clearingKeyCache)
          return yield* ok(revoked)
        }))
      .handle("listWebhooks", () =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const endpoints = yield* hooks.listEndpoints({ accountId: user.accountId })
          return yield* ok(endpoints.map(endpointView))
        }))
      .handle("createWebhook", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          yield* ownKey(user, payload.api_key_uid)
          const existing = yield* hooks.listEndpoints({ accountId: user.accountId, apiKeyId: payload.api_key_uid })
          if (existing.length > 0) {
            return yield* Effect.fail(toApiFailure({
              _tag: "Conflict",
              error_code: "CONFLICT",
              message: "This API key already has a webhook endpoint; change or re-enable that one."
            }))
          }
          const created = yield* hooks.createEndpoint({
            apiKeyId: payload.api_key_uid,
            url: payload.url
          }).pipe(mapFailure, asPortalUser)
          return yield* ok({ endpoint: endpointView(created.endpoint), secret: created.secret })
        }))
      .handle("regenerateWebhookSecret", ({ path }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          yield* ownEndpoint(user, path.webhook_uid)
          const r = yield* hooks.regenerateSecret(path.webhook_uid).pipe(mapFailure, asPortalUser)
          return yield* ok({ endpoint: endpointView(r.endpoint), secret: r.secret })
        }))
      .handle("enableWebhook", ({ path }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          yield* ownEndpoint(user, path.webhook_uid)
          return yield* ok(endpointView(yield* hooks.enableEndpoint(path.webhook_uid).pipe(mapFailure, asPortalUser)))
        }))
      .handle("disableWebhook", ({ path }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          yield* ownEndpoint(user, path.webhook_uid)
          const e = yield* hooks.disableEndpoint(path.webhook_uid, `disabled in the portal by ${user.email}`).pipe(
            mapFailure,
            asPortalUser
          )
          return yield* ok(endpointView(e))
        }))
      .handle("listWebhookDeliveries", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          yield* ownEndpoint(user, path.webhook_uid)
          const limit = Math.min(Math.max(Math.floor(urlParams.limit ?? 50), 1), 200)
          const rows = yield* store.deliveries(user.accountId, { endpointId: path.webhook_uid }, limit)
          return yield* ok(rows.map(deliveryView))
        }))
      .handle("testWebhook", ({ path }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const tested = yield* testWebhook(user.accountId, path.webhook_uid)
          if (Option.isNone(tested)) return yield* Effect.fail(notFound("The webhook endpoint was not found."))
          const { attempt, body } = tested.value
          return yield* ok({
            ok: attempt.outcome === "success",
            response_status: attempt.status,
            latency_ms: Math.round(attempt.latencyMs),
            error: attempt.error,
            body
          })
        }).pipe(
          Effect.provideService(WebhookSender, sender),
          Effect.provideService(PortalReadStore, store),
          Effect.provideService(WebhookStore, webhookStore)
        ))
  }))
