/**
 * Reconciliation of unknown outcomes (leased items past their deadline, failed when never
 * confirmed) and the sweeps of pending receipts and stale queue rows.
 */
import type { DispatchStore, ReconcileItem } from "@tuma/core/ports/DispatchStore"
import { Effect, Schema } from "effect"
import { decoders, findOne } from "../rows.js"
import { inList, Message, MessageTarget, notInList } from "../statusConditions.js"
import { type Db, field } from "./query.js"
import { applyPendingReceipts } from "./receipts.js"

const Reconciled = decoders(Schema.Struct({
  message_id: Schema.String,
  provider_id: Schema.String,
  reference: Schema.String,
  ids: Schema.NullOr(Schema.Array(Schema.String))
}))

const anyPending = findOne(Schema.Struct({ any: Schema.Boolean }))

export const dueReconciliations =
  ({ q }: Db): DispatchStore["Type"]["dueReconciliations"] => (now, limit, leaseUntil) =>
    Reconciled.all(q(
      `WITH d AS (
  SELECT message_id FROM dispatch_reconcile WHERE deadline <= $1 ORDER BY deadline LIMIT $2 FOR UPDATE SKIP LOCKED
)
UPDATE dispatch_reconcile r SET deadline = $3 FROM d WHERE r.message_id = d.message_id
RETURNING r.message_id, r.provider_id, r.reference,
  COALESCE(
    (SELECT array_agg(p.provider_message_id ORDER BY p.part_index) FILTER (WHERE p.provider_message_id IS NOT NULL)
     FROM message_parts p WHERE p.message_id = r.message_id),
    (SELECT array_remove(ARRAY[m.provider_message_id], NULL) FROM messages m WHERE m.id = r.message_id),
    '{}') AS ids`,
      [now, limit, leaseUntil]
    )).pipe(
      Effect.map((rows): ReadonlyArray<ReconcileItem> =>
        rows.map((r) => ({
          messageId: r.message_id,
          providerId: r.provider_id,
          reference: r.reference,
          providerMessageIds: r.ids ?? []
        }))
      ),
      Effect.orDie
    )

export const failUnconfirmed = ({ q, tx }: Db): DispatchStore["Type"]["failUnconfirmed"] => (items, now) =>
  items.length === 0 ? Effect.void : tx(Effect.gen(function*() {
    yield* q(
      `UPDATE messages m SET status = ${MessageTarget.fail}, failed_at = GREATEST($1, m.sent_at), failure_reason = u.reason,
  dr_checked_at = $1, dr_status = 'failed', updated_at = $1
FROM unnest($2::uuid[], $3::text[]) AS u(id, reason) WHERE m.id = u.id AND ${
        inList("m.status", Message.awaitingReceipt)
      }`,
      [now, items.map((i) => i.messageId), items.map((i) => i.reason)]
    )
    yield* q(`DELETE FROM dispatch_reconcile WHERE message_id = ANY($1::uuid[])`, [items.map((i) => i.messageId)])
  })).pipe(Effect.orDie)

export const sweepPendingReceipts =
  ({ q, tx }: Db): DispatchStore["Type"]["sweepPendingReceipts"] => (now, olderThan) =>
    tx(Effect.gen(function*() {
      const matched = yield* applyPendingReceipts({ q, tx })(now)
      yield* q(`DELETE FROM delivery_receipts_pending WHERE received_at < $1`, [olderThan])
      // queue rows whose message is no longer waiting to be sent (cannot happen through this adapter)
      yield* q(
        `DELETE FROM dispatch_queue d USING messages m
WHERE d.message_id = m.id AND d.available_at <= $1 AND ${notInList("m.status", Message.awaitingSubmission)}`,
        [now]
      )
      return matched
    })).pipe(Effect.orDie)

export const matchPendingReceipts = ({ q, tx }: Db): DispatchStore["Type"]["matchPendingReceipts"] => (now) =>
  Effect.gen(function*() {
    const pending = yield* anyPending(q(`SELECT EXISTS (SELECT 1 FROM delivery_receipts_pending) AS any`))
    if (!field(pending, "any", false)) return 0
    return yield* tx(applyPendingReceipts({ q, tx })(now))
  }).pipe(Effect.orDie)
