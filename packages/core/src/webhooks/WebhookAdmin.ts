/**
 * `WebhookAdmin`: the operator surface of delivery webhooks (the admin API and the CLI call it).
 *
 * - create an endpoint for an API key (the secret is returned once, here and on regeneration);
 * - list endpoints, deliveries per endpoint and the attempts of a delivery;
 * - redeliver one event, or every event of the endpoint's key since a time (new deliveries, new
 *   `X-Service-Delivery` ids, fresh `timestamp`);
 * - enable an endpoint (resets the failure count; missed events are not resent unless asked),
 *   disable one, regenerate its secret.
 *
 * With an `AuditStore` in the context the changes are recorded in the audit log (`webhookAuditTrail.ts`).
 */
import type { WebhookEventType } from "@tuma/domain"
import {
  DEFAULT_WEBHOOK_EVENTS,
  InvalidWebhookUrl,
  WebhookDeliveryNotFound,
  WebhookEndpointNotFound,
  webhookUrlProblem
} from "@tuma/domain"
import { randomBase64url } from "@tuma/domain/crypto"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { makeAudit } from "../audit/Audit.js"
import { AuditStore } from "../ports/AuditStore.js"
import { Ids } from "../ports/Ids.js"
import { WebhookDestinationPolicy } from "../ports/Notifiers.js"
import { WebhookStore } from "../ports/WebhookStore.js"
import type { WebhookAdminService } from "./webhookAdminService.js"
import { withWebhookAuditTrail } from "./webhookAuditTrail.js"
import { WebhookConfig } from "./WebhookConfig.js"
import { deliveryBody, WebhookWorkers } from "./WebhookWorkers.js"

/** A new signing secret: `whsec_` + 32 random bytes, base64url. */
export const generateWebhookSecret = (): string => `whsec_${randomBase64url(32)}`

export type { DeliveryDetail, EndpointWithSecret, WebhookAdminService } from "./webhookAdminService.js"

/**
 * The operator surface of delivery webhooks: endpoints, deliveries and attempts, redelivery,
 * enable/disable, secrets.
 */
export class WebhookAdmin extends Context.Tag("@tuma/core/WebhookAdmin")<WebhookAdmin, WebhookAdminService>() {}

const endpointNotFound = (id: string) =>
  new WebhookEndpointNotFound({ message: `Webhook endpoint ${id} was not found.`, endpoint_id: id })
const deliveryNotFound = (id: string) =>
  new WebhookDeliveryNotFound({ message: `Webhook delivery ${id} was not found.`, delivery_id: id })

/** The events of an endpoint: the ones named, once each, in a stable order; none named = the defaults. */
const webhookEvents = (events: ReadonlyArray<WebhookEventType> | undefined): ReadonlyArray<WebhookEventType> =>
  events === undefined || events.length === 0 ? DEFAULT_WEBHOOK_EVENTS : [...new Set(events)].sort()

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const orFail = <A, E>(onNull: E) => (self: Effect.Effect<A | null>): Effect.Effect<A, E> =>
  Effect.flatMap(self, (a) => a === null ? Effect.fail(onNull) : Effect.succeed(a))

/** Builds `WebhookAdmin` (no audit trail); wakes `WebhookWorkers` after a redelivery when they run in this process. */
export const makeWebhookAdmin = Effect.gen(function*() {
  const store = yield* WebhookStore
  const ids = yield* Ids
  const settings = yield* WebhookConfig
  const destinations = yield* WebhookDestinationPolicy
  // The workers are optional: when they run in this process, wake them after a redelivery.
  const workers = yield* Effect.serviceOption(WebhookWorkers)
  const wake = Option.match(workers, { onNone: () => Effect.void, onSome: (w) => w.wake })
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  const getEndpoint = (id: string) =>
    UUID.test(id) ? store.getEndpoint(id).pipe(orFail(endpointNotFound(id))) : Effect.fail(endpointNotFound(id))
  const getDelivery = (id: string) =>
    UUID.test(id) ? store.getDelivery(id).pipe(orFail(deliveryNotFound(id))) : Effect.fail(deliveryNotFound(id))

  return WebhookAdmin.of({
    createEndpoint: (input) =>
      Effect.gen(function*() {
        const problem = webhookUrlProblem(input.url)
        if (problem !== null) return yield* new InvalidWebhookUrl({ message: problem, url: input.url })
        // private, loopback, link-local, metadata… destinations: refused here as at delivery
        const refused = yield* destinations.refuse(input.url)
        if (refused !== null) {
          return yield* new InvalidWebhookUrl({ message: `The webhook URL is refused: ${refused}.`, url: input.url })
        }
        if (!UUID.test(input.apiKeyId)) return yield* endpointNotFound(input.apiKeyId)
        const secret = generateWebhookSecret()
        const endpoint = yield* store.createEndpoint({
          id: yield* ids.uuidV4,
          apiKeyId: input.apiKeyId,
          url: input.url,
          secret,
          events: webhookEvents(input.events),
          now: yield* now
        })
        if (endpoint === null) {
          return yield* new WebhookEndpointNotFound({
            message: `API key ${input.apiKeyId} was not found.`,
            endpoint_id: input.apiKeyId
          })
        }
        return { endpoint, secret }
      }),

    getEndpoint,
    setEvents: (endpointId, events) =>
      Effect.gen(function*() {
        yield* getEndpoint(endpointId)
        return yield* store.setEvents(endpointId, webhookEvents(events), yield* now).pipe(
          orFail(endpointNotFound(endpointId))
        )
      }),
    listEndpoints: (filter = {}) => store.listEndpoints(filter),

    listDeliveries: (endpointId, options = {}) =>
      Effect.zipRight(
        getEndpoint(endpointId),
        store.listDeliveries(endpointId, {
          limit: Math.min(Math.max(options.limit ?? 50, 1), 500),
          status: options.status,
          before: options.before
        })
      ),

    getDelivery: (deliveryId) =>
      Effect.gen(function*() {
        const delivery = yield* getDelivery(deliveryId)
        return {
          delivery,
          body: delivery.payload ?? deliveryBody(settings, delivery),
          attempts: yield* store.listAttempts(deliveryId)
        }
      }),

    listAttempts: (deliveryId) => Effect.zipRight(getDelivery(deliveryId), store.listAttempts(deliveryId)),

    redeliver: (deliveryId) =>
      Effect.gen(function*() {
        const original = yield* getDelivery(deliveryId)
        const created = yield* store.redeliver(original.endpointId, { deliveryId }, yield* now, ids.uuidV7)
        if (created.length === 0) return yield* deliveryNotFound(deliveryId)
        yield* wake
        return { deliveryId: created[0] }
      }),

    redeliverSince: (endpointId, since) =>
      Effect.gen(function*() {
        yield* getEndpoint(endpointId)
        const deliveryIds = yield* store.redeliver(endpointId, { since }, yield* now, ids.uuidV7)
        yield* wake
        return { deliveryIds }
      }),

    enableEndpoint: (endpointId) =>
      Effect.gen(function*() {
        yield* getEndpoint(endpointId)
        const endpoint = yield* store.enableEndpoint(endpointId, yield* now).pipe(orFail(endpointNotFound(endpointId)))
        yield* wake
        return endpoint
      }),

    disableEndpoint: (endpointId, reason = "disabled by an operator") =>
      Effect.flatMap(now, (t) => store.disableEndpoint(endpointId, reason, t)).pipe(
        orFail(endpointNotFound(endpointId))
      ),

    regenerateSecret: (endpointId) =>
      Effect.gen(function*() {
        yield* getEndpoint(endpointId)
        const secret = generateWebhookSecret()
        const endpoint = yield* store.setSecret(endpointId, secret, yield* now).pipe(
          orFail(endpointNotFound(endpointId))
        )
        return { endpoint, secret }
      })
  })
})

/** `WebhookAdmin`, with its changes recorded in the audit log when an `AuditStore` is in the context. */
export const layerWebhookAdmin: Layer.Layer<
  WebhookAdmin,
  never,
  WebhookStore | Ids | WebhookConfig | WebhookDestinationPolicy
> = Layer.effect(
  WebhookAdmin,
  Effect.gen(function*() {
    const service = yield* makeWebhookAdmin
    // recorded in the audit log when an `AuditStore` is present (the server and the CLI provide one)
    const audit = yield* Effect.serviceOption(AuditStore)
    return Option.match(audit, {
      onNone: () => service,
      onSome: (auditStore) => withWebhookAuditTrail(makeAudit(auditStore), service)
    })
  })
)

/**
 * `tuma serve --demo --demo-webhook <url>`: registers `url` for the demo live key and returns the
 * secret to print once (`demo webhook secret: <secret>`). A loopback URL needs its address on the
 * operator allow-list (`tuma serve` puts the demo URL's addresses there).
 */
export const registerDemoWebhook = (apiKeyId: string, url: string) =>
  Effect.flatMap(WebhookAdmin, (admin) => admin.createEndpoint({ apiKeyId, url }))
