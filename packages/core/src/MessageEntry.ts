/**
 * The message entry of spec §2.2, as returned by the single send (decisions §26), the message list
 * and reading one message. `messageEntry` builds it from a `messages` row (joined with its
 * campaign name), so every use case answers the same shape.
 */
import { Encoding } from "@tuma/domain/encoding"
import { MessageStatus } from "@tuma/domain/stateMachines"
import { Schema } from "effect"

/** The `delivery_report` object of a message (spec §2.2): the last carrier report, if any. */
export const DeliveryReport = Schema.Struct({
  checked_at: Schema.NullOr(Schema.String),
  status: Schema.NullOr(Schema.String),
  delivery_status: Schema.NullOr(Schema.String)
})

/** A message as the API answers it (spec §2.2): recipient, sender ID, units, status and lifecycle timestamps. */
export const MessageEntry = Schema.Struct({
  uid: Schema.String,
  recipient: Schema.String,
  sender_id: Schema.String,
  units: Schema.Number,
  channel: Schema.Literal("api", "web", "smpp"),
  status: MessageStatus,
  provider_message_id: Schema.NullOr(Schema.String),
  queued_at: Schema.NullOr(Schema.String),
  sent_at: Schema.NullOr(Schema.String),
  delivered_at: Schema.NullOr(Schema.String),
  failure_reason: Schema.NullOr(Schema.String),
  campaign_uid: Schema.optional(Schema.String),
  campaign_name: Schema.optional(Schema.String),
  failure_context: Schema.NullOr(Schema.Unknown),
  delivery_report: DeliveryReport
})
export type MessageEntry = typeof MessageEntry.Type

/** The single-send `data` (decisions §26): the message entry plus `encoding`. */
export const SentMessage = Schema.Struct({ ...MessageEntry.fields, encoding: Encoding })
export type SentMessage = typeof SentMessage.Type

/** The columns `messageEntry` reads (a `messages` row, `campaign_name` from a join). */
export interface MessageEntryRow {
  readonly id: string
  readonly recipient: string
  readonly sender_id: string
  readonly units: number
  readonly channel: "api" | "web" | "smpp"
  readonly status: MessageEntry["status"]
  readonly provider_message_id: string | null
  readonly queued_at: Date | null
  readonly sent_at: Date | null
  readonly delivered_at: Date | null
  readonly failure_reason: string | null
  readonly campaign_id: string | null
  readonly campaign_name?: string | null | undefined
  readonly failure_context: unknown
  readonly dr_checked_at: Date | null
  readonly dr_status: string | null
  readonly dr_delivery_status: string | null
}

const iso = (d: Date | null): string | null => d === null ? null : d.toISOString()

/** The `MessageEntry` of a stored message row. */
export const messageEntry = (row: MessageEntryRow): MessageEntry => {
  const entry: MessageEntry = {
    uid: row.id,
    recipient: row.recipient,
    sender_id: row.sender_id,
    units: row.units,
    channel: row.channel,
    status: row.status,
    provider_message_id: row.provider_message_id,
    queued_at: iso(row.queued_at),
    sent_at: iso(row.sent_at),
    delivered_at: iso(row.delivered_at),
    failure_reason: row.failure_reason,
    failure_context: row.failure_context ?? null,
    delivery_report: {
      checked_at: iso(row.dr_checked_at),
      status: row.dr_status,
      delivery_status: row.dr_delivery_status
    }
  }
  return row.campaign_id === null
    ? entry
    : { ...entry, campaign_uid: row.campaign_id, campaign_name: row.campaign_name ?? "" }
}
