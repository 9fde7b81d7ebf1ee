/**
 * Runs the migration registry with the @effect/sql Migrator, safely when several processes start
 * at once: the whole run is one transaction holding `pg_advisory_xact_lock`, so a second process
 * waits, then finds nothing left to do. Works on PostgreSQL and on our PGlite client alike.
 *
 * The Migrator applies only ids above the highest applied one. Because ids are reserved in ranges
 * per team, a lower id added after a higher one was applied would be skipped silently; the loader
 * refuses that state with a clear error instead.
 */
import { Migrator, SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { migrations as registry } from "./migrations/index.js"

export const MIGRATIONS_TABLE = "tuma_migrations"

/** Arbitrary constant: the advisory lock id guarding migrations ("tuma" in ASCII). */
const MIGRATION_LOCK = 0x74756d61

const migrator = Migrator.make({})

export const runMigrations = (
  migrations: Record<string, Effect.Effect<unknown, unknown, SqlClient.SqlClient>> = registry
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const all = yield* Migrator.fromRecord(
      migrations as Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>
    )
    const loader = Effect.gen(function*() {
      const applied = yield* sql<{ migration_id: number }>`SELECT migration_id FROM ${sql(MIGRATIONS_TABLE)}`.pipe(
        Effect.orDie
      )
      const done = new Set(applied.map((r) => r.migration_id))
      const latest = Math.max(0, ...done)
      const skipped = all.filter(([id]) => id < latest && !done.has(id))
      if (skipped.length > 0) {
        return yield* new Migrator.MigrationError({
          reason: "bad-state",
          message: `Migrations ${
            skipped.map(([id, name]) => `${id}_${name}`).join(", ")
          } are numbered below the latest applied migration ${latest}; renumber them above ${latest}`
        })
      }
      return all
    })
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
      yield* sql.unsafe(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
  migration_id integer PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL
)`)
      return yield* migrator({ loader, table: MIGRATIONS_TABLE })
    }))
  })
