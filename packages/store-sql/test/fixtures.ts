/**
 * Test fixtures shared by the contract suites: the full service stack over one database, and an
 * account set up for sending through the `Operator` service (as an operator would).
 */
import { SqlClient } from "@effect/sql"
import { Ids, Operator, Send } from "@tuma/core"
import type { SendCaller } from "@tuma/core"
import { Effect, Layer } from "effect"
import * as SqlContentCounter from "../src/SqlContentCounter.js"
import * as SqlOperatorStore from "../src/SqlOperatorStore.js"
import * as SqlSendStore from "../src/SqlSendStore.js"

export const stack = (db: Layer.Layer<SqlClient.SqlClient>) =>
  Layer.mergeAll(Send.layer, Operator.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(SqlSendStore.layer, SqlOperatorStore.layer, SqlContentCounter.layer)),
    Layer.provideMerge(Ids.layer),
    Layer.provideMerge(db)
  )

let counter = 0
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`

export interface AccountSetup {
  /** Wallet units per country (ISO2), purchased. Default { TZ: 1000 }. */
  readonly balances?: Record<string, number>
  /** Countries with a verified route. Default: the countries of `balances`. */
  readonly routes?: ReadonlyArray<string>
  /** Approved sender ID (per country of `routes`). Default "TUMA". */
  readonly sender?: string | null
  /** Provider credit per country. Default 1,000,000 for each country of `routes`. */
  readonly providerCredit?: Record<string, number> | null
  readonly active?: boolean
}

/** An account ready to send (every check of spec §1 passes), built with `Operator`. */
export const setupAccount = (setup: AccountSetup = {}) =>
  Effect.gen(function*() {
    const op = yield* Operator
    const balances = setup.balances ?? { TZ: 1000 }
    const routes = setup.routes ?? Object.keys(balances)
    const account = yield* op.createAccount({
      name: "Test Co",
      email: `${unique("a")}@example.com`,
      phone: "+255712000000"
    })
    const key = yield* op.issueApiKey({ accountId: account.id, mode: "live" })
    for (const [country, units] of Object.entries(balances)) {
      yield* op.purchaseCredits({ accountId: account.id, country, units, amount: String(units * 20), currency: "TZS" })
    }
    for (const country of routes) {
      yield* op.verifyRoute({ accountId: account.id, country, phone: "+255712000000" })
      if (setup.sender !== null) {
        yield* op.grantSenderId({ accountId: account.id, senderId: setup.sender ?? "Tuma", country })
      }
    }
    if (setup.providerCredit !== null) {
      const credit = setup.providerCredit ?? Object.fromEntries(routes.map((c) => [c, 1_000_000]))
      if (Object.keys(credit).length > 0) {
        yield* op.addProvider({
          name: unique("p"),
          routes: Object.entries(credit).map(([country, c]) => ({ country, credit: c }))
        })
      }
    }
    if (setup.active === false) yield* op.setAccountActive(account.id, false)
    const caller: SendCaller = { accountId: account.id, apiKeyId: key.id, mode: "live" }
    return { account, key, caller }
  })

/** Everything the store holds for an account, to prove what a send did or did not write. */
export const stateOf = (accountId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{
      wallets: Record<string, number> | null
      balance: number
      ledger: number
      messages: number
      queued: number
      campaigns: number
      idempotency: number
      negative: number
    }>`SELECT
        (SELECT json_object_agg(m.iso2, w.balance) FROM wallets w JOIN markets m ON m.id = w.market_id
          WHERE w.account_id = ${accountId}) AS wallets,
        (SELECT coalesce(sum(balance), 0)::int FROM wallets WHERE account_id = ${accountId}) AS balance,
        (SELECT coalesce(sum(units), 0)::int FROM wallet_ledger WHERE account_id = ${accountId}) AS ledger,
        (SELECT count(*)::int FROM messages WHERE account_id = ${accountId}) AS messages,
        (SELECT count(*)::int FROM dispatch_queue WHERE account_id = ${accountId}) AS queued,
        (SELECT count(*)::int FROM campaigns WHERE account_id = ${accountId}) AS campaigns,
        (SELECT count(*)::int FROM idempotency_records WHERE account_id = ${accountId}) AS idempotency,
        (SELECT count(*)::int FROM wallet_ledger WHERE account_id = ${accountId} AND balance_after < 0) AS negative`
    return { ...row, wallets: row.wallets ?? {} }
  })

export const TZ1 = "+255712345678"
export const TZ2 = "+255713345678"
export const TZ3 = "+255714345678"
export const KE1 = "+254712345678"
/** n distinct valid Tanzanian mobile numbers. */
export const tzNumbers = (n: number, offset = 0) =>
  Array.from({ length: n }, (_, i) => `+25571${String(2000000 + offset + i).padStart(7, "0")}`)
