/**
 * SQL adapter of `SettingsChanges` (migration 0060): the `settings_version` row, bumped by statement
 * triggers in the transaction of every change to a cached setting, and `pg_notify('tuma_settings')`
 * sent by the same triggers (delivered at COMMIT).
 *
 * - PostgreSQL: LISTEN on a dedicated connection (the driver's `listen`), and a poll of the version
 *   row every `pollMillis` (default 500 ms) in case a notification is lost with its connection.
 * - PGlite: one process, `pglite.listen` is in-process and cannot be lost; no poll.
 *
 * Either way a notification re-reads the version and wakes the subscribers only when it moved.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { makeSubscribers, SettingsChanges } from "@tuma/core/ports/SettingsChanges"
import { Effect, Layer, Option, Queue, Schedule, Schema, Stream } from "effect"
import { PgliteClient } from "./PgliteClient.js"
import { findOne } from "./rows.js"

const versionRow = findOne(Schema.Struct({ v: Schema.String }))

/** The PostgreSQL notification channel on which settings changes are announced. */
export const SETTINGS_CHANNEL = "tuma_settings"

/**
 * The SQL `SettingsChanges`: LISTEN plus a poll every `pollMillis` on PostgreSQL, in-process listen on PGlite
 * (see the module comment).
 */
export const make = (options: { readonly pollMillis?: number } = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const version = versionRow(sql`SELECT version::text AS v FROM settings_version WHERE id = 1`).pipe(
      Effect.map(Option.match({ onNone: () => "0", onSome: (row) => row.v })),
      Effect.orDie
    )
    const { notify, subscribe } = makeSubscribers()
    let last = yield* version
    const check = Effect.flatMap(version, (v) =>
      Effect.sync(() => {
        if (v === last) return
        last = v
        notify()
      }))

    const pglite = yield* Effect.serviceOption(PgliteClient)
    const pg = yield* Effect.serviceOption(PgClient.PgClient)
    const signal = yield* Queue.sliding<void>(1)
    if (Option.isSome(pglite)) {
      const unsubscribe = yield* Effect.promise(() =>
        pglite.value.pglite.listen(SETTINGS_CHANNEL, () => Queue.unsafeOffer(signal, undefined))
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => unsubscribe()).pipe(Effect.ignore))
    } else {
      if (Option.isSome(pg)) {
        yield* pg.value.listen(SETTINGS_CHANNEL).pipe(
          Stream.runForEach(() => Queue.offer(signal, undefined)),
          Effect.tapErrorCause((cause) => Effect.logWarning("settings LISTEN lost; retrying", cause)),
          Effect.retry(Schedule.spaced("1 second")),
          Effect.forkScoped
        )
      }
      yield* Effect.sleep(options.pollMillis ?? 500).pipe(
        Effect.zipRight(Queue.offer(signal, undefined)),
        Effect.forever,
        Effect.forkScoped
      )
    }
    yield* Queue.take(signal).pipe(
      Effect.zipRight(check),
      Effect.catchAllCause((cause) => Effect.logWarning("settings version check failed", cause)),
      Effect.forever,
      Effect.withTracerEnabled(false), // a poll twice a second is not a trace (docs/observability.md)
      Effect.forkScoped
    )

    return SettingsChanges.of({ version, subscribe })
  })

/** `SettingsChanges` over the `SqlClient` in context (share one per process: it holds a LISTEN). */
export const layer: Layer.Layer<SettingsChanges, never, SqlClient.SqlClient> = Layer.scoped(SettingsChanges, make())
