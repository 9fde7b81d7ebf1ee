/**
 * Delivery webhooks end to end below HTTP: final states written to `messages` → outbox trigger →
 * webhook workers → a real HTTP receiver on loopback; notifications to a real SMTP server.
 * Runs on every driver: PGlite, PostgreSQL (with TUMA_TEST_DATABASE_URL) and core's memory adapters
 * (`MemoryWebhookStore`; the final states written by `DeliveryProbe.finalize`).
 */
import { expect } from "@effect/vitest"
import { Ids, Memory, Operator } from "@tuma/core"
import type { WebhookSettings } from "@tuma/core/webhooks/index"
import {
  layerWebhookAdmin,
  layerWebhookWorkers,
  SystemSms,
  WebhookAdmin,
  WebhookConfig,
  WebhookStore
} from "@tuma/core/webhooks/index"
import { verifyWebhookSignature } from "@tuma/domain"
import { layerSmtpMailer } from "@tuma/providers/mail/index"
import { layerHttpWebhookSender, layerWebhookDestinationPolicy } from "@tuma/providers/webhook/index"
import { Effect, Layer } from "effect"
import * as SqlOperatorStore from "../src/SqlOperatorStore.js"
import * as SqlWebhookStore from "../src/SqlWebhookStore.js"
import type { SentMessageInput } from "./deliveryProbe.js"
import { DeliveryProbe } from "./deliveryProbe.js"
import type { DriverLayers } from "./harness.js"
import { forEachDriver } from "./harness.js"
import type { ReceivedHook } from "./WebhookHelpers.js"
import { eventually, startReceiver, startSmtp } from "./WebhookHelpers.js"

/** SMS notices captured here; the full pipeline test sends them through Tuma's own send path. */
const smsSent: Array<{ to: string; text: string }> = []
const smsLayer = Layer.succeed(SystemSms, {
  send: (input) =>
    Effect.sync(() => {
      smsSent.push(input)
      return { messageId: crypto.randomUUID() }
    })
})

const fast = (overrides: Partial<WebhookSettings> = {}): Partial<WebhookSettings> => ({
  retry: { retryDelaysMs: [100, 150, 200, 250], timeoutMs: 1_000, disableAfterConsecutiveFailures: 10 },
  pollIntervalMs: 20,
  ...overrides
})

/** Workers + admin over the shared database, with a real HTTP sender and a real SMTP mailer. */
const webhooks = (options: {
  readonly smtpUrl?: string
  readonly settings?: Partial<WebhookSettings>
  readonly allow?: ReadonlyArray<string>
  /** The allow-list at registration (default: the same as at delivery). */
  readonly registrationAllow?: ReadonlyArray<string>
} = {}) => {
  const base = Layer.mergeAll(
    layerHttpWebhookSender({ allow: options.allow ?? ["127.0.0.1"] }),
    layerWebhookDestinationPolicy(options.registrationAllow ?? options.allow ?? ["127.0.0.1"]),
    WebhookConfig.layer(options.settings ?? fast()),
    Ids.layer,
    layerSmtpMailer({ url: options.smtpUrl ?? "smtp://127.0.0.1:1", from: "Tuma <alerts@tuma.test>" }),
    smsLayer
  )
  return Layer.mergeAll(layerWebhookWorkers, layerWebhookAdmin).pipe(Layer.provideMerge(base))
}

const setupAccount = Effect.gen(function*() {
  const operator = yield* Operator
  const account = yield* operator.createAccount({
    name: "Acme Ltd",
    email: `owner-${crypto.randomUUID().slice(0, 8)}@acme.test`,
    phone: "+255700111222"
  })
  const key = yield* operator.issueApiKey({ accountId: account.id })
  const otherKey = yield* operator.issueApiKey({ accountId: account.id })
  return { account, key, otherKey }
})

const bodies = (hooks: ReadonlyArray<ReceivedHook>) => hooks.map((h) => JSON.parse(h.raw.toString("utf8")))

/** Operator and the `WebhookStore` under test, per driver. */
const stack: DriverLayers<Operator | WebhookStore | DeliveryProbe> = {
  sql: (db) =>
    Operator.layer.pipe(
      Layer.provideMerge(Layer.mergeAll(SqlOperatorStore.layer, SqlWebhookStore.layer, Ids.layer)),
      Layer.provideMerge(DeliveryProbe.sql),
      Layer.provideMerge(db)
    ),
  memory: () =>
    Operator.layer.pipe(
      Layer.provideMerge(Ids.layer),
      Layer.provideMerge(DeliveryProbe.memory),
      Layer.provideMerge(Memory.layerMemory)
    )
}

const insertSentMessage = (input: SentMessageInput) => Effect.flatMap(DeliveryProbe, (p) => p.insertSentMessage(input))
const finalize = (ids: ReadonlyArray<string>, status: "delivered" | "failed", at?: Date) =>
  Effect.flatMap(DeliveryProbe, (p) => p.finalize(ids, status, at))

// Live clock: the workers really sleep between polls and retries (delays are configured short).
forEachDriver(stack, (it, driver) => {
  it.live(`a final state reaches the endpoint signed, exactly as spec §6 (${driver})`, () =>
    Effect.gen(function*() {
      const rx = yield* startReceiver()
      const { account, key } = yield* setupAccount
      const admin = yield* WebhookAdmin
      const { endpoint, secret } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
      const delivered = yield* insertSentMessage({
        accountId: account.id,
        apiKeyId: key.id,
        recipient: "+255712345678"
      })
      const failed = yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id })
      yield* finalize([delivered], "delivered", new Date("2026-02-03T04:05:06.789Z"))
      yield* finalize([failed], "failed")
      yield* eventually(Effect.sync(() => rx.received.length >= 2), "10 seconds", "two webhooks")

      for (const hook of rx.received) {
        expect(verifyWebhookSignature(hook.raw, hook.headers["x-service-signature"], secret)).toBe(true)
        expect(hook.headers["x-service-delivery"]).toMatch(/^[0-9a-f-]{36}$/)
        expect(hook.headers["content-type"]).toBe("application/json")
      }
      const byId = new Map(bodies(rx.received).map((b) => [b.message_id, b]))
      const d = byId.get(delivered)
      expect(Object.keys(d)).toEqual([
        "event",
        "message_id",
        "to",
        "status",
        "sender_id",
        "error",
        "delivered_at",
        "timestamp"
      ])
      expect(d).toMatchObject({
        event: "sms.delivered",
        to: "+255712345678",
        status: "delivered",
        sender_id: "TUMA",
        error: null,
        delivered_at: "2026-02-03T04:05:06+00:00"
      })
      expect(Number.isInteger(d.timestamp)).toBe(true)
      expect(
        rx.received.find((h) => JSON.parse(h.raw.toString()).message_id === delivered)?.headers["x-service-event"]
      )
        .toBe("sms.delivered")
      expect(byId.get(failed)).toMatchObject({ event: "sms.failed", status: "failed", error: "Absent subscriber" })

      // Recorded: one successful attempt each, with status and latency.
      yield* eventually(
        Effect.map(
          admin.listDeliveries(endpoint.id),
          (ds) => ds.length === 2 && ds.every((x) => x.status === "succeeded")
        ),
        "15 seconds",
        "deliveries recorded"
      )
      const [first] = yield* admin.listDeliveries(endpoint.id)
      const detail = yield* admin.getDelivery(first.id)
      expect(detail.attempts).toHaveLength(1)
      expect(detail.attempts[0]).toMatchObject({ attempt: 1, outcome: "success", responseStatus: 200, error: null })
      expect(detail.attempts[0].latencyMs).toBeGreaterThanOrEqual(0)
      expect(detail.body).toBe(
        rx.received.find((h) => h.headers["x-service-delivery"] === first.id)?.raw.toString("utf8")
      )
    }).pipe(Effect.provide(webhooks()), Effect.scoped))

  it.live(`a receiver answering 500 then 200 gets the retry, same delivery id and bytes (${driver})`, () =>
    Effect.gen(function*() {
      const rx = yield* startReceiver((n) => ({ status: n === 1 ? 500 : 200 }))
      const { account, key } = yield* setupAccount
      const admin = yield* WebhookAdmin
      const { endpoint } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
      const id = yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id })
      yield* finalize([id], "delivered")
      yield* eventually(Effect.sync(() => rx.received.length >= 2), "10 seconds", "the retry")
      const [a, b] = rx.received
      expect(b.at - a.at).toBeGreaterThanOrEqual(90) // the configured first retry delay
      expect(a.headers["x-service-delivery"]).toBe(b.headers["x-service-delivery"])
      expect(a.raw.equals(b.raw)).toBe(true)
      yield* eventually(
        Effect.map(admin.listDeliveries(endpoint.id), (ds) => ds[0]?.status === "succeeded"),
        "5 seconds",
        "success recorded"
      )
      const [delivery] = yield* admin.listDeliveries(endpoint.id)
      const attempts = yield* admin.listAttempts(delivery.id)
      expect(attempts.map((x) => [x.attempt, x.outcome, x.responseStatus])).toEqual([[1, "failure", 500], [
        2,
        "success",
        200
      ]])
      expect(attempts[0].error).toBe("HTTP 500")
      const ep = yield* admin.getEndpoint(endpoint.id)
      expect(ep.consecutiveFailures).toBe(0)
    }).pipe(Effect.provide(webhooks()), Effect.scoped))

  it.live(`redirects are failed attempts, never followed; retries stop after 4 (${driver})`, () =>
    Effect.gen(function*() {
      const target = yield* startReceiver()
      const rx = yield* startReceiver(() => ({ status: 302, headers: { location: target.url } }))
      const { account, key } = yield* setupAccount
      const admin = yield* WebhookAdmin
      const { endpoint } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
      const id = yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id })
      yield* finalize([id], "delivered")
      yield* eventually(
        Effect.map(admin.listDeliveries(endpoint.id), (ds) => ds[0]?.status === "failed"),
        "10 seconds",
        "final failure"
      )
      expect(rx.received).toHaveLength(5) // the first attempt + 4 retries
      expect(target.received).toHaveLength(0)
      const [delivery] = yield* admin.listDeliveries(endpoint.id)
      const attempts = yield* admin.listAttempts(delivery.id)
      expect(attempts.map((x) => x.responseStatus)).toEqual([302, 302, 302, 302, 302])
      expect(attempts.every((x) => x.outcome === "failure" && x.error?.includes("not followed"))).toBe(true)
      expect((yield* admin.getEndpoint(endpoint.id)).consecutiveFailures).toBe(5)
    }).pipe(Effect.provide(webhooks()), Effect.scoped))

  it.live(`only messages sent with a key reach that key's endpoints (${driver})`, () =>
    Effect.gen(function*() {
      const mine = yield* startReceiver()
      const theirs = yield* startReceiver()
      const { account, key, otherKey } = yield* setupAccount
      const admin = yield* WebhookAdmin
      yield* admin.createEndpoint({ apiKeyId: key.id, url: mine.url })
      yield* admin.createEndpoint({ apiKeyId: otherKey.id, url: theirs.url })
      const a = yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id })
      const b = yield* insertSentMessage({ accountId: account.id, apiKeyId: otherKey.id })
      const web = yield* insertSentMessage({ accountId: account.id, apiKeyId: null })
      yield* finalize([a, b, web], "delivered")
      yield* eventually(Effect.sync(() => mine.received.length >= 1 && theirs.received.length >= 1))
      yield* Effect.sleep("300 millis")
      expect(bodies(mine.received).map((x) => x.message_id)).toEqual([a])
      expect(bodies(theirs.received).map((x) => x.message_id)).toEqual([b])
    }).pipe(Effect.provide(webhooks()), Effect.scoped))

  it.live(`10 consecutive failures disable the endpoint and notify by e-mail and SMS (${driver})`, () =>
    Effect.gen(function*() {
      const smtp = yield* startSmtp
      const rx = yield* startReceiver(() => ({ status: 503 }))
      smsSent.length = 0
      yield* Effect.gen(function*() {
        const { account, key } = yield* setupAccount
        const admin = yield* WebhookAdmin
        const { endpoint } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
        // 3 messages x up to 5 attempts: the 10th consecutive failure disables the endpoint.
        const ids = [
          yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id }),
          yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id }),
          yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id })
        ]
        yield* finalize(ids, "failed")
        yield* eventually(Effect.map(admin.getEndpoint(endpoint.id), (e) => !e.enabled), "15 seconds", "disable")
        const disabled = yield* admin.getEndpoint(endpoint.id)
        expect(disabled.consecutiveFailures).toBe(10)
        expect(disabled.disabledAt).not.toBeNull()

        yield* eventually(Effect.sync(() => smtp.mails.length >= 1 && smsSent.length >= 1), "10 seconds", "notices")
        expect(smtp.mails).toHaveLength(1)
        expect(smtp.mails[0].to).toEqual([account.email])
        expect(smtp.mails[0].data).toContain("Subject: Tuma webhook endpoint disabled")
        expect(smtp.mails[0].data).toContain(rx.url)
        expect(smsSent).toEqual([{ to: "+255700111222", text: expect.stringContaining("was disabled after 10") }])

        // Nothing more is posted while disabled; pending retries were skipped, new events too.
        const countAtDisable = rx.received.length
        const later = yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id })
        yield* finalize([later], "delivered")
        yield* Effect.sleep("500 millis")
        expect(rx.received.length).toBe(countAtDisable)
        const ds = yield* admin.listDeliveries(endpoint.id)
        expect(ds.filter((d) => d.status === "pending")).toHaveLength(0)
        expect(ds.find((d) => d.messageId === later)?.status).toBe("skipped")

        // Re-enabling resets the count and does not resend what was missed...
        const enabled = yield* admin.enableEndpoint(endpoint.id)
        expect(enabled).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledAt: null })
        yield* Effect.sleep("400 millis")
        expect(rx.received.length).toBe(countAtDisable)
        // ...unless the operator asks.
        rx.server.removeAllListeners("request")
        const healthy = yield* startReceiver()
        yield* Effect.flatMap(DeliveryProbe, (p) => p.setEndpointUrl(endpoint.id, healthy.url))
        const { deliveryIds } = yield* admin.redeliverSince(endpoint.id, new Date(Date.now() - 60_000))
        expect(deliveryIds).toHaveLength(4)
        yield* eventually(Effect.sync(() => healthy.received.length >= 4), "10 seconds", "redelivery")
        expect(new Set(bodies(healthy.received).map((b) => b.message_id))).toEqual(new Set([...ids, later]))
        expect(smtp.mails).toHaveLength(1) // notified once
      }).pipe(Effect.provide(webhooks({ smtpUrl: smtp.url })))
    }).pipe(Effect.scoped))

  it.live(`pending retries resume after a restart (${driver})`, () =>
    Effect.gen(function*() {
      let up = false
      const rx = yield* startReceiver(() => up ? { status: 200 } : "destroy")
      const { account, key } = yield* setupAccount
      const settings = fast({
        retry: { retryDelaysMs: [600, 600, 600, 600], timeoutMs: 1_000, disableAfterConsecutiveFailures: 10 }
      })
      const { endpointId, messageId } = yield* Effect.gen(function*() {
        const admin = yield* WebhookAdmin
        const { endpoint } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
        const id = yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id })
        yield* finalize([id], "delivered")
        yield* eventually(
          Effect.map(admin.listDeliveries(endpoint.id), (ds) => ds[0]?.attempts === 1),
          "10 seconds",
          "first failed attempt"
        )
        return { endpointId: endpoint.id, messageId: id }
      }).pipe(Effect.provide(webhooks({ settings })), Effect.scoped) // workers stop here
      up = true
      const before = rx.received.length
      yield* Effect.sleep("800 millis")
      expect(rx.received.length).toBe(before) // nobody is running
      yield* Effect.gen(function*() {
        const admin = yield* WebhookAdmin
        yield* eventually(
          Effect.map(admin.listDeliveries(endpointId), (ds) => ds[0]?.status === "succeeded"),
          "10 seconds",
          "the retry after restart"
        )
        const [d] = yield* admin.listDeliveries(endpointId)
        expect(d.attempts).toBe(2)
        expect(bodies(rx.received.slice(before)).map((b) => b.message_id)).toEqual([messageId])
      }).pipe(Effect.provide(webhooks({ settings })), Effect.scoped)
    }).pipe(Effect.scoped))

  it.live(`operator: redeliver one, regenerate the secret, list deliveries and attempts (${driver})`, () =>
    Effect.gen(function*() {
      const rx = yield* startReceiver()
      const { account, key } = yield* setupAccount
      const admin = yield* WebhookAdmin
      const { endpoint, secret } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
      const id = yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id })
      yield* finalize([id], "delivered")
      yield* eventually(
        Effect.map(admin.listDeliveries(endpoint.id), (ds) => ds[0]?.status === "succeeded"),
        "10 seconds",
        "first delivery"
      )
      const [original] = yield* admin.listDeliveries(endpoint.id)
      const rotated = yield* admin.regenerateSecret(endpoint.id)
      expect(rotated.secret).not.toBe(secret)
      expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
      const again = yield* admin.redeliver(original.id)
      expect(again.deliveryId).not.toBe(original.id)
      yield* eventually(Effect.sync(() => rx.received.length >= 2), "10 seconds", "redelivery")
      const second = rx.received[1]
      expect(second.headers["x-service-delivery"]).toBe(again.deliveryId)
      expect(verifyWebhookSignature(second.raw, second.headers["x-service-signature"], rotated.secret)).toBe(true)
      expect(verifyWebhookSignature(second.raw, second.headers["x-service-signature"], secret)).toBe(false)
      expect(JSON.parse(second.raw.toString()).message_id).toBe(id)
      const list = yield* admin.listDeliveries(endpoint.id)
      expect(list.map((d) => d.id)).toContain(again.deliveryId)
      expect((yield* admin.getDelivery(again.deliveryId)).delivery.redeliveryOf).toBe(original.id)
      const missing = yield* Effect.flip(admin.redeliver(crypto.randomUUID()))
      expect(missing.error_code).toBe("WEBHOOK_DELIVERY_NOT_FOUND")
      const bad = yield* Effect.flip(admin.createEndpoint({ apiKeyId: key.id, url: "ftp://x" }))
      expect(bad.error_code).toBe("INVALID_WEBHOOK_URL")
    }).pipe(Effect.provide(webhooks()), Effect.scoped))

  it.live(`redeliveries waiting on a disabled endpoint never hold up other endpoints (${driver})`, () =>
    Effect.gen(function*() {
      const rxA = yield* startReceiver()
      const rxB = yield* startReceiver()
      const { account, key, otherKey } = yield* setupAccount
      const admin = yield* WebhookAdmin
      const a = yield* admin.createEndpoint({ apiKeyId: key.id, url: rxA.url })
      yield* admin.createEndpoint({ apiKeyId: otherKey.id, url: rxB.url })
      yield* admin.disableEndpoint(a.endpoint.id)
      const missed = [
        yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id }),
        yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id }),
        yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id })
      ]
      yield* finalize(missed, "delivered")
      const { deliveryIds } = yield* admin.redeliverSince(a.endpoint.id, new Date(Date.now() - 60_000))
      expect(deliveryIds).toHaveLength(3) // pending, but the endpoint is disabled: they wait
      const b = yield* insertSentMessage({ accountId: account.id, apiKeyId: otherKey.id })
      yield* finalize([b], "delivered")
      yield* eventually(Effect.sync(() => rxB.received.length >= 1), "5 seconds", "the other endpoint's event")
      expect(rxA.received).toHaveLength(0)
      yield* admin.enableEndpoint(a.endpoint.id)
      yield* eventually(Effect.sync(() => rxA.received.length >= 3), "5 seconds", "the redeliveries after enabling")
      expect(new Set(bodies(rxA.received).map((x) => x.message_id))).toEqual(new Set(missed))
    }).pipe(Effect.provide(webhooks({ settings: fast({ claimBatch: 2, concurrency: 2 }) })), Effect.scoped))

  it.live(`a loopback endpoint is refused at delivery once the allow-list no longer permits it (${driver})`, () =>
    Effect.gen(function*() {
      const rx = yield* startReceiver()
      const { account, key } = yield* setupAccount
      const admin = yield* WebhookAdmin
      const store = yield* WebhookStore
      // registered while 127.0.0.1 was allow-listed; the delivery-time check has its own list
      const { endpoint } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
      const refused = yield* insertSentMessage({ accountId: account.id, apiKeyId: key.id })
      yield* finalize([refused], "delivered")
      yield* eventually(
        Effect.map(store.listDeliveries(endpoint.id, { limit: 5 }), (ds) => (ds[0]?.attempts ?? 0) >= 1),
        "10 seconds",
        "refused attempt"
      )
      expect(rx.received).toHaveLength(0)
      const [d] = yield* store.listDeliveries(endpoint.id, { limit: 5 })
      const attempts = yield* store.listAttempts(d.id)
      expect(attempts[0].error).toContain("loopback")
      expect(attempts[0].responseStatus).toBeNull()
    }).pipe(Effect.provide(webhooks({ allow: [], registrationAllow: ["127.0.0.1"] })), Effect.scoped))

  it.live(`loopback, private and metadata URLs are refused at registration with InvalidWebhookUrl (${driver})`, () =>
    Effect.gen(function*() {
      const { key } = yield* setupAccount
      const admin = yield* WebhookAdmin
      for (
        const url of [
          "http://169.254.169.254/latest/meta-data",
          "http://10.1.2.3/hook",
          "http://[fd00:ec2::254]/hook",
          "http://100.100.100.200/hook",
          "http://2130706433/hook",
          "http://0x7f000001/hook",
          "http://[::ffff:127.0.0.1]/hook",
          "http://localhost:8080/hook"
        ]
      ) {
        const error = yield* Effect.flip(admin.createEndpoint({ apiKeyId: key.id, url }))
        expect(error._tag, url).toBe("InvalidWebhookUrl")
      }
      expect(yield* admin.listEndpoints({ apiKeyId: key.id })).toEqual([])
    }).pipe(Effect.provide(webhooks({ allow: [] })), Effect.scoped))
})
