import { describe, expect, it } from "@effect/vitest"
import { parsePortalSettings, PortalConfig, portalSettingsConfig } from "@tuma/core/portal/PortalConfig"
import { parseSystemSmsSettings, systemSmsSettingsConfig } from "@tuma/core/webhooks/SystemSms"
import { defaultWebhookSettings, parseWebhookSettings, WebhookConfig } from "@tuma/core/webhooks/WebhookConfig"
import { ConfigProvider, Effect, Either } from "effect"

const provider = (vars: Record<string, string>) => ConfigProvider.fromMap(new Map(Object.entries(vars)))
const read = <A, E>(config: Effect.Effect<A, E>, vars: Record<string, string>) =>
  Effect.withConfigProvider(config, provider(vars))

describe("settings read through Config", () => {
  it.effect("webhook settings: defaults, the variables, and the parser's message on a malformed value", () =>
    Effect.gen(function*() {
      expect(yield* read(WebhookConfig.fromConfig, {})).toEqual(defaultWebhookSettings)
      const s = yield* read(WebhookConfig.fromConfig, {
        TUMA_WEBHOOK_RETRY_DELAYS: "1s,5m",
        TUMA_WEBHOOK_TIMEOUT: "250ms",
        TUMA_WEBHOOK_DISABLE_AFTER: "3",
        TUMA_WEBHOOK_CONCURRENCY: "8",
        TUMA_WEBHOOK_POLL: "1s",
        TUMA_WEBHOOK_UTC_OFFSET: "180"
      })
      expect(s.retry).toEqual({ retryDelaysMs: [1_000, 300_000], timeoutMs: 250, disableAfterConsecutiveFailures: 3 })
      expect([s.concurrency, s.pollIntervalMs, s.utcOffsetMinutes]).toEqual([8, 1_000, 180])
      const bad = yield* Effect.either(read(WebhookConfig.fromConfig, { TUMA_WEBHOOK_CONCURRENCY: "many" }))
      expect(Either.isLeft(bad) && String(bad.left)).toContain(
        `TUMA_WEBHOOK_CONCURRENCY must be an integer, got "many"`
      )
      const badPoll = yield* Effect.either(read(WebhookConfig.fromConfig, { TUMA_WEBHOOK_POLL: "soon" }))
      expect(Either.isLeft(badPoll) && String(badPoll.left)).toContain(`invalid duration: "soon"`)
      expect(parseWebhookSettings({ TUMA_WEBHOOK_POLL: "" }).pollIntervalMs).toBe(100)
    }))

  it.effect("WebhookConfig.layerFromConfig provides what fromConfig reads", () =>
    Effect.gen(function*() {
      const s = yield* Effect.provide(WebhookConfig, WebhookConfig.layerFromConfig)
      expect(s.concurrency).toBe(4)
    }).pipe(Effect.withConfigProvider(provider({ TUMA_WEBHOOK_CONCURRENCY: "4" }))))

  it.effect("system SMS settings: the account (empty = none) and the sender ID (default TUMA)", () =>
    Effect.gen(function*() {
      expect(yield* read(systemSmsSettingsConfig, {})).toEqual({ accountId: undefined, senderId: "TUMA" })
      expect(yield* read(systemSmsSettingsConfig, { TUMA_SYSTEM_ACCOUNT_ID: "a-1", TUMA_SYSTEM_SENDER_ID: "OPS" }))
        .toEqual({ accountId: "a-1", senderId: "OPS" })
      expect(parseSystemSmsSettings({ TUMA_SYSTEM_ACCOUNT_ID: "" }).accountId).toBeUndefined()
    }))

  it.effect("portal settings: lifetimes (invalid = default), public URL, origins", () =>
    Effect.gen(function*() {
      const s = yield* read(portalSettingsConfig, {
        TUMA_PORTAL_SESSION_IDLE_MS: "60000",
        TUMA_PORTAL_SESSION_ABSOLUTE_MS: "-5",
        TUMA_PUBLIC_URL: "https://sms.example.com",
        TUMA_PORTAL_ORIGINS: " http://localhost:5173 , ,http://a.example"
      })
      expect(s.sessionIdleMs).toBe(60_000)
      expect(s.sessionAbsoluteMs).toBe(12 * 3_600_000)
      expect(s.publicUrl).toBe("https://sms.example.com")
      expect(s.allowedOrigins).toEqual(["http://localhost:5173", "http://a.example"])
      expect(parsePortalSettings({}).allowedOrigins).toEqual([])
      const fromLayer = yield* Effect.provide(PortalConfig, PortalConfig.layerFromConfig).pipe(
        Effect.withConfigProvider(provider({ TUMA_PORTAL_SESSION_IDLE_MS: "1000" }))
      )
      expect(fromLayer.sessionIdleMs).toBe(1_000)
    }))
})
