/**
 * Runs a contract suite once per database driver: PGlite (one in-memory instance per file, shared
 * by the suite) always, and PostgreSQL when `TUMA_TEST_DATABASE_URL` is set. Each PostgreSQL run
 * creates its own uniquely named database and drops it afterwards, so nothing from an earlier run
 * can matter.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { Vitest } from "@effect/vitest"
import { layer } from "@effect/vitest"
import { Clock, Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import * as Database from "../src/Database.js"

export type DriverName = "pglite" | "postgres"

export const testDatabaseUrl = process.env.TUMA_TEST_DATABASE_URL

/** A fresh PostgreSQL database for this run (created now, dropped when the scope closes). */
const scratchUrl = (adminUrl: string) =>
  Effect.gen(function*() {
    const name = `tuma_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`
    const admin = yield* PgClient.make({ url: Redacted.make(adminUrl), maxConnections: 1 }).pipe(
      Effect.provide(Reactivity.layer)
    )
    yield* Effect.acquireRelease(
      admin.unsafe(`CREATE DATABASE ${name}`),
      () => admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.orDie)
    )
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return url.toString()
  })

/** The migrated database for one driver. */
export const databaseLayer = (
  driver: DriverName,
  options: { readonly maxConnections?: number } = {}
): Layer.Layer<SqlClient.SqlClient> =>
  driver === "pglite"
    ? Layer.orDie(Database.layer(Database.pglite("memory://")))
    : Layer.unwrapScoped(
      Effect.map(
        scratchUrl(testDatabaseUrl!),
        (url) => Database.layer(Database.postgres(url, { maxConnections: options.maxConnections ?? 20 }))
      )
    ).pipe(Layer.orDie)

export const drivers = (): ReadonlyArray<DriverName> => testDatabaseUrl ? ["pglite", "postgres"] : ["pglite"]

/**
 * `forEachDriver(layerFor, (it, driver) => { it.effect(...) })`: `layerFor(driver)` builds the
 * services a suite needs on top of the driver's database; it is built once per driver and shared.
 */
export const forEachDriver = <R>(
  layerFor: (db: Layer.Layer<SqlClient.SqlClient>, driver: DriverName) => Layer.Layer<R>,
  suite: (it: Vitest.MethodsNonLive<R> & { readonly live: Vitest.Tester<R> }, driver: DriverName) => void,
  options: { readonly maxConnections?: number } = {}
) => {
  for (const driver of drivers()) {
    layer(layerFor(databaseLayer(driver, options), driver), { timeout: "120 seconds" })(
      driver,
      (it) => {
        // `it.live`: like `it.effect` with the live clock (for sleeps and real concurrency)
        const live: Vitest.Tester<R> = Object.assign(
          (name: string, self: any, timeout?: any) =>
            it.effect(name, () => Effect.withClock(self(), Clock.make()) as any, timeout),
          {} as any
        )
        suite(Object.assign(Object.create(it), { live }), driver)
      }
    )
  }
}
