/**
 * Delivery-webhook workers assembled over the SQL store (webhook engineer; docs/webhooks.md):
 * `tuma serve` runs them next to the HTTP server and the delivery workers, `tuma worker` too (`Worker.ts`).
 * Needs `SqlClient`, `Send` and `Ids` in context (the store layer provides them).
 *
 * Environment (all optional): TUMA_WEBHOOK_RETRY_DELAYS, TUMA_WEBHOOK_TIMEOUT,
 * TUMA_WEBHOOK_DISABLE_AFTER, TUMA_WEBHOOK_CONCURRENCY, TUMA_WEBHOOK_POLL, TUMA_WEBHOOK_UTC_OFFSET
 * (core WebhookConfig); TUMA_WEBHOOK_SIGNATURE_HEADER, TUMA_WEBHOOK_ALLOW (HTTP sender);
 * TUMA_SMTP_URL, TUMA_MAIL_FROM (e-mail notices); TUMA_SYSTEM_ACCOUNT_ID, TUMA_SYSTEM_SENDER_ID
 * (SMS notices through Tuma's own send pipeline).
 */
import { SqlClient } from "@effect/sql"
import { Ids, Send } from "@tuma/core"
import { layerObservedWebhookSender } from "@tuma/core/observability/WebhookObserved"
import { layerSystemSmsFromSend, parseSystemSmsSettings } from "@tuma/core/webhooks/SystemSms"
import { WebhookAdmin } from "@tuma/core/webhooks/WebhookAdmin"
import { parseWebhookSettings, WebhookConfig } from "@tuma/core/webhooks/WebhookConfig"
import { layerWebhookWorkers } from "@tuma/core/webhooks/WebhookWorkers"
import { layerMailerFromEnv } from "@tuma/providers"
import { layerHttpWebhookSender, webhookSenderOptionsFromEnv } from "@tuma/providers"
import { SqlStore } from "@tuma/store-sql"
import { Effect, Layer } from "effect"
import { lookup as dnsLookup } from "node:dns/promises"
import { isIP } from "node:net"
import { DEMO_EMAIL } from "../cli/Demo.js"

/**
 * The pump's polling interval when `TUMA_WEBHOOK_POLL` is unset: the SQL store wakes it when a final
 * state creates deliveries (migration 0760); the poll finds retries falling due and redeliveries made
 * by another process.
 */
export const DEFAULT_POLL = "1s"

export interface WebhookWorkerOptions {
  /** Defaults to `TUMA_SYSTEM_ACCOUNT_ID`; `tuma serve --demo` passes the demo account. */
  readonly systemAccountId?: string | undefined
}

/** The webhook workers (fan-in from the final-state transaction, HTTP attempts, notices). */
export const layer = (
  options: WebhookWorkerOptions = {},
  env: Record<string, string | undefined> = process.env
): Layer.Layer<never, never, SqlClient.SqlClient | Send | Ids> => {
  const sms = parseSystemSmsSettings(env)
  return Layer.discard(layerWebhookWorkers).pipe(
    Layer.provide(
      Layer.mergeAll(
        layerObservedWebhookSender(layerHttpWebhookSender(webhookSenderOptionsFromEnv(env))),
        // woken by the store (pg_notify), the pump polls once a second by default, not every 100 ms
        Layer.sync(
          WebhookConfig,
          () => parseWebhookSettings({ ...env, TUMA_WEBHOOK_POLL: env.TUMA_WEBHOOK_POLL || DEFAULT_POLL })
        ),
        layerMailerFromEnv(env),
        layerSystemSmsFromSend({ ...sms, accountId: options.systemAccountId ?? sms.accountId })
      )
    ),
    Layer.provide(SqlStore.layerWebhookWorkers),
    // polling statements are not traced; the observed sender traces each attempt
    Layer.provide(Layer.setTracerEnabled(false))
  )
}

/** The demo account's id, if the store has one. */
export const demoAccountId: Effect.Effect<string | undefined, never, SqlClient.SqlClient> = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{ id: string }>`SELECT id FROM accounts WHERE email = ${DEMO_EMAIL}`.pipe(
      Effect.map((rows) => rows[0]?.id),
      Effect.orDie
    )
)

/** The loopback addresses a demo's webhooks may reach (a developer's receiver on the same machine). */
export const DEMO_LOOPBACK = ["127.0.0.1", "::1"] as const

/**
 * `tuma serve --demo`: the loopback addresses join the allow-list of this process, so a developer
 * can point a webhook at a receiver on their own machine. Only with `--demo`: a server started
 * without it refuses loopback unless `TUMA_WEBHOOK_ALLOW` says otherwise. Answers the allow-list text.
 */
export const allowDemoLoopback = (env: Record<string, string | undefined> = process.env): string => {
  const entries = [...(env.TUMA_WEBHOOK_ALLOW ?? "").split(/[\s,]+/).filter((e) => e !== ""), ...DEMO_LOOPBACK]
  env.TUMA_WEBHOOK_ALLOW = [...new Set(entries)].join(",")
  return env.TUMA_WEBHOOK_ALLOW
}

/**
 * `tuma serve --demo --demo-webhook <url>`: the operator named this URL on the command line, so its
 * addresses join the allow-list of this process (`TUMA_WEBHOOK_ALLOW`, read when the store and the
 * webhook workers are built — call this before). Answers the allow-list text.
 */
export const allowDemoWebhook = async (
  url: string,
  env: Record<string, string | undefined> = process.env
): Promise<string> => {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "")
  const addresses = isIP(host) !== 0
    ? [host]
    : (await dnsLookup(host, { all: true })).map((a) => a.address)
  const entries = [...(env.TUMA_WEBHOOK_ALLOW ?? "").split(/[\s,]+/).filter((e) => e !== ""), ...addresses]
  env.TUMA_WEBHOOK_ALLOW = [...new Set(entries)].join(",")
  return env.TUMA_WEBHOOK_ALLOW
}

/**
 * `tuma serve --demo --demo-webhook <url>`: registers `url` as a webhook endpoint of the demo live
 * key (its addresses are on the allow-list, `allowDemoWebhook`) and answers its secret to print.
 * When the URL is already registered for that key (a restart), the endpoint and its secret are
 * kept, so a receiver started with the printed secret keeps verifying; a disabled endpoint is
 * enabled again. `created` tells the two apart.
 */
export const registerDemoWebhook = (url: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const admin = yield* WebhookAdmin
    const [key] = yield* sql<{ id: string }>`
      SELECT k.id FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE a.email = ${DEMO_EMAIL} AND k.mode = 'live' AND k.revoked_at IS NULL
      ORDER BY k.created_at LIMIT 1`.pipe(Effect.orDie)
    if (key === undefined) return yield* Effect.dieMessage("--demo-webhook: the store has no demo live key")
    const existing = (yield* admin.listEndpoints({ apiKeyId: key.id })).find((e) => e.url === url)
    if (existing === undefined) {
      const { endpoint, secret } = yield* admin.createEndpoint({
        apiKeyId: key.id,
        url,
        // the demo shows two-way SMS too
        events: ["sms.delivered", "sms.failed", "sms.received", "optout.changed"]
      })
      return { endpointId: endpoint.id, secret, created: true }
    }
    if (!existing.enabled) yield* admin.enableEndpoint(existing.id)
    const [{ secret }] = yield* sql<{ secret: string }>`
      SELECT secret FROM webhook_endpoints WHERE id = ${existing.id}`.pipe(Effect.orDie)
    return { endpointId: existing.id, secret, created: false }
  })
