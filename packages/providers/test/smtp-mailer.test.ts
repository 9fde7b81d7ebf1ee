import { describe, expect, it } from "@effect/vitest"
import { Mailer } from "@tuma/core/ports/Notifiers"
import { Effect, Exit } from "effect"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"
import { layerSmtpMailer } from "../src/mail/index.js"

interface Mail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly data: string
}

/** A real SMTP server on loopback collecting what it receives. */
export const startSmtp = async (opts: { readonly rejectRcpt?: string } = {}) => {
  const mails: Array<Mail> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, cb) {
      cb(address.address === opts.rejectRcpt ? new Error("mailbox unavailable") : null)
    },
    onData(stream, session, cb) {
      const chunks: Array<Buffer> = []
      stream.on("data", (c: Buffer) => chunks.push(c))
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString("utf8")
        })
        cb()
      })
    }
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const port = (server.server.address() as AddressInfo).port
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) }
}

describe("SmtpMailer", () => {
  it.live("delivers a message to a real SMTP server configured by URL", () =>
    Effect.gen(function*() {
      const smtp = yield* Effect.promise(() => startSmtp())
      yield* Effect.gen(function*() {
        const mailer = yield* Mailer
        yield* mailer.send({
          to: "owner@example.com",
          subject: "Webhook disabled",
          text: "Endpoint https://x was disabled."
        })
      }).pipe(Effect.provide(layerSmtpMailer({ url: smtp.url, from: "Tuma <alerts@tuma.test>" })))
      expect(smtp.mails).toHaveLength(1)
      expect(smtp.mails[0].from).toBe("alerts@tuma.test")
      expect(smtp.mails[0].to).toEqual(["owner@example.com"])
      expect(smtp.mails[0].data).toContain("Subject: Webhook disabled")
      expect(smtp.mails[0].data).toContain("Endpoint https://x was disabled.")
      yield* Effect.promise(smtp.close)
    }))

  it.live("fails with MailError when the server refuses or is unreachable", () =>
    Effect.gen(function*() {
      const smtp = yield* Effect.promise(() => startSmtp({ rejectRcpt: "nobody@example.com" }))
      const refused = yield* Effect.exit(
        Effect.flatMap(Mailer, (m) => m.send({ to: "nobody@example.com", subject: "s", text: "t" })).pipe(
          Effect.provide(layerSmtpMailer({ url: smtp.url }))
        )
      )
      expect(Exit.isFailure(refused)).toBe(true)
      yield* Effect.promise(smtp.close)
      const down = yield* Effect.exit(
        Effect.flatMap(Mailer, (m) => m.send({ to: "a@example.com", subject: "s", text: "t" })).pipe(
          Effect.provide(layerSmtpMailer({ url: smtp.url, timeoutMs: 2_000 }))
        )
      )
      expect(Exit.isFailure(down)).toBe(true)
      if (Exit.isFailure(down)) expect(JSON.stringify(down.cause)).toContain("MailError")
    }))
})
