/**
 * The delivery writer's batched outcomes (`apply`): submissions sent, late acceptances, failures
 * before acceptance (with refunds), requeues, provider credit given back, receipts, inbound parts —
 * one transaction of a handful of set-based statements whatever the batch size.
 */
import type { ApplyResult, DispatchBatch, DispatchStore } from "@tuma/core/ports/DispatchStore"
import { Effect, Schema } from "effect"
import { recordParts } from "../inbound/record.js"
import { decoders, findAll } from "../rows.js"
import { inList, Message, MessageTarget } from "../statusConditions.js"
import type { Db } from "./query.js"
import { applyReceipts } from "./receipts.js"

const Failed = decoders(Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  market_id: Schema.String,
  units: Schema.Number,
  refund: Schema.Boolean
}))

const optedOutRows = findAll(Schema.Struct({ account_id: Schema.String }))

/** Gives the units of `rows` back to their wallets, one ledger entry (`refund`, `reference`) per message. */
export const refund = ({ q }: Db) =>
(
  rows: ReadonlyArray<{ id: string; account_id: string; market_id: string; units: number }>,
  now: Date,
  reference = "not accepted by any provider"
) =>
  rows.length === 0 ? Effect.void : q(
    `WITH r AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[]) AS r(mid, acct, market, units) WHERE units > 0
), s AS (
  SELECT acct, market, sum(units)::int AS total FROM r GROUP BY acct, market
), w AS (
  UPDATE wallets w SET balance = w.balance + s.total, updated_at = $5
  FROM s WHERE w.account_id = s.acct AND w.market_id = s.market
  RETURNING w.id, w.account_id, w.market_id, w.balance
)
INSERT INTO wallet_ledger (wallet_id, account_id, kind, units, balance_after, message_id, reference, created_at)
SELECT w.id, w.account_id, 'refund', r.units,
  w.balance - (sum(r.units) OVER (PARTITION BY w.id ORDER BY r.mid DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) - r.units),
  r.mid, $6, $5
FROM r JOIN w ON w.account_id = r.acct AND w.market_id = r.market
ORDER BY w.id, r.mid`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.account_id),
      rows.map((r) => r.market_id),
      rows.map((r) => r.units),
      now,
      reference
    ]
  ).pipe(Effect.asVoid)

/**
 * Sent (processing -> sent, or -> failed when a later part was refused), the parts of multi-part
 * messages (a single-part one keeps its ref on `messages`), the reconciliation of unknown outcomes,
 * the queue rows: one statement.
 */
const writeSent = ({ q }: Db, s: DispatchBatch["sent"], now: Date) =>
  Effect.gen(function*() {
    const parts = s.flatMap((r) =>
      r.parts.length === 1 ? [] : r.parts.map((p) => ({ ...p, messageId: r.messageId, providerId: r.providerId }))
    )
    const unknown = s.filter((r) => r.unknown !== null)
    yield* q(
      `WITH u AS (
  SELECT * FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::jsonb[], $18::text[], $19::text[],
    $20::text[], $21::text[]) AS u(id, pid, pmid, failure, ctx, ref, rstate, rds, rreason)
), m AS (
  -- rstate: a final receipt that joined the record (single-part): sent and delivered/failed at once
  UPDATE messages m SET
    status = CASE WHEN u.failure IS NOT NULL THEN 'failed' ELSE COALESCE(u.rstate, 'sent') END,
    sent_at = GREATEST($1, COALESCE(m.queued_at, m.created_at)),
    delivered_at = CASE WHEN u.rstate = 'delivered' THEN GREATEST($1, COALESCE(m.queued_at, m.created_at))
      ELSE m.delivered_at END,
    failed_at = CASE WHEN u.failure IS NOT NULL OR u.rstate = 'failed' THEN GREATEST($1, COALESCE(m.queued_at, m.created_at))
      ELSE m.failed_at END,
    failure_reason = COALESCE(u.failure, u.rreason),
    failure_context = u.ctx,
    dr_checked_at = CASE WHEN u.rstate IS NULL THEN m.dr_checked_at ELSE GREATEST($1, m.dr_checked_at) END,
    dr_status = COALESCE(u.rstate, m.dr_status),
    dr_delivery_status = COALESCE(u.rds, m.dr_delivery_status),
    provider_id = u.pid, provider_message_id = u.pmid, provider_ref = u.ref, updated_at = $1
  FROM u WHERE m.id = u.id AND ${inList("m.status", Message.awaitingSubmission)}
  RETURNING m.id
), parts AS (
  INSERT INTO message_parts (message_id, part_index, provider_id, provider_message_id, provider_ref, state, updated_at)
  SELECT pu.mid, pu.idx, pu.pid, pu.pmid, pu.ref, pu.state, $1
  FROM unnest($7::uuid[], $8::int[], $9::uuid[], $10::text[], $11::text[], $12::text[]) AS pu(mid, idx, pid, pmid, ref, state)
  JOIN m ON m.id = pu.mid
  ON CONFLICT (message_id, part_index) DO UPDATE SET
    provider_id = EXCLUDED.provider_id, provider_message_id = EXCLUDED.provider_message_id,
    provider_ref = EXCLUDED.provider_ref, state = EXCLUDED.state, updated_at = EXCLUDED.updated_at
  RETURNING 1
), rec AS (
  INSERT INTO dispatch_reconcile (message_id, provider_id, reference, reason, deadline, created_at)
  SELECT r.mid, r.pid, r.ref, r.reason, r.deadline, $1
  FROM unnest($13::uuid[], $14::uuid[], $15::text[], $16::text[], $17::timestamptz[]) AS r(mid, pid, ref, reason, deadline)
  JOIN m ON m.id = r.mid
  ON CONFLICT (message_id) DO NOTHING
  RETURNING 1
), dq AS (
  DELETE FROM dispatch_queue WHERE message_id IN (SELECT id FROM u) RETURNING 1
)
SELECT (SELECT count(*) FROM m)::int AS moved, (SELECT count(*) FROM parts)::int AS parts,
  (SELECT count(*) FROM rec)::int AS reconcile, (SELECT count(*) FROM dq)::int AS dequeued`,
      [
        now,
        s.map((r) => r.messageId),
        s.map((r) => r.providerId),
        s.map((r) => r.parts[0]?.providerMessageId ?? null),
        s.map((r) => r.failureReason),
        s.map((r) =>
          r.unknown !== null
            ? JSON.stringify({
              acceptance_state: "UNKNOWN",
              reference: r.unknown.reference,
              reason: r.unknown.reason
            })
            : r.failureReason !== null
            ? JSON.stringify({
              acceptance_state: "ACCEPTED",
              refused_parts: r.parts.filter((p) => p.state === "failed").map((p) => p.index)
            })
            : null
        ),
        parts.map((p) => p.messageId),
        parts.map((p) => p.index),
        parts.map((p) => p.providerId),
        parts.map((p) => p.providerMessageId),
        parts.map((p) => p.ref),
        parts.map((p) => p.state),
        unknown.map((r) => r.messageId),
        unknown.map((r) => r.providerId),
        unknown.map((r) => r.unknown!.reference),
        unknown.map((r) => r.unknown!.reason),
        unknown.map((r) => r.unknown!.deadline.toISOString()),
        s.map((r) => r.parts.length === 1 ? r.parts[0]!.ref : null),
        s.map((r) => r.receipt?.state ?? null),
        s.map((r) => r.receipt?.deliveryStatus ?? null),
        s.map((r) => r.receipt?.failureReason ?? null)
      ]
    )
  })

/** Late acceptances: the id of a part whose submit answer came after its timeout. */
const writeLateAcceptances = ({ q }: Db, l: DispatchBatch["lateAcceptances"], now: Date) =>
  Effect.gen(function*() {
    const params = [
      now,
      l.map((r) => r.messageId),
      l.map((r) => r.partIndex),
      l.map((r) => r.providerMessageId),
      l.map((r) => r.ref)
    ]
    yield* q(
      `UPDATE message_parts p SET provider_message_id = u.pmid, provider_ref = u.ref,
  state = CASE WHEN p.state = 'unknown' THEN 'enroute' ELSE p.state END, updated_at = $1
FROM unnest($2::uuid[], $3::int[], $4::text[], $5::text[]) AS u(mid, idx, pmid, ref)
WHERE p.message_id = u.mid AND p.part_index = u.idx AND p.provider_ref IS NULL`,
      params
    )
    // a single-part message (no parts rows) takes its ref; a multi-part one shows its first id
    yield* q(
      `UPDATE messages m SET provider_message_id = COALESCE(m.provider_message_id, u.pmid),
  provider_ref = CASE WHEN EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id) THEN NULL ELSE u.ref END,
  updated_at = $1
FROM unnest($2::uuid[], $3::int[], $4::text[], $5::text[]) AS u(mid, idx, pmid, ref)
WHERE m.id = u.mid AND u.idx = 0 AND m.provider_ref IS NULL`,
      params
    )
  })

/** Failed before any acceptance (refund per decisions §20); their queue rows are dropped. */
const writeFailed = (db: Db, f: DispatchBatch["failed"], now: Date) =>
  Effect.gen(function*() {
    const { q } = db
    const rows = yield* Failed.all(q(
      `UPDATE messages m SET status = ${MessageTarget.fail}, failed_at = GREATEST($1, COALESCE(m.queued_at, m.created_at)),
  failure_reason = u.reason,
  failure_context = jsonb_build_object('error_code', u.code, 'acceptance_state', 'DEFINITELY_NOT_ACCEPTED'),
  updated_at = $1
FROM unnest($2::uuid[], $3::text[], $4::text[], $5::bool[]) AS u(id, reason, code, refund)
WHERE m.id = u.id AND ${inList("m.status", Message.awaitingSubmission)}
RETURNING m.id, m.account_id, m.market_id, m.units, u.refund`,
      [now, f.map((r) => r.messageId), f.map((r) => r.reason), f.map((r) => r.code), f.map((r) => r.refund)]
    ))
    yield* refund(db)(rows.filter((r) => r.refund), now)
    yield* q(`DELETE FROM dispatch_queue WHERE message_id = ANY($1::uuid[])`, [f.map((r) => r.messageId)])
  })

/** Back to the queue, later (`release`). */
const requeue = ({ q }: Db, r: DispatchBatch["requeued"], now: Date) =>
  Effect.gen(function*() {
    yield* q(
      `UPDATE dispatch_queue d SET available_at = u.at, last_error = u.err, lease_owner = NULL, lease_until = NULL
FROM unnest($1::uuid[], $2::timestamptz[], $3::text[]) AS u(id, at, err) WHERE d.message_id = u.id`,
      [r.map((x) => x.messageId), r.map((x) => x.availableAt.toISOString()), r.map((x) => x.lastError)]
    )
    yield* q(
      `UPDATE messages SET status = ${MessageTarget.release}, updated_at = $1 WHERE id = ANY($2::uuid[]) AND ${
        inList("status", Message.releasable)
      }`,
      [
        now,
        r.map((x) => x.messageId)
      ]
    )
  })

/** Provider credit given back (not accepted). */
const returnCredit = ({ q }: Db, c: DispatchBatch["creditReturns"], now: Date) =>
  q(
    `UPDATE provider_credits c SET balance = c.balance + s.units, updated_at = $1
FROM (SELECT pid, mid, sum(units)::int AS units FROM unnest($2::uuid[], $3::uuid[], $4::int[]) AS u(pid, mid, units) GROUP BY pid, mid) s
WHERE c.provider_id = s.pid AND c.market_id = s.mid`,
    [now, c.map((x) => x.providerId), c.map((x) => x.marketId), c.map((x) => x.units)]
  ).pipe(Effect.asVoid)

/** Inbound STOP: opts the handset out of the account it replied to; answers how many were added. */
const recordOptOuts = ({ q }: Db, o: DispatchBatch["optOuts"], now: Date) =>
  Effect.gen(function*() {
    const rows = yield* optedOutRows(q(
      `INSERT INTO opt_outs (account_id, recipient, reason, created_at)
SELECT DISTINCT ON (acct.account_id, u.recipient) acct.account_id, u.recipient, 'Inbound "' || u.text || '" to ' || u.to_addr, $1
FROM unnest($2::text[], $3::text[], $4::text[]) AS u(recipient, to_addr, text)
JOIN LATERAL (
  SELECT m.account_id FROM messages m WHERE m.recipient = u.recipient
  ORDER BY (upper(m.sender_id) = upper(u.to_addr) OR m.sender_id = u.to_addr) DESC, m.created_at DESC LIMIT 1
) acct ON true
ON CONFLICT (account_id, recipient) DO NOTHING
RETURNING account_id`,
      [now, o.map((x) => x.recipient), o.map((x) => x.to), o.map((x) => x.text)]
    ))
    return rows.length
  })

/** Writes a batch of outcomes in one transaction, each kind one or two set-based statements. */
export const apply = (db: Db): DispatchStore["Type"]["apply"] => (batch) =>
  db.tx(Effect.gen(function*() {
    const now = batch.now
    if (batch.sent.length > 0) yield* writeSent(db, batch.sent, now)
    if (batch.lateAcceptances.length > 0) yield* writeLateAcceptances(db, batch.lateAcceptances, now)
    if (batch.failed.length > 0) yield* writeFailed(db, batch.failed, now)
    if (batch.requeued.length > 0) yield* requeue(db, batch.requeued, now)
    if (batch.creditReturns.length > 0) yield* returnCredit(db, batch.creditReturns, now)
    // receipts: one statement (match by candidate rank, parts, messages, reconcile, pending)
    const { matched, pending } = yield* applyReceipts(db)(batch.receipts, now)
    const optedOut = batch.optOuts.length > 0 ? yield* recordOptOuts(db, batch.optOuts, now) : 0
    // two-way SMS: parts stored, joined and routed before the carrier is acknowledged
    const inbound = yield* recordParts(db)(batch.inbound, now)
    return { receiptsMatched: matched, receiptsPending: pending, optedOut, inbound } satisfies ApplyResult
  })).pipe(Effect.orDie)
