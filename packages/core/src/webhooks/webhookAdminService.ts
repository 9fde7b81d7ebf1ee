/**
 * The shape of the `WebhookAdmin` service and its answers: their own module so the audit trail
 * (`webhookAuditTrail.ts`) can name them without importing `WebhookAdmin.ts`, which assembles it.
 */
import type {
  InvalidWebhookUrl,
  WebhookDeliveryNotFound,
  WebhookEndpointNotFound,
  WebhookEventType
} from "@tuma/domain"
import type { Effect } from "effect"
import type { AttemptView, DeliveryStatus, DeliveryView, WebhookEndpoint } from "../ports/WebhookStore.js"

/** An endpoint with its signing secret, answered only on creation and on regeneration. */
export interface EndpointWithSecret {
  readonly endpoint: WebhookEndpoint
  /** Shown once. */
  readonly secret: string
}

/** One delivery for the operator: its state, the exact body posted and every attempt. */
export interface DeliveryDetail {
  readonly delivery: DeliveryView
  /** The exact body posted (and signed) on every attempt. */
  readonly body: string
  readonly attempts: ReadonlyArray<AttemptView>
}

/** Every operation of `WebhookAdmin`. */
export interface WebhookAdminService {
  readonly createEndpoint: (input: {
    readonly apiKeyId: string
    readonly url: string
    /** The events it is subscribed to; default: the two delivery events (`DEFAULT_WEBHOOK_EVENTS`). */
    readonly events?: ReadonlyArray<WebhookEventType> | undefined
  }) => Effect.Effect<EndpointWithSecret, InvalidWebhookUrl | WebhookEndpointNotFound>
  /** Sets the events an endpoint is subscribed to (at least one). */
  readonly setEvents: (
    endpointId: string,
    events: ReadonlyArray<WebhookEventType>
  ) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound>
  readonly getEndpoint: (id: string) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound>
  readonly listEndpoints: (filter?: {
    readonly accountId?: string | undefined
    readonly apiKeyId?: string | undefined
  }) => Effect.Effect<ReadonlyArray<WebhookEndpoint>>
  readonly listDeliveries: (endpointId: string, options?: {
    readonly limit?: number | undefined
    readonly status?: DeliveryStatus | undefined
    readonly before?: Date | undefined
  }) => Effect.Effect<ReadonlyArray<DeliveryView>, WebhookEndpointNotFound>
  readonly getDelivery: (deliveryId: string) => Effect.Effect<DeliveryDetail, WebhookDeliveryNotFound>
  readonly listAttempts: (deliveryId: string) => Effect.Effect<ReadonlyArray<AttemptView>, WebhookDeliveryNotFound>
  /** Redelivers the event of one delivery to its endpoint. Returns the new delivery id. */
  readonly redeliver: (deliveryId: string) => Effect.Effect<{ readonly deliveryId: string }, WebhookDeliveryNotFound>
  /** Redelivers every event of the endpoint's API key whose final state is at or after `since`. */
  readonly redeliverSince: (
    endpointId: string,
    since: Date
  ) => Effect.Effect<{ readonly deliveryIds: ReadonlyArray<string> }, WebhookEndpointNotFound>
  readonly enableEndpoint: (endpointId: string) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound>
  readonly disableEndpoint: (
    endpointId: string,
    reason?: string
  ) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound>
  readonly regenerateSecret: (endpointId: string) => Effect.Effect<EndpointWithSecret, WebhookEndpointNotFound>
}
