/**
 * SQL adapter of the `SendStore` port (PostgreSQL and PGlite, same SQL).
 *
 * `snapshot` is one statement (JSON sub-selects). `accept` is one transaction of at most six
 * statements whatever the number of recipients (arrays through `unnest`, no per-row queries):
 *
 *   1. claim the idempotency key: INSERT … ON CONFLICT DO UPDATE … WHERE expired. A concurrent
 *      transaction holding the same key blocks here until it commits (→ we replay it) or rolls
 *      back (→ we own the key).
 *   2. the campaign row.
 *   3. the messages and, for `queued` ones, their dispatch_queue rows in one statement.
 *   4. (several wallets only) lock the wallets in id order, so two sends never deadlock.
 *   5. conditional debits + ledger rows in one statement:
 *      UPDATE wallets SET balance = balance - n WHERE balance >= n RETURNING … → INSERT ledger.
 *      A wallet that cannot cover its debit is not updated; the transaction is then rolled back.
 *
 * The debit comes last so that the wallet row — the one hot row every send of an account
 * touches — stays locked only from the debit to COMMIT, not while 1,000 messages are written.
 *
 * A serialization failure or deadlock (40001/40P01) retries the whole transaction.
 *
 * Why one file of ≈550 lines: one port's adapter: the snapshot statement, the group commit loop
 * and the accept transaction, which share their retry and outcome rules.
 */
import { SqlClient } from "@effect/sql"
import type {
  AcceptPlan,
  IdempotencyRecord,
  ProviderCapacityRow,
  SenderIdGrantRow,
  SendSnapshot,
  SpamRuleRow,
  WalletRow
} from "@tuma/core"
import { AcceptanceRolledBack, AcceptOutcome, SendStore } from "@tuma/core"
import type { Tracer } from "effect"
import { Array as Arr, Cause, Data, Deferred, Effect, Exit, Layer, Option, Predicate, Queue, Schema } from "effect"
import { PgliteClient } from "./PgliteClient.js"
import { Count, findAll, findOne, MarketRowSchema, rowOf, SenderIdStatusSchema, single } from "./rows.js"
import { retryTransient } from "./SqlRetry.js"
import { inList, Message } from "./statusConditions.js"

/** The accepted messages that get a dispatch-queue row at once. */
const queuedOnAccept = inList("m.status", Message.queuedOnAccept)

// Rows, decoded by Schema (store-sql/src/rows.ts) ---------------------------------------------

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

const IdempotencyRecordRow = rowOf<IdempotencyRecord>()(Schema.Struct({
  key: Schema.String,
  endpoint: Schema.String,
  fingerprint: Schema.String,
  response: Schema.Unknown,
  created_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf
}))
const idempotencyRow = findOne(IdempotencyRecordRow)
const takenRows = findAll(Schema.Struct({ ...IdempotencyRecordRow.fields, account_id: Schema.String }))
const claimRows = findAll(Schema.Struct({ account_id: Schema.String, key: Schema.String }))
const walletIdRows = findAll(Schema.Struct({ wallet_id: Schema.String }))
const balanceRows = findAll(Schema.Struct({ id: Schema.String, balance: Count }))
const countRow = single(Schema.Struct({ n: Count }))
const guardRow = single(Schema.Struct({ version: Schema.String, opted: Schema.NullOr(Schema.Array(Schema.Number)) }))

/** The SQLSTATE of a failed statement, if the server answered one. */
const sqlState = (e: unknown): string | undefined => {
  if (!Predicate.isTagged(e, "SqlError") || !Predicate.hasProperty(e, "cause")) return undefined
  const cause = e.cause
  return Predicate.hasProperty(cause, "code") && typeof cause.code === "string" ? cause.code : undefined
}

class Insufficient extends Data.TaggedError("Insufficient")<{
  readonly shortfall: ReadonlyArray<{ market_id: string; units_required: number; units_available: number }>
}> {}

/**
 * The SQL `SendStore`: one-statement snapshot, one-transaction accept, concurrent single sends grouped into
 * one transaction.
 */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const snapshot = (r: {
    accountId: string
    senderName: string
    countries: ReadonlyArray<string>
    recipients: ReadonlyArray<string>
  }) =>
    snapshotRow(sql`SELECT json_build_object(
  'account', (SELECT json_build_object('id', a.id, 'active', a.active) FROM accounts a WHERE a.id = ${r.accountId}),
  'senderIds', (SELECT coalesce(json_agg(json_build_object('id', s.id, 'market_id', s.market_id, 'name', s.name,
      'display_name', s.display_name, 'status', s.status, 'is_global', s.is_global)), '[]'::json)
    FROM sender_ids s WHERE s.account_id = ${r.accountId} AND s.name = ${r.senderName}),
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
      Effect.map(({ s }): SendSnapshot => ({
        ...s,
        account: s.account ?? undefined,
        settingsVersion: s.settingsVersion ?? undefined
      })),
      Effect.orDie
    )

  const findIdempotency = (accountId: string, key: string, now: Date) =>
    idempotencyRow(sql`SELECT key, endpoint, fingerprint, response, created_at, expires_at FROM idempotency_records
        WHERE account_id = ${accountId} AND key = ${key} AND expires_at > ${now}`).pipe(Effect.orDie)

  /**
   * The guards of reused-snapshot plans (`AcceptGuard`), checked inside the accept's transaction: the
   * indexes of the plans whose settings version moved or whose recipient opted out since.
   */
  const staleGuards = (plans: ReadonlyArray<AcceptPlan>, indexes: ReadonlyArray<number>) =>
    Effect.gen(function*() {
      const guarded = indexes.filter((i) => plans[i].guard !== undefined)
      if (guarded.length === 0) return new Set<number>()
      const { opted, version } = yield* guardRow(sql`SELECT
          (SELECT version::text FROM settings_version WHERE id = 1) AS version,
          (SELECT array_agg(t.i) FROM unnest(${guarded}::int[], ${guarded.map((i) => plans[i].accountId)}::uuid[],
              ${guarded.map((i) => plans[i].guard!.recipient)}::text[]) AS t(i, a, r)
            WHERE EXISTS (SELECT 1 FROM opt_outs o WHERE o.account_id = t.a AND o.recipient = t.r)) AS opted`)
      const stale = new Set<number>(opted ?? [])
      for (const i of guarded) if (plans[i].guard!.settingsVersion !== version) stale.add(i)
      return stale
    })

  const transaction = (plan: AcceptPlan) =>
    Effect.gen(function*() {
      if (plan.guard !== undefined && (yield* staleGuards([plan], [0])).size > 0) return AcceptOutcome.Stale()
      const { common, items } = plan.messages
      const idem = plan.idempotency
      if (idem !== undefined) {
        const claimed = yield* sql`INSERT INTO idempotency_records
            (account_id, key, endpoint, fingerprint, response, created_at, expires_at)
          VALUES (${plan.accountId}, ${idem.key}, ${idem.endpoint}, ${idem.fingerprint},
            ${JSON.stringify(idem.response)}::json, ${plan.now}, ${idem.expires_at})
          ON CONFLICT (account_id, key) DO UPDATE SET endpoint = excluded.endpoint,
            fingerprint = excluded.fingerprint, response = excluded.response,
            created_at = excluded.created_at, expires_at = excluded.expires_at
          WHERE idempotency_records.expires_at <= excluded.created_at
          RETURNING key`
        if (claimed.length === 0) {
          const record = yield* idempotencyRow(sql`SELECT key, endpoint, fingerprint, response, created_at, expires_at
            FROM idempotency_records WHERE account_id = ${plan.accountId} AND key = ${idem.key}`)
          if (Option.isNone(record)) return yield* Effect.dieMessage("an idempotency key held by no record")
          return AcceptOutcome.KeyTaken({ record: record.value })
        }
      }

      const c = plan.campaign
      if (c !== undefined) {
        yield* sql`INSERT INTO campaigns (id, account_id, api_key_id, api_version, name, sender_id, status,
            recipient_count, queued_count, failed_count, units, failures, scheduled_at, created_at, updated_at)
          VALUES (${c.id}, ${c.account_id}, ${c.api_key_id}, ${c.api_version}, ${c.name}, ${c.sender_id}, ${c.status},
            ${c.recipient_count}, ${c.queued_count}, ${c.failed_count}, ${c.units},
            ${JSON.stringify(c.failures)}::jsonb, ${c.scheduled_at}, ${c.created_at}, ${c.created_at})`
      }

      if (items.length > 0) {
        const col = <K extends keyof (typeof items)[number]>(k: K) => items.map((m) => m[k])
        yield* sql`WITH m AS (
            INSERT INTO messages (id, account_id, api_key_id, campaign_id, market_id, country, recipient, sender_id,
              text, encoding, parts, units, channel, status, idempotency_key, created_at, scheduled_at, queued_at,
              updated_at)
            SELECT u.id, ${common.account_id}::uuid, ${common.api_key_id}::uuid, ${common.campaign_id}::uuid,
              u.market_id, u.country, u.recipient, ${common.sender_id}, u.text, u.encoding, u.parts, u.units,
              ${common.channel}, ${common.status}, ${common.idempotency_key}, ${common.created_at}::timestamptz,
              ${common.scheduled_at}::timestamptz, ${common.queued_at}::timestamptz, ${common.created_at}::timestamptz
            FROM unnest(${col("id")}::uuid[], ${col("market_id")}::uuid[], ${col("country")}::text[],
              ${col("recipient")}::text[], ${col("text")}::text[], ${col("encoding")}::text[], ${col("parts")}::int[],
              ${col("units")}::int[]) AS u(id, market_id, country, recipient, text, encoding, parts, units)
            RETURNING id, account_id, status)
          INSERT INTO dispatch_queue (message_id, account_id, available_at, created_at)
          SELECT m.id, m.account_id, ${plan.now}::timestamptz, ${plan.now}::timestamptz FROM m
          WHERE ${sql.literal(queuedOnAccept)}`
      }
      const debits = plan.debits.filter((d) => d.units > 0)
      if (debits.length > 0) {
        const walletIds = debits.map((d) => d.wallet_id)
        if (debits.length > 1) {
          yield* sql`SELECT id FROM wallets WHERE id = ANY(${walletIds}::uuid[]) ORDER BY id FOR UPDATE`
        }
        const single = plan.campaign === undefined && items.length === 1 ? items[0].id : null
        const debited = yield* walletIdRows(sql`WITH d AS (
            UPDATE wallets w SET balance = w.balance - d.units, updated_at = ${plan.now}
            FROM unnest(${walletIds}::uuid[], ${debits.map((d) => d.units)}::int[]) AS d(id, units)
            WHERE w.id = d.id AND w.balance >= d.units
            RETURNING w.id, w.account_id, w.balance, d.units)
          INSERT INTO wallet_ledger (wallet_id, account_id, kind, units, balance_after, message_id, campaign_id,
            created_at)
          SELECT d.id, d.account_id, 'debit', -d.units, d.balance, ${single}::uuid,
            ${plan.campaign?.id ?? null}::uuid, ${plan.now}
          FROM d
          RETURNING wallet_id`)
        if (debited.length < debits.length) {
          const ok = new Set(debited.map((r) => r.wallet_id))
          const missing = debits.filter((d) => !ok.has(d.wallet_id))
          const balances = yield* balanceRows(sql`SELECT id, balance FROM wallets
            WHERE id = ANY(${missing.map((d) => d.wallet_id)}::uuid[])`)
          return yield* new Insufficient({
            shortfall: missing.map((d) => ({
              market_id: d.market_id,
              units_required: d.units,
              units_available: balances.find((b) => b.id === d.wallet_id)?.balance ?? 0
            }))
          })
        }
      }

      return AcceptOutcome.Accepted()
    })

  /**
   * Accepts a group of single-message plans in a constant number of statements, whatever its size:
   * claim the idempotency keys, lock the wallets (id order), decide each plan in arrival order
   * against the locked balances, release the keys of refused plans, then write every accepted
   * message, queue row, debit and ledger row in one statement. Answers one outcome per plan, or
   * `undefined` for a plan whose key another plan of the group already claims (run it alone after).
   */
  const groupTransaction = (plans: ReadonlyArray<AcceptPlan>) =>
    Effect.gen(function*() {
      const outcomes: Array<AcceptOutcome | undefined> = plans.map(() => undefined)
      const seen = new Set<string>()
      const keyed: Array<number> = []
      const live: Array<number> = []
      plans.forEach((p, i) => {
        if (p.idempotency === undefined) return void live.push(i)
        const k = `${p.accountId} ${p.idempotency.key}`
        if (seen.has(k)) return // left undefined: accepted alone after this group
        seen.add(k)
        keyed.push(i)
      })
      if (keyed.length > 0) {
        const idem = keyed.map((i) => plans[i].idempotency!)
        const claimed = yield* claimRows(sql`INSERT INTO idempotency_records
            (account_id, key, endpoint, fingerprint, response, created_at, expires_at)
          SELECT * FROM unnest(${keyed.map((i) => plans[i].accountId)}::uuid[], ${idem.map((c) => c.key)}::text[],
            ${idem.map((c) => c.endpoint)}::text[], ${idem.map((c) => c.fingerprint)}::text[],
            ${idem.map((c) => JSON.stringify(c.response))}::json[],
            ${keyed.map((i) => plans[i].now)}::timestamptz[], ${idem.map((c) => c.expires_at)}::timestamptz[])
          ON CONFLICT (account_id, key) DO UPDATE SET endpoint = excluded.endpoint,
            fingerprint = excluded.fingerprint, response = excluded.response,
            created_at = excluded.created_at, expires_at = excluded.expires_at
          WHERE idempotency_records.expires_at <= excluded.created_at
          RETURNING account_id, key`)
        const ok = new Set(claimed.map((r) => `${r.account_id} ${r.key}`))
        const taken = keyed.filter((i) => !ok.has(`${plans[i].accountId} ${plans[i].idempotency!.key}`))
        if (taken.length > 0) {
          const rows = yield* takenRows(
            sql`SELECT r.account_id, r.key, r.endpoint, r.fingerprint, r.response, r.created_at,
              r.expires_at
            FROM idempotency_records r
            JOIN unnest(${taken.map((i) => plans[i].accountId)}::uuid[], ${
              taken.map((i) => plans[i].idempotency!.key)
            }::text[]) AS t(a, k) ON r.account_id = t.a AND r.key = t.k`
          )
          for (const i of taken) {
            const row = rows.find((r) => r.account_id === plans[i].accountId && r.key === plans[i].idempotency!.key)
            if (row === undefined) return yield* Effect.dieMessage("an idempotency key held by no record")
            const { account_id: _, ...record } = row
            outcomes[i] = AcceptOutcome.KeyTaken({ record })
          }
        }
        for (const i of keyed) if (outcomes[i] === undefined) live.push(i)
        live.sort((a, b) => a - b)
      }

      const released: Array<number> = []
      const stale = yield* staleGuards(plans, live)
      if (stale.size > 0) {
        for (const i of stale) {
          outcomes[i] = AcceptOutcome.Stale()
          if (plans[i].idempotency !== undefined) released.push(i)
        }
        live.splice(0, live.length, ...live.filter((i) => !stale.has(i)))
      }

      const walletIds = [
        ...new Set(live.flatMap((i) => plans[i].debits.filter((d) => d.units > 0).map((d) => d.wallet_id)))
      ]
      const balance = new Map<string, number>()
      if (walletIds.length > 0) {
        const rows = yield* balanceRows(sql`SELECT id, balance FROM wallets
          WHERE id = ANY(${walletIds}::uuid[]) ORDER BY id FOR UPDATE`)
        for (const r of rows) balance.set(r.id, r.balance)
      }

      const accepted: Array<number> = []
      const ledger: Array<{ wallet: string; account: string; units: number; after: number; message: string }> = []
      for (const i of live) {
        const plan = plans[i]
        const debit = plan.debits.find((d) => d.units > 0)
        if (debit !== undefined) {
          const available = balance.get(debit.wallet_id) ?? 0
          if (available < debit.units) {
            outcomes[i] = AcceptOutcome.InsufficientFunds({
              shortfall: [{ market_id: debit.market_id, units_required: debit.units, units_available: available }]
            })
            if (plan.idempotency !== undefined) released.push(i)
            continue
          }
          balance.set(debit.wallet_id, available - debit.units)
          ledger.push({
            wallet: debit.wallet_id,
            account: plan.accountId,
            units: debit.units,
            after: available - debit.units,
            message: plan.messages.items[0].id
          })
        }
        outcomes[i] = AcceptOutcome.Accepted()
        accepted.push(i)
      }

      if (released.length > 0) {
        yield* sql`DELETE FROM idempotency_records r
          USING unnest(${released.map((i) => plans[i].accountId)}::uuid[], ${
          released.map((i) => plans[i].idempotency!.key)
        }::text[]) AS t(a, k) WHERE r.account_id = t.a AND r.key = t.k`
      }

      if (accepted.length > 0) {
        const c = accepted.map((i) => plans[i].messages.common)
        const m = accepted.map((i) => plans[i].messages.items[0])
        const totals = new Map<string, number>()
        for (const l of ledger) totals.set(l.wallet, (totals.get(l.wallet) ?? 0) + l.units)
        const now = plans[accepted[0]].now
        const debited = yield* countRow(sql`WITH m AS (
            INSERT INTO messages (id, account_id, api_key_id, campaign_id, market_id, country, recipient, sender_id,
              text, encoding, parts, units, channel, status, idempotency_key, created_at, scheduled_at, queued_at,
              updated_at)
            SELECT u.id, u.account_id, u.api_key_id, NULL, u.market_id, u.country, u.recipient, u.sender_id, u.text,
              u.encoding, u.parts, u.units, u.channel, u.status, u.idempotency_key, u.created_at, u.scheduled_at,
              u.queued_at, u.created_at
            FROM unnest(${m.map((x) => x.id)}::uuid[], ${c.map((x) => x.account_id)}::uuid[],
              ${c.map((x) => x.api_key_id)}::uuid[], ${m.map((x) => x.market_id)}::uuid[],
              ${m.map((x) => x.country)}::text[], ${m.map((x) => x.recipient)}::text[],
              ${c.map((x) => x.sender_id)}::text[], ${m.map((x) => x.text)}::text[], ${
          m.map((x) => x.encoding)
        }::text[],
              ${m.map((x) => x.parts)}::int[], ${m.map((x) => x.units)}::int[], ${c.map((x) => x.channel)}::text[],
              ${c.map((x) => x.status)}::text[], ${c.map((x) => x.idempotency_key)}::text[],
              ${c.map((x) => x.created_at)}::timestamptz[], ${c.map((x) => x.scheduled_at)}::timestamptz[],
              ${c.map((x) => x.queued_at)}::timestamptz[])
              AS u(id, account_id, api_key_id, market_id, country, recipient, sender_id, text, encoding, parts, units,
                channel, status, idempotency_key, created_at, scheduled_at, queued_at)
            RETURNING id, account_id, status),
          q AS (
            INSERT INTO dispatch_queue (message_id, account_id, available_at, created_at)
            SELECT m.id, m.account_id, ${now}::timestamptz, ${now}::timestamptz FROM m WHERE ${
          sql.literal(queuedOnAccept)
        }),
          d AS (
            UPDATE wallets w SET balance = w.balance - d.units, updated_at = ${now}
            FROM unnest(${[...totals.keys()]}::uuid[], ${[...totals.values()]}::int[]) AS d(id, units)
            WHERE w.id = d.id AND w.balance >= d.units
            RETURNING w.id),
          l AS (
            INSERT INTO wallet_ledger (wallet_id, account_id, kind, units, balance_after, message_id, campaign_id,
              created_at)
            SELECT l.wallet_id, l.account_id, 'debit', -l.units, l.balance_after, l.message_id, NULL, ${now}
            FROM unnest(${ledger.map((l) => l.wallet)}::uuid[], ${ledger.map((l) => l.account)}::uuid[],
              ${ledger.map((l) => l.units)}::int[], ${ledger.map((l) => l.after)}::int[],
              ${ledger.map((l) => l.message)}::uuid[]) AS l(wallet_id, account_id, units, balance_after, message_id))
          SELECT count(*)::int AS n FROM d`)
        if (debited.n !== totals.size) {
          return yield* Effect.dieMessage("group accept: a locked wallet could not cover its debit")
        }
      }
      return outcomes
    })

  /**
   * A SQLSTATE error answered by the server means the transaction did not commit — except the
   * classes where the connection itself went (08 connection exception, 57 operator intervention such
   * as pg_terminate_backend, 58 system error, XX internal): then a COMMIT may have been applied.
   */
  const refusedByServer = (defect: unknown): boolean => {
    const code = sqlState(defect)
    return code !== undefined && /^[0-9A-Z]{5}$/.test(code) && !/^(08|57|58|XX)/.test(code)
  }

  const insufficient = (e: Insufficient) => Effect.succeed(AcceptOutcome.InsufficientFunds({ shortfall: e.shortfall }))

  const acceptAlone = (plan: AcceptPlan): Effect.Effect<AcceptOutcome> =>
    sql.withTransaction(transaction(plan)).pipe(
      retryTransient(10),
      Effect.catchTag("Insufficient", insufficient),
      Effect.orDie,
      // the server answered with an error: the transaction rolled back, nothing of it is stored
      Effect.catchAllDefect((defect) =>
        Effect.die(refusedByServer(defect) ? new AcceptanceRolledBack({ cause: defect }) : defect)
      )
    )

  // --- group commit for single sends ------------------------------------------------------------
  //
  // Every single send of an account debits the same wallet row, which stays locked from the debit
  // to the end of COMMIT (WAL flush included). One transaction per send therefore serialises an
  // account's sends at one commit each. Instead, concurrent single-message plans of this process
  // are accepted together: one transaction, each plan inside its own SAVEPOINT (a plan that fails —
  // insufficient balance, a failing statement — is rolled back alone), one COMMIT for all. Callers
  // are answered only after that COMMIT. If the COMMIT itself is refused by the server (the
  // transaction definitely rolled back), every plan is retried alone; if its outcome is unknown
  // (connection lost), every caller gets the defect (503 UNKNOWN, decisions §5).
  type Pending = {
    readonly plan: AcceptPlan
    readonly done: Deferred.Deferred<AcceptOutcome>
    /** The caller's span: the group's transaction (a trace of its own) links to each (issue 13). */
    readonly span: Option.Option<Tracer.AnySpan>
  }
  const pending = yield* Queue.unbounded<Pending>()

  const serverRefused = (cause: Cause.Cause<unknown>): boolean =>
    Arr.some(
      [...Cause.failures(cause), ...Cause.defects(cause)],
      (e) => sqlState(e) !== undefined
    )

  const runGroup = (group: ReadonlyArray<Pending>): Effect.Effect<void> => {
    if (group.length === 1) {
      return Effect.flatMap(Effect.exit(acceptAlone(group[0].plan)), (exit) => Deferred.done(group[0].done, exit))
    }
    return sql.withTransaction(groupTransaction(group.map((p) => p.plan))).pipe(
      retryTransient(10),
      Effect.exit,
      Effect.flatMap((exit) =>
        Exit.isSuccess(exit)
          ? Effect.forEach(group, (p, i) => {
            const outcome = exit.value[i]
            return outcome === undefined // a second claim of one key in this group: alone, after it
              ? Effect.flatMap(Effect.exit(acceptAlone(p.plan)), (x) => Deferred.done(p.done, x))
              : Deferred.succeed(p.done, outcome)
          })
          : serverRefused(exit.cause)
          ? Effect.forEach(group, (p) =>
            Effect.flatMap(Effect.exit(acceptAlone(p.plan)), (x) => Deferred.done(p.done, x)))
          : Effect.forEach(group, (p) =>
            Deferred.failCause(p.done, Cause.die(Cause.squash(exit.cause))))
      ),
      Effect.asVoid
    )
  }

  const tracedGroup = (group: ReadonlyArray<Pending>) =>
    runGroup(group).pipe(Effect.withSpan("SendStore.acceptGroup", {
      root: true,
      links: group.flatMap((p) =>
        Option.isSome(p.span) ? [{ _tag: "SpanLink", span: p.span.value, attributes: {} }] : []
      ),
      attributes: { "tuma.group.size": group.length },
      captureStackTrace: false
    }))

  // PGlite runs its statements on this thread, in promise callbacks: while a group's transaction runs
  // no request is read from a socket, and the first plan to arrive afterwards would start the next
  // group alone (one send and one durable commit per group). So on PGlite the loop waits, after the
  // first plan, for the event loop's check phase (`setImmediate`): by then the I/O callbacks already
  // due — requests read from the sockets, each of which may offer a plan — have run. The wait needs
  // the event loop to turn: a fiber that keeps the microtask queue busy without end (polling PGlite
  // in a loop with no timer or I/O between) holds it back, as it holds back every timer and socket.
  const linger = Option.isSome(yield* Effect.serviceOption(PgliteClient)) ? nextCheckPhase : Effect.void

  yield* Queue.take(pending).pipe(
    Effect.zipLeft(linger),
    Effect.flatMap((first) => Effect.map(Queue.takeUpTo(pending, GROUP_MAX - 1), (rest) => [first, ...rest])),
    Effect.flatMap(tracedGroup),
    Effect.forever,
    Effect.forkScoped
  )

  const groupable = (plan: AcceptPlan) =>
    plan.campaign === undefined && plan.messages.items.length === 1 && plan.debits.length <= 1

  const accept = (plan: AcceptPlan): Effect.Effect<AcceptOutcome> =>
    groupable(plan)
      ? Effect.flatMap(Deferred.make<AcceptOutcome>(), (done) =>
        Effect.flatMap(
          Effect.option(Effect.currentSpan),
          (span) => Effect.zipRight(Queue.offer(pending, { plan, done, span }), Deferred.await(done))
        ))
      : acceptAlone(plan)

  return SendStore.of({ snapshot, findIdempotency, accept })
})

const GROUP_MAX = 128

/** Resumes in the event loop's check phase: after the I/O callbacks already due have run. */
const nextCheckPhase: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/** `SendStore` on SQL (scoped: it owns the group-commit fiber). */
export const layer: Layer.Layer<SendStore, never, SqlClient.SqlClient> = Layer.scoped(SendStore, make)
