/**
 * SQL adapter of the `AdminStore` port (PostgreSQL and PGlite): the operator-side reads and writes.
 */
import { SqlClient } from "@effect/sql"
import type { AccountRow, ApiKeyRow, MarketRow } from "@tuma/core"
import type {
  CountryRouteRow,
  LedgerRow,
  OptOutRow,
  ProviderFullRow,
  SpamBuiltinSwitchRow,
  SpamRuleFullRow
} from "@tuma/core/ports/AdminStore"
import { AdminStore } from "@tuma/core/ports/AdminStore"
import { Array as Arr, Effect, Layer } from "effect"
import { LEDGER } from "./WalletCredit.js"

const PROVIDER = `p.id, p.name, p.kind, p.config, p.enabled, p.created_at,
  coalesce((SELECT json_agg(json_build_object('iso2', k.iso2, 'balance', c.balance, 'updated_at', c.updated_at)
      ORDER BY k.iso2) FROM provider_credits c JOIN markets k ON k.id = c.market_id WHERE c.provider_id = p.id),
    '[]') AS credits,
  coalesce((SELECT json_agg(json_build_object('iso2', k.iso2, 'priority', r.priority, 'enabled', r.enabled)
      ORDER BY k.iso2, r.priority) FROM provider_routes r JOIN markets k ON k.id = r.market_id
      WHERE r.provider_id = p.id), '[]') AS routes
  FROM providers p`

type ProviderSqlRow = Omit<ProviderFullRow, "credits"> & {
  readonly credits: ReadonlyArray<{ iso2: string; balance: number; updated_at: string }>
}

const providerRow = (r: ProviderSqlRow): ProviderFullRow => ({
  ...r,
  credits: r.credits.map((c) => ({ iso2: c.iso2, balance: c.balance, updated_at: new Date(c.updated_at) }))
})

/** The SQL `AdminStore` over the context's `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ledger = sql.literal(LEDGER)
  const provider = sql.literal(PROVIDER)

  const findProvider = (id: string) =>
    sql<ProviderSqlRow>`SELECT ${provider} WHERE p.id = ${id}`.pipe(
      Effect.map((rows) => Arr.head(rows.map(providerRow))),
      Effect.orDie
    )

  return AdminStore.of({
    insertAccount: (row) =>
      sql<{ id: string }>`INSERT INTO accounts ${sql.insert(row as any)}
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
      return sql<AccountRow>`SELECT * FROM accounts WHERE ${sql.and(clauses)}
        ORDER BY created_at DESC, id DESC LIMIT ${f.limit} OFFSET ${f.offset}`.pipe(Effect.orDie)
    },
    listMarkets: sql<MarketRow>`SELECT id, iso2, calling_code, name, open FROM markets ORDER BY iso2`.pipe(
      Effect.orDie
    ),
    findMarketById: (id) =>
      sql<MarketRow>`SELECT id, iso2, calling_code, name, open FROM markets WHERE id = ${id}`.pipe(
        Effect.map(Arr.head),
        Effect.orDie
      ),

    listApiKeys: (accountId) =>
      sql<ApiKeyRow>`SELECT * FROM api_keys WHERE account_id = ${accountId} ORDER BY created_at DESC, id`.pipe(
        Effect.orDie
      ),
    findApiKey: (id) =>
      sql<ApiKeyRow>`SELECT * FROM api_keys WHERE id = ${id}`.pipe(Effect.map(Arr.head), Effect.orDie),
    updateApiKey: (id, patch) => {
      const set: Record<string, unknown> = {}
      if (patch.name !== undefined) set.name = patch.name
      if (patch.scopes !== undefined) set.scopes = [...patch.scopes]
      if (patch.allowed_ips !== undefined) set.allowed_ips = [...patch.allowed_ips]
      if (patch.expires_at !== undefined) set.expires_at = patch.expires_at
      const statement = Object.keys(set).length === 0
        ? sql<ApiKeyRow>`SELECT * FROM api_keys WHERE id = ${id}`
        : sql<ApiKeyRow>`UPDATE api_keys SET ${sql.update(set)} WHERE id = ${id} RETURNING *`
      return statement.pipe(Effect.map(Arr.head), Effect.orDie)
    },
    revokeApiKey: (id, at) =>
      sql<ApiKeyRow>`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ${at}) WHERE id = ${id} RETURNING *`.pipe(
        Effect.map(Arr.head),
        Effect.orDie
      ),

    ledger: (accountId, options) =>
      sql<LedgerRow>`SELECT ${ledger} WHERE l.account_id = ${accountId} ${
        options.marketId === undefined ? sql`` : sql`AND w.market_id = ${options.marketId}`
      } ORDER BY l.id DESC LIMIT ${options.limit}`.pipe(Effect.orDie),
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
      sql<OptOutRow>`SELECT account_id, recipient, reason, created_at FROM opt_outs
        WHERE account_id = ${accountId} ORDER BY created_at DESC, recipient`.pipe(Effect.orDie),
    findOptOut: (accountId, recipient) =>
      sql<OptOutRow>`SELECT account_id, recipient, reason, created_at FROM opt_outs
        WHERE account_id = ${accountId} AND recipient = ${recipient}`.pipe(Effect.map(Arr.head), Effect.orDie),
    deleteOptOut: (accountId, recipient) =>
      sql`DELETE FROM opt_outs WHERE account_id = ${accountId} AND recipient = ${recipient} RETURNING recipient`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),

    listSpamRules: (f) =>
      (f.accountId === undefined
        ? sql<SpamRuleFullRow>`SELECT * FROM spam_rules ORDER BY created_at, id`
        : f.accountId === null
        ? sql<SpamRuleFullRow>`SELECT * FROM spam_rules WHERE account_id IS NULL ORDER BY created_at, id`
        : sql<SpamRuleFullRow>`SELECT * FROM spam_rules WHERE account_id = ${f.accountId} ORDER BY created_at, id`)
        .pipe(Effect.orDie),
    findSpamRule: (id) =>
      sql<SpamRuleFullRow>`SELECT * FROM spam_rules WHERE id = ${id}`.pipe(Effect.map(Arr.head), Effect.orDie),
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
    listSpamBuiltinSwitches: sql<SpamBuiltinSwitchRow>`SELECT kind, pattern, enabled, updated_at
      FROM spam_builtin_switches`.pipe(Effect.orDie),
    setSpamBuiltinSwitch: (row) =>
      sql`INSERT INTO spam_builtin_switches (kind, pattern, enabled, updated_at)
        VALUES (${row.kind}, ${row.pattern}, ${row.enabled}, ${row.updated_at})
        ON CONFLICT (kind, pattern) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),

    insertProvider: (row) =>
      sql<{ id: string }>`INSERT INTO providers ${
        sql.insert({ ...row, config: JSON.stringify(row.config ?? {}) } as any)
      } ON CONFLICT (name) DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
    listProviders: sql<ProviderSqlRow>`SELECT ${provider} ORDER BY p.name`.pipe(
      Effect.map((rows) => rows.map(providerRow)),
      Effect.orDie
    ),
    findProvider,
    setProviderEnabled: (id, enabled) =>
      sql`UPDATE providers SET enabled = ${enabled} WHERE id = ${id} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    addProviderCredit: (providerId, marketId, units, at) =>
      sql<{ balance: number }>`INSERT INTO provider_credits (provider_id, market_id, balance, updated_at)
        VALUES (${providerId}, ${marketId}, greatest(0, ${units}::integer), ${at})
        ON CONFLICT (provider_id, market_id)
        DO UPDATE SET balance = greatest(0, provider_credits.balance + ${units}::integer), updated_at = excluded.updated_at
        RETURNING balance`.pipe(Effect.map((rows) => rows[0].balance), Effect.orDie),
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
      sql<CountryRouteRow>`SELECT r.id, r.provider_id, p.name AS provider_name, p.enabled AS provider_enabled,
          r.priority, r.enabled, coalesce(c.balance, 0) AS credit
        FROM provider_routes r JOIN providers p ON p.id = r.provider_id
        LEFT JOIN provider_credits c ON c.provider_id = r.provider_id AND c.market_id = r.market_id
        WHERE r.market_id = ${marketId} ORDER BY r.enabled DESC, r.priority, p.name`.pipe(Effect.orDie)
  })
})

/** `AdminStore` on SQL. */
export const layer: Layer.Layer<AdminStore, never, SqlClient.SqlClient> = Layer.effect(AdminStore, make)
