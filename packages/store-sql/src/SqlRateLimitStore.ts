/**
 * A `RateLimiterStore` (@effect/experimental RateLimiter) in SQL, so one limit holds across every
 * server process sharing the database (decisions §7). Each `consume` is ONE statement (an upsert
 * on the key's row) using the database clock; row locking on the key serialises concurrent
 * requests of one key across processes, and different keys never contend.
 *
 * The semantics are exactly those of `RateLimiter.layerStoreMemory`:
 * - fixed window: a counter per key, created with `count = tokens`, `expires_at = now + refill·tokens`;
 *   each accepted consume adds `tokens` and pushes `expires_at` by `refill·tokens`; a consume that
 *   would go over `limit` changes nothing and reports `count + tokens`; an expired counter restarts.
 * - token bucket: `limit` tokens, refilled one per `refill`, `allowOverflow` lets it go negative.
 *
 * Beyond the store interface, `giveBack` returns tokens that were taken but not used (the per-process
 * leases of `@tuma/http`'s RateLimitLease): it undoes exactly what the consume of those tokens did
 * (`count - tokens`, `expires_at - refill·tokens`), and only while the counter has not expired (a
 * restarted counter owes nothing to the window before it).
 *
 * Expired rows are deleted by a background sweep every minute.
 */
import { RateLimiter } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import { Clock, Context, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { Count, single } from "./rows.js"

/** Returns unused tokens to a fixed-window counter (see the module comment). */
export class RateLimitGiveBack extends Context.Tag("@tuma/store-sql/RateLimitGiveBack")<
  RateLimitGiveBack,
  (options: {
    readonly key: string
    readonly tokens: number
    readonly refillRate: Duration.Duration
  }) => Effect.Effect<void, RateLimiter.RateLimitStoreError>
>() {}

const NOW = "(extract(epoch from statement_timestamp()) * 1000)::bigint"

const counterRow = single(Schema.Struct({ count: Count, ttl: Count, rejected: Schema.Boolean }))
const bucketRow = single(Schema.Struct({ remaining: Count }))

/** The SQL `RateLimiterStore` and its give-back (see the module comment). */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const storeError = (cause: unknown) =>
    new RateLimiter.RateLimitStoreError({ message: "rate-limit store failed", cause })

  const fixedWindow = (options: {
    readonly key: string
    readonly tokens: number
    readonly refillRate: Duration.Duration
    readonly limit: number | undefined
  }) => {
    const inc = Math.round(Duration.toMillis(options.refillRate) * options.tokens)
    const limit = options.limit ?? null
    return counterRow(sql`
      INSERT INTO rate_limit_counters AS c (key, count, expires_at, rejected)
      VALUES (${options.key}, ${options.tokens}, ${sql.unsafe(NOW)} + ${inc}, false)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE
          WHEN c.expires_at <= ${sql.unsafe(NOW)} THEN ${options.tokens}::bigint
          WHEN ${limit}::bigint IS NOT NULL AND c.count + ${options.tokens} > ${limit}::bigint THEN c.count
          ELSE c.count + ${options.tokens} END,
        expires_at = CASE
          WHEN c.expires_at <= ${sql.unsafe(NOW)} THEN ${sql.unsafe(NOW)} + ${inc}
          WHEN ${limit}::bigint IS NOT NULL AND c.count + ${options.tokens} > ${limit}::bigint THEN c.expires_at
          ELSE c.expires_at + ${inc} END,
        rejected = (c.expires_at > ${sql.unsafe(NOW)} AND ${limit}::bigint IS NOT NULL
          AND c.count + ${options.tokens} > ${limit}::bigint)
      RETURNING count, expires_at - ${sql.unsafe(NOW)} AS ttl, rejected`).pipe(
      Effect.mapError(storeError),
      Effect.map((row) => [row.rejected ? row.count + options.tokens : row.count, row.ttl] as const)
    )
  }

  const tokenBucket = (options: {
    readonly key: string
    readonly tokens: number
    readonly limit: number
    readonly refillRate: Duration.Duration
    readonly allowOverflow: boolean
  }) => {
    const refill = Math.max(1, Math.round(Duration.toMillis(options.refillRate)))
    // refilled = least(limit, tokens + floor((now - last_refill) / refill))
    const refilled = `least(${options.limit}::bigint, b.tokens + floor((${NOW} - b.last_refill) / ${refill})::bigint)`
    const after = `${refilled} - ${options.tokens}`
    return bucketRow(sql`
      INSERT INTO rate_limit_buckets AS b (key, tokens, last_refill, last_result)
      VALUES (${options.key}, ${options.limit - options.tokens}, ${sql.unsafe(NOW)}, ${options.limit - options.tokens})
      ON CONFLICT (key) DO UPDATE SET
        tokens = CASE WHEN ${options.allowOverflow} OR ${sql.unsafe(after)} >= 0
          THEN ${sql.unsafe(after)} ELSE ${sql.unsafe(refilled)} END,
        last_refill = b.last_refill + floor((${sql.unsafe(NOW)} - b.last_refill) / ${refill})::bigint * ${refill},
        last_result = ${sql.unsafe(after)}
      RETURNING last_result AS remaining`).pipe(
      Effect.mapError(storeError),
      Effect.map((row) => row.remaining)
    )
  }

  const giveBack: RateLimitGiveBack["Type"] = (options) => {
    const dec = Math.round(Duration.toMillis(options.refillRate) * options.tokens)
    return sql`
      UPDATE rate_limit_counters
      SET count = greatest(count - ${options.tokens}, 0), expires_at = expires_at - ${dec}
      WHERE key = ${options.key} AND expires_at > ${sql.unsafe(NOW)}`.pipe(
      Effect.mapError(storeError),
      Effect.asVoid
    )
  }

  return { store: RateLimiter.RateLimiterStore.of({ fixedWindow, tokenBucket }), giveBack }
})

/** Deletes counters that expired more than an hour ago. */
export const sweep = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql.unsafe(`DELETE FROM rate_limit_counters WHERE expires_at < ${NOW} - 3600000`).pipe(
      Effect.zipRight(sql.unsafe(`DELETE FROM rate_limit_buckets WHERE last_refill < ${NOW} - 86400000`))
    )
)

/** The SQL store (and its give-back) plus its background sweep. */
export const layer: Layer.Layer<RateLimiter.RateLimiterStore | RateLimitGiveBack, never, SqlClient.SqlClient> = Layer
  .scopedContext(
    Effect.gen(function*() {
      const { giveBack, store } = yield* make
      // paced by wall time, like the rows it deletes (timed by the database's clock): a program on a
      // test clock that jumps ahead must not run a year of sweeps at once
      yield* Effect.forkScoped(
        Effect.repeat(Effect.ignore(sweep), Schedule.spaced("1 minute")).pipe(Effect.withClock(Clock.make()))
      )
      return Context.make(RateLimiter.RateLimiterStore, store).pipe(Context.add(RateLimitGiveBack, giveBack))
    })
  )
