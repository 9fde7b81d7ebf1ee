/**
 * Ports of the webhook use cases: the outbound HTTP sender and the e-mail notifier.
 * Adapters live in @tuma/providers (`webhook/HttpWebhookSender.ts`, `mail/SmtpMailer.ts`).
 */
import type { WebhookAttemptOutcome, WebhookEventType } from "@tuma/domain"
import type { Effect } from "effect"
import { Context, Schema } from "effect"

/** One POST of one delivery. The sender signs `body` with `secret` at send time. */
export interface WebhookRequest {
  readonly url: string
  /** The exact bytes to send and sign (built once, stored, resent unchanged on retries). */
  readonly body: string
  readonly secret: string
  /** The event; `webhook.test` for the portal's test event. */
  readonly event: WebhookEventType | "webhook.test"
  /** `X-Service-Delivery`: one id per delivery, the same across its retries. */
  readonly deliveryId: string
  /** Per-attempt deadline in ms (decisions.md §23: 10 s). */
  readonly timeoutMs: number
}

/**
 * Which webhook URLs may be registered: refuses (with the reason) a URL whose host is a non-public
 * address in any spelling (decimal, hex, IPv4-mapped IPv6, …) or a name resolving to one, unless
 * the operator allow-list (`TUMA_WEBHOOK_ALLOW`, CIDRs) permits it. The same classification and
 * allow-list guard every delivery attempt on the address actually connected to. Adapter:
 * `layerWebhookDestinationPolicy` (@tuma/providers/webhook/addressPolicy).
 */
export class WebhookDestinationPolicy extends Context.Tag("@tuma/core/WebhookDestinationPolicy")<
  WebhookDestinationPolicy,
  { readonly refuse: (url: string) => Effect.Effect<string | null> }
>() {}

/** What one attempt did. `status` is null when no HTTP response arrived. */
export interface WebhookAttemptResult {
  readonly outcome: WebhookAttemptOutcome
  readonly status: number | null
  readonly latencyMs: number
  readonly error: string | null
}

/** Posts a webhook. Never fails: every problem is a failed attempt with an `error` text. */
export class WebhookSender extends Context.Tag("@tuma/core/WebhookSender")<WebhookSender, {
  readonly send: (request: WebhookRequest) => Effect.Effect<WebhookAttemptResult>
}>() {}

/** An e-mail the `Mailer` could not send (`message` says why). */
export class MailError extends Schema.TaggedError<MailError>()("MailError", {
  message: Schema.String
}) {}

/** A plain-text e-mail to one address. */
export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
}

/**
 * Where a mail went: `sent` (handed to the SMTP server) or `outbox` (no mail server is configured:
 * kept in the demo outbox the console shows, nothing left the machine).
 */
export type MailOutcome = "sent" | "outbox"

/** What a use case tells its caller about a mail: `failed` when the SMTP server refused it. */
export type MailNotice = MailOutcome | "failed"

/** Sends e-mail (invitations, resets, notices) and says where it went. */
export class Mailer extends Context.Tag("@tuma/core/Mailer")<Mailer, {
  readonly send: (message: MailMessage) => Effect.Effect<MailOutcome, MailError>
}>() {}

/** A mail kept in the outbox instead of being sent (no `TUMA_SMTP_URL`). */
export interface OutboxMail {
  readonly id: string
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly created_at: Date
}

/**
 * The demo outbox: mails that were not sent because no mail server is configured, kept so the
 * console can show them (durable). Adapter: `@tuma/store-sql/SqlMailOutbox`.
 */
export class MailOutbox extends Context.Tag("@tuma/core/MailOutbox")<MailOutbox, {
  readonly put: (mail: OutboxMail) => Effect.Effect<void>
  /** Newest first, at most `limit`. */
  readonly list: (limit: number) => Effect.Effect<ReadonlyArray<OutboxMail>>
}>() {}

/** A system SMS that could not be sent; `retryable` says whether trying again may help. */
export class SystemSmsError extends Schema.TaggedError<SystemSmsError>()("SystemSmsError", {
  message: Schema.String,
  /** False when trying again cannot help (no phone, refused by policy). */
  retryable: Schema.Boolean
}) {}

/**
 * Sends an operational SMS from Tuma itself (the configured system sender ID) through Tuma's own
 * send pipeline. Adapter: `layerSystemSmsFromSend` (webhooks/SystemSms.ts) over the send use case.
 */
export class SystemSms extends Context.Tag("@tuma/core/SystemSms")<SystemSms, {
  readonly send: (input: { readonly to: string; readonly text: string }) => Effect.Effect<
    { readonly messageId: string },
    SystemSmsError
  >
}>() {}
