/**
 * Delivery receipts: matched to their message or part by candidate ref in one statement, or kept in
 * `delivery_receipts_pending` until the message or part is recorded.
 */
import type { ReceiptRecord } from "@tuma/core/ports/DispatchStore"
import { Effect, Option, Schema } from "effect"
import { decoders, findOne, NullableString } from "../rows.js"
import { inList, Message } from "../statusConditions.js"
import type { Db } from "./query.js"

const PendingReceipts = decoders(Schema.Struct({
  provider_id: Schema.String,
  refs: Schema.Array(Schema.String),
  state: Schema.Literal("delivered", "failed", "enroute"),
  delivery_status: Schema.String,
  error_code: NullableString,
  failure_reason: NullableString,
  received_at: Schema.DateFromSelf
}))

const receiptCounts = findOne(Schema.Struct({ matched: Schema.Number, pending: Schema.Number }))

/** Candidates of receipts as parallel arrays: receipt index, provider, ref, rank. */
const flatCandidates = (receipts: ReadonlyArray<ReceiptRecord>) => {
  const idx: Array<number> = []
  const pids: Array<string> = []
  const refs: Array<string> = []
  const ranks: Array<number> = []
  receipts.forEach((r, i) =>
    r.candidates.forEach((c, rank) => {
      idx.push(i)
      pids.push(r.providerId)
      refs.push(c)
      ranks.push(rank)
    })
  )
  return [idx, pids, refs, ranks] as const
}

/**
 * Receipts in one statement. Each is matched by the first of its candidate refs (most literal
 * first) that names an unfinished single-part message (`messages.provider_ref`, status `sent`) or
 * an unfinished part (`message_parts`), the most recently sent when a carrier reused the ref;
 * per message or part the last receipt with a final state wins (else the last). A single-part
 * message moves directly; parts are updated and their message becomes delivered (every part
 * delivered) or failed (any part failed). Reconciliation rows of final messages are dropped; the
 * unmatched receipts are kept in `delivery_receipts_pending`.
 */
export const applyReceipts = ({ q }: Db) => (receipts: ReadonlyArray<ReceiptRecord>, now: Date) =>
  receipts.length === 0 ? Effect.succeed({ matched: 0, pending: 0 }) : receiptCounts(q(
    `WITH r AS (
  SELECT * FROM unnest($2::int[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::text[])
    AS r(i, pid, state, ds, err, reason, at, refs)
), c AS (
  SELECT * FROM unnest($10::int[], $11::uuid[], $12::text[], $13::int[]) AS c(i, pid, ref, rank)
), best AS (
  -- one index lookup per candidate (whatever the statistics say) in the indexes of waiting rows
  -- (migration 0330): carriers reuse ids, so the newest unfinished message or part with the ref
  -- wins and a finished one is never matched; part_index NULL: single-part message
  SELECT DISTINCT ON (c.i) c.i, x.message_id, x.part_index
  FROM c CROSS JOIN LATERAL (
    SELECT y.message_id, y.part_index FROM (
      (SELECT m.id AS message_id, NULL::int AS part_index, m.sent_at FROM messages m
       WHERE m.provider_id = c.pid AND m.provider_ref = c.ref AND ${inList("m.status", Message.awaitingReceipt)}
       ORDER BY m.sent_at DESC, m.id DESC LIMIT 1)
      UNION ALL
      (SELECT p.message_id, p.part_index, pm.sent_at FROM message_parts p JOIN messages pm ON pm.id = p.message_id
       WHERE p.provider_id = c.pid AND p.provider_ref = c.ref AND p.state IN ('enroute', 'unknown')
         AND ${inList("pm.status", Message.awaitingReceipt)}
       ORDER BY pm.sent_at DESC, p.message_id DESC LIMIT 1)
    ) y
    ORDER BY y.sent_at DESC LIMIT 1
  ) x
  ORDER BY c.i, c.rank
), tgt AS (
  SELECT DISTINCT ON (b.message_id, b.part_index) b.message_id, b.part_index, r.state, r.ds, r.err, r.reason
  FROM best b JOIN r ON r.i = b.i
  ORDER BY b.message_id, b.part_index, r.state <> 'enroute' DESC, b.i DESC
), upd AS (
  UPDATE message_parts p SET
    state = CASE WHEN t.state = 'enroute' THEN p.state ELSE t.state END,
    delivery_status = t.ds, error_code = t.err, failure_reason = t.reason, updated_at = $1
  FROM tgt t
  WHERE t.part_index IS NOT NULL AND p.message_id = t.message_id AND p.part_index = t.part_index
    AND p.state NOT IN ('delivered', 'failed')
  RETURNING p.message_id, p.part_index, p.state, p.failure_reason, p.delivery_status
), ua AS (
  SELECT message_id,
    count(*) FILTER (WHERE state = 'delivered') AS d,
    bool_or(state = 'failed') AS f,
    (array_agg(failure_reason ORDER BY part_index) FILTER (WHERE state = 'failed'))[1] AS reason,
    (array_agg(delivery_status ORDER BY part_index DESC))[1] AS ds
  FROM upd GROUP BY message_id
), moves AS (
  -- multi-part: parts as they were before this statement (the updated ones were neither delivered
  -- nor failed) plus what this statement changed
  SELECT p.message_id,
    CASE WHEN bool_or(ua.f) OR bool_or(p.state = 'failed') THEN 'failed'
         WHEN count(*) FILTER (WHERE p.state = 'delivered') + min(ua.d) = count(*) THEN 'delivered'
         ELSE 'sent' END AS status,
    COALESCE(min(ua.reason), (array_agg(p.failure_reason ORDER BY p.part_index) FILTER (WHERE p.state = 'failed'))[1])
      AS reason,
    min(ua.ds) AS last_ds
  FROM ua JOIN message_parts p ON p.message_id = ua.message_id
  GROUP BY p.message_id
  UNION ALL
  -- single-part: the receipt itself
  SELECT t.message_id, CASE WHEN t.state = 'enroute' THEN 'sent' ELSE t.state END, t.reason, t.ds
  FROM tgt t WHERE t.part_index IS NULL
), msg AS (
  UPDATE messages m SET
    status = a.status,
    delivered_at = CASE WHEN a.status = 'delivered' THEN GREATEST($1, m.sent_at) ELSE m.delivered_at END,
    failed_at = CASE WHEN a.status = 'failed' THEN GREATEST($1, m.sent_at) ELSE m.failed_at END,
    failure_reason = CASE WHEN a.status = 'failed' THEN a.reason ELSE m.failure_reason END,
    dr_checked_at = GREATEST($1, m.dr_checked_at), dr_status = a.status, dr_delivery_status = a.last_ds,
    updated_at = $1
  FROM moves a WHERE m.id = a.message_id AND ${inList("m.status", Message.awaitingReceipt)}
  RETURNING m.id, m.status
), rec AS (
  DELETE FROM dispatch_reconcile WHERE message_id IN (SELECT id FROM msg WHERE ${inList("status", Message.final)})
  RETURNING 1
), pend AS (
  INSERT INTO delivery_receipts_pending (provider_id, refs, state, delivery_status, error_code, failure_reason, received_at)
  SELECT r.pid, string_to_array(r.refs, chr(1)), r.state, r.ds, r.err, r.reason, r.at
  FROM r WHERE NOT EXISTS (SELECT 1 FROM best b WHERE b.i = r.i)
  RETURNING 1
)
SELECT (SELECT count(*) FROM best)::int AS matched, (SELECT count(*) FROM pend)::int AS pending,
  (SELECT count(*) FROM rec)::int AS reconciled`,
    [
      now,
      receipts.map((_, i) => i),
      receipts.map((r) => r.providerId),
      receipts.map((r) => r.state),
      receipts.map((r) => r.deliveryStatus),
      receipts.map((r) => r.errorCode),
      receipts.map((r) => r.failureReason),
      receipts.map((r) => r.receivedAt.toISOString()),
      receipts.map((r) => r.candidates.join("\u0001")),
      ...flatCandidates(receipts)
    ]
  )).pipe(Effect.map(Option.getOrElse(() => ({ matched: 0, pending: 0 }))))

/**
 * Pending receipts whose message or part is now recorded, taken out of `delivery_receipts_pending`
 * and applied like fresh ones (in the caller's transaction).
 */
export const applyPendingReceipts = ({ q, tx }: Db) => (now: Date) =>
  Effect.gen(function*() {
    const rows = yield* PendingReceipts.all(q(
      `DELETE FROM delivery_receipts_pending o
WHERE EXISTS (SELECT 1 FROM messages m
    WHERE m.provider_id = o.provider_id AND m.provider_ref = ANY(o.refs) AND ${
        inList("m.status", Message.awaitingReceipt)
      })
   OR EXISTS (SELECT 1 FROM message_parts p JOIN messages pm ON pm.id = p.message_id
    WHERE p.provider_id = o.provider_id AND p.provider_ref = ANY(o.refs) AND p.state IN ('enroute', 'unknown')
      AND ${inList("pm.status", Message.awaitingReceipt)})
RETURNING o.provider_id, o.refs, o.state, o.delivery_status, o.error_code, o.failure_reason, o.received_at`
    ))
    const receipts = rows.map((r): ReceiptRecord => ({
      providerId: r.provider_id,
      candidates: r.refs,
      state: r.state,
      deliveryStatus: r.delivery_status,
      errorCode: r.error_code,
      failureReason: r.failure_reason,
      receivedAt: r.received_at
    }))
    yield* applyReceipts({ q, tx })(receipts, now)
    return receipts.length
  })
