/**
 * What routing a batch of inbound messages and writing their webhook deliveries needs to read: the
 * assignments of the batch's addresses and the subscribed endpoints of their accounts (and of the
 * accounts a sandbox message is forced to). Read in the statement that stores the parts
 * (`record.ts`), as JSON columns, so a batch of single-part messages costs two statements in all.
 */
import type { InboundAssignment } from "@tuma/domain"
import { Effect, Schema } from "effect"
import type { Db } from "../dispatch/query.js"
import { findAll, NullableString } from "../rows.js"

const AssignmentJson = Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  number: Schema.String,
  keyword: NullableString,
  aliases: Schema.Array(Schema.String)
})

/** An endpoint subscribed to a two-way event: its account, its key's mode, its events. */
export const EndpointRow = Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  mode: Schema.String,
  events: Schema.Array(Schema.String)
})
/** An endpoint subscribed to a two-way event. */
export type Endpoint = typeof EndpointRow.Type

/** The JSON columns `assignments` and `endpoints`, decoded. */
export const ContextColumns = {
  assignments: Schema.Array(AssignmentJson),
  endpoints: Schema.Array(EndpointRow)
}

/** The batch's assignments, the endpoints of the accounts they and the forced accounts name. */
export interface InboundContext {
  readonly assignments: ReadonlyArray<InboundAssignment>
  /** Every account whose endpoints are in `endpoints` (those with none included). */
  readonly accounts: ReadonlySet<string>
  readonly endpoints: ReadonlyArray<Endpoint>
}

const SUBSCRIBED = `e.enabled AND ('sms.received' = ANY (e.events) OR 'optout.changed' = ANY (e.events))`

/**
 * The select-list columns `assignments` and `endpoints` (JSON arrays) for the address keys in
 * parameter `$keys` (text[]) and the forced accounts in `$forced` (uuid[]).
 */
export const contextColumns = (keys: number, forced: number) =>
  `(SELECT coalesce(json_agg(json_build_object('id', n.id, 'account_id', n.account_id, 'number', n.number,
      'keyword', n.keyword, 'aliases', n.aliases)), '[]'::json)
    FROM inbound_numbers n WHERE n.address_key = ANY($${keys}::text[])) AS assignments,
  (SELECT coalesce(json_agg(json_build_object('id', e.id, 'account_id', e.account_id, 'mode', ak.mode,
      'events', e.events)), '[]'::json)
    FROM webhook_endpoints e JOIN api_keys ak ON ak.id = e.api_key_id
    WHERE ${SUBSCRIBED} AND (e.account_id = ANY($${forced}::uuid[])
      OR e.account_id IN (SELECT n.account_id FROM inbound_numbers n WHERE n.address_key = ANY($${keys}::text[]))))
    AS endpoints`

/** The context of decoded columns and the forced accounts. */
export const contextOf = (
  columns: {
    readonly assignments: ReadonlyArray<typeof AssignmentJson.Type>
    readonly endpoints: ReadonlyArray<Endpoint>
  },
  forced: ReadonlyArray<string>
): InboundContext => {
  const assignments = columns.assignments.map((a) => ({
    id: a.id,
    accountId: a.account_id,
    number: a.number,
    keyword: a.keyword,
    aliases: a.aliases
  }))
  return {
    assignments,
    accounts: new Set([...assignments.map((a) => a.accountId), ...forced]),
    endpoints: columns.endpoints
  }
}

const Context = findAll(Schema.Struct(ContextColumns))

/** The context alone (the timeout's joins, which store no part). */
export const readContext = (db: Db, keys: ReadonlyArray<string>, forced: ReadonlyArray<string>) =>
  Effect.map(
    Context(db.q(`SELECT ${contextColumns(1, 2)}`, [keys, forced])),
    (rows) => contextOf(rows[0] ?? { assignments: [], endpoints: [] }, forced)
  )

const Endpoints = findAll(EndpointRow)

/** The subscribed endpoints of accounts outside the context (an opt-out word routed by history). */
export const endpointsOf = (db: Db, accounts: ReadonlyArray<string>) =>
  accounts.length === 0 ? Effect.succeed([]) : Endpoints(db.q(
    `SELECT e.id, e.account_id, ak.mode, e.events FROM webhook_endpoints e JOIN api_keys ak ON ak.id = e.api_key_id
WHERE e.account_id = ANY($1::uuid[]) AND ${SUBSCRIBED}`,
    [accounts]
  ))
