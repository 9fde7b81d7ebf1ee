/**
 * The benchmarks' PostgreSQL: a scratch database created on the server of `adminUrl` and dropped
 * (with its connections) when the layer's scope closes; its migrated `SqlClient` is the layer.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import * as Database from "../src/Database.js"

/** A migrated scratch database on the server of `adminUrl` (pool `maxConnections`, default 10). */
export const scratchPostgres = (adminUrl: string, options: { readonly maxConnections?: number } = {}) =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const name = `tuma_bench_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`
    const admin = yield* PgClient.make({ url: Redacted.make(adminUrl), maxConnections: 1 }).pipe(
      Effect.provide(Reactivity.layer)
    )
    yield* Effect.acquireRelease(
      admin.unsafe(`CREATE DATABASE ${name}`),
      () => admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.orDie)
    )
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return Database.layer(Database.postgres(url.toString(), options))
  }))
