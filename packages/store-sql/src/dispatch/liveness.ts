/**
 * Worker liveness: heartbeats, the leases of workers that fell silent given back, and the claims a
 * worker gives back itself (`release`).
 */
import type { DispatchStore } from "@tuma/core/ports/DispatchStore"
import { Effect, Schema } from "effect"
import { findOne } from "../rows.js"
import { inList, Message, MessageTarget } from "../statusConditions.js"
import { type Db, field } from "./query.js"

const count = findOne(Schema.Struct({ n: Schema.Number }))
const beatRow = findOne(
  Schema.Struct({ registered: Schema.NullOr(Schema.Boolean), dead: Schema.NullOr(Schema.Array(Schema.String)) })
)

// the queue is scanned (no index on lease_owner) only when some worker fell silent: rare
export const heartbeat = ({ q, tx }: Db): DispatchStore["Type"]["heartbeat"] => (owner, now, takeOverAfterMs) =>
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

// one statement: the queue rows still leased by the owner (by id, or by the lease end of one claim)
// and their messages back to `queued`
export const release = ({ q }: Db): DispatchStore["Type"]["release"] => (owner, which, availableAt) =>
  count(q(
    `WITH r AS (
  UPDATE dispatch_queue SET available_at = $2, lease_owner = NULL, lease_until = NULL
  WHERE lease_owner = $1 AND (message_id = ANY($3::uuid[]) OR lease_until = $4::timestamptz)
  RETURNING message_id
), m AS (
  UPDATE messages SET status = ${MessageTarget.release}, updated_at = $2
  WHERE id = ANY(ARRAY(SELECT message_id FROM r)) AND ${inList("status", Message.releasable)}
  RETURNING 1
) SELECT (SELECT count(*) FROM r)::int AS n`,
    [
      owner,
      availableAt,
      "messageIds" in which ? [...which.messageIds] : [],
      "leaseUntil" in which ? which.leaseUntil : null
    ]
  )).pipe(Effect.map((row) => field(row, "n", 0)), Effect.orDie)
