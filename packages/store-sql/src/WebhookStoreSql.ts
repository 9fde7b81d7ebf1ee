/**
 * SQL adapter of `WebhookStore` (@tuma/core/webhooks/WebhookStore). Tables: migration 0200.
 * Same SQL on PostgreSQL 15 and PGlite. SQL failures are defects (infrastructure, not domain).
 */
import type { Statement } from "@effect/sql"
import { SqlClient } from "@effect/sql"
import type {
  AttemptView,
  ClaimedDelivery,
  ClaimedNotification,
  DeliveryStatus,
  DeliveryView,
  FanOutItem,
  NewDelivery,
  PlanDeliveries,
  WebhookEndpoint
} from "@tuma/core/webhooks/WebhookStore"
import { WebhookStore } from "@tuma/core/webhooks/WebhookStore"
import type { WebhookEndpointHealth, WebhookEventType } from "@tuma/domain"
import { applyWebhookAttempt } from "@tuma/domain"
import { Effect, Layer } from "effect"

interface EndpointRow {
  readonly id: string
  readonly account_id: string
  readonly api_key_id: string
  readonly url: string
  readonly enabled: boolean
  readonly consecutive_failures: number
  readonly disabled_at: Date | null
  readonly disabled_reason: string | null
  readonly allow_private: boolean
  readonly created_at: Date
  readonly updated_at: Date
}

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  accountId: r.account_id,
  apiKeyId: r.api_key_id,
  url: r.url,
  enabled: r.enabled,
  consecutiveFailures: r.consecutive_failures,
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
  allowPrivate: r.allow_private,
  createdAt: r.created_at,
  updatedAt: r.updated_at
})

const ENDPOINT_COLUMNS =
  "id, account_id, api_key_id, url, enabled, consecutive_failures, disabled_at, disabled_reason, allow_private, created_at, updated_at"

interface DeliveryRow {
  readonly id: string
  readonly endpoint_id: string
  readonly message_id: string
  readonly event: WebhookEventType
  readonly body: string
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly next_attempt_at: Date
  readonly final_at: Date
  readonly last_status: number | null
  readonly last_error: string | null
  readonly redelivery_of: string | null
  readonly created_at: Date
  readonly completed_at: Date | null
}

const toDelivery = (r: DeliveryRow): DeliveryView => ({
  id: r.id,
  endpointId: r.endpoint_id,
  messageId: r.message_id,
  event: r.event,
  body: r.body,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.status === "pending" ? r.next_attempt_at : null,
  finalAt: r.final_at,
  lastStatus: r.last_status,
  lastError: r.last_error,
  redeliveryOf: r.redelivery_of,
  createdAt: r.created_at,
  completedAt: r.completed_at
})

interface ItemRow {
  readonly event_id: string
  readonly message_id: string
  readonly status: "delivered" | "failed"
  readonly final_at: Date
  readonly recipient: string
  readonly sender_id: string
  readonly failure_reason: string | null
  readonly endpoint_id: string
  readonly enabled: boolean
}

const toItem = (r: ItemRow): FanOutItem => ({
  eventId: String(r.event_id),
  messageId: r.message_id,
  status: r.status,
  finalAt: r.final_at,
  recipient: r.recipient,
  senderId: r.sender_id,
  failureReason: r.failure_reason,
  endpointId: r.endpoint_id,
  endpointEnabled: r.enabled
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const insertDeliveries = (deliveries: ReadonlyArray<NewDelivery>, now: Date) =>
    deliveries.length === 0 ? Effect.void : Effect.forEach(
      chunk(deliveries, 500),
      (part) =>
        sql`INSERT INTO webhook_deliveries ${
          sql.insert(part.map((d) => ({
            id: d.id,
            endpoint_id: d.endpointId,
            event_id: d.eventId,
            message_id: d.messageId,
            event: d.event,
            body: d.body,
            status: d.status,
            attempts: 0,
            next_attempt_at: now,
            final_at: d.finalAt,
            redelivery_of: d.redeliveryOf,
            created_at: now,
            updated_at: now,
            completed_at: d.status === "skipped" ? now : null
          })))
        }`,
      { discard: true }
    )

  const itemsFor = (eventIds: ReadonlyArray<string>, endpointId: string | null) =>
    sql<ItemRow>`
      SELECT ev.id AS event_id, ev.message_id, ev.status, ev.final_at, m.recipient, m.sender_id, m.failure_reason,
             e.id AS endpoint_id, e.enabled
      FROM webhook_events ev
      JOIN messages m ON m.id = ev.message_id
      JOIN webhook_endpoints e ON e.api_key_id = ev.api_key_id
      WHERE ev.id = ANY(${eventIds}::bigint[]) ${endpointId === null ? sql`` : sql`AND e.id = ${endpointId}`}
      ORDER BY ev.id, e.id`.pipe(Effect.map((rows) => rows.map(toItem)))

  const endpointQuery = (where: Statement.Fragment) =>
    sql<EndpointRow>`SELECT ${sql.literal(ENDPOINT_COLUMNS)} FROM webhook_endpoints ${where}`

  const one = <A>(rows: ReadonlyArray<A>): A | null => rows[0] ?? null

  const service = WebhookStore.of({
    createEndpoint: (input) =>
      sql<EndpointRow>`
        INSERT INTO webhook_endpoints (id, account_id, api_key_id, url, secret, enabled, consecutive_failures,
                                       allow_private, created_at, updated_at)
        SELECT ${input.id}, k.account_id, k.id, ${input.url}, ${input.secret}, true, 0, ${input.allowPrivate},
               ${input.now}, ${input.now}
        FROM api_keys k WHERE k.id = ${input.apiKeyId}
        RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`.pipe(
        Effect.map((rows) => rows.length === 0 ? null : toEndpoint(rows[0])),
        Effect.orDie
      ),

    getEndpoint: (id) =>
      endpointQuery(sql`WHERE id = ${id}`).pipe(Effect.map((r) => one(r.map(toEndpoint))), Effect.orDie),

    listEndpoints: (filter) =>
      endpointQuery(sql`WHERE true
        ${filter.accountId === undefined ? sql`` : sql`AND account_id = ${filter.accountId}`}
        ${filter.apiKeyId === undefined ? sql`` : sql`AND api_key_id = ${filter.apiKeyId}`}
        ORDER BY created_at, id`).pipe(Effect.map((r) => r.map(toEndpoint)), Effect.orDie),

    enableEndpoint: (id, now) =>
      sql<EndpointRow>`
        UPDATE webhook_endpoints SET enabled = true, consecutive_failures = 0, disabled_at = NULL,
               disabled_reason = NULL, updated_at = ${now}
        WHERE id = ${id} RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`.pipe(
        Effect.map((r) => one(r.map(toEndpoint))),
        Effect.orDie
      ),

    disableEndpoint: (id, reason, now) =>
      sql.withTransaction(Effect.gen(function*() {
        const rows = yield* sql<EndpointRow>`
          UPDATE webhook_endpoints SET enabled = false, disabled_at = COALESCE(disabled_at, ${now}),
                 disabled_reason = ${reason}, updated_at = ${now}
          WHERE id = ${id} RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`
        if (rows.length === 0) return null
        yield* skipPending([id], reason, now)
        return toEndpoint(rows[0])
      })).pipe(Effect.orDie),

    setSecret: (id, secret, now) =>
      sql<EndpointRow>`
        UPDATE webhook_endpoints SET secret = ${secret}, updated_at = ${now}
        WHERE id = ${id} RETURNING ${sql.literal(ENDPOINT_COLUMNS)}`.pipe(
        Effect.map((r) => one(r.map(toEndpoint))),
        Effect.orDie
      ),

    fanOut: <E>(limit: number, now: Date, plan: PlanDeliveries<E>) =>
      sql.withTransaction(Effect.gen(function*() {
        const events = yield* sql<{ id: string }>`
          SELECT id FROM webhook_events WHERE NOT fanned_out ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`.pipe(
          Effect.orDie
        )
        if (events.length === 0) return 0
        const ids = events.map((e) => String(e.id))
        const items = yield* Effect.orDie(itemsFor(ids, null))
        const deliveries = yield* plan(items, now)
        yield* Effect.orDie(insertDeliveries(deliveries, now))
        yield* Effect.orDie(sql`UPDATE webhook_events SET fanned_out = true WHERE id = ANY(${ids}::bigint[])`)
        return events.length
      })).pipe(Effect.catchTag("SqlError", Effect.die)),

    claimDue: (limit, now, leaseUntil) =>
      sql<
        {
          id: string
          endpoint_id: string
          message_id: string
          event: WebhookEventType
          body: string
          attempts: number
          final_at: Date
          url: string
          secret: string
          allow_private: boolean
        }
      >`
        WITH due AS (
          SELECT id FROM webhook_deliveries
          WHERE status = 'pending' AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE webhook_deliveries d SET next_attempt_at = ${leaseUntil}, updated_at = ${now}
        FROM due, webhook_endpoints e
        WHERE d.id = due.id AND e.id = d.endpoint_id AND e.enabled
        RETURNING d.id, d.endpoint_id, d.message_id, d.event, d.body, d.attempts, d.final_at,
                  e.url, e.secret, e.allow_private`.pipe(
        Effect.map((rows) =>
          rows.map((r): ClaimedDelivery => ({
            id: r.id,
            endpointId: r.endpoint_id,
            messageId: r.message_id,
            event: r.event,
            body: r.body,
            attempts: r.attempts,
            finalAt: r.final_at,
            url: r.url,
            secret: r.secret,
            allowPrivate: r.allow_private
          }))
        ),
        Effect.orDie
      ),

    recordAttempts: (records, now, policy, notificationIds) =>
      records.length === 0 ? Effect.succeed({ disabledEndpoints: [] }) : sql.withTransaction(Effect.gen(function*() {
        // Endpoints first (in id order): every writer locks endpoints before their deliveries.
        const endpointIds = [...new Set(records.map((r) => r.endpointId))].sort()
        const endpoints = yield* sql<{ id: string; enabled: boolean; consecutive_failures: number }>`
          SELECT id, enabled, consecutive_failures FROM webhook_endpoints
          WHERE id = ANY(${endpointIds}::uuid[]) ORDER BY id FOR UPDATE`
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
            const accountId = yield* sql<{ account_id: string }>`
              SELECT account_id FROM webhook_endpoints WHERE id = ${endpointId}`.pipe(
              Effect.map((r) => r[0].account_id)
            )
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

    nextDueAt: sql<{ at: Date | null }>`
      SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'`.pipe(
      Effect.map((r) => r[0]?.at ?? null),
      Effect.orDie
    ),

    listDeliveries: (endpointId, options) =>
      sql<DeliveryRow>`
        SELECT id, endpoint_id, message_id, event, body, status, attempts, next_attempt_at, final_at, last_status,
               last_error, redelivery_of, created_at, completed_at
        FROM webhook_deliveries
        WHERE endpoint_id = ${endpointId}
          ${options.status === undefined ? sql`` : sql`AND status = ${options.status}`}
          ${options.before === undefined ? sql`` : sql`AND created_at < ${options.before}`}
        ORDER BY created_at DESC, id DESC
        LIMIT ${options.limit}`.pipe(Effect.map((r) => r.map(toDelivery)), Effect.orDie),

    getDelivery: (id) =>
      sql<DeliveryRow>`
        SELECT id, endpoint_id, message_id, event, body, status, attempts, next_attempt_at, final_at, last_status,
               last_error, redelivery_of, created_at, completed_at
        FROM webhook_deliveries WHERE id = ${id}`.pipe(Effect.map((r) => one(r.map(toDelivery))), Effect.orDie),

    listAttempts: (deliveryId) =>
      sql<{
        delivery_id: string
        attempt: number
        attempted_at: Date
        outcome: "success" | "failure"
        response_status: number | null
        latency_ms: number
        error: string | null
      }>`
        SELECT delivery_id, attempt, attempted_at, outcome, response_status, latency_ms, error
        FROM webhook_attempts WHERE delivery_id = ${deliveryId} ORDER BY attempt, id`.pipe(
        Effect.map((rows) =>
          rows.map((r): AttemptView => ({
            deliveryId: r.delivery_id,
            attempt: r.attempt,
            attemptedAt: r.attempted_at,
            outcome: r.outcome,
            responseStatus: r.response_status,
            latencyMs: Number(r.latency_ms),
            error: r.error
          }))
        ),
        Effect.orDie
      ),

    redeliver: <E>(
      endpointId: string,
      select: { readonly deliveryId: string } | { readonly since: Date },
      now: Date,
      plan: PlanDeliveries<E>
    ) =>
      sql.withTransaction(Effect.gen(function*() {
        const events = "deliveryId" in select
          ? yield* sql<{ id: string }>`
              SELECT event_id AS id FROM webhook_deliveries
              WHERE id = ${select.deliveryId} AND endpoint_id = ${endpointId}`.pipe(Effect.orDie)
          : yield* sql<{ id: string }>`
              SELECT ev.id FROM webhook_events ev
              JOIN webhook_endpoints e ON e.api_key_id = ev.api_key_id
              WHERE e.id = ${endpointId} AND ev.final_at >= ${select.since}
              ORDER BY ev.id`.pipe(Effect.orDie)
        if (events.length === 0) return []
        const items = yield* Effect.orDie(itemsFor(events.map((e) => String(e.id)), endpointId))
        const deliveries = yield* plan(items, now)
        yield* Effect.orDie(insertDeliveries(deliveries, now))
        return deliveries.map((d) => d.id)
      })).pipe(Effect.catchTag("SqlError", Effect.die)),

    claimNotifications: (limit, now, leaseUntil) =>
      sql<{
        id: string
        endpoint_id: string
        channel: "email" | "sms"
        attempts: number
        url: string
        consecutive_failures: number
        disabled_at: Date | null
        account_id: string
        name: string
        email: string
        phone: string | null
      }>`
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
                  a.id AS account_id, a.name, a.email, a.phone`.pipe(
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
