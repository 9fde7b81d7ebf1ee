/**
 * SQL adapter of the `AdminStore` port (PostgreSQL and PGlite): the operator-side reads and writes.
 */
import { SqlClient } from "@effect/sql"
import type {
  CountryRouteRow,
  OptOutRow,
  ProviderFullRow,
  SpamBuiltinSwitchRow,
  SpamRuleFullRow
} from "@tuma/core/ports/AdminStore"
import { AdminStore } from "@tuma/core/ports/AdminStore"
import { Effect, Layer, Schema } from "effect"
import { Accounts, ApiKeys, LedgerEntries, Markets, NullableString, rowsOf, single } from "./rows.js"
import { correct, LEDGER } from "./WalletCredit.js"

const PROVIDER = `p.id, p.name, p.kind, p.config, p.enabled, p.created_at,
  coalesce((SELECT json_agg(json_build_object('iso2', k.iso2, 'balance', c.balance, 'updated_at', c.updated_at)
      ORDER BY k.iso2) FROM provider_credits c JOIN markets k ON k.id = c.market_id WHERE c.provider_id = p.id),
    '[]') AS credits,
  coalesce((SELECT json_agg(json_build_object('iso2', k.iso2, 'priority', r.priority, 'enabled', r.enabled)
      ORDER BY k.iso2, r.priority) FROM provider_routes r JOIN markets k ON k.id = r.market_id
      WHERE r.provider_id = p.id), '[]') AS routes
  FROM providers p`

/** A provider with its credits and routes (`json_agg`: the credit's `updated_at` is an ISO string there). */
const Providers = rowsOf<ProviderFullRow>()(Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  kind: Schema.String,
  config: Schema.Unknown,
  enabled: Schema.Boolean,
  created_at: Schema.DateFromSelf,
  credits: Schema.Array(Schema.Struct({ iso2: Schema.String, balance: Schema.Number, updated_at: Schema.Date })),
  routes: Schema.Array(Schema.Struct({ iso2: Schema.String, priority: Schema.Number, enabled: Schema.Boolean }))
}))

const OptOuts = rowsOf<OptOutRow>()(Schema.Struct({
  account_id: Schema.String,
  recipient: Schema.String,
  reason: NullableString,
  created_at: Schema.DateFromSelf
}))

const SpamRules = rowsOf<SpamRuleFullRow>()(Schema.Struct({
  id: Schema.String,
  account_id: NullableString,
  kind: Schema.String,
  pattern: Schema.String,
  description: Schema.String,
  enabled: Schema.Boolean,
  created_at: Schema.DateFromSelf
}))

const BuiltinSwitches = rowsOf<SpamBuiltinSwitchRow>()(Schema.Struct({
  kind: Schema.String,
  pattern: Schema.String,
  enabled: Schema.Boolean,
  updated_at: Schema.DateFromSelf
}))

const CountryRoutes = rowsOf<CountryRouteRow>()(Schema.Struct({
  id: Schema.String,
  provider_id: Schema.String,
  provider_name: Schema.String,
  provider_enabled: Schema.Boolean,
  priority: Schema.Number,
  enabled: Schema.Boolean,
  credit: Schema.Number
}))

const balance = single(Schema.Struct({ balance: Schema.Number }))

/** The SQL `AdminStore` over the context's `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ledger = sql.literal(LEDGER)
  const providerColumns = sql.literal(PROVIDER)

  const findProvider = (id: string) =>
    Providers.one(sql`SELECT ${providerColumns} WHERE p.id = ${id}`).pipe(Effect.orDie)

  return AdminStore.of({
    insertAccount: (row) =>
      sql`INSERT INTO accounts ${sql.insert({ ...row })}
        ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    listAccounts: (f) => {
      const clauses = [sql`true`]
      if (f.active !== undefined) clauses.push(sql`active = ${f.active}`)
      if (f.search !== undefined) {
        const like = `%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
        clauses.push(sql`(lower(name) LIKE ${like} OR lower(email) LIKE ${like})`)
      }
      return Accounts.all(sql`SELECT * FROM accounts WHERE ${sql.and(clauses)}
        ORDER BY created_at DESC, id DESC LIMIT ${f.limit} OFFSET ${f.offset}`).pipe(Effect.orDie)
    },
    listMarkets: Markets.all(sql`SELECT id, iso2, calling_code, name, open FROM markets ORDER BY iso2`).pipe(
      Effect.orDie
    ),
    findMarketById: (id) =>
      Markets.one(sql`SELECT id, iso2, calling_code, name, open FROM markets WHERE id = ${id}`).pipe(Effect.orDie),

    listApiKeys: (accountId) =>
      ApiKeys.all(sql`SELECT * FROM api_keys WHERE account_id = ${accountId} ORDER BY created_at DESC, id`).pipe(
        Effect.orDie
      ),
    findApiKey: (id) => ApiKeys.one(sql`SELECT * FROM api_keys WHERE id = ${id}`).pipe(Effect.orDie),
    updateApiKey: (id, patch) => {
      const set: Record<string, unknown> = {}
      if (patch.name !== undefined) set.name = patch.name
      if (patch.scopes !== undefined) set.scopes = [...patch.scopes]
      if (patch.allowed_ips !== undefined) set.allowed_ips = [...patch.allowed_ips]
      if (patch.expires_at !== undefined) set.expires_at = patch.expires_at
      const statement = Object.keys(set).length === 0
        ? sql`SELECT * FROM api_keys WHERE id = ${id}`
        : sql`UPDATE api_keys SET ${sql.update(set)} WHERE id = ${id} RETURNING *`
      return ApiKeys.one(statement).pipe(Effect.orDie)
    },
    revokeApiKey: (id, at) =>
      ApiKeys.one(sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ${at}) WHERE id = ${id} RETURNING *`).pipe(
        Effect.orDie
      ),

    ledger: (accountId, options) =>
      LedgerEntries.all(
        sql`SELECT ${ledger} WHERE l.account_id = ${accountId} ${
          options.marketId === undefined ? sql`` : sql`AND w.market_id = ${options.marketId}`
        } ORDER BY l.id DESC LIMIT ${options.limit}`
      ).pipe(Effect.orDie),
    correctWallet: (row) => correct(sql, row),
    setWalletEnabled: (accountId, marketId, enabled, at) =>
      sql`UPDATE wallets SET enabled = ${enabled}, updated_at = ${at}
        WHERE account_id = ${accountId} AND market_id = ${marketId} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    deleteVerifiedRoute: (accountId, marketId) =>
      sql`DELETE FROM verified_routes WHERE account_id = ${accountId} AND market_id = ${marketId} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),

    listOptOuts: (accountId) =>
      OptOuts.all(sql`SELECT account_id, recipient, reason, created_at FROM opt_outs
        WHERE account_id = ${accountId} ORDER BY created_at DESC, recipient`).pipe(Effect.orDie),
    findOptOut: (accountId, recipient) =>
      OptOuts.one(sql`SELECT account_id, recipient, reason, created_at FROM opt_outs
        WHERE account_id = ${accountId} AND recipient = ${recipient}`).pipe(Effect.orDie),
    deleteOptOut: (accountId, recipient) =>
      sql`DELETE FROM opt_outs WHERE account_id = ${accountId} AND recipient = ${recipient} RETURNING recipient`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),

    listSpamRules: (f) =>
      SpamRules.all(
        f.accountId === undefined
          ? sql`SELECT * FROM spam_rules ORDER BY created_at, id`
          : f.accountId === null
          ? sql`SELECT * FROM spam_rules WHERE account_id IS NULL ORDER BY created_at, id`
          : sql`SELECT * FROM spam_rules WHERE account_id = ${f.accountId} ORDER BY created_at, id`
      ).pipe(Effect.orDie),
    findSpamRule: (id) => SpamRules.one(sql`SELECT * FROM spam_rules WHERE id = ${id}`).pipe(Effect.orDie),
    deleteSpamRule: (id) =>
      sql`DELETE FROM spam_rules WHERE id = ${id} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    setSpamRuleEnabled: (id, enabled) =>
      sql`UPDATE spam_rules SET enabled = ${enabled} WHERE id = ${id} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    listSpamBuiltinSwitches: BuiltinSwitches.all(sql`SELECT kind, pattern, enabled, updated_at
      FROM spam_builtin_switches`).pipe(Effect.orDie),
    setSpamBuiltinSwitch: (row) =>
      sql`INSERT INTO spam_builtin_switches (kind, pattern, enabled, updated_at)
        VALUES (${row.kind}, ${row.pattern}, ${row.enabled}, ${row.updated_at})
        ON CONFLICT (kind, pattern) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),

    insertProvider: (row) =>
      sql`INSERT INTO providers ${
        sql.insert({ ...row, config: JSON.stringify(row.config ?? {}) })
      } ON CONFLICT (name) DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
    listProviders: Providers.all(sql`SELECT ${providerColumns} ORDER BY p.name`).pipe(Effect.orDie),
    findProvider,
    setProviderEnabled: (id, enabled) =>
      sql`UPDATE providers SET enabled = ${enabled} WHERE id = ${id} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    addProviderCredit: (providerId, marketId, units, at) =>
      balance(sql`INSERT INTO provider_credits (provider_id, market_id, balance, updated_at)
        VALUES (${providerId}, ${marketId}, greatest(0, ${units}::integer), ${at})
        ON CONFLICT (provider_id, market_id)
        DO UPDATE SET balance = greatest(0, provider_credits.balance + ${units}::integer), updated_at = excluded.updated_at
        RETURNING balance`).pipe(Effect.map((row) => row.balance), Effect.orDie),
    replaceCountryRoutes: (marketId, routes, at) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`UPDATE provider_routes SET enabled = false WHERE market_id = ${marketId}`
        for (const [priority, r] of routes.entries()) {
          yield* sql`INSERT INTO provider_routes (id, market_id, provider_id, priority, enabled, created_at)
            VALUES (${r.id}, ${marketId}, ${r.provider_id}, ${priority}, true, ${at})
            ON CONFLICT (market_id, provider_id) DO UPDATE SET priority = excluded.priority, enabled = true`
        }
      })).pipe(Effect.orDie),
    countryRoutes: (marketId) =>
      CountryRoutes.all(sql`SELECT r.id, r.provider_id, p.name AS provider_name, p.enabled AS provider_enabled,
          r.priority, r.enabled, coalesce(c.balance, 0) AS credit
        FROM provider_routes r JOIN providers p ON p.id = r.provider_id
        LEFT JOIN provider_credits c ON c.provider_id = r.provider_id AND c.market_id = r.market_id
        WHERE r.market_id = ${marketId} ORDER BY r.enabled DESC, r.priority, p.name`).pipe(Effect.orDie)
  })
})

/** `AdminStore` on SQL. */
export const layer: Layer.Layer<AdminStore, never, SqlClient.SqlClient> = Layer.effect(AdminStore, make)
