/**
 * SQL adapter of `PortalReadStore` (core/src/portal/PortalReadStore.ts), PostgreSQL and PGlite.
 * Every query is bounded by `account_id` (directly, or through the account's webhook endpoints).
 *
 * - the dashboard groups the last seven local days' messages by day and status from the count
 *   rollup (`messageCounts.ts`; a zone whose midnight is not a whole UTC hour, or a week older than
 *   the rollup's hours, counts the account's `messages_account_created_idx` range instead), and reads the ten newest failures
 *   (`messages_account_status_created_idx`);
 * - a message's webhook deliveries are looked up through its key's endpoints, from the message's
 *   creation on (`webhook_deliveries_endpoint_idx`), so no index is added to the webhook write path.
 */
import { SqlClient } from "@effect/sql"
import type {
  CampaignCopyRow,
  CampaignRow,
  DashboardRows,
  DayStatusCount,
  DeliveryWithAttempts,
  MessageTimelineRow
} from "@tuma/core/ports/PortalReadStore"
import { PortalReadStore } from "@tuma/core/ports/PortalReadStore"
import { MessageStatus } from "@tuma/domain"
import { Effect, Layer, Schema } from "effect"
import * as MessageCounts from "./messageCounts.js"
import {
  decoders,
  findAll,
  findFirst,
  isUuid,
  NullableDate,
  NullableString,
  rowsOf,
  single,
  WebhookAttempts
} from "./rows.js"

type CampaignBase = Omit<CampaignRow, "delivery">
type Attempt = DeliveryWithAttempts["attempt_log"][number]
type DeliveryBase = Omit<DeliveryWithAttempts, "attempt_log">

const Status = MessageStatus

const CampaignCopies = rowsOf<CampaignCopyRow>()(Schema.Struct({
  name: Schema.String,
  sender_id: Schema.String,
  message: NullableString,
  first_text: NullableString,
  recipients: Schema.Array(Schema.String)
}))
const MessageTexts = decoders(Schema.Struct({ id: Schema.String, text: Schema.String }))

const Balances = rowsOf<DashboardRows["balances"][number]>()(Schema.Struct({
  country: Schema.String,
  calling_code: NullableString,
  balance: Schema.Number,
  enabled: Schema.Boolean
}))

const DayStatusCounts = rowsOf<DayStatusCount>()(Schema.Struct({
  day: Schema.String,
  status: Status,
  n: Schema.Number
}))

const Failures = rowsOf<DashboardRows["failures"][number]>()(Schema.Struct({
  id: Schema.String,
  recipient: Schema.String,
  sender_id: Schema.String,
  failure_reason: NullableString,
  failed_at: NullableDate,
  created_at: Schema.DateFromSelf
}))

const Campaigns = rowsOf<CampaignBase>()(Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  sender_id: Schema.String,
  api_version: Schema.Literal("v1", "v2"),
  api_key_id: NullableString,
  status: Schema.String,
  recipient_count: Schema.Number,
  queued_count: Schema.Number,
  failed_count: Schema.Number,
  units: Schema.Number,
  failures: Schema.Unknown,
  scheduled_at: NullableDate,
  created_at: Schema.DateFromSelf
}))

const Timelines = rowsOf<MessageTimelineRow>()(Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  country: Schema.String,
  created_at: Schema.DateFromSelf,
  scheduled_at: NullableDate,
  queued_at: NullableDate,
  sent_at: NullableDate,
  delivered_at: NullableDate,
  failed_at: NullableDate,
  failure_reason: NullableString,
  dr_checked_at: NullableDate,
  dr_status: NullableString,
  dr_delivery_status: NullableString
}))

const Deliveries = rowsOf<DeliveryBase>()(Schema.Struct({
  id: Schema.String,
  endpoint_id: Schema.String,
  event: Schema.String,
  status: Schema.String,
  message_id: Schema.String,
  recipient: Schema.String,
  attempts: Schema.Number,
  next_attempt_at: NullableDate,
  last_status: Schema.NullOr(Schema.Number),
  last_error: NullableString,
  completed_at: NullableDate
}))

const campaignCounts = findAll(Schema.Struct({ campaign_id: Schema.String, status: Schema.String, n: Schema.Number }))
const total = single(Schema.Struct({ total: Schema.Number }))
const secretRow = findFirst(Schema.Struct({ url: Schema.String, secret: Schema.String }))

/** The SQL `PortalReadStore` over the context's `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const withDelivery = (rows: ReadonlyArray<CampaignBase>) =>
    Effect.gen(function*() {
      if (rows.length === 0) return []
      const ids = rows.map((r) => r.id)
      const counts = yield* campaignCounts(sql`
        SELECT campaign_id, status, count(*)::int AS n FROM messages
        WHERE campaign_id IN ${sql.in(ids)} GROUP BY campaign_id, status`)
      const by = new Map<string, Record<string, number>>()
      for (const c of counts) {
        const m = by.get(c.campaign_id) ?? {}
        m[c.status] = c.n
        by.set(c.campaign_id, m)
      }
      return rows.map((r): CampaignRow => ({ ...r, delivery: by.get(r.id) ?? {} }))
    })

  const attemptsOf = (deliveries: ReadonlyArray<DeliveryBase>) =>
    Effect.gen(function*() {
      if (deliveries.length === 0) return []
      const attempts = yield* WebhookAttempts.all(sql`
        SELECT delivery_id, attempt, attempted_at, outcome, response_status, latency_ms, error
        FROM webhook_attempts WHERE delivery_id IN ${sql.in(deliveries.map((d) => d.id))}
        ORDER BY delivery_id, attempt`)
      const by = new Map<string, Array<Attempt>>()
      for (const { delivery_id, ...a } of attempts) {
        const list = by.get(delivery_id) ?? []
        list.push(a)
        by.set(delivery_id, list)
      }
      return deliveries.map((d): DeliveryWithAttempts => ({ ...d, attempt_log: by.get(d.id) ?? [] }))
    })

  const CAMPAIGN_COLUMNS = sql.literal(`id, name, sender_id, api_version, api_key_id, status, recipient_count,
    queued_count, failed_count, units, failures, scheduled_at, created_at`)

  return PortalReadStore.of({
    dashboard: (accountId, timeZone, now) =>
      Effect.gen(function*() {
        const balances = yield* Balances.all(sql`
          SELECT m.iso2 AS country, m.calling_code, w.balance, w.enabled
          FROM wallets w JOIN markets m ON m.id = w.market_id
          WHERE w.account_id = ${accountId} ORDER BY m.iso2`)
        // a week the rollup holds as whole hours (every whole-hour zone) is read from it, else counted
        const counts = yield* DayStatusCounts.all(
          (yield* MessageCounts.weekInRollup(sql, timeZone, now))
            ? MessageCounts.weekFromRollup(sql, accountId, timeZone, now)
            : sql`
          SELECT to_char((created_at AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS day, status, count(*)::int AS n
          FROM messages
          WHERE account_id = ${accountId}
            AND created_at >= ((((${now}::timestamptz AT TIME ZONE ${timeZone})::date - 6)::timestamp)
              AT TIME ZONE ${timeZone})
          GROUP BY 1, 2`
        )
        const failures = yield* Failures.all(
          sql`SELECT id, recipient, sender_id, failure_reason, failed_at, created_at FROM messages
          WHERE account_id = ${accountId} AND status = 'failed'
          ORDER BY created_at DESC, id DESC LIMIT 10`
        )
        return { balances, counts, failures }
      }).pipe(Effect.orDie),

    campaigns: (accountId, page, perPage) =>
      Effect.gen(function*() {
        const { total: n } = yield* total(sql`
          SELECT count(*)::int AS total FROM campaigns WHERE account_id = ${accountId}`)
        const rows = yield* Campaigns.all(sql`SELECT ${CAMPAIGN_COLUMNS} FROM campaigns
          WHERE account_id = ${accountId} ORDER BY created_at DESC, id DESC
          LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`)
        return { rows: yield* withDelivery(rows), total: n }
      }).pipe(Effect.orDie),

    campaign: (accountId, campaignId) =>
      !isUuid(campaignId) ? Effect.succeed(undefined) : Effect.gen(function*() {
        const rows = yield* Campaigns.all(sql`SELECT ${CAMPAIGN_COLUMNS} FROM campaigns
          WHERE id = ${campaignId} AND account_id = ${accountId}`)
        return (yield* withDelivery(rows))[0]
      }).pipe(Effect.orDie),

    messageTimeline: (accountId, messageId) =>
      !isUuid(messageId) ? Effect.succeed(undefined) : Timelines.first(sql`
        SELECT id, text, country, created_at, scheduled_at, queued_at, sent_at, delivered_at, failed_at,
          failure_reason, dr_checked_at, dr_status, dr_delivery_status
        FROM messages WHERE id = ${messageId} AND account_id = ${accountId}`).pipe(Effect.orDie),

    campaignCopy: (accountId, campaignId) =>
      !isUuid(campaignId) ? Effect.succeed(undefined) : CampaignCopies.first(sql`
        SELECT c.name, c.sender_id, c.message,
          (SELECT m.text FROM messages m WHERE m.campaign_id = c.id ORDER BY m.id LIMIT 1) AS first_text,
          COALESCE((SELECT array_agg(m.recipient ORDER BY m.id) FROM messages m WHERE m.campaign_id = c.id),
            '{}'::text[]) AS recipients
        FROM campaigns c WHERE c.id = ${campaignId} AND c.account_id = ${accountId}`).pipe(Effect.orDie),

    messageTexts: (accountId, messageIds) =>
      MessageTexts.all(sql`SELECT id, text FROM messages
        WHERE account_id = ${accountId} AND id = ANY(${messageIds.filter(isUuid)}::uuid[])`).pipe(
        Effect.map((rows) => new Map(rows.map((r) => [r.id, r.text]))),
        Effect.orDie
      ),

    deliveries: (accountId, by, limit) =>
      Effect.gen(function*() {
        const columns = sql.literal(`d.id, d.endpoint_id, d.event, d.status, d.message_id,
          COALESCE(m.recipient, '') AS recipient, d.attempts,
          CASE WHEN d.status = 'pending' THEN d.next_attempt_at END AS next_attempt_at, d.last_status, d.last_error,
          d.completed_at`)
        let rows: ReadonlyArray<DeliveryBase>
        if ("messageId" in by) {
          if (!isUuid(by.messageId)) return []
          rows = yield* Deliveries.all(sql`
            SELECT ${columns}
            FROM messages m
            JOIN webhook_endpoints e ON e.api_key_id = m.api_key_id AND e.account_id = ${accountId}
            JOIN webhook_deliveries d ON d.endpoint_id = e.id AND d.created_at >= m.created_at
              AND d.message_id = m.id
            WHERE m.id = ${by.messageId} AND m.account_id = ${accountId}
            ORDER BY d.created_at, d.id LIMIT ${limit}`)
        } else {
          if (!isUuid(by.endpointId)) return []
          rows = yield* Deliveries.all(sql`
            SELECT ${columns}
            FROM webhook_endpoints e
            JOIN webhook_deliveries d ON d.endpoint_id = e.id
            LEFT JOIN messages m ON m.id = d.message_id
            WHERE e.id = ${by.endpointId} AND e.account_id = ${accountId}
            ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit}`)
        }
        return yield* attemptsOf(rows)
      }).pipe(Effect.orDie),

    endpointSecret: (accountId, endpointId) =>
      !isUuid(endpointId) ? Effect.succeed(undefined) : secretRow(sql`
        SELECT url, secret FROM webhook_endpoints WHERE id = ${endpointId} AND account_id = ${accountId}`)
        .pipe(Effect.orDie)
  })
})

/** `PortalReadStore` on SQL. */
export const layer: Layer.Layer<PortalReadStore, never, SqlClient.SqlClient> = Layer.effect(PortalReadStore, make)
