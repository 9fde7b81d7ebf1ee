/**
 * The receiver of `pnpm bench:webhooks`, run as a child process (a receiver is another machine in
 * real life; here it at least gets its own event loop). Verifies every signature and reports
 * `[message_id, received_at_epoch_ms]` pairs to the parent over IPC, in batches.
 */
import { verifyWebhookSignature } from "@tuma/domain"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

let secret = ""
let pending: Array<[string, number]> = []
let bad = 0

const flush = () => {
  if (pending.length === 0) return
  process.send!({ type: "received", items: pending, bad })
  pending = []
}
setInterval(flush, 20).unref()

const server = http.createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (c: Buffer) => chunks.push(c))
  req.on("end", () => {
    const raw = Buffer.concat(chunks)
    const at = performance.timeOrigin + performance.now()
    if (!verifyWebhookSignature(raw, req.headers["x-service-signature"], secret)) {
      bad++
      return void res.writeHead(401).end()
    }
    res.writeHead(204).end()
    pending.push([JSON.parse(raw.toString("utf8")).message_id, at])
    if (pending.length >= 500) flush()
  })
})
server.keepAliveTimeout = 60_000
process.on("message", (m: { type: string; secret?: string }) => {
  if (m.type === "secret") {
    secret = m.secret ?? ""
    process.send!({ type: "secret-set" })
  }
  if (m.type === "stop") server.close(() => process.exit(0))
})
server.listen(0, "127.0.0.1", () => {
  process.send!({ type: "listening", port: (server.address() as AddressInfo).port })
})
