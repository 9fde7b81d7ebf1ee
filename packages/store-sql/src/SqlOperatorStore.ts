/**
 * SQL adapter of the `OperatorStore` port (PostgreSQL and PGlite).
 */
import { SqlClient } from "@effect/sql"
import { OperatorStore } from "@tuma/core"
import { Effect, Layer } from "effect"
import { Accounts, Markets, SenderIdRowSchema, single } from "./rows.js"
import { purchase } from "./WalletCredit.js"

const senderId = single(SenderIdRowSchema)

/** The SQL `OperatorStore` over the context's `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  return OperatorStore.of({
    findMarket: (iso2) =>
      Markets.one(sql`SELECT id, iso2, calling_code, name, open FROM markets WHERE iso2 = ${iso2}`).pipe(Effect.orDie),
    setMarketOpen: (iso2, open) =>
      sql`UPDATE markets SET open = ${open} WHERE iso2 = ${iso2} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    insertAccount: (row) => sql`INSERT INTO accounts ${sql.insert({ ...row })}`.pipe(Effect.asVoid, Effect.orDie),
    findAccount: (id) => Accounts.one(sql`SELECT * FROM accounts WHERE id = ${id}`).pipe(Effect.orDie),
    setAccountActive: (id, active, at) =>
      sql`UPDATE accounts SET active = ${active}, updated_at = ${at} WHERE id = ${id} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    insertApiKey: (row) =>
      sql`INSERT INTO api_keys ${sql.insert({ ...row, scopes: [...row.scopes], allowed_ips: [...row.allowed_ips] })}`
        .pipe(Effect.asVoid, Effect.orDie),
    purchase: (row) => purchase(sql, row),
    upsertVerifiedRoute: (row) =>
      sql`INSERT INTO verified_routes ${sql.insert({ ...row })}
        ON CONFLICT (account_id, market_id) DO UPDATE SET phone = excluded.phone, verified_at = excluded.verified_at`
        .pipe(Effect.asVoid, Effect.orDie),
    upsertSenderId: (row) =>
      senderId(sql`INSERT INTO sender_ids ${sql.insert({ ...row })}
        ON CONFLICT (account_id, market_id, name) DO UPDATE SET
          status = excluded.status, display_name = excluded.display_name, is_default = excluded.is_default,
          is_global = excluded.is_global, updated_at = excluded.updated_at
        RETURNING id, account_id, market_id, name, display_name, status, is_default, is_global, sample_message,
          purpose, requested_at, updated_at`).pipe(Effect.orDie),
    insertProvider: (row) =>
      sql`INSERT INTO providers ${sql.insert({ ...row, config: JSON.stringify(row.config ?? {}) })}`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    setProviderCredit: (providerId, marketId, balance, at) =>
      sql`INSERT INTO provider_credits (provider_id, market_id, balance, updated_at)
        VALUES (${providerId}, ${marketId}, ${balance}, ${at})
        ON CONFLICT (provider_id, market_id) DO UPDATE SET balance = excluded.balance, updated_at = excluded.updated_at`
        .pipe(Effect.asVoid, Effect.orDie),
    upsertProviderRoute: (row) =>
      sql`INSERT INTO provider_routes ${sql.insert({ ...row })}
        ON CONFLICT (market_id, provider_id) DO UPDATE SET priority = excluded.priority, enabled = excluded.enabled`
        .pipe(Effect.asVoid, Effect.orDie),
    insertOptOut: (accountId, recipient, reason, at) =>
      sql`INSERT INTO opt_outs (account_id, recipient, reason, created_at)
        VALUES (${accountId}, ${recipient}, ${reason}, ${at}) ON CONFLICT DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
    insertSpamRule: (row) => sql`INSERT INTO spam_rules ${sql.insert({ ...row })}`.pipe(Effect.asVoid, Effect.orDie)
  })
})

/** `OperatorStore` on SQL. */
export const layer: Layer.Layer<OperatorStore, never, SqlClient.SqlClient> = Layer.effect(OperatorStore, make)
