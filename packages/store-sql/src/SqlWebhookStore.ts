/**
 * SQL adapter of `WebhookStore` (@tuma/core/ports/WebhookStore). Tables: migration 0200.
 * Same SQL on PostgreSQL 15 and PGlite. SQL failures are defects (infrastructure, not domain).
 *
 * Why one file of ≈440 lines: one port's adapter: its SQL statements (queue claims, attempts,
 * endpoint changes) are most of the length, each next to the operation it serves.
 */
import type { Statement } from "@effect/sql"
import { SqlClient } from "@effect/sql"
import type {
  AttemptView,
  ClaimedDelivery,
  ClaimedNotification,
  DeliveryStatus,
  DeliveryView,
  WebhookEndpoint
} from "@tuma/core/ports/WebhookStore"
import { WebhookStore, WebhookWakeups } from "@tuma/core/ports/WebhookStore"
import type { WebhookEndpointHealth } from "@tuma/domain"
import { applyWebhookAttempt, WebhookEventType } from "@tuma/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { decoders, findAll, findOne, Ids, NullableDate, NullableString, single, WebhookAttempts } from "./rows.js"
import * as Wakeups from "./Wakeups.js"

const Endpoints = decoders(Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  api_key_id: Schema.String,
  url: Schema.String,
  enabled: Schema.Boolean,
  consecutive_failures: Schema.Number,
  disabled_at: NullableDate,
  disabled_reason: NullableString,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
}))
type EndpointRow = typeof Endpoints.schema.Type

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  accountId: r.account_id,
  apiKeyId: r.api_key_id,
  url: r.url,
  enabled: r.enabled,
  consecutiveFailures: r.consecutive_failures,
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at
})

const ENDPOINT_COLUMNS =
  "id, account_id, api_key_id, url, enabled, consecutive_failures, disabled_at, disabled_reason, created_at, updated_at"

const MessageColumns = Schema.Struct({
  message_id: Schema.String,
  message_status: Schema.Literal("delivered", "failed"),
  recipient: Schema.String,
  sender_id: Schema.String,
  failure_reason: NullableString,
  final_at: Schema.DateFromSelf,
  created_at: Schema.DateFromSelf
})

const toMessage = (r: typeof MessageColumns.Type) => ({
  messageId: r.message_id,
  messageStatus: r.message_status,
  recipient: r.recipient,
  senderId: r.sender_id,
  failureReason: r.failure_reason,
  finalAt: r.final_at,
  createdAt: r.created_at
})

/** Columns of a delivery joined with its message (`d` deliveries, `m` messages). */
const DELIVERY_COLUMNS =
  `d.id, d.endpoint_id, d.message_id, d.event, d.status, d.attempts, d.next_attempt_at, d.final_at,
  d.last_status, d.last_error, d.redelivery_of, d.created_at, d.completed_at,
  CASE WHEN d.event = 'sms.delivered' THEN 'delivered' ELSE 'failed' END AS message_status,
  m.recipient, m.sender_id, m.failure_reason`

const DeliveryStatusSchema = Schema.Literal("pending", "succeeded", "failed", "skipped") satisfies Schema.Schema<
  DeliveryStatus
>

const Deliveries = decoders(Schema.extend(
  MessageColumns,
  Schema.Struct({
    id: Schema.String,
    endpoint_id: Schema.String,
    event: WebhookEventType,
    status: DeliveryStatusSchema,
    attempts: Schema.Number,
    next_attempt_at: Schema.DateFromSelf,
    last_status: Schema.NullOr(Schema.Number),
    last_error: NullableString,
    redelivery_of: NullableString,
    completed_at: NullableDate
  })
))

const ClaimedDeliveries = decoders(
  Schema.extend(Deliveries.schema, Schema.Struct({ url: Schema.String, secret: Schema.String }))
)

const Notifications = decoders(Schema.Struct({
  id: Schema.String,
  endpoint_id: Schema.String,
  channel: Schema.Literal("email", "sms"),
  attempts: Schema.Number,
  url: Schema.String,
  consecutive_failures: Schema.Number,
  disabled_at: NullableDate,
  account_id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  phone: NullableString
}))

const endpointHealth = findAll(
  Schema.Struct({ id: Schema.String, enabled: Schema.Boolean, consecutive_failures: Schema.Number })
)
const accountOf = single(Schema.Struct({ account_id: Schema.String }))
const nextDue = findOne(Schema.Struct({ at: NullableDate }))

const toDelivery = (r: typeof Deliveries.schema.Type): DeliveryView => ({
  ...toMessage(r),
  id: r.id,
  endpointId: r.endpoint_id,
  event: r.event,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.status === "pending" ? r.next_attempt_at : null,
  lastStatus: r.last_status,
  lastError: r.last_error,
  redeliveryOf: r.redelivery_of,
  completedAt: r.completed_at
})

/** The SQL `WebhookStore`: endpoints, deliveries and their retries. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const endpointQuery = (where: Statement.Fragment) =>
    sql`SELECT ${sql.literal(ENDPOINT_COLUMNS)} FROM webhook_endpoints ${where}`

  /** The endpoint of the statement's first row, or null. */
  const endpoint = <E, R>(rows: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
    Endpoints.one(rows).pipe(Effect.map(Option.match({ onNone: () => null, onSome: toEndpoint })))

  const service = WebhookStore.of({
    createEndpoint: (input) =>
      endpoint(sql`
        INSERT INTO webhook_endpoints (id, account_id, api_key_id, url, secret, enabled, consecutive_failures,
                                       created_at, updated_at)
        SELECT ${input.id}, k.account_id, k.id, ${input.url}, ${input.secret}, true, 0, ${input.now}, ${input.now}
        FROM api_keys k WHERE k.id = ${input.apiKeyId}
        RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`).pipe(Effect.orDie),

    getEndpoint: (id) => endpoint(endpointQuery(sql`WHERE id = ${id}`)).pipe(Effect.orDie),

    listEndpoints: (filter) =>
      Endpoints.all(endpointQuery(sql`WHERE true
        ${filter.accountId === undefined ? sql`` : sql`AND account_id = ${filter.accountId}`}
        ${filter.apiKeyId === undefined ? sql`` : sql`AND api_key_id = ${filter.apiKeyId}`}
        ORDER BY created_at, id`)).pipe(Effect.map((r) => r.map(toEndpoint)), Effect.orDie),

    enableEndpoint: (id, now) =>
      endpoint(sql`
        UPDATE webhook_endpoints SET enabled = true, consecutive_failures = 0, disabled_at = NULL,
               disabled_reason = NULL, updated_at = ${now}
        WHERE id = ${id} RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`).pipe(Effect.orDie),

    disableEndpoint: (id, reason, now) =>
      sql.withTransaction(Effect.gen(function*() {
        const disabled = yield* endpoint(sql`
          UPDATE webhook_endpoints SET enabled = false, disabled_at = COALESCE(disabled_at, ${now}),
                 disabled_reason = ${reason}, updated_at = ${now}
          WHERE id = ${id} RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`)
        if (disabled === null) return null
        yield* skipPending([id], reason, now)
        return disabled
      })).pipe(Effect.orDie),

    setSecret: (id, secret, now) =>
      endpoint(sql`
        UPDATE webhook_endpoints SET secret = ${secret}, updated_at = ${now}
        WHERE id = ${id} RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`).pipe(Effect.orDie),

    claimDue: (limit, now, leaseUntil) =>
      ClaimedDeliveries.all(sql`
        WITH due AS (
          SELECT id FROM webhook_deliveries w
          WHERE status = 'pending' AND next_attempt_at <= ${now}
            AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = w.endpoint_id AND e.enabled)
          ORDER BY next_attempt_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE webhook_deliveries d SET next_attempt_at = ${leaseUntil}, updated_at = ${now}
        FROM due, webhook_endpoints e, messages m
        WHERE d.id = due.id AND e.id = d.endpoint_id AND e.enabled AND m.id = d.message_id
        RETURNING ${sql.literal(DELIVERY_COLUMNS)}, e.url, e.secret`).pipe(
        Effect.map((rows) =>
          rows.map((r): ClaimedDelivery => ({
            ...toMessage(r),
            id: r.id,
            endpointId: r.endpoint_id,
            event: r.event,
            attempts: r.attempts,
            url: r.url,
            secret: r.secret
          }))
        ),
        Effect.orDie
      ),

    recordAttempts: (records, now, policy, notificationIds) =>
      records.length === 0 ? Effect.succeed({ disabledEndpoints: [] }) : sql.withTransaction(Effect.gen(function*() {
        // Endpoints first (in id order): every writer locks endpoints before their deliveries.
        const endpointIds = [...new Set(records.map((r) => r.endpointId))].sort()
        const endpoints = yield* endpointHealth(sql`
          SELECT id, enabled, consecutive_failures FROM webhook_endpoints
          WHERE id = ANY(${endpointIds}::uuid[]) ORDER BY id FOR UPDATE`)
        const health = new Map<string, WebhookEndpointHealth & { readonly was: WebhookEndpointHealth }>()
        for (const e of endpoints) {
          const h = { consecutiveFailures: e.consecutive_failures, disabled: !e.enabled }
          health.set(e.id, { ...h, was: h })
        }
        const justDisabled: Array<string> = []
        for (const r of records) {
          const h = health.get(r.endpointId)
          if (h === undefined) continue // endpoint deleted meanwhile
          const next = applyWebhookAttempt(h, r.outcome, policy)
          if (next.justDisabled) justDisabled.push(r.endpointId)
          health.set(r.endpointId, {
            consecutiveFailures: next.consecutiveFailures,
            disabled: next.disabled,
            was: h.was
          })
        }

        for (const part of chunk(records, 1000)) {
          yield* sql`INSERT INTO webhook_attempts ${
            sql.insert(part.map((r) => ({
              delivery_id: r.deliveryId,
              endpoint_id: r.endpointId,
              attempt: r.attempt,
              attempted_at: r.attemptedAt,
              outcome: r.outcome,
              response_status: r.responseStatus,
              latency_ms: r.latencyMs,
              error: r.error
            })))
          }`
          yield* sql`
            UPDATE webhook_deliveries d SET
              attempts = GREATEST(d.attempts, t.attempt),
              status = CASE WHEN t.outcome = 'success' THEN 'succeeded'
                            WHEN d.status <> 'pending' THEN d.status
                            WHEN t.next_at IS NULL THEN 'failed'
                            ELSE 'pending' END,
              next_attempt_at = COALESCE(t.next_at, d.next_attempt_at),
              last_status = t.response_status,
              last_error = t.error,
              updated_at = ${now},
              completed_at = CASE WHEN t.outcome = 'success' OR (t.next_at IS NULL AND d.status = 'pending')
                                  THEN ${now} ELSE d.completed_at END
            FROM unnest(
              ${part.map((r) => r.deliveryId)}::uuid[],
              ${part.map((r) => r.attempt)}::int[],
              ${part.map((r) => r.outcome)}::text[],
              ${part.map((r) => r.nextAttemptAt?.toISOString() ?? null)}::timestamptz[],
              ${part.map((r) => r.responseStatus)}::int[],
              ${part.map((r) => r.error)}::text[]
            ) AS t(id, attempt, outcome, next_at, response_status, error)
            WHERE d.id = t.id`
        }

        const changed = [...health.entries()].filter(([, h]) =>
          h.consecutiveFailures !== h.was.consecutiveFailures || h.disabled !== h.was.disabled
        )
        if (changed.length > 0) {
          yield* sql`
            UPDATE webhook_endpoints e SET
              consecutive_failures = t.failures,
              enabled = NOT t.disabled,
              disabled_at = CASE WHEN t.disabled AND e.enabled THEN ${now}::timestamptz ELSE e.disabled_at END,
              disabled_reason = CASE WHEN t.disabled AND e.enabled THEN t.failures || ' consecutive failed attempts'
                                     ELSE e.disabled_reason END,
              updated_at = ${now}
            FROM unnest(
              ${changed.map(([id]) => id)}::uuid[],
              ${changed.map(([, h]) => h.consecutiveFailures)}::int[],
              ${changed.map(([, h]) => h.disabled)}::boolean[]
            ) AS t(id, failures, disabled)
            WHERE e.id = t.id`
        }
        if (justDisabled.length > 0) {
          yield* skipPending(justDisabled, "endpoint disabled after consecutive failures", now)
          const rows: Array<Record<string, unknown>> = []
          for (const endpointId of justDisabled) {
            const { account_id: accountId } = yield* accountOf(sql`
              SELECT account_id FROM webhook_endpoints WHERE id = ${endpointId}`)
            for (const channel of ["email", "sms"] as const) {
              rows.push({
                id: yield* notificationIds,
                endpoint_id: endpointId,
                account_id: accountId,
                channel,
                status: "pending",
                attempts: 0,
                next_attempt_at: now,
                created_at: now
              })
            }
          }
          yield* sql`INSERT INTO webhook_notifications ${sql.insert(rows)}`
        }
        return { disabledEndpoints: justDisabled }
      })).pipe(Effect.orDie),

    nextDueAt: nextDue(sql`
      SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'`).pipe(
      Effect.map(Option.match({ onNone: () => null, onSome: (r) => r.at })),
      Effect.orDie
    ),

    listDeliveries: (endpointId, options) =>
      Deliveries.all(sql`
        SELECT ${sql.literal(DELIVERY_COLUMNS)}
        FROM webhook_deliveries d JOIN messages m ON m.id = d.message_id
        WHERE d.endpoint_id = ${endpointId}
          ${options.status === undefined ? sql`` : sql`AND d.status = ${options.status}`}
          ${options.before === undefined ? sql`` : sql`AND d.created_at < ${options.before}`}
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT ${options.limit}`).pipe(Effect.map((r) => r.map(toDelivery)), Effect.orDie),

    getDelivery: (id) =>
      Deliveries.one(sql`
        SELECT ${sql.literal(DELIVERY_COLUMNS)}
        FROM webhook_deliveries d JOIN messages m ON m.id = d.message_id
        WHERE d.id = ${id}`).pipe(Effect.map(Option.match({ onNone: () => null, onSome: toDelivery })), Effect.orDie),

    listAttempts: (deliveryId) =>
      WebhookAttempts.all(sql`
        SELECT delivery_id, attempt, attempted_at, outcome, response_status, latency_ms, error
        FROM webhook_attempts WHERE delivery_id = ${deliveryId} ORDER BY attempt, id`).pipe(
        Effect.map((rows) =>
          rows.map((r): AttemptView => ({
            deliveryId: r.delivery_id,
            attempt: r.attempt,
            attemptedAt: r.attempted_at,
            outcome: r.outcome,
            responseStatus: r.response_status,
            latencyMs: r.latency_ms,
            error: r.error
          }))
        ),
        Effect.orDie
      ),

    redeliver: (endpointId, select, now, newId) =>
      sql.withTransaction(Effect.gen(function*() {
        const sources = "deliveryId" in select
          ? yield* Ids.all(sql`
              SELECT id FROM webhook_deliveries WHERE id = ${select.deliveryId} AND endpoint_id = ${endpointId}`)
          : yield* Ids.all(sql`
              SELECT DISTINCT ON (message_id) id FROM webhook_deliveries
              WHERE endpoint_id = ${endpointId} AND final_at >= ${select.since}
              ORDER BY message_id, created_at`)
        if (sources.length === 0) return []
        const pairs: Array<{ source: string; id: string }> = []
        for (const s of sources) pairs.push({ source: s.id, id: yield* newId })
        for (const part of chunk(pairs, 1_000)) {
          yield* sql`
            INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event, status, attempts, next_attempt_at,
                                            final_at, redelivery_of, created_at, updated_at)
            SELECT t.id, d.endpoint_id, d.message_id, d.event, 'pending', 0, ${now}, d.final_at, d.id, ${now}, ${now}
            FROM unnest(${part.map((p) => p.source)}::uuid[], ${part.map((p) => p.id)}::uuid[]) AS t(source, id)
            JOIN webhook_deliveries d ON d.id = t.source`
        }
        return pairs.map((p) => p.id)
      })).pipe(Effect.orDie),

    claimNotifications: (limit, now, leaseUntil) =>
      Notifications.all(sql`
        WITH due AS (
          SELECT id FROM webhook_notifications
          WHERE status = 'pending' AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE webhook_notifications n SET next_attempt_at = ${leaseUntil}, attempts = n.attempts + 1
        FROM due, webhook_endpoints e, accounts a
        WHERE n.id = due.id AND e.id = n.endpoint_id AND a.id = n.account_id
        RETURNING n.id, n.endpoint_id, n.channel, n.attempts, e.url, e.consecutive_failures, e.disabled_at,
                  a.id AS account_id, a.name, a.email, a.phone`).pipe(
        Effect.map((rows) =>
          rows.map((r): ClaimedNotification => ({
            id: r.id,
            endpointId: r.endpoint_id,
            channel: r.channel,
            attempts: r.attempts,
            url: r.url,
            consecutiveFailures: r.consecutive_failures,
            disabledAt: r.disabled_at,
            accountId: r.account_id,
            accountName: r.name,
            accountEmail: r.email,
            accountPhone: r.phone
          }))
        ),
        Effect.orDie
      ),

    completeNotification: (id, result) =>
      (result._tag === "Sent"
        ? sql`UPDATE webhook_notifications SET status = 'sent', reference = ${result.reference},
                sent_at = ${result.now}, last_error = NULL WHERE id = ${id}`
        : result.retryAt === null
        ? sql`UPDATE webhook_notifications SET status = 'failed', last_error = ${result.error} WHERE id = ${id}`
        : sql`UPDATE webhook_notifications SET next_attempt_at = ${result.retryAt}, last_error = ${result.error}
                WHERE id = ${id}`).pipe(Effect.asVoid, Effect.orDie)
  })

  function skipPending(endpointIds: ReadonlyArray<string>, reason: string, now: Date) {
    return sql`
      UPDATE webhook_deliveries SET status = 'skipped', last_error = ${reason}, completed_at = ${now},
             updated_at = ${now}
      WHERE endpoint_id = ANY(${endpointIds}::uuid[]) AND status = 'pending'`
  }

  return service
})

const chunk = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** `WebhookStore` over the `SqlClient`. */
export const layer: Layer.Layer<WebhookStore, never, SqlClient.SqlClient> = Layer.effect(WebhookStore, make)

/** The LISTEN/NOTIFY channel that wakes the webhook pump when deliveries are created (migration 0760). */
export const WEBHOOK_CHANNEL = "tuma_webhooks"

/**
 * Wake-ups on `pg_notify('tuma_webhooks')`, sent by the outbox trigger when a message's final state
 * created deliveries: LISTEN on PostgreSQL, `pglite.listen` on PGlite. The pump also polls.
 */
export const layerWakeups: Layer.Layer<WebhookWakeups> = Layer.scoped(
  WebhookWakeups,
  Wakeups.listen(WEBHOOK_CHANNEL, "webhook")
)
