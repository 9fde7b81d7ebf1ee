/**
 * The portal inbox's queries of the SQL \`InboundStore\`: conversations grouped by handset and number
 * (the digits of the address), the unread count (partial index of 0970), marking a conversation
 * read, and the account's sends to a handset from a number (the other direction). Same SQL on
 * PostgreSQL 15 and PGlite; SQL failures are defects.
 */
import type { SqlClient } from "@effect/sql"
import type { InboundStore, SentToRow } from "@tuma/core/ports/InboundStore"
import { inboundAddressKey } from "@tuma/domain"
import { Effect, Schema } from "effect"
import { Count, findAll, isUuid, rowOf, single } from "../rows.js"

const ConversationSqlRow = Schema.Struct({
  handset: Schema.String,
  number: Schema.String,
  last_text: Schema.String,
  last_at: Schema.DateFromSelf,
  messages: Count,
  unread: Count,
  total: Count
})
const allConversations = findAll(ConversationSqlRow)
const allSent = findAll(
  rowOf<SentToRow>()(Schema.Struct({
    id: Schema.String,
    text: Schema.String,
    status: Schema.String,
    created_at: Schema.DateFromSelf
  }))
)
const counted = single(Schema.Struct({ n: Count }))
const anyRow = findAll(Schema.Struct({ n: Schema.optional(Count) }))

/** The inbox methods of the SQL \`InboundStore\`. */
export const inboxQueries = (sql: SqlClient.SqlClient): Pick<
  InboundStore["Type"],
  "conversations" | "unread" | "markRead" | "sentTo"
> => ({
  conversations: (accountId, sandbox, offset, limit) =>
    Effect.gen(function*() {
      if (!isUuid(accountId)) return { rows: [], total: 0 }
      // one row per handset and number (its digits); the latest message names the number as written
      const rows = yield* allConversations(sql`SELECT handset, number, last_text, last_at, messages, unread,
          count(*) OVER () AS total FROM (SELECT DISTINCT ON (from_addr, number_key)
            from_addr AS handset, to_addr AS number, text AS last_text, received_at AS last_at, id,
            count(*) OVER w AS messages, count(*) FILTER (WHERE read_at IS NULL) OVER w AS unread
          FROM (SELECT *, regexp_replace(to_addr, '[^0-9]', '', 'g') AS number_key FROM inbound_messages
            WHERE account_id = ${accountId} AND sandbox = ${sandbox}) m
          WINDOW w AS (PARTITION BY from_addr, number_key)
          ORDER BY from_addr, number_key, received_at DESC, id DESC) c
        ORDER BY last_at DESC, handset LIMIT ${limit} OFFSET ${offset}`)
      const total = rows[0]?.total ?? (offset === 0 ? 0 : yield* counted(sql`SELECT count(*) AS n FROM
        (SELECT DISTINCT from_addr, regexp_replace(to_addr, '[^0-9]', '', 'g') FROM inbound_messages
          WHERE account_id = ${accountId} AND sandbox = ${sandbox}) c`).pipe(Effect.map((r) => r.n)))
      return { rows: rows.map(({ total: _, ...row }) => row), total }
    }).pipe(Effect.orDie),
  unread: (accountId, sandbox) =>
    (isUuid(accountId)
      ? counted(sql`SELECT count(*) AS n FROM inbound_messages
          WHERE account_id = ${accountId} AND sandbox = ${sandbox} AND read_at IS NULL`).pipe(
        Effect.map((r) => r.n)
      )
      : Effect.succeed(0)).pipe(Effect.orDie),
  markRead: (accountId, sandbox, handset, number, now) =>
    (isUuid(accountId)
      ? anyRow(sql`UPDATE inbound_messages SET read_at = ${now}
          WHERE account_id = ${accountId} AND sandbox = ${sandbox} AND from_addr = ${handset}
            AND regexp_replace(to_addr, '[^0-9]', '', 'g') = ${inboundAddressKey(number)}
            AND read_at IS NULL
          RETURNING 1 AS n`).pipe(Effect.map((rows) => rows.length))
      : Effect.succeed(0)).pipe(Effect.orDie),
  sentTo: (accountId, handset, number, limit) =>
    (isUuid(accountId)
      ? allSent(sql`SELECT id, text, status, created_at FROM messages
          WHERE recipient = ${handset} AND account_id = ${accountId}
            AND regexp_replace(sender_id, '[^0-9]', '', 'g') = ${inboundAddressKey(number)}
          ORDER BY created_at DESC, id DESC LIMIT ${limit}`)
      : Effect.succeed([])).pipe(Effect.orDie)
})
