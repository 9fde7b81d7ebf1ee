/**
 * Core's "test webhook" (`webhooks/TestWebhook.ts`): a signed `webhook.test` event posted to the
 * account's own endpoint with its secret and answered synchronously, then recorded with its attempt;
 * an endpoint the account does not have is `None`, nothing is posted and nothing recorded. (The
 * record itself, on every driver: store-sql/test/webhookTestEvents.test.ts.)
 */
import { expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import type { WebhookRequest } from "../src/ports/Notifiers.js"
import { WebhookSender } from "../src/ports/Notifiers.js"
import { PortalReadStore } from "../src/ports/PortalReadStore.js"
import type { TestDeliveryRecord } from "../src/ports/WebhookStore.js"
import { WebhookStore } from "../src/ports/WebhookStore.js"
import { testWebhook } from "../src/webhooks/TestWebhook.js"

const posted: Array<WebhookRequest> = []
const recorded: Array<TestDeliveryRecord> = []
const services = Layer.mergeAll(
  Layer.succeed(
    WebhookStore,
    {
      recordTest: (test: TestDeliveryRecord) => Effect.sync(() => recorded.push(test) > 0)
    } as unknown as WebhookStore["Type"]
  ),
  Layer.succeed(
    WebhookSender,
    {
      send: (request: WebhookRequest) =>
        Effect.sync(() => {
          posted.push(request)
          return { outcome: "success", status: 204, latencyMs: 12, error: null }
        })
    } as unknown as WebhookSender["Type"]
  ),
  Layer.succeed(
    PortalReadStore,
    {
      endpointSecret: (accountId: string, endpointId: string) =>
        Effect.succeed(
          accountId === "acc_1" && endpointId === "wh_1"
            ? { url: "https://hooks.test/in", secret: "s3cret" }
            : undefined
        )
    } as unknown as PortalReadStore["Type"]
  )
)

it.effect("posts a signed test event to the account's endpoint and records it", () =>
  Effect.gen(function*() {
    posted.length = 0
    recorded.length = 0
    const result = yield* testWebhook("acc_1", "wh_1")
    expect(Option.isSome(result)).toBe(true)
    const { attempt, body } = Option.getOrThrow(result)
    expect(attempt.status).toBe(204)
    expect(JSON.parse(body)).toMatchObject({ event: "webhook.test", endpoint_uid: "wh_1" })
    expect(posted).toHaveLength(1)
    expect(posted[0]).toMatchObject({ url: "https://hooks.test/in", secret: "s3cret", event: "webhook.test", body })
    expect(recorded).toEqual([{
      id: posted[0]!.deliveryId,
      endpointId: "wh_1",
      body,
      attemptedAt: expect.any(Date),
      outcome: "success",
      responseStatus: 204,
      latencyMs: 12,
      error: null
    }])
  }).pipe(Effect.provide(services)))

it.effect("another account's endpoint is None and nothing is posted", () =>
  Effect.gen(function*() {
    posted.length = 0
    recorded.length = 0
    expect(Option.isNone(yield* testWebhook("acc_2", "wh_1"))).toBe(true)
    expect(posted).toHaveLength(0)
    expect(recorded).toHaveLength(0)
  }).pipe(Effect.provide(services)))
