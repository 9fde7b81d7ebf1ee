/**
 * The statements of an accept, written once and used by both accept paths (a plan alone, or a group
 * of single sends in one transaction): the idempotency keys claimed, the records of keys already
 * taken, the keys given back, the reused-snapshot guards, the campaign row, the wallet locks, and
 * one statement that writes the accepted messages, their dispatch-queue rows, the conditional wallet
 * debits and their ledger rows. Each takes arrays (`unnest`), so its cost in round trips is the
 * same for one plan or a hundred.
 */
import { SqlClient } from "@effect/sql"
import type { AcceptPlan, IdempotencyClaim, IdempotencyRecord, NewCampaign, NewMessages } from "@tuma/core"
import { Effect, Schema } from "effect"
import { Count, findAll, rowOf, single } from "../rows.js"
import { inList, Message } from "../statusConditions.js"

/** The accepted messages that get a dispatch-queue row at once (they can take `claim`). */
const queuedOnAccept = inList("m.status", Message.queuedOnAccept)

/** An idempotency record as stored (`idempotency_keys`). */
export const IdempotencyRecordRow = rowOf<IdempotencyRecord>()(Schema.Struct({
  key: Schema.String,
  endpoint: Schema.String,
  fingerprint: Schema.String,
  response: Schema.Unknown,
  created_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf
}))
const takenRows = findAll(Schema.Struct({ ...IdempotencyRecordRow.fields, account_id: Schema.String }))
const claimRows = findAll(Schema.Struct({ account_id: Schema.String, key: Schema.String }))
const walletIdRows = findAll(Schema.Struct({ wallet_id: Schema.String }))
const balanceRows = findAll(Schema.Struct({ id: Schema.String, balance: Count }))
const guardRow = single(Schema.Struct({ version: Schema.String, opted: Schema.NullOr(Schema.Array(Schema.Number)) }))

/** An idempotency key some plan claims. */
export interface KeyClaim {
  readonly accountId: string
  readonly now: Date
  readonly idempotency: IdempotencyClaim
}

/** `account key`: how claimed keys are compared. */
export const keyOf = (accountId: string, key: string) => `${accountId} ${key}`

/**
 * Claims the keys (INSERT … ON CONFLICT DO UPDATE … WHERE expired); answers those claimed. A
 * concurrent transaction holding a key blocks here until it commits (→ taken) or rolls back (→ ours).
 */
export const claimKeys = (claims: ReadonlyArray<KeyClaim>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const idem = claims.map((c) => c.idempotency)
    return claimRows(sql`INSERT INTO idempotency_records
        (account_id, key, endpoint, fingerprint, response, created_at, expires_at)
      SELECT * FROM unnest(${claims.map((c) => c.accountId)}::uuid[], ${idem.map((c) => c.key)}::text[],
        ${idem.map((c) => c.endpoint)}::text[], ${idem.map((c) => c.fingerprint)}::text[],
        ${idem.map((c) => JSON.stringify(c.response))}::json[],
        ${claims.map((c) => c.now)}::timestamptz[], ${idem.map((c) => c.expires_at)}::timestamptz[])
      ON CONFLICT (account_id, key) DO UPDATE SET endpoint = excluded.endpoint,
        fingerprint = excluded.fingerprint, response = excluded.response,
        created_at = excluded.created_at, expires_at = excluded.expires_at
      WHERE idempotency_records.expires_at <= excluded.created_at
      RETURNING account_id, key`)
  }).pipe(Effect.map((rows) => new Set(rows.map((r) => keyOf(r.account_id, r.key)))))

/** The records holding keys that could not be claimed, by `keyOf`. */
export const takenRecords = (claims: ReadonlyArray<KeyClaim>) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      takenRows(sql`SELECT r.account_id, r.key, r.endpoint, r.fingerprint, r.response, r.created_at, r.expires_at
      FROM idempotency_records r
      JOIN unnest(${claims.map((c) => c.accountId)}::uuid[], ${
        claims.map((c) => c.idempotency.key)
      }::text[]) AS t(a, k) ON r.account_id = t.a AND r.key = t.k`)
  ).pipe(
    Effect.map((rows) =>
      new Map(rows.map(({ account_id, ...record }): [string, IdempotencyRecord] => [
        keyOf(account_id, record.key),
        record
      ]))
    )
  )

/** Gives back keys claimed by plans that were then refused. */
export const releaseKeys = (claims: ReadonlyArray<KeyClaim>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`DELETE FROM idempotency_records r
      USING unnest(${claims.map((c) => c.accountId)}::uuid[], ${
      claims.map((c) => c.idempotency.key)
    }::text[]) AS t(a, k) WHERE r.account_id = t.a AND r.key = t.k`)

/**
 * The guards of reused-snapshot plans (`AcceptGuard`), checked inside the accept's transaction: the
 * indexes of the plans whose settings version moved or whose recipient opted out since.
 */
export const staleGuards = (plans: ReadonlyArray<AcceptPlan>, indexes: ReadonlyArray<number>) =>
  Effect.gen(function*() {
    const guarded = indexes.filter((i) => plans[i].guard !== undefined)
    if (guarded.length === 0) return new Set<number>()
    const sql = yield* SqlClient.SqlClient
    const { opted, version } = yield* guardRow(sql`SELECT
        (SELECT version::text FROM settings_version WHERE id = 1) AS version,
        (SELECT array_agg(t.i) FROM unnest(${guarded}::int[], ${guarded.map((i) => plans[i].accountId)}::uuid[],
            ${guarded.map((i) => plans[i].guard!.recipient)}::text[]) AS t(i, a, r)
          WHERE EXISTS (SELECT 1 FROM opt_outs o WHERE o.account_id = t.a AND o.recipient = t.r)) AS opted`)
    const stale = new Set<number>(opted ?? [])
    for (const i of guarded) if (plans[i].guard!.settingsVersion !== version) stale.add(i)
    return stale
  })

/** The campaign row of a bulk send. */
export const insertCampaign = (c: NewCampaign) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`INSERT INTO campaigns (id, account_id, api_key_id, api_version, name, sender_id, status,
        recipient_count, queued_count, failed_count, units, failures, scheduled_at, created_at, updated_at, message)
      VALUES (${c.id}, ${c.account_id}, ${c.api_key_id}, ${c.api_version}, ${c.name}, ${c.sender_id}, ${c.status},
        ${c.recipient_count}, ${c.queued_count}, ${c.failed_count}, ${c.units},
        ${JSON.stringify(c.failures)}::jsonb, ${c.scheduled_at}, ${c.created_at}, ${c.created_at}, ${
        c.message ?? null
      })`
  )

/**
 * Locks wallets in id order (two sends touching several wallets never deadlock) and answers their
 * balances.
 */
export const lockWallets = (walletIds: ReadonlyArray<string>) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      balanceRows(sql`SELECT id, balance FROM wallets WHERE id = ANY(${walletIds}::uuid[]) ORDER BY id FOR UPDATE`)
  ).pipe(
    Effect.map((rows) => new Map(rows.map((r) => [r.id, r.balance])))
  )

/** Balances of wallets, read without a lock (to report a shortfall before rolling back). */
export const balancesOf = (walletIds: ReadonlyArray<string>) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => balanceRows(sql`SELECT id, balance FROM wallets WHERE id = ANY(${walletIds}::uuid[])`)
  ).pipe(
    Effect.map((rows) => new Map(rows.map((r) => [r.id, r.balance])))
  )

/** One ledger row of a debit: `units` taken from `wallet` (rows of one wallet are taken in their order). */
export interface LedgerEntry {
  readonly wallet: string
  readonly account: string
  readonly units: number
  readonly message: string | null
  readonly campaign: string | null
  /** The wallet's balance after this row, when the wallet is locked and it is known. */
  readonly after?: number | undefined
}

/**
 * The accepted messages (with a dispatch-queue row for those that can be claimed), the debit of
 * each wallet (the sum of its entries, only where the balance covers it) and one ledger row per
 * entry, its `balance_after` as if the entries were taken one after the other in their order: one
 * statement. Answers the wallets debited; a wallet missing from it could not cover its debit.
 */
export const writeAccepted = (
  input: {
    readonly now: Date
    readonly messages: ReadonlyArray<NewMessages>
    readonly ledger: ReadonlyArray<LedgerEntry>
  }
) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const rows = input.messages.flatMap(({ common, items }) => items.map((item) => ({ common, item })))
    const c = <K extends keyof NewMessages["common"]>(k: K) => rows.map((r) => r.common[k])
    const m = <K extends keyof NewMessages["items"][number]>(k: K) => rows.map((r) => r.item[k])
    const l = input.ledger
    const now = input.now
    const known = l.length > 0 && l.every((x) => x.after !== undefined)
    // the balances after each row known (locked wallets): written as given; else computed here, each
    // wallet's rows taken one after the other in their order
    const debitsAndLedger = known ? knownLedger(sql, now, l) : computedLedger(sql, now, l)
    return walletIdRows(sql`WITH m AS (
        INSERT INTO messages (id, account_id, api_key_id, campaign_id, market_id, country, recipient, sender_id,
          text, encoding, parts, units, channel, status, idempotency_key, created_at, scheduled_at, queued_at,
          updated_at, smpp_account_id, smpp_intermediate)
        SELECT u.id, u.account_id, u.api_key_id, u.campaign_id, u.market_id, u.country, u.recipient, u.sender_id,
          u.text, u.encoding, u.parts, u.units, u.channel, u.status, u.idempotency_key, u.created_at, u.scheduled_at,
          u.queued_at, u.created_at, u.smpp_account_id, u.smpp_intermediate
        FROM unnest(${m("id")}::uuid[], ${c("account_id")}::uuid[], ${c("api_key_id")}::uuid[],
          ${c("campaign_id")}::uuid[], ${m("market_id")}::uuid[], ${m("country")}::text[], ${m("recipient")}::text[],
          ${c("sender_id")}::text[], ${m("text")}::text[], ${m("encoding")}::text[], ${m("parts")}::int[],
          ${m("units")}::int[], ${c("channel")}::text[], ${c("status")}::text[], ${c("idempotency_key")}::text[],
          ${c("created_at")}::timestamptz[], ${c("scheduled_at")}::timestamptz[], ${c("queued_at")}::timestamptz[],
          ${rows.map((r) => r.common.smpp_account_id ?? null)}::uuid[],
          ${rows.map((r) => r.common.smpp_intermediate === true)}::bool[])
          AS u(id, account_id, api_key_id, campaign_id, market_id, country, recipient, sender_id, text, encoding,
            parts, units, channel, status, idempotency_key, created_at, scheduled_at, queued_at, smpp_account_id,
            smpp_intermediate)
        RETURNING id, account_id, status),
      q AS (
        INSERT INTO dispatch_queue (message_id, account_id, available_at, created_at)
        SELECT m.id, m.account_id, ${now}::timestamptz, ${now}::timestamptz FROM m WHERE ${
      sql.literal(queuedOnAccept)
    }),
${debitsAndLedger}
      SELECT id AS wallet_id FROM d`)
  }).pipe(Effect.map((rows) => new Set(rows.map((r) => r.wallet_id))))

type Sql = SqlClient.SqlClient

/** The debit and ledger CTEs (`d`, `l`) when every row's `balance_after` is known. */
const knownLedger = (sql: Sql, now: Date, l: ReadonlyArray<LedgerEntry>) => {
  const totals = new Map<string, number>()
  for (const x of l) totals.set(x.wallet, (totals.get(x.wallet) ?? 0) + x.units)
  return sql`d AS (
        UPDATE wallets w SET balance = w.balance - t.units, updated_at = ${now}
        FROM unnest(${[...totals.keys()]}::uuid[], ${[...totals.values()]}::int[]) AS t(wallet_id, units)
        WHERE w.id = t.wallet_id AND w.balance >= t.units
        RETURNING w.id),
      l AS (
        INSERT INTO wallet_ledger (wallet_id, account_id, kind, units, balance_after, message_id, campaign_id,
          created_at)
        SELECT e.wallet_id, e.account_id, 'debit', -e.units, e.balance_after, e.message_id, e.campaign_id, ${now}
        FROM unnest(${l.map((x) => x.wallet)}::uuid[], ${l.map((x) => x.account)}::uuid[],
          ${l.map((x) => x.units)}::int[], ${l.map((x) => x.after ?? 0)}::int[], ${l.map((x) => x.message)}::uuid[],
          ${
    l.map((x) => x.campaign)
  }::uuid[]) AS e(wallet_id, account_id, units, balance_after, message_id, campaign_id))`
}

/** The debit and ledger CTEs (`e`, `t`, `d`, `l`) computing each row's `balance_after`. */
const computedLedger = (sql: Sql, now: Date, l: ReadonlyArray<LedgerEntry>) =>
  sql`e AS (
        SELECT * FROM unnest(${l.map((x) => x.wallet)}::uuid[], ${l.map((x) => x.account)}::uuid[],
          ${l.map((x) => x.units)}::int[], ${l.map((x) => x.message)}::uuid[], ${l.map((x) => x.campaign)}::uuid[])
          WITH ORDINALITY AS e(wallet_id, account_id, units, message_id, campaign_id, ord)),
      t AS (SELECT wallet_id, sum(units)::int AS units FROM e GROUP BY wallet_id),
      d AS (
        UPDATE wallets w SET balance = w.balance - t.units, updated_at = ${now}
        FROM t WHERE w.id = t.wallet_id AND w.balance >= t.units
        RETURNING w.id, w.balance),
      l AS (
        INSERT INTO wallet_ledger (wallet_id, account_id, kind, units, balance_after, message_id, campaign_id,
          created_at)
        SELECT e.wallet_id, e.account_id, 'debit', -e.units,
          d.balance + (sum(e.units) OVER w) - (sum(e.units) OVER (w ORDER BY e.ord ROWS UNBOUNDED PRECEDING)),
          e.message_id, e.campaign_id, ${now}
        FROM e JOIN d ON d.id = e.wallet_id
        WINDOW w AS (PARTITION BY e.wallet_id)
        ORDER BY e.ord)`
