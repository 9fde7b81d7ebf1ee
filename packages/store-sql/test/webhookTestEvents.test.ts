/**
 * The portal's test event recorded among its endpoint's deliveries (`WebhookStore.recordTest`,
 * core's `testWebhook`): one finished `webhook.test` delivery with its body and its one attempt,
 * shown by `listDeliveries` / `listAttempts`; never pending, so never claimed nor retried; the
 * endpoint's failure count untouched; redeliveries pass it over. Every driver: PGlite, PostgreSQL
 * (TUMA_TEST_DATABASE_URL) and core's memory adapters.
 */
import { expect } from "@effect/vitest"
import { Ids, Memory, Operator, PortalReadStore } from "@tuma/core"
import { layerWebhookAdmin, SystemSms, WebhookAdmin, WebhookConfig, WebhookStore } from "@tuma/core/webhooks/index"
import { testWebhook } from "@tuma/core/webhooks/TestWebhook"
import { WEBHOOK_TEST_EVENT } from "@tuma/domain"
import { layerSmtpMailer } from "@tuma/providers/mail/index"
import { layerHttpWebhookSender, layerWebhookDestinationPolicy } from "@tuma/providers/webhook/index"
import { Effect, Layer, Option } from "effect"
import * as SqlOperatorStore from "../src/SqlOperatorStore.js"
import * as SqlWebhookStore from "../src/SqlWebhookStore.js"
import type { DriverLayers } from "./harness.js"
import { forEachDriver } from "./harness.js"
import { startReceiver } from "./WebhookHelpers.js"

const stack: DriverLayers<Operator | WebhookStore> = {
  sql: (db) =>
    Operator.layer.pipe(
      Layer.provideMerge(Layer.mergeAll(SqlOperatorStore.layer, SqlWebhookStore.layer, Ids.layer)),
      Layer.provideMerge(db)
    ),
  memory: () => Operator.layer.pipe(Layer.provideMerge(Ids.layer), Layer.provideMerge(Memory.layerMemory))
}

const services = Layer.mergeAll(layerWebhookAdmin, layerHttpWebhookSender({ allow: ["127.0.0.1"] })).pipe(
  Layer.provideMerge(Layer.mergeAll(
    layerWebhookDestinationPolicy(["127.0.0.1"]),
    WebhookConfig.layer({}),
    Ids.layer,
    layerSmtpMailer({ url: "smtp://127.0.0.1:1", from: "Tuma <alerts@tuma.test>" }),
    Layer.succeed(SystemSms, { send: () => Effect.succeed({ messageId: crypto.randomUUID() }) })
  ))
)

/** The portal's look-up of an endpoint's URL and secret, answered for the one endpoint of the test. */
const portalStore = (accountId: string, endpointId: string, url: string, secret: string) =>
  PortalReadStore.of(
    {
      endpointSecret: (a, e) => Effect.succeed(a === accountId && e === endpointId ? { url, secret } : undefined)
    } as PortalReadStore["Type"]
  )

forEachDriver(stack, (it, driver) => {
  it.live(`a test event is one finished delivery with its attempt, never retried (${driver})`, () =>
    Effect.gen(function*() {
      const rx = yield* startReceiver((n) => ({ status: n === 1 ? 500 : 204 }))
      const operator = yield* Operator
      const account = yield* operator.createAccount({ name: "Test Hooks Ltd", email: `t-${Date.now()}@hooks.test` })
      const key = yield* operator.issueApiKey({ accountId: account.id })
      const admin = yield* WebhookAdmin
      const store = yield* WebhookStore
      const { endpoint, secret } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
      const test = (accountId: string) =>
        testWebhook(accountId, endpoint.id).pipe(
          Effect.provideService(PortalReadStore, portalStore(account.id, endpoint.id, rx.url, secret))
        )

      const failed = Option.getOrThrow(yield* test(account.id)) // the receiver answers 500 first
      const passed = Option.getOrThrow(yield* test(account.id))
      expect(rx.received).toHaveLength(2)
      expect(yield* test("00000000-0000-4000-8000-000000000000")).toEqual(Option.none())

      const listed = yield* store.listDeliveries(endpoint.id, { limit: 10 })
      expect(listed.map((d) => [d.id, d.event, d.status, d.attempts, d.lastStatus, d.nextAttemptAt])).toEqual([
        [passed.deliveryId, WEBHOOK_TEST_EVENT, "succeeded", 1, 204, null],
        [failed.deliveryId, WEBHOOK_TEST_EVENT, "failed", 1, 500, null]
      ])
      expect(listed[1]!.payload).toBe(failed.body)
      expect(listed[1]!.recipient).toBe("")
      const [attempt] = yield* store.listAttempts(failed.deliveryId)
      expect(attempt).toMatchObject({ attempt: 1, outcome: "failure", responseStatus: 500 })
      expect(attempt!.latencyMs).toBe(failed.attempt.latencyMs)

      // not a real event: nothing to claim, nothing to redeliver, the endpoint's health untouched
      expect(yield* store.claimDue(100, new Date(Date.now() + 86_400_000), new Date(Date.now() + 90_000_000)))
        .toEqual([])
      expect(yield* store.nextDueAt).toBeNull()
      expect((yield* admin.redeliverSince(endpoint.id, new Date(0))).deliveryIds).toEqual([])
      expect((yield* Effect.flip(admin.redeliver(failed.deliveryId)))._tag).toBe("WebhookDeliveryNotFound")
      expect((yield* admin.getEndpoint(endpoint.id)).consecutiveFailures).toBe(0)

      // an endpoint that is gone records nothing
      const orphan = {
        ...{ id: crypto.randomUUID(), endpointId: crypto.randomUUID(), body: "{}", attemptedAt: new Date() },
        ...{ outcome: "success" as const, responseStatus: 200, latencyMs: 1, error: null }
      }
      expect(yield* store.recordTest(orphan, new Date())).toBe(false)
      expect(yield* store.getDelivery(orphan.id)).toBeNull()
    }).pipe(Effect.provide(services), Effect.scoped))
})
