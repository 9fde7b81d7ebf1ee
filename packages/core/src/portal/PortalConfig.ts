/**
 * Settings of the portal's access rules (sessions, lockout, e-mailed links). Defaults below;
 * override with `Layer.succeed(PortalConfig, { ...defaultPortalSettings, … })` or through Effect's
 * `Config` (the environment by default) with `PortalConfig.layerFromConfig`.
 */
import { Config, Context, Effect, Layer } from "effect"
import { configVariables } from "../configVariables.js"

/** The portal's settings: session lifetimes, lockout, token lifetimes, allowed origins. */
export interface PortalSettings {
  /** A session unused this long ends (default 30 minutes). */
  readonly sessionIdleMs: number
  /** A session ends this long after sign-in whatever its use (default 12 hours). */
  readonly sessionAbsoluteMs: number
  /** Failed sign-ins for one e-mail within `lockoutWindowMs` that lock it (default 5 in 15 min). */
  readonly lockoutThreshold: number
  readonly lockoutWindowMs: number
  /** How long a locked e-mail stays locked (default 15 minutes). */
  readonly lockoutMs: number
  /** Failed sign-ins from one client address within the window that lock the address (default 50). */
  readonly addressLockoutThreshold: number
  readonly invitationTtlMs: number
  readonly passwordResetTtlMs: number
  /** Base of the links in e-mails and of the Origin check, e.g. `https://sms.example.com`; when
   * unset, the server's own address. */
  readonly publicUrl: string | undefined
  /** Further origins allowed to make state changes (e.g. a development server). */
  readonly allowedOrigins: ReadonlyArray<string>
}

/** The settings when nothing overrides them. */
export const defaultPortalSettings: PortalSettings = {
  sessionIdleMs: 30 * 60_000,
  sessionAbsoluteMs: 12 * 3_600_000,
  lockoutThreshold: 5,
  lockoutWindowMs: 15 * 60_000,
  lockoutMs: 15 * 60_000,
  addressLockoutThreshold: 50,
  invitationTtlMs: 7 * 24 * 3_600_000,
  passwordResetTtlMs: 3_600_000,
  publicUrl: undefined,
  allowedOrigins: []
}

const ms = (v: string | undefined, fallback: number) => {
  if (v === undefined || v === "") return fallback
  const n = Number(v)
  return Number.isFinite(n) && n > 0 ? n : fallback
}

/** TUMA_PUBLIC_URL, TUMA_PORTAL_ORIGINS (comma-separated), TUMA_PORTAL_SESSION_IDLE_MS,
 * TUMA_PORTAL_SESSION_ABSOLUTE_MS. (Private webhook destinations: only `TUMA_WEBHOOK_ALLOW`.) */
export const parsePortalSettings = (env: Readonly<Record<string, string | undefined>>): PortalSettings => ({
  ...defaultPortalSettings,
  sessionIdleMs: ms(env.TUMA_PORTAL_SESSION_IDLE_MS, defaultPortalSettings.sessionIdleMs),
  sessionAbsoluteMs: ms(env.TUMA_PORTAL_SESSION_ABSOLUTE_MS, defaultPortalSettings.sessionAbsoluteMs),
  publicUrl: env.TUMA_PUBLIC_URL || undefined,
  allowedOrigins: (env.TUMA_PORTAL_ORIGINS ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
})

/** The portal's settings read through `Config` (the variables `parsePortalSettings` reads). */
export const portalSettingsConfig: Config.Config<PortalSettings> = Config.map(
  configVariables([
    "TUMA_PORTAL_SESSION_IDLE_MS",
    "TUMA_PORTAL_SESSION_ABSOLUTE_MS",
    "TUMA_PUBLIC_URL",
    "TUMA_PORTAL_ORIGINS"
  ]),
  parsePortalSettings
)

/** The portal's settings as a `Context.Reference` (the defaults unless provided). */
export class PortalConfig extends Context.Reference<PortalConfig>()("@tuma/core/PortalConfig", {
  defaultValue: (): PortalSettings => defaultPortalSettings
}) {
  /** The settings read through `Config` (`portalSettingsConfig`). */
  static readonly layerFromConfig: Layer.Layer<PortalConfig> = Layer.effect(
    PortalConfig,
    Effect.orDie(portalSettingsConfig)
  )
}
