/**
 * SQL adapter of the `ReadStore` port (PostgreSQL and PGlite).
 *
 * The message list reads `messages_account_created_idx` (or the status/channel variants) in index
 * order — `ORDER BY created_at DESC, id DESC` — so a page costs `LIMIT + OFFSET` index entries.
 * The count (`meta.total`) reads the count rollup (`messageCounts.ts`), folded here every
 * `FOLD_INTERVAL`; a campaign's messages, or bounds inside an hour, are counted over the index.
 */
import { SqlClient } from "@effect/sql"
import type { MessageEntryRow } from "@tuma/core/MessageEntry"
import type { MessageListFilter, ProfileRow, VerifiedRouteMarketRow, WalletMarketRow } from "@tuma/core/ports/ReadStore"
import { ReadStore } from "@tuma/core/ports/ReadStore"
import { MessageStatus } from "@tuma/domain"
import { Clock, Effect, Layer, Option, Schedule, Schema } from "effect"
import * as MessageCounts from "./messageCounts.js"
import { Count, findAll, findOne, NullableDate, NullableString, rowOf, single } from "./rows.js"

const MESSAGE_COLUMNS = `m.id, m.recipient, m.sender_id, m.units, m.channel, m.status, m.provider_message_id,
  m.queued_at, m.sent_at, m.delivered_at, m.failure_reason, m.campaign_id, c.name AS campaign_name,
  m.failure_context, m.dr_checked_at, m.dr_status, m.dr_delivery_status`

const MessageEntryRowSchema = rowOf<MessageEntryRow>()(Schema.Struct({
  id: Schema.String,
  recipient: Schema.String,
  sender_id: Schema.String,
  units: Schema.Number,
  channel: Schema.Literal("api", "web", "smpp"),
  status: MessageStatus,
  provider_message_id: NullableString,
  queued_at: NullableDate,
  sent_at: NullableDate,
  delivered_at: NullableDate,
  failure_reason: NullableString,
  campaign_id: NullableString,
  campaign_name: Schema.optional(NullableString),
  failure_context: Schema.Unknown,
  dr_checked_at: NullableDate,
  dr_status: NullableString,
  dr_delivery_status: NullableString
}))

const WalletMarketRowSchema = rowOf<WalletMarketRow>()(Schema.Struct({
  id: Schema.String,
  market_id: Schema.String,
  iso2: Schema.String,
  calling_code: Schema.String,
  market_name: Schema.String,
  balance: Schema.Number,
  enabled: Schema.Boolean
}))

const VerifiedRouteMarketRowSchema = rowOf<VerifiedRouteMarketRow>()(Schema.Struct({
  id: Schema.String,
  market_id: Schema.String,
  iso2: Schema.String,
  calling_code: Schema.String,
  market_name: Schema.String,
  market_open: Schema.Boolean,
  phone: Schema.String,
  verified_at: Schema.DateFromSelf
}))

/** An account with its country's columns (all null without a country), as one flat row. */
const ProfileSqlRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  phone: NullableString,
  phone_verified_at: NullableDate,
  active: Schema.Boolean,
  country_id: NullableString,
  iso2: NullableString,
  calling_code: NullableString,
  country_name: NullableString
})

const messages = findAll(MessageEntryRowSchema)
const message = findOne(MessageEntryRowSchema)
const count = single(Schema.Struct({ n: Count }))
const walletRows = findAll(WalletMarketRowSchema)
const routeRows = findAll(VerifiedRouteMarketRowSchema)
const profileRow = findOne(ProfileSqlRow)

const toProfile = (r: typeof ProfileSqlRow.Type): ProfileRow => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  phone_verified_at: r.phone_verified_at,
  active: r.active,
  country: r.country_id === null || r.iso2 === null || r.calling_code === null || r.country_name === null
    ? null
    : { id: r.country_id, iso2: r.iso2, calling_code: r.calling_code, name: r.country_name }
})

/** The SQL `ReadStore` over the context's `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(MESSAGE_COLUMNS)

  const where = (f: MessageListFilter) => {
    const clauses = [sql`m.account_id = ${f.accountId}`]
    if (f.status !== undefined) clauses.push(sql`m.status = ${f.status}`)
    if (f.channel !== undefined) clauses.push(sql`m.channel = ${f.channel}`)
    // the predicate of `messages_account_channel_other_idx`, literal so every plan can use it
    if (f.channel !== undefined && f.channel !== "api") clauses.push(sql`m.channel <> 'api'`)
    if (f.campaignId !== undefined) clauses.push(sql`m.campaign_id = ${f.campaignId}`)
    if (f.createdFrom !== undefined) clauses.push(sql`m.created_at >= ${f.createdFrom}`)
    if (f.createdBefore !== undefined) clauses.push(sql`m.created_at < ${f.createdBefore}`)
    return sql.and(clauses)
  }

  return ReadStore.of({
    listMessages: (r) =>
      messages(sql`SELECT ${columns} FROM messages m LEFT JOIN campaigns c ON c.id = m.campaign_id
        WHERE ${where(r)} ORDER BY m.created_at DESC, m.id DESC LIMIT ${r.limit} OFFSET ${r.offset}`).pipe(
        Effect.orDie
      ),
    countMessages: (f) =>
      (MessageCounts.countable(f)
        ? MessageCounts.countFromRollup(sql, f)
        : count(sql`SELECT count(*) AS n FROM messages m WHERE ${where(f)}`).pipe(Effect.map((row) => row.n)))
        .pipe(Effect.orDie),
    findMessage: (accountId, messageId) =>
      message(sql`SELECT ${columns} FROM messages m LEFT JOIN campaigns c ON c.id = m.campaign_id
        WHERE m.id = ${messageId} AND m.account_id = ${accountId}`).pipe(Effect.orDie),
    wallets: (accountId) =>
      walletRows(sql`SELECT w.id, w.market_id, k.iso2, k.calling_code, k.name AS market_name, w.balance, w.enabled
        FROM wallets w JOIN markets k ON k.id = w.market_id
        WHERE w.account_id = ${accountId} ORDER BY k.iso2`).pipe(Effect.orDie),
    verifiedRoutes: (accountId) =>
      routeRows(sql`SELECT r.id, r.market_id, k.iso2, k.calling_code, k.name AS market_name,
          k.open AS market_open, r.phone, r.verified_at
        FROM verified_routes r JOIN markets k ON k.id = r.market_id
        WHERE r.account_id = ${accountId} ORDER BY k.iso2`).pipe(Effect.orDie),
    profile: (accountId) =>
      profileRow(sql`SELECT a.id, a.name, a.email, a.phone, a.phone_verified_at, a.active,
          k.id AS country_id, k.iso2, k.calling_code, k.name AS country_name
        FROM accounts a LEFT JOIN markets k ON k.id = a.country_id WHERE a.id = ${accountId}`).pipe(
        Effect.map(Option.map(toProfile)),
        Effect.orDie
      )
  })
})

/** How often each process folds the count deltas into the rollup (any process may; folds never collide). */
export const FOLD_INTERVAL = "5 seconds"

/** `ReadStore` on SQL, and the fold of the count rollup every `FOLD_INTERVAL`. */
export const layer: Layer.Layer<ReadStore, never, SqlClient.SqlClient> = Layer.scoped(
  ReadStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // paced by wall time: a program on a test clock must not fold in a loop; a fold every few seconds
    // is not a trace (docs/observability.md)
    yield* Effect.forkScoped(
      Effect.repeat(Effect.ignore(MessageCounts.fold(sql)), Schedule.spaced(FOLD_INTERVAL)).pipe(
        Effect.withClock(Clock.make()),
        Effect.withTracerEnabled(false)
      )
    )
    return yield* make
  })
)
