/**
 * The delivery test stack: the real send use cases and operator over the SQL store (PGlite, or a
 * scratch PostgreSQL database when TUMA_TEST_DATABASE_URL is set), the delivery workers built from
 * the `providers` table, and helpers to wait for messages to settle.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Ids, Operator, Send } from "@tuma/core"
import type { SendCaller } from "@tuma/core"
import { DeliveryConfig, type DeliveryOptions } from "@tuma/core/delivery/DeliveryConfig"
import { layerDelivery } from "@tuma/core/delivery/Dispatcher"
import * as Database from "@tuma/store-sql/Database"
import * as SqlContentCounter from "@tuma/store-sql/SqlContentCounter"
import * as SqlDispatchStore from "@tuma/store-sql/SqlDispatchStore"
import * as SqlOperatorStore from "@tuma/store-sql/SqlOperatorStore"
import * as SqlSendStore from "@tuma/store-sql/SqlSendStore"
import * as SqlSettingsChanges from "@tuma/store-sql/SqlSettingsChanges"
import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { layerProvidersFromStore } from "../../src/ProvidersFromStore.js"

export const testDatabaseUrl = process.env.TUMA_TEST_DATABASE_URL
export type DriverName = "pglite" | "postgres"
export const drivers = (): ReadonlyArray<DriverName> => testDatabaseUrl ? ["pglite", "postgres"] : ["pglite"]

/** A fresh PostgreSQL database (created now, dropped when the scope closes); answers its URL. */
export const scratchDatabase = (adminUrl: string) =>
  Effect.gen(function*() {
    const name = `tuma_dlv_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`
    const admin = yield* PgClient.make({ url: Redacted.make(adminUrl), maxConnections: 1 }).pipe(
      Effect.provide(Reactivity.layer)
    )
    yield* Effect.acquireRelease(
      admin.unsafe(`CREATE DATABASE ${name}`),
      () => admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.orDie)
    )
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return url.toString()
  })

export const databaseLayer = (driver: DriverName): Layer.Layer<SqlClient.SqlClient> =>
  driver === "pglite"
    ? Layer.orDie(Database.layer(Database.pglite("memory://")))
    : Layer.unwrapScoped(
      Effect.map(scratchDatabase(testDatabaseUrl!), (url) =>
        Database.layer(Database.postgres(url, { maxConnections: 20 })))
    ).pipe(Layer.orDie)

/** Send + Operator + the dispatch store over `db` (no workers). */
export const baseStack = (db: Layer.Layer<SqlClient.SqlClient>) =>
  Layer.mergeAll(
    Send.layer,
    Operator.layer,
    SqlDispatchStore.layer,
    SqlDispatchStore.layerWakeups,
    SqlSettingsChanges.layer
  ).pipe(
    Layer.provideMerge(Layer.mergeAll(SqlSendStore.layer, SqlOperatorStore.layer, SqlContentCounter.layer)),
    Layer.provideMerge(Ids.layer),
    Layer.provideMerge(db)
  )

/** The workers of one "process", over the services of `baseStack` (run it with Effect.scoped). */
export const workers = (options: Partial<DeliveryOptions> = {}) =>
  layerDelivery(layerProvidersFromStore).pipe(Layer.provide(DeliveryConfig.layer({ pollIntervalMs: 200, ...options })))

let counter = 0
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`

export const smppConfig = (port: number, extra: Record<string, unknown> = {}) => ({
  host: "127.0.0.1",
  port,
  systemId: "tuma",
  password: "secret",
  reconnectInitialMs: 50,
  reconnectMaxMs: 300,
  responseTimeoutMs: 1000,
  unavailableAfterMs: 300,
  ...extra
})

export interface AccountSetup {
  readonly balance?: number
  /** Providers, in priority order: kind + config + credit. */
  readonly providers: ReadonlyArray<{ kind: string; config: Record<string, unknown>; credit?: number }>
}

/** An account allowed to send to Tanzania with `TUMA`, and its providers (fresh names). */
export const setupAccount = (setup: AccountSetup) =>
  Effect.gen(function*() {
    const op = yield* Operator
    const account = yield* op.createAccount({
      name: "Delivery Co",
      email: `${unique("d")}@example.com`,
      phone: "+255712000000"
    })
    const key = yield* op.issueApiKey({ accountId: account.id, mode: "live" })
    const units = setup.balance ?? 100_000
    yield* op.purchaseCredits({ accountId: account.id, country: "TZ", units, amount: "1000", currency: "TZS" })
    yield* op.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255712000000" })
    yield* op.grantSenderId({ accountId: account.id, senderId: "TUMA", country: "TZ" })
    const providerIds: Array<string> = []
    for (let i = 0; i < setup.providers.length; i++) {
      const p = setup.providers[i]!
      const { id } = yield* op.addProvider({
        name: unique("prov"),
        kind: p.kind,
        config: p.config,
        routes: [{ country: "TZ", credit: p.credit ?? 1_000_000, priority: i }]
      })
      providerIds.push(id)
    }
    // markets are shared by the tests of a file: retire this test's providers when it ends
    const sql = yield* SqlClient.SqlClient
    yield* Effect.addFinalizer(() =>
      providerIds.length === 0
        ? Effect.void
        : sql`UPDATE providers SET enabled = false WHERE id IN ${sql.in(providerIds)}`.pipe(Effect.orDie)
    )
    const caller: SendCaller = { accountId: account.id, apiKeyId: key.id, mode: "live" }
    return { account, key, caller, providerIds }
  })

export interface MessageRow {
  id: string
  status: string
  recipient: string
  provider_id: string | null
  provider_message_id: string | null
  queued_at: Date | null
  sent_at: Date | null
  delivered_at: Date | null
  failed_at: Date | null
  failure_reason: string | null
  failure_context: any
  dr_checked_at: Date | null
  dr_status: string | null
  dr_delivery_status: string | null
  units: number
  scheduled_at: Date | null
}

export const messagesOf = (accountId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<MessageRow>`SELECT * FROM messages WHERE account_id = ${accountId} ORDER BY created_at, id`.pipe(Effect.orDie)
  )

/** Polls until every message of the account satisfies `done` (default: final), or fails after `ms`. */
export const waitForMessages = (
  accountId: string,
  done: (rows: ReadonlyArray<MessageRow>) => boolean = (rows) =>
    rows.length > 0 && rows.every((r) => r.status === "delivered" || r.status === "failed"),
  ms = 20_000
) =>
  Effect.gen(function*() {
    const started = Date.now()
    while (true) {
      const rows = yield* messagesOf(accountId)
      if (done(rows)) return rows
      if (Date.now() - started > ms) {
        const counts: Record<string, number> = {}
        for (const r of rows) counts[r.status] = (counts[r.status] ?? 0) + 1
        return yield* Effect.die(new Error(`messages did not settle in ${ms} ms: ${JSON.stringify(counts)}`))
      }
      yield* Effect.sleep("50 millis")
    }
  })

export const walletOf = (accountId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ balance: number; refunds: number; refunded: number }>`SELECT
        (SELECT coalesce(sum(balance), 0)::int FROM wallets WHERE account_id = ${accountId}) AS balance,
        (SELECT count(*)::int FROM wallet_ledger WHERE account_id = ${accountId} AND kind = 'refund') AS refunds,
        (SELECT coalesce(sum(units), 0)::int FROM wallet_ledger WHERE account_id = ${accountId} AND kind = 'refund') AS refunded`,
      (rows) => rows[0]!
    ).pipe(Effect.orDie))

export const providerCredit = (providerId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ balance: number }>`SELECT balance FROM provider_credits WHERE provider_id = ${providerId}`,
      (rows) => rows[0]?.balance ?? 0
    ).pipe(Effect.orDie))
