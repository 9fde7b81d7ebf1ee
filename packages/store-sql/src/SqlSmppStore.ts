/**
 * SQL adapter of `SmppStore` (@tuma/core/ports/SmppStore): SMPP credentials, the receipt outbox
 * (migration 0900) and the outbox of inbound messages owed to the binds (migration 1000). Same SQL on PostgreSQL 15 and PGlite; SQL failures are defects.
 */
import { SqlClient } from "@effect/sql"
import type { DueInbound, DueReceipt, ReceiptKind, SmppAccountRow } from "@tuma/core/ports/SmppStore"
import { SmppStore } from "@tuma/core/ports/SmppStore"
import { Effect, Layer, Option, Schema } from "effect"
import { Count, findAll, findOne, NullableDate, rowOf } from "./rows.js"
import { sqlLoginFailures } from "./SqlLoginFailures.js"

const AccountRow = rowOf<SmppAccountRow>()(Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  system_id: Schema.String,
  password_hash: Schema.String,
  mode: Schema.Literal("live", "sandbox"),
  throughput_rate: Schema.Number,
  throughput_burst: Schema.Number,
  max_binds: Schema.Number,
  allowed_ips: Schema.Array(Schema.String),
  disabled_at: NullableDate,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
}))
const ReceiptRow = rowOf<DueReceipt>()(Schema.Struct({
  message_id: Schema.String,
  smpp_account_id: Schema.String,
  status: Schema.Literal("delivered", "failed", "enroute"),
  final_at: Schema.DateFromSelf,
  attempts: Schema.Number,
  created_at: Schema.DateFromSelf,
  recipient: Schema.String,
  sender_id: Schema.String,
  text: Schema.String,
  submitted_at: Schema.DateFromSelf
}))
const InboundRow = rowOf<DueInbound>()(Schema.Struct({
  inbound_id: Schema.String,
  smpp_account_id: Schema.String,
  attempts: Schema.Number,
  created_at: Schema.DateFromSelf,
  from_addr: Schema.String,
  to_addr: Schema.String,
  text: Schema.String,
  encoding: Schema.String
}))
const allInbound = findAll(InboundRow)
const allAccounts = findAll(AccountRow)
const oneAccount = findOne(AccountRow)
const allReceipts = findAll(ReceiptRow)
const anyRow = findAll(Schema.Struct({ n: Schema.optional(Count) }))
const BucketRow = Schema.Struct({
  tokens: Schema.NullOr(Schema.Number),
  at_ms: Schema.NullOr(Schema.Number),
  now_ms: Schema.Number
})
const oneBucket = findOne(BucketRow)

/** The outbox table of each kind of receipt. */
const tableOf: Record<ReceiptKind, string> = { final: "smpp_receipts", intermediate: "smpp_receipts_intermediate" }

const columns = `id, account_id, system_id, password_hash, mode, throughput_rate, throughput_burst, max_binds,
  allowed_ips, disabled_at, created_at, updated_at`

/** The SQL `SmppStore`. */
export const make = Effect.map(SqlClient.SqlClient, (sql) => {
  return SmppStore.of({
    bindFailures: sqlLoginFailures(sql, "smpp_bind_failures"),
    insert: (r) =>
      anyRow(sql`INSERT INTO smpp_accounts (${sql.unsafe(columns)})
        VALUES (${r.id}, ${r.account_id}, ${r.system_id}, ${r.password_hash}, ${r.mode}, ${r.throughput_rate},
          ${r.throughput_burst}, ${r.max_binds}, ${[...r.allowed_ips]}::text[], ${r.disabled_at}, ${r.created_at},
          ${r.updated_at})
        ON CONFLICT (system_id) DO NOTHING RETURNING 1 AS n`).pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      ),
    list: (accountId) =>
      allAccounts(
        accountId === undefined
          ? sql`SELECT ${sql.unsafe(columns)} FROM smpp_accounts ORDER BY created_at, id`
          : sql`SELECT ${sql.unsafe(columns)} FROM smpp_accounts WHERE account_id = ${accountId}
            ORDER BY created_at, id`
      ).pipe(Effect.orDie),
    get: (id) => oneAccount(sql`SELECT ${sql.unsafe(columns)} FROM smpp_accounts WHERE id = ${id}`).pipe(Effect.orDie),
    bySystemId: (systemId) =>
      oneAccount(sql`SELECT ${sql.unsafe(columns)} FROM smpp_accounts WHERE system_id = ${systemId}`).pipe(
        Effect.orDie
      ),
    accountExists: (accountId) =>
      sql`SELECT 1 FROM accounts WHERE id = ${accountId}`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
    update: (id, change, now) => {
      const sets = [sql`updated_at = ${now}`]
      if (change.disabled_at !== undefined) sets.push(sql`disabled_at = ${change.disabled_at}`)
      if (change.password_hash !== undefined) sets.push(sql`password_hash = ${change.password_hash}`)
      const limits = change.limits
      if (limits !== undefined) {
        sets.push(
          sql`throughput_rate = ${limits.throughput_rate}`,
          sql`throughput_burst = ${limits.throughput_burst}`,
          sql`max_binds = ${limits.max_binds}`,
          sql`allowed_ips = ${[...limits.allowed_ips]}::text[]`
        )
      }
      return oneAccount(sql`UPDATE smpp_accounts SET ${sql.csv(sets)} WHERE id = ${id}
        RETURNING ${sql.unsafe(columns)}`).pipe(Effect.orDie)
    },
    remove: (id) =>
      sql.withTransaction(
        Effect.zipRight(
          Effect.zipRight(
            sql`DELETE FROM smpp_receipts WHERE smpp_account_id = ${id} AND state = 'pending'`.pipe(
              Effect.zipRight(
                sql`DELETE FROM smpp_receipts_intermediate WHERE smpp_account_id = ${id} AND state = 'pending'`
              )
            ),
            sql`DELETE FROM smpp_throughput WHERE smpp_account_id = ${id}`
          ),
          sql`DELETE FROM smpp_accounts WHERE id = ${id} RETURNING id`
        )
      ).pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
    claimReceipts: (kind, ids, limit, leaseMillis) =>
      ids.length === 0 ? Effect.succeed([]) : allReceipts(sql`WITH due AS (
          SELECT message_id FROM ${sql(tableOf[kind])}
          WHERE state = 'pending' AND smpp_account_id = ANY(${[...ids]}::uuid[]) AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED),
        leased AS (
          UPDATE ${sql(tableOf[kind])} r SET attempts = r.attempts + 1,
            next_attempt_at = now() + make_interval(secs => ${leaseMillis / 1000})
          FROM due WHERE r.message_id = due.message_id
          RETURNING r.message_id, r.smpp_account_id, r.status, r.final_at, r.attempts, r.created_at)
        SELECT l.message_id, l.smpp_account_id, l.status, l.final_at, l.attempts, l.created_at,
          m.recipient, m.sender_id, m.text, m.created_at AS submitted_at
        FROM leased l JOIN messages m ON m.id = l.message_id
        ORDER BY l.final_at`).pipe(Effect.orDie),
    retryAfter: (kind, messageId, delayMillis) =>
      sql`UPDATE ${sql(tableOf[kind])} SET next_attempt_at = now() + make_interval(secs => ${delayMillis / 1000})
        WHERE message_id = ${messageId} AND state = 'pending'`.pipe(Effect.asVoid, Effect.orDie),
    acknowledge: (kind, messageIds) =>
      messageIds.length === 0 ?
        Effect.void :
        sql`UPDATE ${sql(tableOf[kind])} SET state = 'acknowledged', acknowledged_at = now()
        WHERE message_id = ANY(${[...messageIds]}::uuid[]) AND state = 'pending'`.pipe(Effect.asVoid, Effect.orDie),
    expire: (before) =>
      Effect.all([
        sql`UPDATE smpp_receipts SET state = 'expired' WHERE state = 'pending' AND created_at < ${before}
          RETURNING message_id`,
        sql`UPDATE smpp_receipts_intermediate SET state = 'expired' WHERE state = 'pending' AND created_at < ${before}
          RETURNING message_id`,
        sql`UPDATE smpp_inbound SET state = 'expired' WHERE state = 'pending' AND created_at < ${before}
          RETURNING inbound_id`
      ]).pipe(Effect.map((all) => all.reduce((n, rows) => n + rows.length, 0)), Effect.orDie),
    claimInbound: (ids, limit, leaseMillis) =>
      ids.length === 0 ? Effect.succeed([]) : allInbound(sql`WITH bound AS (
          SELECT id, account_id, mode, created_at FROM smpp_accounts WHERE id = ANY(${[...ids]}::uuid[])),
        due AS (
          SELECT i.inbound_id FROM smpp_inbound i
          WHERE i.state = 'pending' AND i.next_attempt_at <= now()
            AND (i.account_id, i.mode) IN (SELECT account_id, mode FROM bound)
          ORDER BY i.next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED),
        leased AS (
          UPDATE smpp_inbound i SET attempts = i.attempts + 1,
            next_attempt_at = now() + make_interval(secs => ${leaseMillis / 1000})
          FROM due WHERE i.inbound_id = due.inbound_id
          RETURNING i.inbound_id, i.account_id, i.mode, i.attempts, i.created_at)
        SELECT l.inbound_id, b.id AS smpp_account_id, l.attempts, l.created_at,
          m.from_addr, m.to_addr, m.text, m.encoding
        FROM leased l JOIN inbound_messages m ON m.id = l.inbound_id
        JOIN LATERAL (SELECT id FROM bound WHERE bound.account_id = l.account_id AND bound.mode = l.mode
          ORDER BY bound.created_at, bound.id LIMIT 1) b ON true
        ORDER BY m.received_at`).pipe(Effect.orDie),
    retryInbound: (inboundId, delayMillis) =>
      sql`UPDATE smpp_inbound SET next_attempt_at = now() + make_interval(secs => ${delayMillis / 1000})
        WHERE inbound_id = ${inboundId} AND state = 'pending'`.pipe(Effect.asVoid, Effect.orDie),
    acknowledgeInbound: (delivered) =>
      delivered.length === 0 ? Effect.void : sql`UPDATE smpp_inbound i SET state = 'acknowledged',
          acknowledged_at = now(), smpp_account_id = u.smpp_account_id
        FROM unnest(${delivered.map((d) => d.inboundId)}::uuid[], ${
        delivered.map((d) => d.smppAccountId)
      }::uuid[]) AS u(inbound_id, smpp_account_id)
        WHERE i.inbound_id = u.inbound_id AND i.state = 'pending'`.pipe(Effect.asVoid, Effect.orDie),
    pending: anyRow(sql`SELECT count(*)::int AS n FROM smpp_receipts WHERE state = 'pending'`).pipe(
      Effect.map((rows) => rows[0]?.n ?? 0),
      Effect.orDie
    ),
    withBucket: (id, decide) => {
      const locked = oneBucket(
        sql`SELECT tokens, at_ms, (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms
        FROM smpp_throughput WHERE smpp_account_id = ${id} FOR UPDATE`
      )
      return sql.withTransaction(Effect.gen(function*() {
        let row = yield* locked
        if (Option.isNone(row)) {
          // the first lease of these credentials: a row to lock (a full bucket), then read it locked
          yield* sql`INSERT INTO smpp_throughput (smpp_account_id, tokens, at_ms) VALUES (${id}, NULL, NULL)
            ON CONFLICT (smpp_account_id) DO NOTHING`
          row = yield* locked
        }
        const r = Option.getOrThrow(row)
        const bucket = r.tokens === null || r.at_ms === null
          ? undefined
          : { tokens: r.tokens, at: r.at_ms }
        const decided = decide(bucket, r.now_ms)
        yield* sql`UPDATE smpp_throughput SET tokens = ${decided.bucket.tokens}, at_ms = ${decided.bucket.at}
          WHERE smpp_account_id = ${id}`
        return decided.answer
      })).pipe(Effect.orDie)
    }
  })
})

/** `SmppStore` over the `SqlClient`. */
export const layer: Layer.Layer<SmppStore, never, SqlClient.SqlClient> = Layer.effect(SmppStore, make)
