/**
 * The `WebhookStore` port: durable state of delivery webhooks (endpoints, the event outbox, the
 * delivery queue, attempts and owed notifications). SQL adapter: @tuma/store-sql `SqlWebhookStore`.
 *
 * Every method is one transaction. Times are passed in (read from `Clock` by the caller).
 */
import type { DeliveryEventType, WebhookEventType, WebhookRetryPolicy } from "@tuma/domain"
import type { Effect } from "effect"
import { Context } from "effect"

/**
 * A webhook delivery's state: `pending` (to try or retry), `succeeded`, `failed` (retries exhausted),
 * `skipped` (endpoint disabled; not posted).
 */
export type DeliveryStatus = "pending" | "succeeded" | "failed" | "skipped"

/**
 * A registered webhook URL of an account's API key, with its failure count and disabled state (secret
 * not included).
 */
export interface WebhookEndpoint {
  readonly id: string
  readonly accountId: string
  readonly apiKeyId: string
  readonly url: string
  readonly enabled: boolean
  readonly consecutiveFailures: number
  readonly disabledAt: Date | null
  readonly disabledReason: string | null
  /** The events it is subscribed to (default: the two delivery events). */
  readonly events: ReadonlyArray<WebhookEventType>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** What the payload is built from (the message, frozen since its final state). */
export interface DeliveryMessage {
  readonly messageId: string
  readonly messageStatus: "delivered" | "failed"
  readonly recipient: string
  readonly senderId: string
  readonly failureReason: string | null
  /** When the message reached its final state (`delivered_at` of the payload). */
  readonly finalAt: Date
  /** When the delivery was queued (`timestamp` of the payload). */
  readonly createdAt: Date
}

/** A due delivery leased to a worker, with its endpoint's URL and signing secret. */
export interface ClaimedDelivery extends DeliveryMessage {
  readonly id: string
  readonly endpointId: string
  readonly event: DeliveryEventType
  /** Attempts already made before this one. */
  readonly attempts: number
  readonly url: string
  readonly secret: string
  /** The frozen body of an event that is not a message's final state (`sms.received`, `optout.changed`). */
  readonly payload: string | null
}

/** One POST of a delivery, as recorded: outcome, HTTP status, latency, error and the next retry time. */
export interface AttemptRecord {
  readonly deliveryId: string
  readonly endpointId: string
  /** 1-based number of this attempt. */
  readonly attempt: number
  readonly attemptedAt: Date
  readonly outcome: "success" | "failure"
  readonly responseStatus: number | null
  readonly latencyMs: number
  readonly error: string | null
  /** When to try again after a failure; null when retries are exhausted. */
  readonly nextAttemptAt: Date | null
}

/** What `recordAttempts` changed beyond the deliveries themselves. */
export interface RecordOutcome {
  /** Endpoints this batch disabled (notifications were queued in the same transaction). */
  readonly disabledEndpoints: ReadonlyArray<string>
}

/** One delivery as the operator reads it: its message, status, attempts so far and last result. */
export interface DeliveryView extends DeliveryMessage {
  readonly id: string
  readonly endpointId: string
  /** `webhook.test` for a recorded test event (no message: `messageId` is the delivery's id, `recipient` empty). */
  readonly event: DeliveryEventType
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: Date | null
  readonly lastStatus: number | null
  readonly lastError: string | null
  readonly redeliveryOf: string | null
  readonly completedAt: Date | null
  /** The frozen body of an event that is not a message's final state; null for delivery events. */
  readonly payload: string | null
}

/**
 * A test event posted to an endpoint, recorded as a finished delivery (`webhook.test`, one attempt):
 * `succeeded` or `failed` by its outcome, never pending, so never claimed nor retried; it leaves the
 * endpoint's failure count alone and redeliveries pass it over.
 */
export interface TestDeliveryRecord {
  readonly id: string
  readonly endpointId: string
  /** The exact body that was posted. */
  readonly body: string
  readonly attemptedAt: Date
  readonly outcome: "success" | "failure"
  readonly responseStatus: number | null
  readonly latencyMs: number
  readonly error: string | null
}

/** One attempt as the admin reads it. */
export interface AttemptView extends Omit<AttemptRecord, "endpointId" | "nextAttemptAt"> {}

/** A leased notice (e-mail or SMS) owed to an account, telling it one of its endpoints was disabled. */
export interface ClaimedNotification {
  readonly id: string
  readonly endpointId: string
  readonly channel: "email" | "sms"
  readonly attempts: number
  readonly url: string
  readonly consecutiveFailures: number
  readonly disabledAt: Date | null
  readonly accountId: string
  readonly accountName: string
  readonly accountEmail: string
  readonly accountPhone: string | null
}

/** Durable webhook state: endpoints, the delivery queue and its attempts, redeliveries and owed notifications. */
export class WebhookStore extends Context.Tag("@tuma/core/WebhookStore")<WebhookStore, {
  // endpoints -------------------------------------------------------------------------------
  readonly createEndpoint: (input: {
    readonly id: string
    readonly apiKeyId: string
    readonly url: string
    readonly secret: string
    /** Default: the two delivery events. */
    readonly events?: ReadonlyArray<WebhookEventType> | undefined
    readonly now: Date
  }) => Effect.Effect<WebhookEndpoint | null>
  /** Sets the events an endpoint is subscribed to. Null when not found. */
  readonly setEvents: (
    id: string,
    events: ReadonlyArray<WebhookEventType>,
    now: Date
  ) => Effect.Effect<WebhookEndpoint | null>
  readonly getEndpoint: (id: string) => Effect.Effect<WebhookEndpoint | null>
  readonly listEndpoints: (filter: {
    readonly accountId?: string | undefined
    readonly apiKeyId?: string | undefined
  }) => Effect.Effect<ReadonlyArray<WebhookEndpoint>>
  /** Enables and resets the failure count. Null when not found. */
  readonly enableEndpoint: (id: string, now: Date) => Effect.Effect<WebhookEndpoint | null>
  readonly disableEndpoint: (id: string, reason: string, now: Date) => Effect.Effect<WebhookEndpoint | null>
  readonly setSecret: (id: string, secret: string, now: Date) => Effect.Effect<WebhookEndpoint | null>

  // queue -----------------------------------------------------------------------------------
  /** Claims up to `limit` due deliveries of enabled endpoints, leasing them until `leaseUntil`. */
  readonly claimDue: (limit: number, now: Date, leaseUntil: Date) => Effect.Effect<ReadonlyArray<ClaimedDelivery>>
  /** Records attempts, moves deliveries, applies the consecutive-failure rule to endpoints. */
  readonly recordAttempts: (
    records: ReadonlyArray<AttemptRecord>,
    now: Date,
    policy: Pick<WebhookRetryPolicy, "disableAfterConsecutiveFailures">,
    notificationIds: Effect.Effect<string>
  ) => Effect.Effect<RecordOutcome>
  /** The earliest `next_attempt_at` of a pending delivery (to sleep until), or null. */
  readonly nextDueAt: Effect.Effect<Date | null>

  /** Records a test event and its attempt (one transaction); false when the endpoint is gone. */
  readonly recordTest: (test: TestDeliveryRecord, now: Date) => Effect.Effect<boolean>

  // operator --------------------------------------------------------------------------------
  readonly listDeliveries: (endpointId: string, options: {
    readonly limit: number
    readonly status?: DeliveryStatus | undefined
    readonly before?: Date | undefined
  }) => Effect.Effect<ReadonlyArray<DeliveryView>>
  readonly getDelivery: (id: string) => Effect.Effect<DeliveryView | null>
  readonly listAttempts: (deliveryId: string) => Effect.Effect<ReadonlyArray<AttemptView>>
  /**
   * New deliveries to `endpointId`: of one delivery's message, or of every message that had a
   * delivery to this endpoint and reached its final state at or after `since` (once each).
   * Returns the new deliveries' ids (from `newId`).
   */
  readonly redeliver: (
    endpointId: string,
    select: { readonly deliveryId: string } | { readonly since: Date },
    now: Date,
    newId: Effect.Effect<string>
  ) => Effect.Effect<ReadonlyArray<string>>

  // notifications ---------------------------------------------------------------------------
  readonly claimNotifications: (
    limit: number,
    now: Date,
    leaseUntil: Date
  ) => Effect.Effect<ReadonlyArray<ClaimedNotification>>
  readonly completeNotification: (
    id: string,
    result:
      | { readonly _tag: "Sent"; readonly reference: string | null; readonly now: Date }
      | { readonly _tag: "Failed"; readonly error: string; readonly retryAt: Date | null }
  ) => Effect.Effect<void>
}>() {}

/**
 * Wake-ups when webhook deliveries may be waiting (pg_notify / PGlite listen). Optional: without it,
 * or between wake-ups, the pump polls every `WebhookConfig.pollIntervalMs`.
 */
export class WebhookWakeups extends Context.Tag("@tuma/core/WebhookWakeups")<WebhookWakeups, {
  /** Completes when a wake-up arrives (or never, when the driver has none). */
  readonly next: Effect.Effect<void>
}>() {}
