/**
 * Runs a contract suite once per driver: PGlite (one in-memory instance per file, shared by the
 * suite) always, PostgreSQL when `TUMA_TEST_DATABASE_URL` is set, and — for a suite that gives its
 * layers per driver (`DriverLayers`) — core's in-memory adapters (`Memory.layerMemory`, one
 * database per file, shared by the suite). Each PostgreSQL run creates its own uniquely named
 * database and drops it afterwards, so nothing from an earlier run can matter.
 */
import { SqlClient } from "@effect/sql"
import type { Vitest } from "@effect/vitest"
import { layer } from "@effect/vitest"
import type { TestServices } from "effect"
import { Clock, Effect, Layer } from "effect"
import * as Database from "../src/Database.js"
import { scratchDatabaseUrl } from "./scratchDatabase.js"

/** A driver: one of the two SQL databases, or core's in-memory adapters. */
export type DriverName = SqlDriverName | "memory"
/** The drivers that run the SQL adapters. */
export type SqlDriverName = "pglite" | "postgres"

export const testDatabaseUrl = process.env.TUMA_TEST_DATABASE_URL

/** The migrated database for one driver. */
export const databaseLayer = (
  driver: SqlDriverName,
  options: { readonly maxConnections?: number } = {}
): Layer.Layer<SqlClient.SqlClient> =>
  driver === "pglite"
    ? Layer.orDie(Database.layer(Database.pglite("memory://")))
    : Layer.unwrapScoped(
      Effect.map(
        scratchDatabaseUrl(testDatabaseUrl!, "tuma_test"),
        (url) => Database.layer(Database.postgres(url, { maxConnections: options.maxConnections ?? 20 }))
      )
    ).pipe(Layer.orDie)

/** The SQL drivers of this run: PGlite, and PostgreSQL when `TUMA_TEST_DATABASE_URL` is set. */
export const drivers = (): ReadonlyArray<SqlDriverName> => testDatabaseUrl ? ["pglite", "postgres"] : ["pglite"]

/** The services of a suite on the SQL adapters over one driver's database. */
export type SqlLayerFor<R> = (db: Layer.Layer<SqlClient.SqlClient>, driver: SqlDriverName) => Layer.Layer<R>

/**
 * The services of a suite on each driver: the SQL adapters over the driver's database, or core's
 * memory adapters. A suite given these runs on the memory driver too.
 */
export interface DriverLayers<R> {
  readonly sql: SqlLayerFor<R>
  readonly memory: () => Layer.Layer<R>
}

/** The `it` of a suite: `@effect/vitest`'s, plus `it.live` (the live clock, for sleeps and real concurrency). */
export type SuiteIt<R> = Vitest.MethodsNonLive<R> & { readonly live: Vitest.Tester<R> }

/**
 * `forEachDriver(layers, (it, driver) => { it.effect(...) })`: `layers` builds the services a suite
 * needs for a driver; it is built once per driver and shared by the suite's tests. `layers` is
 * either a `DriverLayers` (SQL drivers and `memory`) or, for a SQL-only suite, a function of the
 * driver's database. A test that only makes sense on SQL (it reads or alters the schema directly)
 * skips the memory driver with `it.effect.skipIf(driver === "memory")` and says why.
 */
export const forEachDriver = <R>(
  layers: DriverLayers<R> | SqlLayerFor<R>,
  suite: (it: SuiteIt<R>, driver: DriverName) => void,
  options: { readonly maxConnections?: number } = {}
) => {
  const run = (driver: DriverName, built: Layer.Layer<R>) =>
    layer(built, { timeout: "120 seconds" })(driver, (it) => suite(withLive(it), driver))
  const sql = typeof layers === "function" ? layers : layers.sql
  for (const driver of drivers()) run(driver, sql(databaseLayer(driver, options), driver))
  if (typeof layers !== "function") run("memory", layers.memory())
}

/** Adds `it.live` (with `skip`, `skipIf`, `runIf`, `only`): `it.effect` on the live clock. */
const withLive = <R>(it: Vitest.MethodsNonLive<R>): SuiteIt<R> => {
  const onLiveClock = (test: Vitest.Test<TestServices.TestServices | R>): Vitest.Test<R> => (name, self, timeout) =>
    test(name, (ctx) => Effect.withClock(self(ctx), Clock.make()), timeout)
  const live: Vitest.Tester<R> = Object.assign(onLiveClock(it.effect), {
    ...it.effect,
    skip: onLiveClock(it.effect.skip),
    skipIf: (condition: unknown) => onLiveClock(it.effect.skipIf(condition)),
    runIf: (condition: unknown) => onLiveClock(it.effect.runIf(condition)),
    only: onLiveClock(it.effect.only)
  })
  return Object.assign(Object.create(it), { live })
}

/** The driver's `SqlClient`, for a test that skips the memory driver (dies if there is none). */
export const sqlClient: Effect.Effect<SqlClient.SqlClient> = Effect.orDie(Effect.serviceOptional(SqlClient.SqlClient))
