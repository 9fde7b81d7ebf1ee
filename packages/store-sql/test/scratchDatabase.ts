/**
 * A scratch PostgreSQL database: created on the server of `adminUrl` under a unique name and dropped
 * (with its connections) when the scope closes. Shared by the contract harness (`harness.ts`) and the
 * store benchmarks (`bench/scratch.ts`); free of vitest, so a plain `tsx` script can import it.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { randomBytes } from "node:crypto"

/** The URL of a fresh database named `<prefix>_<time>_<random>`, dropped when the scope closes. */
export const scratchDatabaseUrl = (adminUrl: string, prefix: string) =>
  Effect.gen(function*() {
    const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`
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
