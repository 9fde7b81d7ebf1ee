/**
 * What the store benchmarks share: a scratch PostgreSQL database (created on the server of
 * `adminUrl`, dropped with its connections when the layer's scope closes; its migrated `SqlClient`
 * is the layer), and an account that can send in Tanzania.
 */
import type { SendCaller } from "@tuma/core"
import { Operator } from "@tuma/core"
import { Effect, Layer } from "effect"
import * as Database from "../src/Database.js"
import { scratchDatabaseUrl } from "../test/scratchDatabase.js"

/** A migrated scratch database on the server of `adminUrl` (pool `maxConnections`, default 10). */
export const scratchPostgres = (adminUrl: string, options: { readonly maxConnections?: number } = {}) =>
  Layer.unwrapScoped(
    Effect.map(scratchDatabaseUrl(adminUrl, "tuma_bench"), (url) => Database.layer(Database.postgres(url, options)))
  )

/**
 * A new account with a live key, 100 M units, a verified route and the sender ID `TUMA` in Tanzania,
 * and a provider with as much credit: the caller of its sends.
 */
export const benchAccount: Effect.Effect<SendCaller, unknown, Operator> = Effect.gen(function*() {
  const op = yield* Operator
  const account = yield* op.createAccount({ name: "Bench", email: `bench-${Date.now()}@example.com` })
  const key = yield* op.issueApiKey({ accountId: account.id })
  yield* op.purchaseCredits({ accountId: account.id, country: "TZ", units: 100_000_000 })
  yield* op.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255712000000" })
  yield* op.grantSenderId({ accountId: account.id, senderId: "TUMA", country: "TZ" })
  yield* op.addProvider({ name: `bench-${Date.now()}`, routes: [{ country: "TZ", credit: 100_000_000 }] })
  return { accountId: account.id, apiKeyId: key.id, mode: "live" }
})
