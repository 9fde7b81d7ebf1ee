/**
 * SQL adapter of `InboundStore` (@tuma/core/ports/InboundStore): inbound numbers, inbound messages
 * and their parts, auto-reply texts and the auto replies owed (migration 0940). The writing of parts
 * is `inbound/record.ts`, shared with the delivery writer's `apply`. Same SQL on PostgreSQL 15 and
 * PGlite; SQL failures are defects.
 */
import { SqlClient } from "@effect/sql"
import type { DueReply, InboundNumberRow, InboundRow } from "@tuma/core/ports/InboundStore"
import { InboundStore } from "@tuma/core/ports/InboundStore"
import type { InboundAssignment } from "@tuma/domain"
import { assignmentConflict, inboundAddressKey } from "@tuma/domain"
import { Effect, Layer, Option, Schema } from "effect"
import * as Query from "./dispatch/query.js"
import { inboxQueries } from "./inbound/inbox.js"
import { joinExpired, recordParts } from "./inbound/record.js"
import { Count, findAll, findOne, isUuid, NullableString, rowOf, single } from "./rows.js"

const NumberRow = Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  number: Schema.String,
  keyword: NullableString,
  aliases: Schema.Array(Schema.String),
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
})
const toNumber = (r: typeof NumberRow.Type): InboundNumberRow => ({
  id: r.id,
  accountId: r.account_id,
  number: r.number,
  keyword: r.keyword,
  aliases: r.aliases,
  createdAt: r.created_at,
  updatedAt: r.updated_at
})
const allNumbers = findAll(NumberRow)
const oneNumber = findOne(NumberRow)

const MessageRow = rowOf<InboundRow>()(Schema.Struct({
  id: Schema.String,
  account_id: NullableString,
  provider: Schema.String,
  from_addr: Schema.String,
  to_addr: Schema.String,
  keyword: NullableString,
  text: Schema.String,
  encoding: Schema.Literal("GSM-7", "Latin-1", "UCS-2"),
  parts: Schema.Number,
  complete: Schema.Boolean,
  command: Schema.NullOr(Schema.Literal("stop", "start", "help")),
  in_reply_to: NullableString,
  sandbox: Schema.Boolean,
  received_at: Schema.DateFromSelf
}))
const allMessages = findAll(MessageRow)
const oneMessage = findOne(MessageRow)
const counted = single(Schema.Struct({ n: Count }))
const twoCounts = single(Schema.Struct({ waiting: Count, unrouted: Count }))
const anyRow = findAll(Schema.Struct({ n: Schema.optional(Count) }))
const SettingsRow = Schema.Struct({
  stop_en: NullableString,
  stop_sw: NullableString,
  start_en: NullableString,
  start_sw: NullableString,
  help_en: NullableString,
  help_sw: NullableString
})
const oneSettings = findOne(SettingsRow)
const dueReplies = findAll(Schema.Struct({
  inbound_id: Schema.String,
  account_id: Schema.String,
  handset: Schema.String,
  sender: Schema.String,
  text: Schema.String,
  attempts: Schema.Number
}))

const NUMBER_COLUMNS = "id, account_id, number, keyword, aliases, created_at, updated_at"
const MESSAGE_COLUMNS =
  "id, account_id, provider, from_addr, to_addr, keyword, text, encoding, parts, complete, command, in_reply_to, sandbox, received_at"

/** The SQL `InboundStore`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const db = yield* Query.make
  return InboundStore.of({
    saveNumber: (row, mode) =>
      sql.withTransaction(Effect.gen(function*() {
        const key = inboundAddressKey(row.number)
        // one address at a time: two assignments of it cannot both pass the check
        yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`tuma_inbound:${key}`}))`
        const others: ReadonlyArray<InboundAssignment> = (yield* allNumbers(
          sql`SELECT ${sql.unsafe(NUMBER_COLUMNS)} FROM inbound_numbers WHERE address_key = ${key}`
        )).map(toNumber)
        const conflict = assignmentConflict(others, row, row.id)
        if (conflict !== null) return { conflict }
        if (mode === "insert") {
          yield* sql`INSERT INTO inbound_numbers (id, account_id, number, address_key, keyword, aliases, created_at,
              updated_at)
            VALUES (${row.id}, ${row.accountId}, ${row.number}, ${key}, ${row.keyword}, ${[...row.aliases]}::text[],
              ${row.createdAt}, ${row.updatedAt})`
        } else {
          yield* sql`UPDATE inbound_numbers SET number = ${row.number}, address_key = ${key}, keyword = ${row.keyword},
              aliases = ${[...row.aliases]}::text[], updated_at = ${row.updatedAt}
            WHERE id = ${row.id}`
        }
        return { saved: true as const }
      })).pipe(Effect.orDie),
    listNumbers: (accountId) =>
      allNumbers(
        accountId === undefined
          ? sql`SELECT ${sql.unsafe(NUMBER_COLUMNS)} FROM inbound_numbers ORDER BY created_at, id`
          : isUuid(accountId)
          ? sql`SELECT ${sql.unsafe(NUMBER_COLUMNS)} FROM inbound_numbers WHERE account_id = ${accountId}
              ORDER BY created_at, id`
          : Effect.succeed([])
      ).pipe(Effect.map((rows) => rows.map(toNumber)), Effect.orDie),
    getNumber: (id) =>
      (isUuid(id)
        ? oneNumber(sql`SELECT ${sql.unsafe(NUMBER_COLUMNS)} FROM inbound_numbers WHERE id = ${id}`)
        : Effect.succeedNone).pipe(Effect.map(Option.map(toNumber)), Effect.orDie),
    deleteNumber: (id) =>
      (isUuid(id)
        ? anyRow(sql`DELETE FROM inbound_numbers WHERE id = ${id} RETURNING 1 AS n`)
        : Effect.succeed([])).pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
    accountExists: (accountId) =>
      (isUuid(accountId)
        ? anyRow(sql`SELECT 1 AS n FROM accounts WHERE id = ${accountId}`)
        : Effect.succeed([])).pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),

    record: (records, now) => db.tx(recordParts(db)(records, now)).pipe(Effect.orDie),
    joinExpired: (before, now) => db.tx(joinExpired(db)(before, now)).pipe(Effect.orDie),
    purgeParts: (now) =>
      anyRow(sql`DELETE FROM inbound_parts WHERE message_id IS NOT NULL AND keep_until < ${now} RETURNING 1 AS n`)
        .pipe(Effect.map((rows) => rows.length), Effect.orDie),
    list: (accountId, query) =>
      Effect.gen(function*() {
        if (accountId !== null && !isUuid(accountId)) return { rows: [], total: 0 }
        const who = accountId === null
          ? sql`account_id IS NULL`
          : sql`account_id = ${accountId} AND sandbox = ${query.sandbox}`
        const from = query.from === undefined ? sql`` : sql`AND from_addr = ${query.from}`
        const to = query.to === undefined
          ? sql``
          : sql`AND regexp_replace(to_addr, '[^0-9]', '', 'g') = ${inboundAddressKey(query.to)}`
        const since = query.since === undefined ? sql`` : sql`AND received_at >= ${query.since}`
        const rows = yield* allMessages(sql`SELECT ${sql.unsafe(MESSAGE_COLUMNS)} FROM inbound_messages
          WHERE ${who} ${from} ${to} ${since}
          ORDER BY received_at DESC, id DESC LIMIT ${query.limit} OFFSET ${query.offset}`)
        const total = yield* counted(
          sql`SELECT count(*) AS n FROM inbound_messages WHERE ${who} ${from} ${to} ${since}`
        )
        return { rows, total: total.n }
      }).pipe(Effect.orDie),
    get: (accountId, id) =>
      (isUuid(id)
        ? oneMessage(
          accountId === null
            ? sql`SELECT ${sql.unsafe(MESSAGE_COLUMNS)} FROM inbound_messages WHERE id = ${id}`
            : sql`SELECT ${sql.unsafe(MESSAGE_COLUMNS)} FROM inbound_messages WHERE id = ${id}
                AND account_id = ${accountId}`
        )
        : Effect.succeedNone).pipe(Effect.orDie),

    ...inboxQueries(sql),

    settings: (accountId) =>
      oneSettings(sql`SELECT stop_en, stop_sw, start_en, start_sw, help_en, help_sw FROM inbound_settings
        WHERE account_id = ${accountId}`).pipe(Effect.map(Option.getOrElse(() => ({}))), Effect.orDie),
    saveSettings: (accountId, t, now) =>
      sql`INSERT INTO inbound_settings (account_id, stop_en, stop_sw, start_en, start_sw, help_en, help_sw, updated_at)
        VALUES (${accountId}, ${t.stop_en ?? null}, ${t.stop_sw ?? null}, ${t.start_en ?? null}, ${t.start_sw ?? null},
          ${t.help_en ?? null}, ${t.help_sw ?? null}, ${now})
        ON CONFLICT (account_id) DO UPDATE SET stop_en = EXCLUDED.stop_en, stop_sw = EXCLUDED.stop_sw,
          start_en = EXCLUDED.start_en, start_sw = EXCLUDED.start_sw, help_en = EXCLUDED.help_en,
          help_sw = EXCLUDED.help_sw, updated_at = EXCLUDED.updated_at`.pipe(Effect.asVoid, Effect.orDie),
    claimReplies: (limit, now, leaseUntil) =>
      dueReplies(sql`WITH due AS (
          SELECT inbound_id FROM inbound_replies WHERE status = 'pending' AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        UPDATE inbound_replies r SET next_attempt_at = ${leaseUntil}, attempts = r.attempts + 1
        FROM due WHERE r.inbound_id = due.inbound_id
        RETURNING r.inbound_id, r.account_id, r.handset, r.sender, r.text, r.attempts`).pipe(
        Effect.map((rows) =>
          rows.map((r): DueReply => ({
            inboundId: r.inbound_id,
            accountId: r.account_id,
            handset: r.handset,
            sender: r.sender,
            text: r.text,
            attempts: r.attempts
          }))
        ),
        Effect.orDie
      ),
    completeReply: (inboundId, result) =>
      (result._tag === "Sent"
        ? sql`UPDATE inbound_replies SET status = 'sent', message_id = ${result.messageId}, last_error = NULL
            WHERE inbound_id = ${inboundId}`
        : result.retryAt === null
        ? sql`UPDATE inbound_replies SET status = 'failed', last_error = ${result.error} WHERE inbound_id = ${inboundId}`
        : sql`UPDATE inbound_replies SET next_attempt_at = ${result.retryAt}, last_error = ${result.error}
            WHERE inbound_id = ${inboundId}`).pipe(Effect.asVoid, Effect.orDie),
    gauges: twoCounts(sql`SELECT
        (SELECT count(*) FROM inbound_parts WHERE message_id IS NULL) AS waiting,
        (SELECT count(*) FROM inbound_messages WHERE account_id IS NULL) AS unrouted`).pipe(
      Effect.map((r) => ({ partsWaiting: r.waiting, unrouted: r.unrouted })),
      Effect.orDie
    )
  })
})

/** The SQL `InboundStore` over the `SqlClient`. */
export const layer: Layer.Layer<InboundStore, never, SqlClient.SqlClient> = Layer.effect(InboundStore, make)
