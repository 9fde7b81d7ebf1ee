/**
 * A minimal webhook receiver for Tuma delivery reports.
 *
 *   pnpm --filter @tuma/example-webhook-receiver start --port 4000 --secret whsec_...
 *
 * Options: `--secret` (or WEBHOOK_SECRET), `--port` (default 4000), `--header` (the signature header
 * name, default X-Service-Signature; the server's `--webhook-signature-header`). Run from the
 * repository root; the README and docs/webhooks.md use this command line, and
 * packages/http/test/demo.test.ts runs it.
 *
 * It reads the raw body, checks the signature over those exact bytes with
 * `verifyWebhookSignature` (constant time), answers 401 on a mismatch and 204 otherwise, and
 * prints each event once (deduplicated on `X-Service-Delivery`, which stays the same across retries).
 */
import { DEFAULT_SIGNATURE_HEADER, DELIVERY_HEADER, EVENT_HEADER, verifyWebhookSignature } from "@tuma/domain"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { pathToFileURL } from "node:url"

export interface ReceivedEvent {
  readonly deliveryId: string
  readonly event: string
  readonly payload: Record<string, unknown>
  readonly raw: Buffer
  readonly receivedAt: number
}

export interface ReceiverOptions {
  readonly secret: string
  readonly port?: number
  readonly host?: string
  /** Header carrying the signature (Tuma's `webhooks.signatureHeader`). Default `X-Service-Signature`. */
  readonly signatureHeader?: string
  /** Called once per delivery id with a verified event. */
  readonly onEvent?: (event: ReceivedEvent) => void
  /** Called for each request refused with 401 (signature missing or wrong). */
  readonly onRejected?: (deliveryId: string) => void
  /** Largest body accepted, in bytes. Default 64 KiB. */
  readonly maxBodyBytes?: number
}

export const startWebhookReceiver = async (options: ReceiverOptions) => {
  const signatureHeader = (options.signatureHeader ?? DEFAULT_SIGNATURE_HEADER).toLowerCase()
  const maxBody = options.maxBodyBytes ?? 65_536
  const seen = new Set<string>()
  const stats = { verified: 0, rejected: 0, duplicates: 0 }
  const server = http.createServer((req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end()
    const chunks: Array<Buffer> = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBody) {
        res.writeHead(413).end()
        req.destroy()
      } else chunks.push(chunk)
    })
    req.on("end", () => {
      const raw = Buffer.concat(chunks)
      // Verify the bytes as received, before parsing: re-serialising JSON would change them.
      if (!verifyWebhookSignature(raw, req.headers[signatureHeader], options.secret)) {
        stats.rejected++
        options.onRejected?.(String(req.headers[DELIVERY_HEADER.toLowerCase()] ?? ""))
        return void res.writeHead(401, { "content-type": "text/plain" }).end("bad signature\n")
      }
      const deliveryId = String(req.headers[DELIVERY_HEADER.toLowerCase()] ?? "")
      if (deliveryId !== "" && seen.has(deliveryId)) {
        stats.duplicates++
        return void res.writeHead(204).end()
      }
      let payload: Record<string, unknown>
      try {
        payload = JSON.parse(raw.toString("utf8"))
      } catch {
        return void res.writeHead(400).end()
      }
      if (deliveryId !== "") seen.add(deliveryId)
      stats.verified++
      res.writeHead(204).end()
      options.onEvent?.({
        deliveryId,
        event: String(req.headers[EVENT_HEADER.toLowerCase()] ?? payload.event),
        payload,
        raw,
        receivedAt: Date.now()
      })
    })
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve))
  const address = server.address() as AddressInfo
  return {
    port: address.port,
    url: `http://${options.host ?? "127.0.0.1"}:${address.port}/webhooks/tuma`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = arg("secret") ?? process.env.WEBHOOK_SECRET
  if (!secret) {
    console.error("usage: main.ts --secret <webhook secret> [--port 4000] [--header X-Service-Signature]")
    process.exit(2)
  }
  const receiver = await startWebhookReceiver({
    secret,
    port: Number(arg("port") ?? process.env.PORT ?? 4000),
    signatureHeader: arg("header") ?? process.env.WEBHOOK_SIGNATURE_HEADER ?? DEFAULT_SIGNATURE_HEADER,
    onEvent: (e) =>
      console.log(
        `${new Date(e.receivedAt).toISOString()} ${e.event} delivery=${e.deliveryId} verified ` +
          JSON.stringify(e.payload)
      ),
    onRejected: (deliveryId) =>
      console.log(`${new Date().toISOString()} rejected delivery=${deliveryId}: bad signature (answered 401)`)
  })
  console.log(`webhook receiver listening on ${receiver.url}`)
  const stop = () => void receiver.close().then(() => process.exit(0))
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}
