// The bare servers of `pnpm bench:ladder`: each answers every request with a small JSON body, on PORT.
//   node      node's http module alone
//   effect    the same, each request's answer written by a fiber (`Effect.runFork`), as a handler would be
//   platform  @effect/platform's HttpServer and HttpRouter (GET /healthz), nothing of Tuma's
//   pg        a single send's acceptance with node and `pg` alone (DATABASE_URL, ACCOUNT, MARKET, WALLET):
//             the body read and parsed, the requests that arrive while one write is running written
//             together by the next (group commit, one at a time) in one transaction of the rows an
//             accepted message needs (message, dispatch-queue row, wallet debit, ledger
//             row, as bench:floor's accept), then each answered 202. No key, rules, idempotency,
//             duplicate-content counter or metrics: the floor of a node server doing this work.
import { HttpRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { createServer } from "node:http"
import { createRequire } from "node:module"

const [mode, port] = [process.argv[2], Number(process.argv[3])]
const answer = (response) => {
  response.writeHead(200, { "content-type": "application/json" })
  response.end(JSON.stringify({ data: { status: "ok" } }))
}
if (mode === "node") {
  createServer((_, response) => answer(response)).listen(port, "127.0.0.1")
} else if (mode === "effect") {
  createServer((_, response) => Effect.runFork(Effect.sync(() => answer(response)))).listen(port, "127.0.0.1")
} else if (mode === "platform") {
  const app = HttpRouter.empty.pipe(HttpRouter.get("/healthz", HttpServerResponse.unsafeJson({ data: { status: "ok" } })))
  NodeRuntime.runMain(Layer.launch(HttpServer.serve(app).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" }))
  )))
} else if (mode === "pg") {
  const { Pool } = createRequire(new URL("../../../store-sql/package.json", import.meta.url))("pg")
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 })
  const { ACCOUNT, MARKET, WALLET } = process.env
  // a uuid v7 of this millisecond: the id routes the row to this month's partition, as the server's do
  const uuid7 = () => {
    const b = randomBytes(16)
    b.writeUIntBE(Date.now(), 0, 6)
    b[6] = (b[6] & 0x0f) | 0x70
    b[8] = (b[8] & 0x3f) | 0x80
    const h = b.toString("hex")
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
  }
  let pending = []
  let writing = false
  const flush = async () => {
    const batch = pending
    pending = []
    writing = true
    const ids = batch.map(() => uuid7())
    try {
      await pool.query(
        `WITH m AS (INSERT INTO messages (id, account_id, market_id, country, recipient, sender_id, text, encoding, parts, units,
    channel, status, created_at, queued_at, updated_at)
  SELECT u.id, $1, $2, 'TZ', u.r, u.s, u.t, 'GSM-7', 1, 1, 'api', 'queued', now(), now(), now()
  FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[]) AS u(id, r, s, t) RETURNING id, account_id),
 q AS (INSERT INTO dispatch_queue (message_id, account_id, available_at, created_at) SELECT id, account_id, now(), now() FROM m),
 w AS (UPDATE wallets SET balance = balance - $7, updated_at = now() WHERE id = $8 RETURNING balance)
INSERT INTO wallet_ledger (wallet_id, account_id, kind, units, balance_after, message_id, created_at)
  SELECT $8, m.account_id, 'debit', 1, w.balance, m.id, now() FROM m, w`,
        [ACCOUNT, MARKET, ids, batch.map((r) => r.body.recipient), batch.map((r) => r.body.sender_id),
          batch.map((r) => r.body.body), batch.length, WALLET]
      )
      batch.forEach((r, i) => {
        const json = JSON.stringify({ data: { id: ids[i], status: "queued", recipient: r.body.recipient } })
        r.response.writeHead(202, { "content-type": "application/json", "content-length": Buffer.byteLength(json) })
        r.response.end(json)
      })
    } catch (e) {
      batch.forEach((r) => r.response.writeHead(500).end(String(e)))
    }
    writing = false
    if (pending.length > 0) flush()
  }
  createServer((request, response) => {
    const chunks = []
    request.on("data", (c) => chunks.push(c))
    request.on("end", () => {
      if (request.method !== "POST") return answer(response)
      let body
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
      } catch {
        return response.writeHead(422).end()
      }
      pending.push({ body, response })
      if (!writing && pending.length === 1) setImmediate(() => writing || pending.length === 0 || flush())
    })
  }).listen(port, "127.0.0.1")
} else {
  console.error(`servers.mjs: unknown mode ${mode} (node, effect, platform, pg)`)
  process.exit(2)
}
