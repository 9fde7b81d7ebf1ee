/**
 * "Test webhook": a signed `webhook.test` event posted now to one of an account's endpoints, by the
 * same `WebhookSender` the workers use (same address policy, same signature), synchronously, with
 * what the receiver answered. The test is then recorded among the endpoint's deliveries, finished,
 * with its one attempt (`WebhookStore.recordTest`): it is never retried and leaves the endpoint's
 * failure count alone — the customer asked for one answer and got it (decisions.md). The portal
 * calls it; an embedding back end gets the same action.
 *
 * @module @tuma/core/webhooks/TestWebhook
 */
import { WEBHOOK_TEST_EVENT } from "@tuma/domain"
import { Clock, Effect, Option } from "effect"
import type { WebhookAttemptResult } from "../ports/Notifiers.js"
import { WebhookSender } from "../ports/Notifiers.js"
import { PortalReadStore } from "../ports/PortalReadStore.js"
import { WebhookStore } from "../ports/WebhookStore.js"

/** The event's name. */
export const TEST_EVENT = WEBHOOK_TEST_EVENT

/** How long the receiver has to answer a test, in milliseconds. */
export const TEST_TIMEOUT_MS = 10_000

/** What a test did: the receiver's answer, the body that was posted and the delivery that records it. */
export interface TestWebhookResult {
  readonly attempt: WebhookAttemptResult
  readonly body: string
  readonly deliveryId: string
}

/**
 * Posts a test event to the account's endpoint `endpointId`; `None` when the account has no such
 * endpoint (another account's endpoint is not told apart from an unknown one).
 */
export const testWebhook = (
  accountId: string,
  endpointId: string
): Effect.Effect<Option.Option<TestWebhookResult>, never, PortalReadStore | WebhookSender | WebhookStore> =>
  Effect.gen(function*() {
    const store = yield* PortalReadStore
    const sender = yield* WebhookSender
    const deliveries = yield* WebhookStore
    const endpoint = yield* store.endpointSecret(accountId, endpointId)
    if (endpoint === undefined) return Option.none()
    const deliveryId = globalThis.crypto.randomUUID()
    const attemptedAt = new Date(yield* Clock.currentTimeMillis)
    const body = JSON.stringify({
      event: TEST_EVENT,
      delivery_uid: deliveryId,
      endpoint_uid: endpointId,
      timestamp: attemptedAt.toISOString(),
      message: "A test event from the Tuma portal."
    })
    const attempt = yield* sender.send({
      url: endpoint.url,
      body,
      secret: endpoint.secret,
      event: TEST_EVENT,
      deliveryId,
      timeoutMs: TEST_TIMEOUT_MS
    })
    yield* deliveries.recordTest({
      id: deliveryId,
      endpointId,
      body,
      attemptedAt,
      outcome: attempt.outcome,
      responseStatus: attempt.status,
      latencyMs: attempt.latencyMs,
      error: attempt.error
    }, new Date(yield* Clock.currentTimeMillis))
    return Option.some({ attempt, body, deliveryId })
  })
