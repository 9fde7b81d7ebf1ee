/**
 * The shapes of two-way SMS as the HTTP contract and the portal answer them (Schemas, node-free):
 * inbound numbers, inbound messages, auto-reply texts, and the inputs that change them.
 */
import { Schema } from "effect"
import type { InboundNumberRow, InboundRow } from "../ports/InboundStore.js"

// ---------------------------------------------------------------------------------------------

/** An inbound number as answered: the address, its keyword and aliases on a shared short code. */
export const InboundNumberView = Schema.Struct({
  uid: Schema.String,
  account_uid: Schema.String,
  number: Schema.String,
  keyword: Schema.NullOr(Schema.String),
  aliases: Schema.Array(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "InboundNumber" })
/** An inbound number as answered. */
export type InboundNumberView = typeof InboundNumberView.Type

/** A message a handset sent, as answered. */
export const InboundMessageView = Schema.Struct({
  uid: Schema.String,
  from: Schema.String,
  to: Schema.String,
  keyword: Schema.NullOr(Schema.String),
  text: Schema.String,
  encoding: Schema.Literal("GSM-7", "Latin-1", "UCS-2"),
  parts: Schema.Number,
  complete: Schema.Boolean,
  received_at: Schema.String,
  provider: Schema.String,
  in_reply_to: Schema.NullOr(Schema.String),
  /** `stop`, `start` or `help` when the text was one word of the opt-out families. */
  command: Schema.NullOr(Schema.Literal("stop", "start", "help"))
}).annotations({ identifier: "InboundMessage" })
/** A message a handset sent, as answered. */
export type InboundMessageView = typeof InboundMessageView.Type

/** An unrouted message as operators read it (no account). */
export const UnroutedMessageView = InboundMessageView.annotations({ identifier: "UnroutedInboundMessage" })

/** The body of a new inbound number. */
export const CreateInboundNumberInput = Schema.Struct({
  account_uid: Schema.String,
  number: Schema.String,
  keyword: Schema.optional(Schema.NullOr(Schema.String)),
  aliases: Schema.optional(Schema.Array(Schema.String))
}).annotations({ identifier: "AdminCreateInboundNumber" })
/** The body of a new inbound number. */
export type CreateInboundNumberInput = typeof CreateInboundNumberInput.Type

/** A change of an inbound number (what is given changes). */
export const UpdateInboundNumberInput = Schema.Struct({
  number: Schema.optional(Schema.String),
  keyword: Schema.optional(Schema.NullOr(Schema.String)),
  aliases: Schema.optional(Schema.Array(Schema.String))
}).annotations({ identifier: "AdminUpdateInboundNumber" })
/** A change of an inbound number. */
export type UpdateInboundNumberInput = typeof UpdateInboundNumberInput.Type

/** The inbox's filters and page: newest first, by handset (`from`), by number (`to`), since a time. */
export interface InboundListInput {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly since?: string | undefined
  readonly page?: number | undefined
  readonly per_page?: number | undefined
}

/** The auto-reply texts (null: the default), and the defaults. */
export const AutoRepliesView = Schema.Struct({
  stop_en: Schema.NullOr(Schema.String),
  stop_sw: Schema.NullOr(Schema.String),
  start_en: Schema.NullOr(Schema.String),
  start_sw: Schema.NullOr(Schema.String),
  help_en: Schema.NullOr(Schema.String),
  help_sw: Schema.NullOr(Schema.String),
  defaults: Schema.Record({ key: Schema.String, value: Schema.String })
}).annotations({ identifier: "InboundAutoReplies" })
/** The auto-reply texts. */
export type AutoRepliesView = typeof AutoRepliesView.Type

/** A simulated inbound message (sandbox keys). */
export interface SimulateInput {
  readonly from: string
  readonly to?: string | undefined
  readonly text: string
}

const iso = (d: Date) => d.toISOString()

/** The view of an assignment. */
export const inboundNumberView = (r: InboundNumberRow): InboundNumberView => ({
  uid: r.id,
  account_uid: r.accountId,
  number: r.number,
  keyword: r.keyword,
  aliases: r.aliases,
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt)
})

/** The view of a stored message. */
export const inboundMessageView = (r: InboundRow): InboundMessageView => ({
  uid: r.id,
  from: r.from_addr,
  to: r.to_addr,
  keyword: r.keyword,
  text: r.text,
  encoding: r.encoding,
  parts: r.parts,
  complete: r.complete,
  received_at: iso(r.received_at),
  provider: r.provider,
  in_reply_to: r.in_reply_to,
  command: r.command
})
