/**
 * What a routed inbound message causes, written in its transaction (`record.ts`): the opt-out change
 * of a STOP or START word, the auto reply owed, the `sms.received` and `optout.changed` webhook
 * deliveries with their bodies frozen (written with the messages themselves: `writeMessages`).
 */
import type { AutoReplyTexts, InboundCommand, InboundEncoding } from "@tuma/domain"
import { autoReplyText, optOutEventBody, receivedEventBody } from "@tuma/domain"
import { Effect, Schema } from "effect"
import type { Db } from "../dispatch/query.js"
import { findAll, NullableString } from "../rows.js"
import type { Endpoint } from "./context.js"

/** A message made of a group's parts, before it is routed. */
export interface Made {
  readonly id: string
  readonly provider: string
  readonly from: string
  readonly to: string
  readonly text: string
  readonly encoding: InboundEncoding
  readonly parts: number
  readonly complete: boolean
  readonly receivedAt: Date
  readonly forcedAccount: string | undefined
  readonly groupKey: string
}

/** A routed message, with what it causes. */
export interface Routed extends Made {
  readonly accountId: string | null
  readonly numberId: string | null
  /** The address replies go from: the assigned number as the operator wrote it, else the address. */
  readonly sender: string
  readonly keyword: string | null
  readonly command: InboundCommand | null
  readonly sandbox: boolean
}

const Changed = findAll(Schema.Struct({ account_id: Schema.String, recipient: Schema.String }))
const Settings = findAll(Schema.Struct({
  account_id: Schema.String,
  stop_en: NullableString,
  stop_sw: NullableString,
  start_en: NullableString,
  start_sw: NullableString,
  help_en: NullableString,
  help_sw: NullableString
}))

/** An opt-out that changed: the handset of an account, and which way. */
export interface Change {
  readonly message: Routed
  readonly status: "opted_out" | "opted_in"
}

/** STOP words opt the handset out of the account, START words back in; answers what changed. */
export const optOutChanges = (db: Db, routed: ReadonlyArray<Routed>, now: Date) =>
  Effect.gen(function*() {
    const stops = routed.filter((r) => r.command === "stop")
    const starts = routed.filter((r) => r.command === "start")
    const out: Array<Change> = []
    if (stops.length > 0) {
      const added = yield* Changed(db.q(
        `INSERT INTO opt_outs (account_id, recipient, reason, created_at)
SELECT DISTINCT ON (u.account_id, u.recipient) u.account_id, u.recipient, 'Inbound "' || u.text || '" to ' || u.to_addr, $1
FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[]) AS u(account_id, recipient, text, to_addr)
ON CONFLICT (account_id, recipient) DO NOTHING
RETURNING account_id, recipient`,
        [
          now,
          stops.map((r) => r.accountId),
          stops.map((r) => r.from),
          stops.map((r) => r.text.trim()),
          stops.map((r) => r.to)
        ]
      ))
      for (const a of added) {
        const m = stops.find((r) => r.accountId === a.account_id && r.from === a.recipient)
        if (m !== undefined) out.push({ message: m, status: "opted_out" })
      }
    }
    if (starts.length > 0) {
      const removed = yield* Changed(db.q(
        `DELETE FROM opt_outs o USING unnest($1::uuid[], $2::text[]) AS u(account_id, recipient)
WHERE o.account_id = u.account_id AND o.recipient = u.recipient
RETURNING o.account_id, o.recipient`,
        [starts.map((r) => r.accountId), starts.map((r) => r.from)]
      ))
      for (const a of removed) {
        const m = starts.find((r) => r.accountId === a.account_id && r.from === a.recipient)
        if (m !== undefined) out.push({ message: m, status: "opted_in" })
      }
    }
    return out
  })

/** The auto replies owed to STOP, START and HELP words of routed messages (the account's texts or the defaults). */
export const owedReplies = (db: Db, routed: ReadonlyArray<Routed>, now: Date) =>
  Effect.gen(function*() {
    const owed = routed.filter((r) => r.accountId !== null && r.command !== null)
    if (owed.length === 0) return
    const settings = new Map(
      (yield* Settings(db.q(
        `SELECT account_id, stop_en, stop_sw, start_en, start_sw, help_en, help_sw FROM inbound_settings
WHERE account_id = ANY($1::uuid[])`,
        [[...new Set(owed.map((r) => r.accountId))]]
      ))).map((s): [string, AutoReplyTexts] => [s.account_id, s])
    )
    yield* db.q(
      `INSERT INTO inbound_replies (inbound_id, account_id, handset, sender, text, next_attempt_at, created_at)
SELECT u.id, u.account_id, u.handset, u.sender, u.text, $1, $1
FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[]) AS u(id, account_id, handset, sender, text)
ON CONFLICT DO NOTHING`,
      [
        now,
        owed.map((r) => r.id),
        owed.map((r) => r.accountId),
        owed.map((r) => r.from),
        owed.map((r) => r.sender),
        owed.map((r) => autoReplyText(r.command!, r.text, settings.get(r.accountId!) ?? {}))
      ]
    )
  })

/** A webhook delivery a routed message causes (its body frozen; `in_reply_to` filled by `writeMessages`). */
interface DeliveryRow {
  readonly endpoint: string
  readonly message: string
  readonly event: string
  readonly body: string
  readonly finalAt: Date
}

/**
 * `sms.received` to every endpoint of the account subscribed to it (a simulated message only to the
 * endpoints of test keys, a carrier's only to those of live keys), `optout.changed` likewise; bodies
 * frozen now, so every attempt and redelivery sends the same bytes. The `sms.received` bodies say
 * `"in_reply_to":null`: `writeMessages` fills the uid in where it finds one.
 */
export const deliveryRows = (
  routed: ReadonlyArray<Routed>,
  endpoints: ReadonlyArray<Endpoint>,
  changes: ReadonlyArray<Change>,
  now: Date
): Array<DeliveryRow> => {
  if (endpoints.length === 0) return []
  const events = routed.flatMap((r) =>
    r.accountId === null ? [] : [{
      r,
      event: "sms.received",
      body: receivedEventBody({
        messageId: r.id,
        from: r.from,
        to: r.sender,
        keyword: r.keyword,
        text: r.text,
        parts: r.parts,
        complete: r.complete,
        receivedAt: r.receivedAt,
        now,
        inReplyTo: null
      })
    }]
  ).concat(changes.map((c) => ({
    r: c.message,
    event: "optout.changed",
    body: optOutEventBody({
      messageId: c.message.id,
      phone: c.message.from,
      status: c.status,
      keyword: c.message.keyword ?? "",
      to: c.message.sender,
      changedAt: c.message.receivedAt,
      now
    })
  })))
  const eventsOf = new Map(endpoints.map((e) => [e.id, new Set(e.events)]))
  const rows: Array<DeliveryRow> = []
  for (const e of events) {
    for (const ep of endpoints) {
      if (ep.account_id !== e.r.accountId || (ep.mode === "test") !== e.r.sandbox) continue
      if (!eventsOf.get(ep.id)?.has(e.event)) continue
      rows.push({ endpoint: ep.id, message: e.r.id, event: e.event, body: e.body, finalAt: e.r.receivedAt })
    }
  }
  return rows
}

/**
 * One statement for the routed messages and their webhook deliveries: each message's `in_reply_to`
 * (the last message the account sent to the handset from that address) found, the messages
 * inserted, the deliveries inserted with that uid in their `sms.received` body (the body's last
 * field, `"in_reply_to":null}`, replaced), and the webhook workers woken when there are any.
 */
export const writeMessages = (db: Db, routed: ReadonlyArray<Routed>, hooks: ReadonlyArray<DeliveryRow>, now: Date) =>
  db.q(
    `WITH u AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                       $9::text[], $10::int[], $11::bool[], $12::text[], $13::bool[], $14::timestamptz[], $15::text[])
    AS u(id, account_id, number_id, provider, from_addr, to_addr, keyword, text, encoding, parts, complete, command,
         sandbox, received_at, sender)
), r AS (
  SELECT u.*, last.id AS in_reply_to FROM u LEFT JOIN LATERAL (
    SELECT m.id FROM messages m WHERE u.account_id IS NOT NULL AND m.recipient = u.from_addr
      AND m.account_id = u.account_id
      AND (m.sender_id = u.sender OR m.sender_id = u.to_addr OR upper(m.sender_id) = upper(u.to_addr))
    ORDER BY m.created_at DESC LIMIT 1
  ) last ON true
), msg AS (
  INSERT INTO inbound_messages (id, account_id, inbound_number_id, provider, from_addr, to_addr, keyword, text,
                                encoding, parts, complete, command, in_reply_to, sandbox, received_at, created_at)
  SELECT id, account_id, number_id, provider, from_addr, to_addr, keyword, text, encoding, parts, complete, command,
         in_reply_to, sandbox, received_at, $16 FROM r
  RETURNING 1
), hooks AS (
  INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event, status, attempts, next_attempt_at, final_at,
                                  created_at, updated_at, payload)
  SELECT gen_random_uuid(), d.endpoint_id, d.message_id, d.event, 'pending', 0, $16, d.final_at, $16, $16,
         CASE WHEN d.event = 'sms.received' AND r.in_reply_to IS NOT NULL
           THEN left(d.payload, -5) || '"' || r.in_reply_to::text || '"}' ELSE d.payload END
  FROM unnest($17::uuid[], $18::uuid[], $19::text[], $20::timestamptz[], $21::text[])
    AS d(endpoint_id, message_id, event, final_at, payload)
  LEFT JOIN r ON r.id = d.message_id
  RETURNING 1
)
SELECT (SELECT count(*) FROM msg) AS messages,
  (SELECT count(*) FROM (SELECT pg_notify('tuma_webhooks', '1') FROM (SELECT 1 FROM hooks LIMIT 1) h) n) AS notified`,
    [
      routed.map((r) => r.id),
      routed.map((r) => r.accountId),
      routed.map((r) => r.numberId),
      routed.map((r) => r.provider),
      routed.map((r) => r.from),
      routed.map((r) => r.to),
      routed.map((r) => r.keyword),
      routed.map((r) => r.text),
      routed.map((r) => r.encoding),
      routed.map((r) => r.parts),
      routed.map((r) => r.complete),
      routed.map((r) => r.command),
      routed.map((r) => r.sandbox),
      routed.map((r) => r.receivedAt.toISOString()),
      routed.map((r) => r.sender),
      now,
      hooks.map((h) => h.endpoint),
      hooks.map((h) => h.message),
      hooks.map((h) => h.event),
      hooks.map((h) => h.finalAt.toISOString()),
      hooks.map((h) => h.body)
    ]
  )
