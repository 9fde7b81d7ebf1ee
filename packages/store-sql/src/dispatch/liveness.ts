/** Worker liveness: heartbeats, and the leases of workers that fell silent given back. */
import type { DispatchStore } from "@tuma/core/ports/DispatchStore"
import { Effect, Schema } from "effect"
import { findOne } from "../rows.js"
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
