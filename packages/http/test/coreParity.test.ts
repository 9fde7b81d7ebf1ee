/**
 * A backend that embeds `@tuma/core` applies the same rules as the REST service: each case is
 * answered over HTTP by the running server and by `Send`/`Reads` built from core and the SQL
 * adapters alone (no HTTP layer), over the same database, and the two answers must agree — the
 * duplicate-content limit (decisions §7), the send checks, and the sandbox reads (decisions §12).
 */
import type { ReadCaller, SendCaller } from "@tuma/core"
import { Ids, Reads, Send, SendConfig } from "@tuma/core"
import * as SqlContentCounter from "@tuma/store-sql/SqlContentCounter"
import * as SqlReadStore from "@tuma/store-sql/SqlReadStore"
import * as SqlSendStore from "@tuma/store-sql/SqlSendStore"
import { Duration, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, setupAccount, startServer } from "./harness.js"

let server: TestServer
let acct: Awaited<ReturnType<typeof server.run<any, any>>>

const LIMIT = 2

/** Core alone: the use cases over the SQL adapters and the server's database, nothing of @tuma/http. */
const coreOnly = Layer.mergeAll(Send.layer, Reads.layer).pipe(
  Layer.provide(Layer.mergeAll(SqlSendStore.layer, SqlReadStore.layer, SqlContentCounter.layer, Ids.layer)),
  Layer.provide(Layer.succeed(SendConfig, {
    ...SendConfig.defaultValue(),
    duplicateLimit: LIMIT,
    duplicateWindow: Duration.minutes(10)
  }))
)
const viaCore = <A, E>(effect: Effect.Effect<A, E, Send | Reads>) =>
  server.run(Effect.either(Effect.provide(effect, coreOnly)))

beforeAll(async () => {
  server = await startServer({ rateLimit: { duplicateLimit: LIMIT } })
  acct = await server.run(setupAccount({ balances: { TZ: 1000 } }))
})
afterAll(() => server.close())

const caller = (): SendCaller => ({ accountId: acct.account.id, apiKeyId: acct.liveId, mode: "live", channel: "api" })

/** Sends `body` n times over HTTP and through core; answers the last answer of each. */
const both = async (body: { recipient: string; sender_id: string; body: string }, n = 1) => {
  let http: any
  for (let i = 0; i < n; i++) http = await call(server, "POST", "/v1/sms/messages", { key: acct.live, body })
  let core: any
  for (let i = 0; i < n; i++) core = await viaCore(Effect.flatMap(Send, (s) => s.single(caller(), body)))
  return { http, core }
}

describe("a send refused over HTTP is refused identically by @tuma/core alone", () => {
  it("duplicate content over the limit: 429 DUPLICATE_CONTENT_RATE_LIMITED, same message", async () => {
    // each path counts its own text: the server's counter lives in its process (PGlite), core's in SQL
    const http = await both({ recipient: "+255712345678", sender_id: "TUMA", body: `Dup ${randomUUID()}` }, LIMIT)
    expect(http.http.status).toBe(202)
    expect(http.core._tag).toBe("Right")
    const text = `Dup ${randomUUID()}`
    const over = await both({ recipient: "+255712345678", sender_id: "TUMA", body: text }, LIMIT + 1)
    expect(over.http.status).toBe(429)
    expect(over.core._tag).toBe("Left")
    expect(over.core.left.error_code).toBe(over.http.body.error_code)
    expect(over.core.left.error_code).toBe("DUPLICATE_CONTENT_RATE_LIMITED")
    expect(over.core.left.message).toBe(over.http.body.message)
    expect(Math.abs(over.core.left.retry_after_seconds - Number(over.http.headers.get("retry-after")))).toBeLessThan(3)
  })

  it("sender ID not approved, invalid recipient, empty after conversion: same code and message", async () => {
    const cases = [
      { recipient: "+255712345678", sender_id: "NOTMINE", body: "Hello" },
      { recipient: "12", sender_id: "TUMA", body: "Hello" },
      { recipient: "+255712345678", sender_id: "TUMA", body: "😀😀" }
    ]
    for (const body of cases) {
      const { core, http } = await both(body)
      expect(http.status).toBeGreaterThanOrEqual(400)
      expect(core._tag).toBe("Left")
      expect(core.left.error_code).toBe(http.body.error_code)
      expect(core.left.message).toBe(http.body.message)
    }
  })
})

describe("sandbox reads answer the same through @tuma/core alone", () => {
  const sandbox = (): ReadCaller => ({ accountId: acct.account.id, mode: "test" })

  it("one message: any well-formed UUID reads as delivered now", async () => {
    const uid = randomUUID()
    const http = await call(server, "GET", `/v1/sms/messages/${uid}`, { key: acct.sandbox })
    const core: any = await viaCore(Effect.flatMap(Reads, (r) => r.messageOf(sandbox(), uid)))
    expect(http.body.mode).toBe("sandbox")
    expect(core.right.sandbox).toBe(true)
    expect(Object.keys(core.right.data).sort()).toEqual(Object.keys(http.body.data).sort())
    expect(core.right.data.uid).toBe(http.body.data.uid)
    expect(core.right.data.status).toBe("delivered")
    expect(Math.abs(Date.parse(core.right.data.delivered_at) - Date.parse(http.body.data.delivered_at))).toBeLessThan(
      5_000
    )
  })

  it("balance and message list", async () => {
    const balance = await call(server, "GET", "/v1/balance", { key: acct.sandbox })
    const coreBalance: any = await viaCore(Effect.flatMap(Reads, (r) => r.balanceOf(sandbox())))
    expect(coreBalance.right).toEqual({ data: balance.body.data, sandbox: true })
    const list = await call(server, "GET", "/v1/sms/messages?page=2&per_page=10", { key: acct.sandbox })
    const coreList: any = await viaCore(
      Effect.flatMap(Reads, (r) => r.messagesOf(sandbox(), { page: 2, per_page: 10 }))
    )
    expect(coreList.right).toEqual({ data: { data: list.body.data, meta: list.body.meta }, sandbox: true })
  })
})
