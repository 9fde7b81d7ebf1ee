/**
 * Two-way SMS in the delivery writer's transaction: mobile-originated parts stored (a re-sent part
 * is a key conflict, dropped), joined when whole (or when their wait ran out: `joinExpired`), routed
 * to an account by its addresses and keywords (`@tuma/domain` `routeInbound`), and everything the
 * message causes written with it: the opt-out change of a STOP/START word, the auto reply owed, the
 * `sms.received` and `optout.changed` webhook deliveries (their bodies frozen now). One set of
 * statements per batch, whatever its size: for single-part messages two (the parts stored with the
 * batch's assignments and endpoints read; the messages with their deliveries written), more only
 * for concatenated parts and opt-out words.
 */
import type { InboundOutcome, InboundRecord } from "@tuma/core/ports/InboundStore"
import { firstWord, inboundAddressKey, inboundCommand, joinParts, partKey, routeInbound } from "@tuma/domain"
import { Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"
import type { Db } from "../dispatch/query.js"
import { findAll, NullableString } from "../rows.js"
import type { InboundContext } from "./context.js"
import { ContextColumns, contextColumns, contextOf, endpointsOf, readContext } from "./context.js"
import type { Made, Routed } from "./effects.js"
import { deliveryRows, optOutChanges, owedReplies, writeMessages } from "./effects.js"

/**
 * How long a part is remembered to recognise a carrier's re-send: a single-part message 2 minutes
 * (the same text again later is a new message), a part of a concatenated one 15 minutes after it
 * arrived (its reference is what repeats). Parts wait `JOIN_WAIT_MS` for the rest of their message.
 */
export const INBOUND_WINDOWS = { singleMs: 2 * 60_000, concatMs: 15 * 60_000, joinWaitMs: 2 * 60_000 } as const

const GroupPartRow = Schema.Struct({
  provider: Schema.String,
  from_addr: Schema.String,
  to_addr: Schema.String,
  group_key: Schema.String,
  total: Schema.Number,
  seq: Schema.Number,
  text: Schema.String,
  encoding: Schema.Literal("GSM-7", "Latin-1", "UCS-2"),
  received_at: Schema.DateFromSelf,
  message_id: NullableString
})
type GroupPart = typeof GroupPartRow.Type
const GroupPart = findAll(GroupPartRow)
/** The stored parts (JSON: the timestamp a string) with the batch's context. */
const Stored = findAll(Schema.Struct({
  parts: Schema.Array(Schema.Struct({ ...GroupPartRow.fields, received_at: Schema.Date })),
  ...ContextColumns
}))
const AccountOf = findAll(Schema.Struct({ i: Schema.Number, account_id: Schema.String }))

/** The key of a part's message: the reference and total of a concatenated part, the part itself otherwise. */
const groupKeyOf = (r: InboundRecord): string =>
  r.concat === null || r.concat.total === 1 ? partKey(null, r.text) : `c:${r.concat.ref}:${r.concat.total}`

const groupId = (g: { provider: string; from_addr: string; to_addr: string; group_key: string }) =>
  `${g.provider}\u0001${g.from_addr}\u0001${g.to_addr}\u0001${g.group_key}`

const EMPTY: InboundOutcome = { parts: 0, duplicates: 0, messages: 0, unrouted: 0, messageIds: [] }

/** Records parts (the writer's transaction is the caller's): stores, joins what is whole, routes it. */
export const recordParts = (db: Db) => (records: ReadonlyArray<InboundRecord>, now: Date) =>
  Effect.gen(function*() {
    if (records.length === 0) return EMPTY
    const { q } = db
    const forced = new Map<string, string>()
    for (const r of records) {
      if (r.sandboxAccountId !== undefined) {
        forced.set(
          groupId({ provider: r.provider, from_addr: r.from, to_addr: r.to, group_key: groupKeyOf(r) }),
          r.sandboxAccountId
        )
      }
    }
    const forcedAccounts = [...new Set(forced.values())]
    const [stored] = yield* Stored(q(
      `WITH ins AS (
  INSERT INTO inbound_parts (provider, from_addr, to_addr, part_key, group_key, ref, total, seq, text, encoding,
                             received_at, keep_until, message_id)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[],
                       $9::text[], $10::text[], $11::timestamptz[], $12::timestamptz[], $13::uuid[])
  ON CONFLICT DO NOTHING
  RETURNING provider, from_addr, to_addr, group_key, total, seq, text, encoding, received_at, message_id
)
SELECT (SELECT coalesce(json_agg(ins), '[]'::json) FROM ins) AS parts, ${contextColumns(14, 15)}`,
      [
        records.map((r) => r.provider),
        records.map((r) => r.from),
        records.map((r) => r.to),
        records.map((r) => partKey(r.concat, r.text)),
        records.map(groupKeyOf),
        records.map((r) => r.concat?.ref ?? null),
        records.map((r) => r.concat?.total ?? 1),
        records.map((r) => r.concat?.seq ?? 1),
        records.map((r) => r.text),
        records.map((r) => r.encoding),
        records.map((r) => r.receivedAt.toISOString()),
        records.map((r) =>
          new Date(
            r.receivedAt.getTime() +
              (r.concat === null || r.concat.total === 1 ? INBOUND_WINDOWS.singleMs : INBOUND_WINDOWS.concatMs)
          ).toISOString()
        ),
        // a single part is its message: linked to it as it is stored (no UPDATE afterwards)
        records.map((r) => r.concat === null || r.concat.total === 1 ? randomUUID() : null),
        [...new Set(records.map((r) => inboundAddressKey(r.to)))],
        forcedAccounts
      ]
    ))
    const inserted = stored?.parts ?? []
    const context = contextOf(stored ?? { assignments: [], endpoints: [] }, forcedAccounts)
    // single parts are whole; a concatenated part's group is read back (its other parts may be older)
    const whole: Array<ReadonlyArray<GroupPart>> = []
    const touched = new Map<string, GroupPart>()
    for (const p of inserted) {
      if (p.total === 1) whole.push([p])
      else touched.set(groupId(p), p)
    }
    if (touched.size > 0) {
      const groups = [...touched.values()]
      const rows = yield* GroupPart(q(
        `SELECT p.provider, p.from_addr, p.to_addr, p.group_key, p.total, p.seq, p.text, p.encoding, p.received_at,
  p.message_id
FROM inbound_parts p
JOIN unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS g(provider, from_addr, to_addr, group_key)
  ON p.provider = g.provider AND p.from_addr = g.from_addr AND p.to_addr = g.to_addr AND p.group_key = g.group_key
WHERE p.message_id IS NULL`,
        [
          groups.map((g) => g.provider),
          groups.map((g) => g.from_addr),
          groups.map((g) => g.to_addr),
          groups.map((g) => g.group_key)
        ]
      ))
      for (const parts of byGroup(rows)) if (joinParts(parts).complete) whole.push(parts)
    }
    const made = yield* materialize(db, whole.map((parts) => made1(parts, forced)), context, now)
    return { ...made, parts: inserted.length, duplicates: records.length - inserted.length }
  })

/** Parts by the message they belong to. */
const byGroup = (rows: ReadonlyArray<GroupPart>): Array<Array<GroupPart>> => {
  const groups = new Map<string, Array<GroupPart>>()
  for (const r of rows) {
    const id = groupId(r)
    const list = groups.get(id)
    if (list === undefined) groups.set(id, [r])
    else list.push(r)
  }
  return [...groups.values()]
}

/** The message of a group's parts (not yet routed). */
const made1 = (parts: ReadonlyArray<GroupPart>, forced: ReadonlyMap<string, string>): Made => {
  const joined = joinParts(parts)
  const first = parts[0]!
  const receivedAt = parts.reduce((at, p) => p.received_at > at ? p.received_at : at, first.received_at)
  return {
    id: parts.length === 1 && first.message_id !== null ? first.message_id : randomUUID(),
    provider: first.provider,
    from: first.from_addr,
    to: first.to_addr,
    text: joined.text,
    encoding: parts.some((p) => p.encoding === "UCS-2") ? "UCS-2" : first.encoding,
    parts: joined.parts,
    complete: joined.complete,
    receivedAt,
    forcedAccount: forced.get(groupId(first)),
    groupKey: first.group_key
  }
}

/** Joins the groups whose first part arrived before `before`, with what arrived (complete: false). */
export const joinExpired = (db: Db) => (before: Date, now: Date) =>
  Effect.gen(function*() {
    const rows = yield* GroupPart(db.q(
      `SELECT p.provider, p.from_addr, p.to_addr, p.group_key, p.total, p.seq, p.text, p.encoding, p.received_at,
  p.message_id
FROM inbound_parts p
WHERE p.message_id IS NULL AND (p.provider, p.from_addr, p.to_addr, p.group_key) IN (
  SELECT provider, from_addr, to_addr, group_key FROM inbound_parts
  WHERE message_id IS NULL AND received_at < $1
  LIMIT 1000)
FOR UPDATE SKIP LOCKED`,
      [before.toISOString()]
    ))
    if (rows.length === 0) return EMPTY
    const context = yield* readContext(db, [...new Set(rows.map((r) => inboundAddressKey(r.to_addr)))], [])
    return yield* materialize(db, byGroup(rows).map((parts) => made1(parts, new Map())), context, now)
  })

/**
 * Routes the made messages and writes them, their parts' link, their opt-out changes, the auto
 * replies owed and the webhook deliveries.
 */
const materialize = (db: Db, made: ReadonlyArray<Made>, context: InboundContext, now: Date) =>
  Effect.gen(function*() {
    if (made.length === 0) return EMPTY
    const { q } = db
    const { assignments } = context
    const routed: Array<Routed> = made.map((m) => {
      const command = m.complete ? inboundCommand(m.text) : null
      const route = m.forcedAccount === undefined ? routeInbound(assignments, m.to, m.text) : null
      const own = m.forcedAccount === undefined
        ? null
        : assignments.find((a) =>
          a.accountId === m.forcedAccount && inboundAddressKey(a.number) === inboundAddressKey(m.to)
        )
      return {
        ...m,
        accountId: m.forcedAccount ?? route?.accountId ?? null,
        numberId: route?.id ?? own?.id ?? null,
        sender: route?.number ?? own?.number ?? m.to,
        keyword: command !== null ? firstWord(m.text).replace(/[.!]+$/, "") : route?.keyword ?? null,
        command,
        sandbox: m.forcedAccount !== undefined
      }
    })
    // an opt-out word to no assigned address goes to the account that last wrote to the handset
    // (from that address first): the rule before two-way SMS, kept
    const orphans = routed.map((r, i) => ({ r, i })).filter(({ r }) => r.accountId === null && r.command !== null)
    if (orphans.length > 0) {
      const found = yield* AccountOf(q(
        `SELECT u.i, acct.account_id FROM unnest($1::int[], $2::text[], $3::text[]) AS u(i, recipient, to_addr)
JOIN LATERAL (
  SELECT m.account_id FROM messages m WHERE m.recipient = u.recipient
  ORDER BY (upper(m.sender_id) = upper(u.to_addr) OR m.sender_id = u.to_addr) DESC, m.created_at DESC LIMIT 1
) acct ON true`,
        [orphans.map((o) => o.i), orphans.map((o) => o.r.from), orphans.map((o) => o.r.to)]
      ))
      for (const f of found) routed[f.i] = { ...routed[f.i]!, accountId: f.account_id }
    }
    // the parts of concatenated messages (single parts were linked as they were stored)
    const joined = routed.filter((r) => r.groupKey.startsWith("c:"))
    if (joined.length > 0) {
      yield* q(
        `UPDATE inbound_parts p SET message_id = u.id
FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[]) AS u(id, provider, from_addr, to_addr, group_key)
WHERE p.provider = u.provider AND p.from_addr = u.from_addr AND p.to_addr = u.to_addr AND p.group_key = u.group_key
  AND p.message_id IS NULL`,
        [
          joined.map((r) => r.id),
          joined.map((r) => r.provider),
          joined.map((r) => r.from),
          joined.map((r) => r.to),
          joined.map((r) => r.groupKey)
        ]
      )
    }
    const changes = yield* optOutChanges(db, routed.filter((r) => r.accountId !== null && !r.sandbox), now)
    yield* owedReplies(db, routed, now)
    // the endpoints of accounts found by history (an opt-out word to no assigned address)
    const others = [
      ...new Set(routed.flatMap((r) => r.accountId !== null && !context.accounts.has(r.accountId) ? [r.accountId] : []))
    ]
    const endpoints = others.length === 0
      ? context.endpoints
      : [...context.endpoints, ...yield* endpointsOf(db, others)]
    yield* writeMessages(db, routed, deliveryRows(routed, endpoints, changes, now), now)
    return {
      parts: 0,
      duplicates: 0,
      messages: routed.length,
      unrouted: routed.filter((r) => r.accountId === null).length,
      messageIds: routed.map((r) => r.id)
    }
  })
