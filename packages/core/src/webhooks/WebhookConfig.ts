/**
 * Settings of delivery webhooks (decisions.md §23, §27). Every value is configurable; defaults are
 * the decided ones. `WebhookConfig.fromConfig` reads (through Effect's `Config`, so from the
environment by default or from any `ConfigProvider`):
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `TUMA_WEBHOOK_RETRY_DELAYS` | `30s,2m,10m,1h` | delay before each retry (count = number of retries) |
 * | `TUMA_WEBHOOK_TIMEOUT` | `10s` | per-attempt deadline |
 * | `TUMA_WEBHOOK_DISABLE_AFTER` | `10` | consecutive failed attempts that disable an endpoint |
 * | `TUMA_WEBHOOK_CONCURRENCY` | `256` | HTTP attempts in flight per process |
 * | `TUMA_WEBHOOK_POLL` | `100ms` | how often idle workers look for work |
 * | `TUMA_WEBHOOK_UTC_OFFSET` | `0` | minutes east of UTC used to print `delivered_at` |
 *
 * (`TUMA_WEBHOOK_SIGNATURE_HEADER` and `TUMA_WEBHOOK_ALLOW` belong to the HTTP sender in
 * @tuma/providers; `TUMA_SMTP_URL` to the mailer; `TUMA_SYSTEM_SENDER_ID` to the notifier's SMS.)
 */
import type { WebhookRetryPolicy } from "@tuma/domain"
import { defaultWebhookRetryPolicy } from "@tuma/domain"
import type { Config, ConfigError } from "effect"
import { Context, Layer } from "effect"
import { configVariables, parsedConfig } from "../configVariables.js"

/** How webhook workers deliver: retry policy, concurrency, claim batch, polling, leases, notices, shutdown grace. */
export interface WebhookSettings {
  readonly retry: WebhookRetryPolicy
  /** HTTP attempts in flight at once (per process). */
  readonly concurrency: number
  /** Deliveries claimed per query. */
  readonly claimBatch: number
  /** Idle polling interval of the workers, in ms. */
  readonly pollIntervalMs: number
  /** A claimed delivery is re-offered after timeout + this margin if its worker vanished. */
  readonly leaseMarginMs: number
  /** Offset used to print `delivered_at`. */
  readonly utcOffsetMinutes: number
  /** Delays between attempts to send an owed notification (e-mail/SMS); then it is given up. */
  readonly notificationRetryDelaysMs: ReadonlyArray<number>
  /** On shutdown, how long to let attempts in flight finish (and be recorded) before stopping. */
  readonly shutdownGraceMs: number
}

/** The decided defaults: 256 attempts in flight, 200 claimed per query, 100 ms polling. */
export const defaultWebhookSettings: WebhookSettings = {
  retry: defaultWebhookRetryPolicy,
  concurrency: 256,
  claimBatch: 200,
  pollIntervalMs: 100,
  leaseMarginMs: 30_000,
  utcOffsetMinutes: 0,
  notificationRetryDelaysMs: [60_000, 300_000, 1_800_000, 3_600_000],
  shutdownGraceMs: 5_000
}

/** The defaults with `overrides` applied (`retry` merged field by field). */
export const mergeSettings = (
  overrides: Partial<Omit<WebhookSettings, "retry">> & { readonly retry?: Partial<WebhookRetryPolicy> | undefined }
): WebhookSettings => ({
  ...defaultWebhookSettings,
  ...overrides,
  retry: { ...defaultWebhookSettings.retry, ...overrides.retry }
})

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }

/** `"30s"`, `"2m"`, `"1h"`, `"250ms"` or a bare number of milliseconds. */
export const parseDurationMs = (text: string): number => {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text)
  if (!m) throw new Error(`invalid duration: ${JSON.stringify(text)}`)
  return Math.round(Number(m[1]) * UNITS[m[2] ?? "ms"])
}

/** The variables `fromConfig` reads. */
export const WEBHOOK_VARIABLES = [
  "TUMA_WEBHOOK_RETRY_DELAYS",
  "TUMA_WEBHOOK_TIMEOUT",
  "TUMA_WEBHOOK_DISABLE_AFTER",
  "TUMA_WEBHOOK_CONCURRENCY",
  "TUMA_WEBHOOK_POLL",
  "TUMA_WEBHOOK_UTC_OFFSET"
] as const

/** Settings from a record of variables (see the table above). Throws on malformed values. */
export const parseWebhookSettings = (env: Readonly<Record<string, string | undefined>>): WebhookSettings => {
  const int = (name: string, fallback: number) => {
    const v = env[name]
    if (v === undefined || v.trim() === "") return fallback
    const n = Number(v)
    if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got ${JSON.stringify(v)}`)
    return n
  }
  const delays = env.TUMA_WEBHOOK_RETRY_DELAYS
  return mergeSettings({
    retry: {
      retryDelaysMs: delays === undefined || delays.trim() === ""
        ? defaultWebhookRetryPolicy.retryDelaysMs
        : delays.split(",").filter((s) => s.trim() !== "").map(parseDurationMs),
      timeoutMs: env.TUMA_WEBHOOK_TIMEOUT
        ? parseDurationMs(env.TUMA_WEBHOOK_TIMEOUT)
        : defaultWebhookRetryPolicy.timeoutMs,
      disableAfterConsecutiveFailures: int("TUMA_WEBHOOK_DISABLE_AFTER", 10)
    },
    concurrency: int("TUMA_WEBHOOK_CONCURRENCY", defaultWebhookSettings.concurrency),
    pollIntervalMs: env.TUMA_WEBHOOK_POLL
      ? parseDurationMs(env.TUMA_WEBHOOK_POLL)
      : defaultWebhookSettings.pollIntervalMs,
    utcOffsetMinutes: int("TUMA_WEBHOOK_UTC_OFFSET", 0)
  })
}

/** The webhook settings read through `Config` (the variables of the table above). */
export const webhookSettingsConfig: Config.Config<WebhookSettings> = parsedConfig(
  configVariables(WEBHOOK_VARIABLES),
  parseWebhookSettings
)

/**
 * The webhook settings in use; `WebhookConfig.layer(overrides)` provides the defaults with overrides,
 * `WebhookConfig.layerFromConfig` the settings read through `Config`.
 */
export class WebhookConfig extends Context.Tag("@tuma/core/WebhookConfig")<WebhookConfig, WebhookSettings>() {
  /** The settings read through `Config` (see the module's table). */
  static readonly fromConfig: Config.Config<WebhookSettings> = webhookSettingsConfig
  /** `WebhookConfig` from `fromConfig`; fails with the `ConfigError` of a malformed value. */
  static readonly layerFromConfig: Layer.Layer<WebhookConfig, ConfigError.ConfigError> = Layer.effect(
    WebhookConfig,
    webhookSettingsConfig
  )
  static readonly layer = (
    overrides: Partial<WebhookSettings> & { readonly retry?: Partial<WebhookRetryPolicy> } = {}
  ) => Layer.succeed(WebhookConfig, mergeSettings(overrides))
}
