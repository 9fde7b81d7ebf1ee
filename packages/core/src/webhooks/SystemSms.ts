/**
 * `SystemSms` over Tuma's own send pipeline: an operational SMS (e.g. "your webhook was disabled")
 * is an ordinary single send by the configured **system account** from the configured **system
 * sender ID**, so it goes through every check, is charged to the system account, queued and
 * dispatched like any message. Channel `web` and no API key: it never triggers webhooks itself.
 *
 * Configuration (`systemSmsSettingsConfig`, through Effect's `Config`): `TUMA_SYSTEM_ACCOUNT_ID` (the operator's own
 * account; it needs the sender ID approved, a verified route and credit) and
 * `TUMA_SYSTEM_SENDER_ID` (default `TUMA`). Without an account the SMS notice is logged and
 * recorded as failed (not retried); the e-mail notice still goes out.
 */
import { Config, Effect, Layer } from "effect"
import { configVariables } from "../configVariables.js"
import { SystemSms, SystemSmsError } from "../ports/Notifiers.js"
import { Send } from "../send/Send.js"

/** Who sends operational SMS: the system account (none = SMS notices fail, not retried) and its sender ID. */
export interface SystemSmsSettings {
  /** The account that sends (and pays for) operational SMS. */
  readonly accountId: string | undefined
  /** An approved sender ID of that account. */
  readonly senderId: string
}

/** From a record of `TUMA_SYSTEM_ACCOUNT_ID` and `TUMA_SYSTEM_SENDER_ID` (default `TUMA`). */
export const parseSystemSmsSettings = (env: Readonly<Record<string, string | undefined>>): SystemSmsSettings => ({
  accountId: env.TUMA_SYSTEM_ACCOUNT_ID || undefined,
  senderId: env.TUMA_SYSTEM_SENDER_ID || "TUMA"
})

/** Reads `TUMA_SYSTEM_ACCOUNT_ID` and `TUMA_SYSTEM_SENDER_ID` (default `TUMA`) through `Config`. */
export const systemSmsSettingsConfig: Config.Config<SystemSmsSettings> = Config.map(
  configVariables(["TUMA_SYSTEM_ACCOUNT_ID", "TUMA_SYSTEM_SENDER_ID"]),
  parseSystemSmsSettings
)

/** Refusals that a later attempt cannot fix. */
const PERMANENT = new Set([
  "VALIDATION_FAILED",
  "INVALID_RECIPIENT",
  "RECIPIENT_OPTED_OUT",
  "SPAM_POLICY",
  "SENDER_ID_NOT_APPROVED",
  "EMPTY_MESSAGE",
  "MESSAGE_TOO_LONG"
])

/**
 * `SystemSms` as a live single send from the system account (channel `web`, no API key); a refusal
 * that a later attempt cannot fix (validation, opt-out, spam policy, sender ID…) is not retryable.
 */
export const layerSystemSmsFromSend = (settings: SystemSmsSettings): Layer.Layer<SystemSms, never, Send> =>
  Layer.effect(
    SystemSms,
    Effect.gen(function*() {
      const send = yield* Send
      const accountId = settings.accountId
      return SystemSms.of({
        send: ({ text, to }) =>
          accountId === undefined
            ? Effect.fail(
              new SystemSmsError({ message: "no system account configured (TUMA_SYSTEM_ACCOUNT_ID)", retryable: false })
            )
            : send.single(
              { accountId, apiKeyId: null, mode: "live", channel: "web" },
              { recipient: to, sender_id: settings.senderId, body: text }
            ).pipe(
              Effect.map((outcome) => ({ messageId: outcome.data.uid })),
              Effect.mapError((e) =>
                new SystemSmsError({
                  message: `${e.error_code}: ${e.message}`,
                  retryable: !PERMANENT.has(e.error_code)
                })
              )
            )
      })
    })
  )
