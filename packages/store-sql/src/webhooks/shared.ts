/** The rows, columns and helpers the SQL `WebhookStore` operations share (webhooks/*.ts). */
import type { Statement } from "@effect/sql"
import type { SqlClient } from "@effect/sql"
import type { DeliveryStatus, DeliveryView, WebhookEndpoint } from "@tuma/core/ports/WebhookStore"
import { DeliveryEventType, WebhookEventType } from "@tuma/domain"
import { Effect, Option, Schema } from "effect"
import { decoders, findAll, findOne, NullableDate, NullableString, single } from "../rows.js"

export const Endpoints = decoders(Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  api_key_id: Schema.String,
  url: Schema.String,
  enabled: Schema.Boolean,
  consecutive_failures: Schema.Number,
  disabled_at: NullableDate,
  disabled_reason: NullableString,
  events: Schema.Array(WebhookEventType),
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
}))
type EndpointRow = typeof Endpoints.schema.Type

export const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  accountId: r.account_id,
  apiKeyId: r.api_key_id,
  url: r.url,
  enabled: r.enabled,
  consecutiveFailures: r.consecutive_failures,
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
  events: r.events,
  createdAt: r.created_at,
  updatedAt: r.updated_at
})

export const ENDPOINT_COLUMNS =
  "id, account_id, api_key_id, url, enabled, consecutive_failures, disabled_at, disabled_reason, events, created_at, updated_at"

export const MessageColumns = Schema.Struct({
  message_id: Schema.String,
  message_status: Schema.Literal("delivered", "failed"),
  recipient: Schema.String,
  sender_id: Schema.String,
  failure_reason: NullableString,
  final_at: Schema.DateFromSelf,
  created_at: Schema.DateFromSelf
})

export const toMessage = (r: typeof MessageColumns.Type) => ({
  messageId: r.message_id,
  messageStatus: r.message_status,
  recipient: r.recipient,
  senderId: r.sender_id,
  failureReason: r.failure_reason,
  finalAt: r.final_at,
  createdAt: r.created_at
})

/** Columns of a delivery joined with its message (`d` deliveries, `m` messages). */
export const DELIVERY_COLUMNS =
  `d.id, d.endpoint_id, d.message_id, d.event, d.status, d.attempts, d.next_attempt_at, d.final_at,
  d.last_status, d.last_error, d.redelivery_of, d.created_at, d.completed_at,
  CASE WHEN d.event = 'sms.delivered' THEN 'delivered' ELSE 'failed' END AS message_status,
  COALESCE(m.recipient, '') AS recipient, COALESCE(m.sender_id, '') AS sender_id, m.failure_reason, d.payload`

export const DeliveryStatusSchema = Schema.Literal("pending", "succeeded", "failed", "skipped") satisfies Schema.Schema<
  DeliveryStatus
>

export const Deliveries = decoders(Schema.extend(
  MessageColumns,
  Schema.Struct({
    id: Schema.String,
    endpoint_id: Schema.String,
    event: DeliveryEventType,
    status: DeliveryStatusSchema,
    attempts: Schema.Number,
    next_attempt_at: Schema.DateFromSelf,
    last_status: Schema.NullOr(Schema.Number),
    last_error: NullableString,
    redelivery_of: NullableString,
    completed_at: NullableDate,
    payload: NullableString
  })
))

export const ClaimedDeliveries = decoders(
  Schema.extend(Deliveries.schema, Schema.Struct({ url: Schema.String, secret: Schema.String }))
)

export const Notifications = decoders(Schema.Struct({
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

export const endpointHealth = findAll(
  Schema.Struct({ id: Schema.String, enabled: Schema.Boolean, consecutive_failures: Schema.Number })
)
export const accountOf = single(Schema.Struct({ account_id: Schema.String }))
export const nextDue = findOne(Schema.Struct({ at: NullableDate }))

export const toDelivery = (r: typeof Deliveries.schema.Type): DeliveryView => ({
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
  completedAt: r.completed_at,
  payload: r.payload
})

/** The statements over endpoints and pending deliveries that several operations use. */
export const helpers = (sql: SqlClient.SqlClient) => {
  const endpointQuery = (where: Statement.Fragment) =>
    sql`SELECT ${sql.literal(ENDPOINT_COLUMNS)} FROM webhook_endpoints ${where}`

  /** The endpoint of the statement's first row, or null. */
  const endpoint = <E, R>(rows: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
    Endpoints.one(rows).pipe(Effect.map(Option.match({ onNone: () => null, onSome: toEndpoint })))

  /** The pending deliveries of endpoints, skipped. */
  const skipPending = (endpointIds: ReadonlyArray<string>, reason: string, now: Date) =>
    sql`
      UPDATE webhook_deliveries SET status = 'skipped', last_error = ${reason}, completed_at = ${now},
             updated_at = ${now}
      WHERE endpoint_id = ANY(${endpointIds}::uuid[]) AND status = 'pending'`

  return { endpointQuery, endpoint, skipPending }
}

/** `items` in slices of at most `size`. */
export const chunk = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
