/**
 * Real sockets for the webhook tests: an HTTP receiver on loopback with a programmable answer, a
 * real SMTP server (smtp-server), and `eventually`. Messages reach a final state through
 * `DeliveryProbe` (deliveryProbe.ts), on every driver.
 */
import { Duration, Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

export interface ReceivedHook {
  readonly headers: http.IncomingHttpHeaders
  readonly raw: Buffer
  readonly at: number
}

export type Answer = { readonly status: number; readonly headers?: Record<string, string> } | "hang" | "destroy"

export const startReceiver = (answer: (n: number, req: http.IncomingMessage) => Answer = () => ({ status: 200 })) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const received: Array<ReceivedHook> = []
      const server = http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          received.push({ headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() })
          const a = answer(received.length, req)
          if (a === "hang") return
          if (a === "destroy") return void req.socket.destroy()
          res.writeHead(a.status, a.headers).end()
        })
      })
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
      const port = (server.address() as AddressInfo).port
      return { server, received, port, url: `http://127.0.0.1:${port}/hooks` }
    }),
    ({ server }) =>
      Effect.promise(() =>
        new Promise<void>((r) => {
          server.closeAllConnections()
          server.close(() => r())
        })
      )
  )

export interface ReceivedMail {
  readonly to: ReadonlyArray<string>
  readonly data: string
}

export const startSmtp = Effect.acquireRelease(
  Effect.promise(async () => {
    const mails: Array<ReceivedMail> = []
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, cb) {
        const chunks: Array<Buffer> = []
        stream.on("data", (c: Buffer) => chunks.push(c))
        stream.on("end", () => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString("utf8")
          })
          cb()
        })
      }
    })
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
    const port = (server.server.address() as AddressInfo).port
    return { server, mails, url: `smtp://127.0.0.1:${port}` }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((r) => server.close(() => r())))
)

/** Polls `check` (live clock) until it returns true. */
export const eventually = <E, R>(
  check: Effect.Effect<boolean, E, R>,
  timeout: Duration.DurationInput = "10 seconds",
  what = "condition"
) =>
  Effect.gen(function*() {
    const deadline = Date.now() + Duration.toMillis(timeout)
    while (Date.now() < deadline) {
      if (yield* check) return
      yield* Effect.sleep("20 millis")
    }
    return yield* Effect.dieMessage(`timed out waiting for ${what}`)
  })
