/**
 * The send's reads: the snapshot of everything a send checks (one statement of JSON sub-selects)
 * and the look-up of a live idempotency record. A number or short code assigned to the account
 * (`inbound_numbers`, two-way SMS) is an approved global sender of that account.
 */
import { SqlClient } from "@effect/sql"
import type { ProviderCapacityRow, SenderIdGrantRow, SendSnapshot, SpamRuleRow, WalletRow } from "@tuma/core"
import { Effect, Schema } from "effect"
import { findOne, MarketRowSchema, rowOf, SenderIdStatusSchema, single } from "../rows.js"
import { retryOnFreshConnection } from "../SqlRetry.js"
import { IdempotencyRecordRow } from "./statements.js"

const SenderIdGrant = rowOf<SenderIdGrantRow>()(Schema.Struct({
  id: Schema.String,
  market_id: Schema.String,
  name: Schema.String,
  display_name: Schema.String,
  status: SenderIdStatusSchema,
  is_global: Schema.Boolean
}))

/** The snapshot statement's one JSON column. */
const snapshotRow = single(Schema.Struct({
  s: Schema.Struct({
    account: Schema.NullOr(Schema.Struct({ id: Schema.String, active: Schema.Boolean })),
    senderIds: Schema.Array(SenderIdGrant),
    markets: Schema.Array(MarketRowSchema),
    verifiedMarketIds: Schema.Array(Schema.String),
    wallets: Schema.Array(
      rowOf<WalletRow>()(Schema.Struct({
        id: Schema.String,
        market_id: Schema.String,
        balance: Schema.Number,
        enabled: Schema.Boolean
      }))
    ),
    providerCapacity: Schema.Array(
      rowOf<ProviderCapacityRow>()(
        Schema.Struct({ market_id: Schema.String, routes: Schema.Number, credit: Schema.Number })
      )
    ),
    optedOut: Schema.Array(Schema.String),
    spamRules: Schema.Array(
      rowOf<SpamRuleRow>()(Schema.Struct({
        id: Schema.String,
        kind: Schema.String,
        pattern: Schema.String,
        description: Schema.String
      }))
    ),
    spamBuiltinOff: Schema.Array(Schema.String),
    settingsVersion: Schema.NullOr(Schema.String)
  })
}))

const idempotencyRow = findOne(IdempotencyRecordRow)

/** The snapshot of a send (`SendStore.snapshot`): one statement. */
export const snapshot = (sql: SqlClient.SqlClient) =>
(r: {
  accountId: string
  senderName: string
  countries: ReadonlyArray<string>
  recipients: ReadonlyArray<string>
}) =>
  snapshotRow(sql`SELECT json_build_object(
  'account', (SELECT json_build_object('id', a.id, 'active', a.active) FROM accounts a WHERE a.id = ${r.accountId}),
  'senderIds', (SELECT coalesce(json_agg(g), '[]'::json) FROM (
      SELECT s.id::text, s.market_id::text, s.name, s.display_name, s.status, s.is_global
      FROM sender_ids s WHERE s.account_id = ${r.accountId} AND s.name = ${r.senderName}
      UNION ALL
      SELECT n.id::text, '', n.number, n.number, 'approved', true
      FROM inbound_numbers n WHERE n.account_id = ${r.accountId} AND n.number = ${r.senderName}) g),
  'markets', (SELECT coalesce(json_agg(json_build_object('id', m.id, 'iso2', m.iso2, 'calling_code', m.calling_code,
      'name', m.name, 'open', m.open)), '[]'::json)
    FROM markets m WHERE m.iso2 = ANY(${r.countries}::text[])),
  'verifiedMarketIds', (SELECT coalesce(json_agg(v.market_id), '[]'::json)
    FROM verified_routes v WHERE v.account_id = ${r.accountId}),
  'wallets', (SELECT coalesce(json_agg(json_build_object('id', w.id, 'market_id', w.market_id, 'balance', w.balance,
      'enabled', w.enabled)), '[]'::json)
    FROM wallets w WHERE w.account_id = ${r.accountId}),
  'providerCapacity', (SELECT coalesce(json_agg(json_build_object('market_id', c.market_id, 'routes', c.routes,
      'credit', c.credit)), '[]'::json)
    FROM (SELECT pr.market_id, count(*)::int AS routes, coalesce(sum(pc.balance), 0)::int AS credit
          FROM provider_routes pr
          JOIN providers p ON p.id = pr.provider_id AND p.enabled
          JOIN markets m ON m.id = pr.market_id AND m.iso2 = ANY(${r.countries}::text[])
          LEFT JOIN provider_credits pc ON pc.provider_id = pr.provider_id AND pc.market_id = pr.market_id
          WHERE pr.enabled
          GROUP BY pr.market_id) c),
  'optedOut', (SELECT coalesce(json_agg(o.recipient), '[]'::json)
    FROM opt_outs o WHERE o.account_id = ${r.accountId} AND o.recipient = ANY(${r.recipients}::text[])),
  'spamRules', (SELECT coalesce(json_agg(json_build_object('id', x.id, 'kind', x.kind, 'pattern', x.pattern,
      'description', x.description)), '[]'::json)
    FROM spam_rules x WHERE x.enabled AND (x.account_id IS NULL OR x.account_id = ${r.accountId})),
  'spamBuiltinOff', (SELECT coalesce(json_agg(b.pattern), '[]'::json)
    FROM spam_builtin_switches b WHERE b.kind = 'blocked_phrase' AND NOT b.enabled),
  'settingsVersion', (SELECT version::text FROM settings_version WHERE id = 1)
) AS s`).pipe(
    retryOnFreshConnection,
    Effect.map(({ s }): SendSnapshot => ({
      ...s,
      account: s.account ?? undefined,
      settingsVersion: s.settingsVersion ?? undefined
    })),
    Effect.orDie
  )

/** A live idempotency record of the account (`SendStore.findIdempotency`). */
export const findIdempotency = (sql: SqlClient.SqlClient) => (accountId: string, key: string, now: Date) =>
  idempotencyRow(sql`SELECT key, endpoint, fingerprint, response, created_at, expires_at FROM idempotency_records
        WHERE account_id = ${accountId} AND key = ${key} AND expires_at > ${now}`).pipe(
    retryOnFreshConnection,
    Effect.orDie
  )
