/**
 * SQL adapter of the delivery ports (`DispatchStore`, `DispatchWakeups`), for PostgreSQL and PGlite.
 *
 * Every write of a batch is one transaction of a handful of set-based statements (`unnest` of
 * parameter arrays), whatever the batch size: that is what lets one worker record thousands of
 * state changes per second durably. See docs/delivery.md.
 *
 * Why one file of ≈740 lines: one port's adapter: most of the length is the claim, result and
 * receipt statements (batched CTEs), each beside the operation it serves.
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql"
import type {
  ApplyResult,
  ClaimedMessage,
  ProviderRow,
  ReceiptRecord,
  ReconcileItem,
  RouteRow
} from "@tuma/core/ports/DispatchStore"
import { DispatchStore, DispatchWakeups } from "@tuma/core/ports/DispatchStore"
import { Effect, Layer, Option, Schema } from "effect"
import { decoders, findAll, findOne, NullableDate, NullableString } from "./rows.js"
import { retryTransient } from "./SqlRetry.js"
import { Campaign, inList, Message, notInList } from "./statusConditions.js"
import * as Wakeups from "./Wakeups.js"

// The rows this adapter reads, each decoded by a decoder built once (module load), in the claim
// loop and the writer as everywhere else.

const Claimed = decoders(Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  market_id: Schema.String,
  country: Schema.String,
  recipient: Schema.String,
  sender_id: Schema.String,
  text: Schema.String,
  encoding: Schema.Literal("GSM-7", "Unicode"),
  parts: Schema.Number,
  units: Schema.Number,
  queued_at: NullableDate,
  created_at: Schema.DateFromSelf,
  attempts: Schema.Number
}))

const Routes = decoders(Schema.Struct({
  market_id: Schema.String,
  provider_id: Schema.String,
  name: Schema.String,
  priority: Schema.Number,
  max_per_second: Schema.NullOr(Schema.Number)
}))

const Providers = decoders(Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  kind: Schema.String,
  config: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
}))

const PendingReceipts = decoders(Schema.Struct({
  provider_id: Schema.String,
  refs: Schema.Array(Schema.String),
  state: Schema.Literal("delivered", "failed", "enroute"),
  delivery_status: Schema.String,
  error_code: NullableString,
  failure_reason: NullableString,
  received_at: Schema.DateFromSelf
}))

const Reconciled = decoders(Schema.Struct({
  message_id: Schema.String,
  provider_id: Schema.String,
  reference: Schema.String,
  ids: Schema.NullOr(Schema.Array(Schema.String))
}))

const Failed = decoders(Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  market_id: Schema.String,
  units: Schema.Number,
  refund: Schema.Boolean
}))

const granted = findOne(Schema.Struct({ granted: Schema.Number }))
const receiptCounts = findOne(Schema.Struct({ matched: Schema.Number, pending: Schema.Number }))
const count = findOne(Schema.Struct({ n: Schema.Number }))
const anyPending = findOne(Schema.Struct({ any: Schema.Boolean }))
const delay = findOne(Schema.Struct({ delay_ms: Schema.Number }))
const beatRow = findOne(
  Schema.Struct({ registered: Schema.NullOr(Schema.Boolean), dead: Schema.NullOr(Schema.Array(Schema.String)) })
)
const optedOutRows = findAll(Schema.Struct({ account_id: Schema.String }))

/** The value of an optional one-row answer's field, or `fallback` without a row. */
const field = <A, K extends keyof A, B>(row: Option.Option<A>, key: K, fallback: B): A[K] | B =>
  Option.isSome(row) ? row.value[key] : fallback

/** The LISTEN/NOTIFY channel that wakes the delivery workers when messages are queued. */
export const DISPATCH_CHANNEL = "tuma_dispatch"

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

/** One element of a PostgreSQL array literal, as `pg` writes it. */
const arrayElement = (v: string | number | boolean | null | undefined): string =>
  v === null || v === undefined
    ? "NULL"
    : typeof v !== "string"
    ? String(v)
    : /[\\"]/.test(v)
    ? `"${v.replace(/[\\"]/g, "\\$&")}"`
    : `"${v}"`

/**
 * Array parameters as PostgreSQL array literals built with one `join`: `pg` builds them by
 * appending element after element, which allocated ~6 KB of intermediate strings per dispatched
 * message (the largest source of garbage of a worker).
 */
const encodeParam = (p: unknown): unknown => Array.isArray(p) ? `{${p.map(arrayElement).join(",")}}` : p

/** The SQL `DispatchStore` (claims with leases, the writer's batched outcomes, receipts). */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const q = (text: string, params: ReadonlyArray<unknown> = []) => sql.unsafe(text, params.map(encodeParam))
  const tx = <A, E, R>(eff: Effect.Effect<A, E | SqlError.SqlError, R>) =>
    sql.withTransaction(eff).pipe(retryTransient(5))

  // index look-ups by id (ANY(ARRAY(...))) whatever the table sizes: a hash join would read every
  // queued message of the table to claim a batch
  const claim: DispatchStore["Type"]["claim"] = ({ leaseUntil, limit, now, owner }) =>
    Claimed.all(q(
      `WITH c AS (
  SELECT message_id FROM dispatch_queue
  WHERE available_at <= $1
  ORDER BY available_at
  LIMIT $2
  FOR UPDATE SKIP LOCKED
), l AS (
  UPDATE dispatch_queue d
  SET lease_owner = $3, lease_until = $4, available_at = $4, attempts = d.attempts + 1
  WHERE d.message_id = ANY(ARRAY(SELECT message_id FROM c))
  RETURNING d.message_id, d.attempts
), m AS (
  UPDATE messages m SET status = 'processing', updated_at = $1
  WHERE m.id = ANY(ARRAY(SELECT message_id FROM l)) AND ${inList("m.status", Message.claimable)}
  RETURNING m.id, m.account_id, m.market_id, m.country, m.recipient, m.sender_id, m.text, m.encoding,
    m.parts, m.units, m.queued_at, m.created_at
)
SELECT m.*, l.attempts FROM m JOIN l ON l.message_id = m.id`,
      [now, limit, owner, leaseUntil]
    )).pipe(
      Effect.map((rows): ReadonlyArray<ClaimedMessage> =>
        rows.map((r) => ({
          id: r.id,
          accountId: r.account_id,
          marketId: r.market_id,
          country: r.country,
          recipient: r.recipient,
          senderId: r.sender_id,
          text: r.text,
          encoding: r.encoding,
          parts: r.parts,
          units: r.units,
          queuedAt: r.queued_at,
          createdAt: r.created_at,
          attempts: r.attempts
        }))
      ),
      Effect.orDie
    )

  const routes: Effect.Effect<ReadonlyArray<RouteRow>> = Routes.all(q(
    `SELECT r.market_id, r.provider_id, p.name, r.priority, (p.config->>'maxPerSecond')::float8 AS max_per_second
FROM provider_routes r JOIN providers p ON p.id = r.provider_id
WHERE r.enabled AND p.enabled
ORDER BY r.market_id, r.priority, p.name`
  )).pipe(
    Effect.map((rows) =>
      rows.map((r) => ({
        marketId: r.market_id,
        providerId: r.provider_id,
        providerName: r.name,
        priority: r.priority,
        maxPerSecond: r.max_per_second
      }))
    ),
    Effect.orDie
  )

  const providers: Effect.Effect<ReadonlyArray<ProviderRow>> = Providers.all(q(
    `SELECT id, name, kind, config FROM providers WHERE enabled ORDER BY name`
  )).pipe(
    Effect.map((rows) => rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind, config: r.config ?? {} }))),
    Effect.orDie
  )

  const reserveCredit: DispatchStore["Type"]["reserveCredit"] = (providerId, marketId, units, now) =>
    granted(q(
      `WITH c AS (
  SELECT provider_id, market_id, balance FROM provider_credits
  WHERE provider_id = $1 AND market_id = $2 FOR UPDATE
)
UPDATE provider_credits p SET balance = p.balance - LEAST(c.balance, $3), updated_at = $4
FROM c WHERE p.provider_id = c.provider_id AND p.market_id = c.market_id
RETURNING LEAST(c.balance, $3)::int AS granted`,
      [providerId, marketId, units, now]
    )).pipe(Effect.map((row) => field(row, "granted", 0)), Effect.orDie)

  /**
   * Receipts in one statement. Each is matched by the first of its candidate refs (most literal
   * first) that names an unfinished single-part message (`messages.provider_ref`, status `sent`) or
   * an unfinished part (`message_parts`), the most recently sent when a carrier reused the ref;
   * per message or part the last receipt with a final state wins (else the last). A single-part
   * message moves directly; parts are updated and their message becomes delivered (every part
   * delivered) or failed (any part failed). Reconciliation rows of final messages are dropped; the
   * unmatched receipts are kept in `delivery_receipts_pending`.
   */
  const applyReceipts = (receipts: ReadonlyArray<ReceiptRecord>, now: Date) =>
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
  const applyPendingReceipts = (now: Date) =>
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
      yield* applyReceipts(receipts, now)
      return receipts.length
    })

  const refund = (
    rows: ReadonlyArray<{ id: string; account_id: string; market_id: string; units: number }>,
    now: Date
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
  r.mid, 'not accepted by any provider', $5
FROM r JOIN w ON w.account_id = r.acct AND w.market_id = r.market
ORDER BY w.id, r.mid`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.account_id),
        rows.map((r) => r.market_id),
        rows.map((r) => r.units),
        now
      ]
    ).pipe(Effect.asVoid)

  const apply: DispatchStore["Type"]["apply"] = (batch) =>
    tx(Effect.gen(function*() {
      const now = batch.now
      const done: Array<string> = []
      // 1. sent (processing -> sent, or -> failed when a later part was refused), the parts of
      //    multi-part messages (a single-part one keeps its ref on `messages`), the reconciliation of
      //    unknown outcomes, the queue rows: one statement
      if (batch.sent.length > 0) {
        const s = batch.sent
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
      }
      // 2. late acceptances: the id of a part whose submit answer came after its timeout
      if (batch.lateAcceptances.length > 0) {
        const l = batch.lateAcceptances
        yield* q(
          `UPDATE message_parts p SET provider_message_id = u.pmid, provider_ref = u.ref,
  state = CASE WHEN p.state = 'unknown' THEN 'enroute' ELSE p.state END, updated_at = $1
FROM unnest($2::uuid[], $3::int[], $4::text[], $5::text[]) AS u(mid, idx, pmid, ref)
WHERE p.message_id = u.mid AND p.part_index = u.idx AND p.provider_ref IS NULL`,
          [
            now,
            l.map((r) => r.messageId),
            l.map((r) => r.partIndex),
            l.map((r) => r.providerMessageId),
            l.map((r) => r.ref)
          ]
        )
        // a single-part message (no parts rows) takes its ref; a multi-part one shows its first id
        yield* q(
          `UPDATE messages m SET provider_message_id = COALESCE(m.provider_message_id, u.pmid),
  provider_ref = CASE WHEN EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id) THEN NULL ELSE u.ref END,
  updated_at = $1
FROM unnest($2::uuid[], $3::int[], $4::text[], $5::text[]) AS u(mid, idx, pmid, ref)
WHERE m.id = u.mid AND u.idx = 0 AND m.provider_ref IS NULL`,
          [
            now,
            l.map((r) => r.messageId),
            l.map((r) => r.partIndex),
            l.map((r) => r.providerMessageId),
            l.map((r) => r.ref)
          ]
        )
      }
      // 3. failed before any acceptance (refund per decisions §20)
      if (batch.failed.length > 0) {
        const f = batch.failed
        const rows = yield* Failed.all(q(
          `UPDATE messages m SET status = 'failed', failed_at = GREATEST($1, COALESCE(m.queued_at, m.created_at)),
  failure_reason = u.reason,
  failure_context = jsonb_build_object('error_code', u.code, 'acceptance_state', 'DEFINITELY_NOT_ACCEPTED'),
  updated_at = $1
FROM unnest($2::uuid[], $3::text[], $4::text[], $5::bool[]) AS u(id, reason, code, refund)
WHERE m.id = u.id AND ${inList("m.status", Message.awaitingSubmission)}
RETURNING m.id, m.account_id, m.market_id, m.units, u.refund`,
          [now, f.map((r) => r.messageId), f.map((r) => r.reason), f.map((r) => r.code), f.map((r) => r.refund)]
        ))
        yield* refund(rows.filter((r) => r.refund), now)
        done.push(...f.map((r) => r.messageId))
      }
      if (done.length > 0) yield* q(`DELETE FROM dispatch_queue WHERE message_id = ANY($1::uuid[])`, [done])
      // 4. back to the queue, later
      if (batch.requeued.length > 0) {
        const r = batch.requeued
        yield* q(
          `UPDATE dispatch_queue d SET available_at = u.at, last_error = u.err, lease_owner = NULL, lease_until = NULL
FROM unnest($1::uuid[], $2::timestamptz[], $3::text[]) AS u(id, at, err) WHERE d.message_id = u.id`,
          [r.map((x) => x.messageId), r.map((x) => x.availableAt.toISOString()), r.map((x) => x.lastError)]
        )
        yield* q(
          `UPDATE messages SET status = 'queued', updated_at = $1 WHERE id = ANY($2::uuid[]) AND ${
            inList("status", Message.releasable)
          }`,
          [
            now,
            r.map((x) => x.messageId)
          ]
        )
      }
      // 5. provider credit given back (not accepted)
      if (batch.creditReturns.length > 0) {
        const c = batch.creditReturns
        yield* q(
          `UPDATE provider_credits c SET balance = c.balance + s.units, updated_at = $1
FROM (SELECT pid, mid, sum(units)::int AS units FROM unnest($2::uuid[], $3::uuid[], $4::int[]) AS u(pid, mid, units) GROUP BY pid, mid) s
WHERE c.provider_id = s.pid AND c.market_id = s.mid`,
          [now, c.map((x) => x.providerId), c.map((x) => x.marketId), c.map((x) => x.units)]
        )
      }
      // 6. receipts: one statement (match by candidate rank, parts, messages, reconcile, pending)
      const { matched, pending } = yield* applyReceipts(batch.receipts, now)
      // 7. inbound STOP: opt the handset out of the account it replied to
      let optedOut = 0
      if (batch.optOuts.length > 0) {
        const o = batch.optOuts
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
        optedOut = rows.length
      }
      return {
        receiptsMatched: matched,
        receiptsPending: pending,
        optedOut
      } satisfies ApplyResult
    })).pipe(Effect.orDie)

  const promoteScheduled: DispatchStore["Type"]["promoteScheduled"] = (now, limit) =>
    count(q(
      `WITH due AS (
  SELECT id FROM messages WHERE ${inList("status", Message.scheduled)} AND scheduled_at <= $1
  ORDER BY scheduled_at LIMIT $2 FOR UPDATE SKIP LOCKED
), moved AS (
  UPDATE messages m SET status = 'queued', queued_at = GREATEST($1, m.created_at), updated_at = $1
  FROM due WHERE m.id = due.id
  RETURNING m.id, m.account_id, m.campaign_id
), queued AS (
  INSERT INTO dispatch_queue (message_id, account_id, available_at, created_at)
  SELECT id, account_id, $1, $1 FROM moved
  ON CONFLICT (message_id) DO NOTHING
), camp AS (
  UPDATE campaigns SET status = 'queued', updated_at = $1
  WHERE ${inList("status", Campaign.scheduled)} AND id IN (SELECT campaign_id FROM moved WHERE campaign_id IS NOT NULL)
)
SELECT count(*)::int AS n FROM moved`,
      [now, limit]
    )).pipe(Effect.map((row) => field(row, "n", 0)), Effect.orDie)

  const dueReconciliations: DispatchStore["Type"]["dueReconciliations"] = (now, limit, leaseUntil) =>
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

  const failUnconfirmed: DispatchStore["Type"]["failUnconfirmed"] = (items, now) =>
    items.length === 0 ? Effect.void : tx(Effect.gen(function*() {
      yield* q(
        `UPDATE messages m SET status = 'failed', failed_at = GREATEST($1, m.sent_at), failure_reason = u.reason,
  dr_checked_at = $1, dr_status = 'failed', updated_at = $1
FROM unnest($2::uuid[], $3::text[]) AS u(id, reason) WHERE m.id = u.id AND ${
          inList("m.status", Message.awaitingReceipt)
        }`,
        [now, items.map((i) => i.messageId), items.map((i) => i.reason)]
      )
      yield* q(`DELETE FROM dispatch_reconcile WHERE message_id = ANY($1::uuid[])`, [items.map((i) => i.messageId)])
    })).pipe(Effect.orDie)

  const sweepPendingReceipts: DispatchStore["Type"]["sweepPendingReceipts"] = (now, olderThan) =>
    tx(Effect.gen(function*() {
      const matched = yield* applyPendingReceipts(now)
      yield* q(`DELETE FROM delivery_receipts_pending WHERE received_at < $1`, [olderThan])
      // queue rows whose message is no longer waiting to be sent (cannot happen through this adapter)
      yield* q(
        `DELETE FROM dispatch_queue d USING messages m
WHERE d.message_id = m.id AND d.available_at <= $1 AND ${notInList("m.status", Message.awaitingSubmission)}`,
        [now]
      )
      return matched
    })).pipe(Effect.orDie)

  const matchPendingReceipts: DispatchStore["Type"]["matchPendingReceipts"] = (now) =>
    Effect.gen(function*() {
      const pending = yield* anyPending(q(`SELECT EXISTS (SELECT 1 FROM delivery_receipts_pending) AS any`))
      if (!field(pending, "any", false)) return 0
      return yield* tx(applyPendingReceipts(now))
    }).pipe(Effect.orDie)

  const reserveSlots: DispatchStore["Type"]["reserveSlots"] = (providerId, count, perSecond) =>
    delay(q(
      `INSERT INTO dispatch_rate (provider_id, next_slot)
VALUES ($1, clock_timestamp() + make_interval(secs => $2::float8 / $3::float8))
ON CONFLICT (provider_id) DO UPDATE
  SET next_slot = GREATEST(dispatch_rate.next_slot, clock_timestamp()) + make_interval(secs => $2::float8 / $3::float8)
RETURNING (EXTRACT(EPOCH FROM (next_slot - clock_timestamp())) * 1000 - ($2::float8 / $3::float8) * 1000)::float8 AS delay_ms`,
      [providerId, count, perSecond]
    )).pipe(Effect.map((row) => Math.max(0, field(row, "delay_ms", 0))), Effect.orDie)

  // the queue is scanned (no index on lease_owner) only when some worker fell silent: rare
  const heartbeat: DispatchStore["Type"]["heartbeat"] = (owner, now, takeOverAfterMs) =>
    tx(Effect.gen(function*() {
      const beat = yield* beatRow(q(
        `WITH me AS (
  INSERT INTO dispatch_workers (owner, started_at, heartbeat_at) VALUES ($1, clock_timestamp(), clock_timestamp())
  ON CONFLICT (owner) DO UPDATE SET heartbeat_at = excluded.heartbeat_at
  RETURNING (xmax <> 0) AS registered
), dead AS (
  DELETE FROM dispatch_workers
  WHERE $2::float8 IS NOT NULL AND owner <> $1
    AND heartbeat_at < clock_timestamp() - make_interval(secs => $2::float8 / 1000)
  RETURNING owner
)
SELECT (SELECT registered FROM me) AS registered, (SELECT array_agg(owner) FROM dead) AS dead`,
        [owner, takeOverAfterMs]
      ))
      const dead = field(beat, "dead", null) ?? []
      let released = 0
      if (dead.length > 0) {
        const r = yield* count(q(
          `WITH u AS (
  UPDATE dispatch_queue SET available_at = $2, lease_until = NULL
  WHERE lease_owner = ANY($1::text[]) AND available_at > $2
  RETURNING 1
) SELECT count(*)::int AS n FROM u`,
          [dead, now]
        ))
        released = field(r, "n", 0)
      }
      return { registered: field(beat, "registered", null) === true, released }
    })).pipe(Effect.orDie)

  return DispatchStore.of({
    heartbeat,
    claim,
    routes,
    providers,
    reserveCredit,
    apply,
    promoteScheduled,
    dueReconciliations,
    failUnconfirmed,
    matchPendingReceipts,
    sweepPendingReceipts,
    reserveSlots
  })
})

/** `DispatchStore` over the database. */
export const layer: Layer.Layer<DispatchStore, never, SqlClient.SqlClient> = Layer.effect(DispatchStore, make)

/**
 * Wake-ups on `pg_notify('tuma_dispatch')` (sent by a trigger on `dispatch_queue` inserts): LISTEN on
 * PostgreSQL, `pglite.listen` on PGlite. Without either, `next` never completes (the worker polls).
 */
export const layerWakeups: Layer.Layer<DispatchWakeups> = Layer.scoped(
  DispatchWakeups,
  Wakeups.listen(DISPATCH_CHANNEL, "dispatch")
)
