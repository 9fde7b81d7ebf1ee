/**
 * Runs the migration registry with the @effect/sql Migrator, safely when several processes start
 * at once: the whole run is one transaction holding `pg_advisory_xact_lock`, so a second process
 * waits, then finds nothing left to do. Works on PostgreSQL and on our PGlite client alike.
 *
 * The Migrator applies only ids above the highest applied one. Ids are reserved in ranges per
 * team, so a lower id can land after a higher one was applied (e.g. on a developer's persistent
 * `./.tuma/data`): such gaps are applied first, in id order, in the same locked transaction, then
 * the Migrator runs as usual.
 */
import { Migrator, SqlClient } from "@effect/sql"
import { Effect, Record as Rec, Schema } from "effect"
import { migrations as registry } from "./migrations/index.js"
import { findAll } from "./rows.js"

/** The table recording which migrations ran. */
export const MIGRATIONS_TABLE = "tuma_migrations"

/** Arbitrary constant: the advisory lock id guarding migrations ("tuma" in ASCII). */
const MIGRATION_LOCK = 0x74756d61

const migrator = Migrator.make({})

const appliedRows = findAll(Schema.Struct({ migration_id: Schema.Number }))

/**
 * Runs the pending migrations (all of Tuma's by default) in one transaction under an advisory lock, lower ids
 * first even when a higher one already ran.
 */
export const runMigrations = (
  migrations: Record<string, Effect.Effect<unknown, unknown, SqlClient.SqlClient>> = registry
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const all = yield* Migrator.fromRecord(Rec.map(migrations, Effect.asVoid))
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
      yield* sql.unsafe(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
  migration_id integer PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL
)`)
      const applied = yield* appliedRows(sql`SELECT migration_id FROM ${sql(MIGRATIONS_TABLE)}`)
      const done = new Set(applied.map((r) => r.migration_id))
      const latest = Math.max(0, ...done)
      const gaps = all.filter(([id]) => id < latest && !done.has(id))
      for (const [id, name, load] of gaps) {
        // `fromRecord` loads the registry's own Effect (no module with a `default` to unwrap)
        const migration: Effect.Effect<unknown, unknown, SqlClient.SqlClient> = yield* load
        yield* Effect.orDie(migration)
        yield* sql`INSERT INTO ${sql(MIGRATIONS_TABLE)} (migration_id, name) VALUES (${id}, ${name})`
      }
      const ran = yield* migrator({ loader: Effect.succeed(all), table: MIGRATIONS_TABLE })
      return [...gaps.map(([id, name]) => [id, name] as const), ...ran]
    }))
  })
