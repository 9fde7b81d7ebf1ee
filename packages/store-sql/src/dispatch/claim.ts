/**
 * Claims and capacity: the claim of due queue rows with a lease (their messages become
 * `processing`), the routes and providers, provider credit and send-rate slots.
 */
import type { ClaimedMessage, DispatchStore, ProviderRow, RouteRow } from "@tuma/core/ports/DispatchStore"
import { Effect, Schema } from "effect"
import { decoders, findOne, NullableDate } from "../rows.js"
import { inList, Message, MessageTarget } from "../statusConditions.js"
import { type Db, field } from "./query.js"

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

const granted = findOne(Schema.Struct({ granted: Schema.Number }))
const delay = findOne(Schema.Struct({ delay_ms: Schema.Number }))

// index look-ups by id (ANY(ARRAY(...))) whatever the table sizes: a hash join would read every
// queued message of the table to claim a batch
export const claim = ({ q }: Db): DispatchStore["Type"]["claim"] => ({ leaseUntil, limit, now, owner }) =>
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
  UPDATE messages m SET status = ${MessageTarget.claim}, updated_at = $1
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

export const routes = ({ q }: Db): Effect.Effect<ReadonlyArray<RouteRow>> =>
  Routes.all(q(
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

export const providers = ({ q }: Db): Effect.Effect<ReadonlyArray<ProviderRow>> =>
  Providers.all(q(
    `SELECT id, name, kind, config FROM providers WHERE enabled ORDER BY name`
  )).pipe(
    Effect.map((rows) => rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind, config: r.config ?? {} }))),
    Effect.orDie
  )

export const reserveCredit =
  ({ q }: Db): DispatchStore["Type"]["reserveCredit"] => (providerId, marketId, units, now) =>
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

export const reserveSlots = ({ q }: Db): DispatchStore["Type"]["reserveSlots"] => (providerId, count, perSecond) =>
  delay(q(
    `INSERT INTO dispatch_rate (provider_id, next_slot)
VALUES ($1, clock_timestamp() + make_interval(secs => $2::float8 / $3::float8))
ON CONFLICT (provider_id) DO UPDATE
  SET next_slot = GREATEST(dispatch_rate.next_slot, clock_timestamp()) + make_interval(secs => $2::float8 / $3::float8)
RETURNING (EXTRACT(EPOCH FROM (next_slot - clock_timestamp())) * 1000 - ($2::float8 / $3::float8) * 1000)::float8 AS delay_ms`,
    [providerId, count, perSecond]
  )).pipe(Effect.map((row) => Math.max(0, field(row, "delay_ms", 0))), Effect.orDie)
