/**
 * The upkeep of the partitions of `messages` that every process runs at start and then hourly: the
 * months ahead are created (`tuma_message_partitions_ensure`, idempotent, serialised by an advisory
 * lock), and with `TUMA_RETENTION_DAYS` set, the months past it are retired (`retention.ts`), exported
 * first to `TUMA_RETENTION_EXPORT_DIR` when set. A failed round is logged and retried an hour later;
 * sending never waits on it (see `retention.ts`).
 */
import { SqlClient } from "@effect/sql"
import { Clock, Config, Effect, Layer, Option, Schedule, Schema } from "effect"
import { Count, single } from "../rows.js"
import { retain } from "./retention.js"

const Created = single(Schema.Struct({ created: Count }))

/** How many months after the current one always have their partition. */
export const MONTHS_AHEAD = 3

/** How often each process runs the upkeep. */
export const MAINTENANCE_INTERVAL = "1 hour"

/** The retention settings: days (positive integer, unset = keep everything) and the export directory. */
export const retentionConfig = Config.all({
  days: Config.option(
    Config.integer("TUMA_RETENTION_DAYS").pipe(
      Config.validate({ message: "TUMA_RETENTION_DAYS must be a positive number of days", validation: (d) => d > 0 })
    )
  ),
  exportDir: Config.option(Config.string("TUMA_RETENTION_EXPORT_DIR"))
})

/** Creates this month's and the next `MONTHS_AHEAD` months' partitions that are missing; answers how many. */
export const ensureMonths = (sql: SqlClient.SqlClient) =>
  sql.withTransaction(Effect.gen(function*() {
    yield* sql.unsafe(`SET LOCAL lock_timeout = '2s'`)
    const { created } = yield* Created(sql`SELECT tuma_message_partitions_ensure(${MONTHS_AHEAD}) AS created`)
    return created
  }))

/** One round of upkeep with the given retention settings. */
export const maintainOnce = (
  sql: SqlClient.SqlClient,
  settings: { readonly days: Option.Option<number>; readonly exportDir: Option.Option<string> }
) =>
  Effect.gen(function*() {
    const created = yield* ensureMonths(sql)
    if (created > 0) yield* Effect.logInfo(`partitions: ${created} month(s) of messages created ahead`)
    if (Option.isNone(settings.days)) return
    const now = new Date(yield* Clock.currentTimeMillis)
    yield* retain(sql, { days: settings.days.value, exportDir: settings.exportDir, now })
  })

/** The upkeep loop, forked for the layer's lifetime; a bad `TUMA_RETENTION_DAYS` fails the layer. */
export const layer: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.scopedDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* Effect.orDie(retentionConfig)
    yield* Effect.forkScoped(
      Effect.repeat(
        maintainOnce(sql, settings).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("partitions: upkeep failed, retried in an hour", cause))
        ),
        Schedule.spaced(MAINTENANCE_INTERVAL)
      ).pipe(Effect.withClock(Clock.make()), Effect.withTracerEnabled(false))
    )
  })
)
