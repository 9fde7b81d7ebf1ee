/**
 * The `ContentCounter` port (@tuma/core) on the shared database: fixed-window counters in
 * `content_counters`, so the duplicate-content limit (decisions §7) holds across every process.
 *
 * **One statement for many takes.** Every single send takes a counter, and most keys are new (the
 * key carries the message text), so a statement per take would be a round trip per send. Takes
 * arriving while a statement is in flight wait and go together in the next one (at most
 * `BATCH_MAX`): one upsert over `unnest`, the takes of one key summed, the keys in sorted order (two
 * processes' statements lock rows in the same order, so they never deadlock). The row keeps the
 * count of every take in its window, refused ones included; the statement answers the new count `c`
 * of each key, so the `n` takes of a key in the batch saw `c − n, c − n + 1, …` before them, in
 * arrival order, and the one that would pass `limit` and every later one are refused. Once a
 * window holds `limit` takes every take is refused until it ends, so counting the refused ones
 * changes no answer (the port's "the counter does not move").
 *
 * Windows are timed by the database's clock (`statement_timestamp()`), the same for every process.
 * Keys are stored as a SHA-256 digest (they carry message text). Expired rows are swept every minute.
 */
import { SqlClient } from "@effect/sql"
import { ContentCounter, ContentCounterUnavailable } from "@tuma/core"
import { Clock, Deferred, Duration, Effect, Exit, Layer, Option, Queue, Schedule, Schema } from "effect"
import { createHash } from "node:crypto"
import { Count, findAll } from "./rows.js"
import { retryTransient } from "./SqlRetry.js"

/** The database's clock, in epoch milliseconds. */
const NOW = "(extract(epoch from statement_timestamp()) * 1000)::bigint"

/** At most this many takes in one statement. */
export const BATCH_MAX = 512

const digest = (key: string) => {
  const colon = key.indexOf(":")
  return `${key.slice(0, colon + 1)}${createHash("sha256").update(key).digest("base64url")}`
}

interface Take {
  readonly key: string
  readonly windowMillis: number
  readonly limit: number
  readonly done: Deferred.Deferred<Option.Option<Duration.Duration>, ContentCounterUnavailable>
}

const counterRows = findAll(Schema.Struct({ key: Schema.String, count: Count, ttl: Count }))

/** The counter over the database (scoped: it owns the batching fiber and the sweep). */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pending = yield* Queue.unbounded<Take>()

  /** One statement for a batch of takes (see the module comment). */
  const run = (batch: ReadonlyArray<Take>) =>
    Effect.gen(function*() {
      const byKey = new Map<string, Array<Take>>()
      for (const t of batch) {
        const same = byKey.get(t.key)
        if (same === undefined) byKey.set(t.key, [t])
        else same.push(t)
      }
      const keys = [...byKey.keys()].sort()
      const rows = yield* counterRows(sql`
        INSERT INTO content_counters AS c (key, count, ends_at)
        SELECT t.key, t.n, ${sql.unsafe(NOW)} + t.window_ms
        FROM unnest(${keys}::text[], ${keys.map((k) => byKey.get(k)!.length)}::int[],
          ${keys.map((k) => byKey.get(k)![0].windowMillis)}::bigint[]) WITH ORDINALITY AS t(key, n, window_ms, o)
        ORDER BY t.o
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN c.ends_at <= ${sql.unsafe(NOW)} THEN excluded.count ELSE c.count + excluded.count END,
          ends_at = CASE WHEN c.ends_at <= ${sql.unsafe(NOW)} THEN excluded.ends_at ELSE c.ends_at END
        RETURNING key, count, ends_at - ${sql.unsafe(NOW)} AS ttl`.pipe(retryTransient(5)))
      return yield* Effect.forEach(rows, (row) => {
        const takes = byKey.get(row.key) ?? []
        const before = row.count - takes.length
        const retryAfter = Duration.millis(Math.max(0, row.ttl))
        return Effect.forEach(takes, (t, j) =>
          Deferred.succeed(t.done, before + j + 1 > t.limit ? Option.some(retryAfter) : Option.none()))
      }, { discard: true })
    })

  const loop = Queue.take(pending).pipe(
    Effect.flatMap((first) => Effect.map(Queue.takeUpTo(pending, BATCH_MAX - 1), (rest) => [first, ...rest])),
    Effect.flatMap((batch) =>
      Effect.exit(run(batch)).pipe(
        Effect.flatMap((exit) =>
          Exit.isSuccess(exit)
            ? Effect.void
            : Effect.forEach(
              batch,
              (t) => Deferred.fail(t.done, new ContentCounterUnavailable({ cause: exit.cause })),
              { discard: true }
            )
        )
      )
    ),
    Effect.forever,
    // one statement for many requests' takes is no request's child (docs/observability.md)
    Effect.withTracerEnabled(false)
  )
  yield* Effect.forkScoped(loop)

  // paced by wall time, like the rows it deletes (timed by the database's clock)
  yield* Effect.forkScoped(
    Effect.repeat(
      Effect.ignore(sql.unsafe(`DELETE FROM content_counters WHERE ends_at < ${NOW} - 60000`)),
      Schedule.spaced("1 minute")
    ).pipe(Effect.withClock(Clock.make()), Effect.withTracerEnabled(false))
  )

  return ContentCounter.of({
    take: (key, window, limit) =>
      Effect.flatMap(
        Deferred.make<Option.Option<Duration.Duration>, ContentCounterUnavailable>(),
        (done) =>
          Effect.zipRight(
            Queue.offer(pending, { key: digest(key), windowMillis: Duration.toMillis(window), limit, done }),
            Deferred.await(done)
          )
      )
  })
})

/** The counter over the database. */
export const layer: Layer.Layer<ContentCounter, never, SqlClient.SqlClient> = Layer.scoped(ContentCounter, make)
