/**
 * What a routed inbound message causes, written in its transaction (`record.ts`): the opt-out change
 * of a STOP or START word, the auto reply owed, the `sms.received` and `optout.changed` webhook
 * deliveries with their bodies frozen.
 */
import type { AutoReplyTexts, InboundCommand, InboundEncoding } from "@tuma/domain"
import { autoReplyText, optOutEventBody, receivedEventBody } from "@tuma/domain"
import { Effect, Schema } from "effect"
import type { Db } from "../dispatch/query.js"
import { findAll, NullableString } from "../rows.js"

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

const Endpoints = findAll(Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  mode: Schema.String,
  events: Schema.Array(Schema.String)
}))
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

/**
 * `sms.received` to every endpoint of the account subscribed to it (a simulated message only to the
 * endpoints of test keys, a carrier's only to those of live keys), `optout.changed` likewise; bodies
 * frozen now, so every attempt and redelivery sends the same bytes.
 */
export const webhookEvents = (
  db: Db,
  routed: ReadonlyArray<Routed>,
  replyTo: ReadonlyMap<number, string>,
  changes: ReadonlyArray<Change>,
  now: Date
) =>
  Effect.gen(function*() {
    const accounts = [...new Set(routed.flatMap((r) => r.accountId === null ? [] : [r.accountId]))]
    if (accounts.length === 0) return
    const endpoints = yield* Endpoints(db.q(
      `SELECT e.id, e.account_id, k.mode, e.events FROM webhook_endpoints e JOIN api_keys k ON k.id = e.api_key_id
WHERE e.account_id = ANY($1::uuid[]) AND e.enabled
  AND ('sms.received' = ANY (e.events) OR 'optout.changed' = ANY (e.events))`,
      [accounts]
    ))
    if (endpoints.length === 0) return
    const events = routed.flatMap((r, i) =>
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
          inReplyTo: replyTo.get(i) ?? null
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
    const rows: Array<{ endpoint: string; message: string; event: string; body: string; finalAt: Date }> = []
    for (const e of events) {
      for (const ep of endpoints) {
        if (ep.account_id !== e.r.accountId || (ep.mode === "test") !== e.r.sandbox) continue
        if (!eventsOf.get(ep.id)?.has(e.event)) continue
        rows.push({ endpoint: ep.id, message: e.r.id, event: e.event, body: e.body, finalAt: e.r.receivedAt })
      }
    }
    if (rows.length === 0) return
    yield* db.q(
      `INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event, status, attempts, next_attempt_at, final_at,
                                created_at, updated_at, payload)
SELECT gen_random_uuid(), u.endpoint_id, u.message_id, u.event, 'pending', 0, $1, u.final_at, $1, $1, u.payload
FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::timestamptz[], $6::text[])
  AS u(endpoint_id, message_id, event, final_at, payload)`,
      [
        now,
        rows.map((r) => r.endpoint),
        rows.map((r) => r.message),
        rows.map((r) => r.event),
        rows.map((r) => r.finalAt.toISOString()),
        rows.map((r) => r.body)
      ]
    )
    yield* db.q(`SELECT pg_notify('tuma_webhooks', '1')`)
  })
