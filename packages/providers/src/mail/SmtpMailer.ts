/**
 * E-mail notifier over SMTP (nodemailer), configured by URL: `TUMA_SMTP_URL`, e.g.
 * `smtp://127.0.0.1:2525`, `smtps://user:pass@mail.example.com:465`. Adapter of `Mailer`.
 */
import type { MailMessage } from "@tuma/core/ports/Notifiers"
import { Mailer, MailError, MailOutbox } from "@tuma/core/ports/Notifiers"
import { Clock, Effect, Layer, Predicate } from "effect"
import nodemailer from "nodemailer"

/** Options of the SMTP mailer. */
export interface SmtpMailerOptions {
  /** `smtp://host:port` or `smtps://user:pass@host:port` (nodemailer connection URL). */
  readonly url: string
  /** `From:` address. Default `Tuma <no-reply@tuma.local>`. */
  readonly from?: string | undefined
  /** Socket/greeting timeout in ms. Default 10 s. */
  readonly timeoutMs?: number | undefined
}

/** A `Mailer` sending over SMTP (nodemailer), its connection closed with the scope. */
export const makeSmtpMailer = (options: SmtpMailerOptions) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const url = new URL(options.url)
      const timeout = options.timeoutMs ?? 10_000
      const transport = nodemailer.createTransport({
        host: url.hostname,
        port: url.port === "" ? (url.protocol === "smtps:" ? 465 : 587) : Number(url.port),
        secure: url.protocol === "smtps:",
        ...(url.username !== "" ?
          { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } :
          {}),
        // `?ignoreTLS=true` for plain local relays; STARTTLS is used when the server offers it otherwise.
        ignoreTLS: url.searchParams.get("ignoreTLS") === "true",
        tls: { rejectUnauthorized: url.searchParams.get("rejectUnauthorized") !== "false" },
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout
      })
      return transport
    }),
    (transport) => Effect.sync(() => transport.close())
  ).pipe(Effect.map((transport) => {
    const from = options.from ?? "Tuma <no-reply@tuma.local>"
    return Mailer.of({
      send: (message: MailMessage) =>
        Effect.tryPromise({
          try: () => transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text }),
          catch: (e) =>
            new MailError({
              message: `SMTP send to ${message.to} failed: ${
                String((Predicate.hasProperty(e, "message") ? e.message : undefined) ?? e)
              }`
            })
        }).pipe(Effect.as("sent" as const), Effect.withSpan("Mailer.send"))
    })
  }))

/** `Mailer` over SMTP. */
export const layerSmtpMailer = (options: SmtpMailerOptions): Layer.Layer<Mailer> =>
  Layer.scoped(Mailer, makeSmtpMailer(options))

/** The links of a mail's text (what the log prints of a mail kept in the outbox). */
export const linksOf = (text: string): ReadonlyArray<string> => text.match(/https?:\/\/\S+/g) ?? []

/**
 * A `Mailer` that sends nothing: each mail is kept in the `MailOutbox` (the console's Outbox page)
 * and the log prints its address, subject and links, so a demo's invitations can be followed.
 * Answers `outbox`, never `sent`.
 */
export const makeOutboxMailer = Effect.map(MailOutbox, (outbox) =>
  Mailer.of({
    send: (message) =>
      Effect.gen(function*() {
        const at = new Date(yield* Clock.currentTimeMillis)
        yield* outbox.put({ id: crypto.randomUUID(), ...message, created_at: at })
        const links = linksOf(message.text)
        yield* Effect.logWarning(
          `TUMA_SMTP_URL is not set: e-mail to ${message.to} NOT sent, kept in the console's Outbox: ${message.subject}${
            links.length > 0 ? ` — ${links.join(" ")}` : ""
          }`
        )
        return "outbox" as const
      })
  }))

/** `Mailer` into the outbox (no mail server). */
export const layerOutboxMailer: Layer.Layer<Mailer, never, MailOutbox> = Layer.effect(Mailer, makeOutboxMailer)

/**
 * From the environment: `TUMA_SMTP_URL` and `TUMA_MAIL_FROM`. Without `TUMA_SMTP_URL` nothing is
 * sent: each mail goes to the outbox (`layerOutboxMailer`) and its links are logged.
 */
export const layerMailerFromEnv = (
  env: Record<string, string | undefined> = process.env
): Layer.Layer<Mailer, never, MailOutbox> =>
  env.TUMA_SMTP_URL
    ? layerSmtpMailer({ url: env.TUMA_SMTP_URL, from: env.TUMA_MAIL_FROM || undefined })
    : layerOutboxMailer
