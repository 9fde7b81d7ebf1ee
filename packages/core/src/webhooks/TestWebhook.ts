/**
 * "Test webhook": a signed `webhook.test` event posted now to one of an account's endpoints, by the
 * same `WebhookSender` the workers use (same address policy, same signature), synchronously, with
 * what the receiver answered. Nothing is stored: a test is not a delivery. The portal calls it;
 * an embedding back end gets the same action.
 *
 * @module @tuma/core/webhooks/TestWebhook
 */
import { Clock, Effect, Option } from "effect"
import type { WebhookAttemptResult } from "../ports/Notifiers.js"
import { WebhookSender } from "../ports/Notifiers.js"
import { PortalReadStore } from "../ports/PortalReadStore.js"

/** The event's name. */
export const TEST_EVENT = "webhook.test"

/** How long the receiver has to answer a test, in milliseconds. */
export const TEST_TIMEOUT_MS = 10_000

/** What a test did: the receiver's answer and the body that was posted. */
export interface TestWebhookResult {
  readonly attempt: WebhookAttemptResult
  readonly body: string
}

/**
 * Posts a test event to the account's endpoint `endpointId`; `None` when the account has no such
 * endpoint (another account's endpoint is not told apart from an unknown one).
 */
export const testWebhook = (
  accountId: string,
  endpointId: string
): Effect.Effect<Option.Option<TestWebhookResult>, never, PortalReadStore | WebhookSender> =>
  Effect.gen(function*() {
    const store = yield* PortalReadStore
    const sender = yield* WebhookSender
    const endpoint = yield* store.endpointSecret(accountId, endpointId)
    if (endpoint === undefined) return Option.none()
    const deliveryId = globalThis.crypto.randomUUID()
    const body = JSON.stringify({
      event: TEST_EVENT,
      delivery_uid: deliveryId,
      endpoint_uid: endpointId,
      timestamp: new Date(yield* Clock.currentTimeMillis).toISOString(),
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
    return Option.some({ attempt, body })
  })
