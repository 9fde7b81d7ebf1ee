/**
 * Choosing and opening the database.
 *
 * - `DATABASE_URL` set: PostgreSQL through `@effect/sql-pg` (a pool).
 * - otherwise: embedded PGlite in `TUMA_DATA_DIR` (default `./.tuma/data`, persistent across
 *   restarts); `memory://` keeps it in memory (tests, examples).
 *
 * `layer`/`layerFromEnv` also run the migrations at start-up (safe when two processes start at
 * once, see Migrations.ts), so whatever is built on top finds the schema in place.
 */
import type { Migrator, SqlError } from "@effect/sql"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { ConfigError } from "effect"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { mkdirSync } from "node:fs"
import { runMigrations } from "./Migrations.js"
import * as PgliteClient from "./PgliteClient.js"
import * as PgPrepared from "./PgPrepared.js"

/** Where the embedded database lives when no directory is given. */
export const DEFAULT_DATA_DIR = "./.tuma/data"

/**
 * Which database the store runs on: PostgreSQL (a URL, pool size) or the embedded PGlite (a directory or
 * `memory://`). Build one with `postgres` or `pglite`.
 */
export type DatabaseConfig =
  | {
    readonly _tag: "Postgres"
    readonly url: Redacted.Redacted<string>
    /** Pool size (default 10). */
    readonly maxConnections?: number | undefined
    /** Prepare statements on each connection (`PgPrepared.ts`; default true, `TUMA_PG_PREPARE=0`). */
    readonly prepare?: boolean | undefined
  }
  | {
    readonly _tag: "Pglite"
    /** A directory, or `memory://`. */
    readonly dataDir: string
  }

/** PostgreSQL 15+ at `url` (`postgres://user@host:5432/db`); `maxConnections` defaults to 10. */
export const postgres = (
  url: string,
  options: { readonly maxConnections?: number; readonly prepare?: boolean } = {}
): DatabaseConfig => ({
  _tag: "Postgres",
  url: Redacted.make(url),
  maxConnections: options.maxConnections,
  prepare: options.prepare
})

/** The embedded database (PGlite, in-process) in `dataDir`, persistent; `memory://` keeps nothing. */
export const pglite = (dataDir: string = DEFAULT_DATA_DIR): DatabaseConfig => ({ _tag: "Pglite", dataDir })

/** `DATABASE_URL` → PostgreSQL; else PGlite in `TUMA_DATA_DIR` (default `./.tuma/data`). */
export const configFromEnv: Config.Config<DatabaseConfig> = Config.all({
  url: Config.option(Config.redacted("DATABASE_URL")),
  dataDir: Config.string("TUMA_DATA_DIR").pipe(Config.withDefault(DEFAULT_DATA_DIR)),
  maxConnections: Config.option(Config.integer("DATABASE_POOL_SIZE")),
  prepare: Config.boolean("TUMA_PG_PREPARE").pipe(Config.withDefault(true))
}).pipe(
  Config.map(({ dataDir, maxConnections, prepare, url }): DatabaseConfig =>
    Option.isSome(url) && Redacted.value(url.value) !== ""
      ? { _tag: "Postgres", url: url.value, maxConnections: Option.getOrUndefined(maxConnections), prepare }
      : { _tag: "Pglite", dataDir }
  )
)

/** The `SqlClient` alone, without migrations. */
export const layerClient = (config: DatabaseConfig): Layer.Layer<SqlClient.SqlClient, SqlError.SqlError> => {
  if (config._tag === "Postgres") {
    if (config.prepare !== false) return PgPrepared.layer(config.url, config.maxConnections ?? 10)
    return PgClient.layer({
      url: config.url,
      maxConnections: config.maxConnections ?? 10,
      applicationName: "tuma"
    })
  }
  if (!config.dataDir.includes("://")) mkdirSync(config.dataDir, { recursive: true })
  return PgliteClient.layer({ dataDir: config.dataDir })
}

/** The `SqlClient` with the schema migrated. */
export const layer = (
  config: DatabaseConfig
): Layer.Layer<SqlClient.SqlClient, SqlError.SqlError | Migrator.MigrationError> =>
  Layer.effectDiscard(runMigrations()).pipe(Layer.provideMerge(layerClient(config)))

/**
 * `layer` on the database the environment selects (`configFromEnv`): `DATABASE_URL`, else PGlite in
 * `TUMA_DATA_DIR`.
 */
export const layerFromEnv: Layer.Layer<
  SqlClient.SqlClient,
  SqlError.SqlError | Migrator.MigrationError | ConfigError.ConfigError
> = Layer.unwrapEffect(Effect.map(configFromEnv, layer))
