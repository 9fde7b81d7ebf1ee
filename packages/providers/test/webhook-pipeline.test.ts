/**
 * Delivery webhooks over the whole pipeline: the real send use case accepts messages, the delivery
 * workers carry them to an SMPP carrier (the SMSC simulator over TCP), receipts make them final,
 * and the webhook workers post the events to a real receiver on loopback. Notices go out by real
 * SMTP and, as an SMS, through Tuma's own send pipeline to the same carrier.
 * Runs on PGlite, and on PostgreSQL when TUMA_TEST_DATABASE_URL is set.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Operator, Send } from "@tuma/core"
import type { WebhookSettings } from "@tuma/core/webhooks/index"
import {
  layerSystemSmsFromSend,
  layerWebhookAdmin,
  layerWebhookWorkers,
  WebhookAdmin,
  WebhookConfig
} from "@tuma/core/webhooks/index"
import { verifyWebhookSignature } from "@tuma/domain"
import * as SqlWebhookStore from "@tuma/store-sql/SqlWebhookStore"
import { Effect, Layer } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"
import { layerSmtpMailer } from "../src/mail/index.js"
import { makeSmscSimulator } from "../src/smsc/SmscSimulator.js"
import { layerHttpWebhookSender, layerWebhookDestinationPolicy } from "../src/webhook/index.js"
import { baseStack, databaseLayer, drivers, setupAccount, smppConfig, unique, workers } from "./support/stack.js"

interface Hook {
  readonly raw: Buffer
  readonly headers: http.IncomingHttpHeaders
}

const receiver = (answer: (n: number) => number | "hang") =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const hooks: Array<Hook> = []
      let open = 0
      const server = http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          hooks.push({ raw: Buffer.concat(chunks), headers: req.headers })
          const a = answer(hooks.length)
          if (a === "hang") {
            open++
            return
          }
          res.writeHead(a).end()
        })
      })
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
      return {
        server,
        hooks,
        hanging: () => open,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tuma`
      }
    }),
    ({ server }) =>
      Effect.promise(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))))
  )

const smtpServer = Effect.acquireRelease(
  Effect.promise(async () => {
    const mails: Array<{ to: ReadonlyArray<string>; data: string }> = []
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, cb) {
        const chunks: Array<Buffer> = []
        stream.on("data", (c: Buffer) => chunks.push(c))
        stream.on("end", () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString() })
          cb()
        })
      }
    })
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
    return { server, mails, url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}` }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((r) => server.close(() => r())))
)

const until = <E, R>(check: Effect.Effect<boolean, E, R>, what: string, ms = 20_000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + ms
    while (!(yield* check)) {
      if (Date.now() > deadline) return yield* Effect.dieMessage(`timed out waiting for ${what}`)
      yield* Effect.sleep("25 millis")
    }
  })

/** The operator's own account, sending operational SMS from `TUMA`. */
const systemAccount = Effect.gen(function*() {
  const op = yield* Operator
  const account = yield* op.createAccount({ name: "Tuma Operations", email: `${unique("ops")}@tuma.test` })
  yield* op.purchaseCredits({ accountId: account.id, country: "TZ", units: 1_000, amount: "0", currency: "TZS" })
  yield* op.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255700000999" })
  yield* op.grantSenderId({ accountId: account.id, senderId: "TUMA", country: "TZ" })
  return account
})

const webhookWorkers = (opts: {
  readonly smtpUrl: string
  readonly systemAccountId: string
  readonly settings?: Partial<WebhookSettings>
  /** The store's wake-ups (pg_notify, migration 0760) beside the poll. */
  readonly wakeups?: boolean
}) =>
  Layer.mergeAll(layerWebhookWorkers, layerWebhookAdmin).pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        opts.wakeups ? Layer.merge(SqlWebhookStore.layer, SqlWebhookStore.layerWakeups) : SqlWebhookStore.layer,
        layerHttpWebhookSender({ allow: ["127.0.0.1"] }),
        layerWebhookDestinationPolicy(["127.0.0.1"]),
        WebhookConfig.layer({
          retry: { retryDelaysMs: [50, 50, 50, 50], timeoutMs: 2_000, disableAfterConsecutiveFailures: 10 },
          pollIntervalMs: 20,
          ...opts.settings
        }),
        layerSmtpMailer({ url: opts.smtpUrl }),
        layerSystemSmsFromSend({ accountId: opts.systemAccountId, senderId: "TUMA" })
      )
    )
  )

const tz = (i: number) => `+25574${String(i).padStart(7, "0")}`
let n = 0

for (const driver of drivers()) {
  layer(baseStack(databaseLayer(driver)), { excludeTestServices: true, timeout: "120 seconds" })(driver, (it) => {
    it.effect("send → carrier → receipt → a signed webhook for that key only", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 20 })
        const smtp = yield* smtpServer
        const rx = yield* receiver(() => 200)
        const other = yield* receiver(() => 200)
        const ops = yield* systemAccount
        const { caller, key } = yield* setupAccount({ providers: [{ kind: "smpp", config: smppConfig(sim.port) }] })
        const op = yield* Operator
        const otherKey = yield* op.issueApiKey({ accountId: caller.accountId, mode: "live" })
        yield* Effect.gen(function*() {
          const admin = yield* WebhookAdmin
          const { secret } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
          yield* admin.createEndpoint({ apiKeyId: otherKey.id, url: other.url })
          const send = yield* Send
          const sent = yield* send.single(caller, { recipient: tz(n++), sender_id: "TUMA", body: "Your code is 4321" })
          const viaOther = yield* send.single({ ...caller, apiKeyId: otherKey.id }, {
            recipient: tz(n++),
            sender_id: "TUMA",
            body: "Other key"
          })
          yield* until(Effect.sync(() => rx.hooks.length >= 1 && other.hooks.length >= 1), "webhooks")
          yield* Effect.sleep("200 millis")
          expect(rx.hooks).toHaveLength(1)
          const hook = rx.hooks[0]
          expect(verifyWebhookSignature(hook.raw, hook.headers["x-service-signature"], secret)).toBe(true)
          const payload = JSON.parse(hook.raw.toString())
          expect(payload).toMatchObject({
            event: "sms.delivered",
            message_id: sent.data.uid,
            status: "delivered",
            sender_id: "TUMA",
            error: null
          })
          expect(payload.delivered_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
          expect(other.hooks.map((h) => JSON.parse(h.raw.toString()).message_id)).toEqual([viaOther.data.uid])
        }).pipe(
          Effect.provide(Layer.merge(webhookWorkers({ smtpUrl: smtp.url, systemAccountId: ops.id }), workers())),
          Effect.scoped
        )
      }).pipe(Effect.scoped))

    it.effect("woken by the store: the webhook arrives though the pump polls once a minute", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 20 })
        const smtp = yield* smtpServer
        const rx = yield* receiver(() => 200)
        const ops = yield* systemAccount
        const { caller, key } = yield* setupAccount({ providers: [{ kind: "smpp", config: smppConfig(sim.port) }] })
        yield* Effect.gen(function*() {
          const admin = yield* WebhookAdmin
          yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
          // the pump has polled (found nothing) and sleeps for a minute before the message is sent
          yield* Effect.sleep("500 millis")
          const send = yield* Send
          const sent = yield* send.single(caller, { recipient: tz(n++), sender_id: "TUMA", body: "Woken" })
          yield* until(Effect.sync(() => rx.hooks.length >= 1), "the webhook, woken by pg_notify", 10_000)
          expect(JSON.parse(rx.hooks[0].raw.toString())).toMatchObject({
            event: "sms.delivered",
            message_id: sent.data.uid
          })
        }).pipe(
          Effect.provide(Layer.merge(
            webhookWorkers({
              smtpUrl: smtp.url,
              systemAccountId: ops.id,
              settings: { pollIntervalMs: 60_000 },
              wakeups: true
            }),
            workers()
          )),
          Effect.scoped
        )
      }).pipe(Effect.scoped))

    it.effect("a hanging receiver does not hold up SMS dispatch", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 10 })
        const smtp = yield* smtpServer
        const rx = yield* receiver(() => "hang")
        const ops = yield* systemAccount
        const { caller, key } = yield* setupAccount({ providers: [{ kind: "smpp", config: smppConfig(sim.port) }] })
        yield* Effect.gen(function*() {
          const admin = yield* WebhookAdmin
          const { endpoint } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
          const send = yield* Send
          const sql = yield* SqlClient.SqlClient
          // First batch: every webhook attempt hangs and holds the whole webhook capacity (4).
          const first = Array.from({ length: 8 }, () => tz(n++))
          yield* send.bulkV1(caller, { recipients: first, sender_id: "TUMA", message: "batch one" })
          yield* until(Effect.sync(() => rx.hanging() >= 4), "webhook capacity held by the hanging receiver")
          // Second batch: sent, carried and delivered while the receiver still hangs.
          const second = Array.from({ length: 30 }, () => tz(n++))
          const out = yield* send.bulkV1(caller, { recipients: second, sender_id: "TUMA", message: "batch two" })
          const ids = out.data.results.map((r) => r.message_uid)
          yield* until(
            Effect.map(
              sql<{ n: number }>`SELECT count(*)::int AS n FROM messages
                WHERE id IN ${sql.in(ids)} AND status = 'delivered'`,
              ([r]) => r.n === ids.length
            ).pipe(Effect.orDie),
            "the second batch delivered"
          )
          // ...and no webhook attempt has finished yet: dispatch never waited on them.
          const ds = yield* admin.listDeliveries(endpoint.id, { limit: 100 })
          expect(ds.length).toBeGreaterThanOrEqual(8)
          expect(ds.every((d) => d.attempts === 0)).toBe(true)
          expect(rx.hanging()).toBe(4)
          expect(sim.received.filter((p) => p.text === "batch two")).toHaveLength(30)
          // Leave nothing pending for the next test's workers (the database is shared by the file).
          yield* admin.disableEndpoint(endpoint.id)
        }).pipe(
          Effect.provide(
            Layer.merge(
              webhookWorkers({
                smtpUrl: smtp.url,
                systemAccountId: ops.id,
                settings: {
                  shutdownGraceMs: 100,
                  concurrency: 4,
                  retry: { retryDelaysMs: [50], timeoutMs: 60_000, disableAfterConsecutiveFailures: 10 }
                }
              }),
              workers()
            )
          ),
          Effect.scoped
        )
      }).pipe(Effect.scoped))

    it.effect("10 consecutive failures: disabled, e-mail by SMTP and SMS through Tuma's pipeline to the carrier", () =>
      Effect.gen(function*() {
        const sim = yield* makeSmscSimulator({ receiptDelayMs: 10 })
        const smtp = yield* smtpServer
        const rx = yield* receiver(() => 500)
        const ops = yield* systemAccount
        const { account, caller, key } = yield* setupAccount({
          providers: [{ kind: "smpp", config: smppConfig(sim.port) }]
        })
        yield* Effect.gen(function*() {
          const admin = yield* WebhookAdmin
          const { endpoint } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })
          const send = yield* Send
          yield* send.bulkV1(caller, { recipients: [tz(n++), tz(n++)], sender_id: "TUMA", message: "fail me" })
          yield* until(Effect.map(admin.getEndpoint(endpoint.id), (e) => !e.enabled), "the endpoint disabled")
          expect((yield* admin.getEndpoint(endpoint.id)).consecutiveFailures).toBe(10)
          // The account phone (+255712000000) receives the notice from TUMA, at the carrier.
          yield* until(
            Effect.sync(() =>
              sim.received.some((p) => p.destinationAddr === "255712000000" && p.sourceAddr === "TUMA")
            ),
            "the SMS notice at the carrier"
          )
          const notice = sim.received.find((p) => p.destinationAddr === "255712000000")!
          expect(notice.text).toContain("webhook")
          expect(notice.text).toContain("disabled after 10")
          yield* until(Effect.sync(() => smtp.mails.length >= 1), "the e-mail notice")
          expect(smtp.mails).toHaveLength(1)
          expect(smtp.mails[0].to).toEqual([account.email])
          expect(smtp.mails[0].data).toContain(rx.url)
          // The SMS was an ordinary message of the system account (charged, channel web, no key).
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ channel: string; api_key_id: string | null; sender_id: string }>`
            SELECT channel, api_key_id, sender_id FROM messages
            WHERE account_id = ${ops.id} AND recipient = '+255712000000'`
          expect(rows).toEqual([{ channel: "web", api_key_id: null, sender_id: "TUMA" }])
        }).pipe(
          Effect.provide(Layer.merge(webhookWorkers({ smtpUrl: smtp.url, systemAccountId: ops.id }), workers())),
          Effect.scoped
        )
      }).pipe(Effect.scoped))
  })
}
