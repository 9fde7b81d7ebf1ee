/**
 * How the memory adapters move a stored message (not part of the public API): every status change
 * goes through the domain's message machine (`transitionMessage`, decisions.md §19), and a move
 * into `delivered`/`failed` writes what the SQL trigger `tuma_webhook_outbox` (migrations 0200,
 * 0201) writes in the same transaction: one webhook delivery per endpoint of the message's API key,
 * `pending` when the endpoint is enabled, else `skipped`.
 */
import type { MessageEvent } from "@tuma/domain"
import { transitionMessage } from "@tuma/domain"
import { Either } from "effect"
import type { MessageStatus } from "../ports/SendStore.js"
import { violation } from "./internal.js"
import type { MessageRecord, Tables } from "./MemoryDatabase.js"

/** The status `events` lead to from `status`, in order; null when the machine refuses one of them. */
export const statusAfter = (status: MessageStatus, events: ReadonlyArray<MessageEvent>): MessageStatus | null => {
  let s: MessageStatus = status
  for (const event of events) {
    const next = transitionMessage(s, event)
    if (Either.isLeft(next)) return null
    s = next.right
  }
  return s
}

/** The event that leads from `sent` to a receipt's outcome (none for `sent`: still en route). */
export const receiptEvents = (status: "sent" | "delivered" | "failed"): ReadonlyArray<MessageEvent> =>
  status === "delivered" ? ["deliver"] : status === "failed" ? ["fail"] : []

/** Sets a status the machine allowed, with the outbox write of a final state. */
export const setStatus = (t: Tables, m: MessageRecord, status: MessageStatus, at: Date): void => {
  const was = m.status
  m.status = status
  if (was !== status && (status === "delivered" || status === "failed") && m.api_key_id !== null) {
    outbox(t, m, status, at)
  }
}

/** The trigger's deliveries (ids from the table's own sequence, as `gen_random_uuid()` needs no caller). */
const outbox = (t: Tables, m: MessageRecord, status: "delivered" | "failed", at: Date): void => {
  const finalAt = (status === "delivered" ? m.delivered_at : m.failed_at) ?? m.updated_at
  for (const e of t.webhookEndpoints.values()) {
    const event = status === "delivered" ? "sms.delivered" : "sms.failed"
    if (e.api_key_id !== m.api_key_id || !e.events.includes(event)) continue
    const id = `00000000-0000-4000-9000-${(++t.webhookDeliverySequence).toString(16).padStart(12, "0")}`
    t.webhookDeliveries.set(id, {
      id,
      endpoint_id: e.id,
      message_id: m.id,
      event,
      status: e.enabled ? "pending" : "skipped",
      attempts: 0,
      next_attempt_at: at,
      final_at: finalAt,
      last_status: null,
      last_error: null,
      redelivery_of: null,
      created_at: at,
      updated_at: at,
      completed_at: e.enabled ? null : at
    })
  }
}

/** The later of two times, a null one ignored (PostgreSQL's `GREATEST`). */
export const latest = (a: Date, b: Date | null): Date => b !== null && b.getTime() > a.getTime() ? b : a

/**
 * Moves a `sent` message to a final state as a receipt would (its `delivered_at`/`failed_at` set by
 * the caller): for tools and tests that write the tables directly. Refused by the machine: a defect.
 */
export const moveToFinal = (t: Tables, m: MessageRecord, status: "delivered" | "failed", at: Date): void => {
  const next = statusAfter(m.status, receiptEvents(status))
  if (next === null) return violation("messages", `message ${m.id} in state ${m.status} cannot become ${status}`)
  setStatus(t, m, next, at)
}

/** The columns delivery writes later (null on a new message, as the SQL columns' defaults). */
type DeliveryColumns =
  | "provider_id"
  | "provider_message_id"
  | "provider_ref"
  | "sent_at"
  | "delivered_at"
  | "failed_at"
  | "failure_reason"
  | "failure_context"
  | "dr_checked_at"
  | "dr_status"
  | "dr_delivery_status"

/** A new message record: what its writer decides, the delivery columns null unless given. */
export const messageRecord = (
  row: Omit<MessageRecord, DeliveryColumns> & Partial<Pick<MessageRecord, DeliveryColumns>>
): MessageRecord => ({
  provider_id: null,
  provider_message_id: null,
  provider_ref: null,
  sent_at: null,
  delivered_at: null,
  failed_at: null,
  failure_reason: null,
  failure_context: null,
  dr_checked_at: null,
  dr_status: null,
  dr_delivery_status: null,
  ...row
})
