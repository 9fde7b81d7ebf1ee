/**
 * PostgreSQL connections prepare their statements (`PgPrepared.ts`): a text with parameters is
 * prepared from its second use and run by name after that, answers exactly as an unnamed statement
 * would, statements without parameters are never prepared, a statement that fails (at parse or at
 * run) fails the same way every time, and `prepare: false` prepares nothing. PostgreSQL only
 * (`TUMA_TEST_DATABASE_URL`).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import * as Database from "../src/Database.js"
import { findAll } from "../src/rows.js"
import { scratchDatabaseUrl } from "./scratchDatabase.js"

const adminUrl = process.env.TUMA_TEST_DATABASE_URL

const names = findAll(Schema.Struct({ name: Schema.String }))
const numbers = findAll(Schema.Struct({ n: Schema.Number }))

/** Runs `body` on one connection (pool of 1) of a scratch database. */
const onOneConnection = <A>(prepare: boolean, body: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.gen(function*() {
    const url = yield* scratchDatabaseUrl(adminUrl ?? "", "pgprepared")
    return yield* body.pipe(
      Effect.provide(Layer.orDie(Database.layerClient(Database.postgres(url, { maxConnections: 1, prepare }))))
    )
  }).pipe(Effect.scoped)

const preparedNames = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => names(sql`SELECT name FROM pg_prepared_statements WHERE name LIKE 'tuma\\_%' ORDER BY name`)
)
const plusOne = (x: number) => Effect.flatMap(SqlClient.SqlClient, (sql) => numbers(sql`SELECT ${x}::int + 1 AS n`))

describe.skipIf(adminUrl === undefined)("PgPrepared (PostgreSQL)", () => {
  it.live("a text with parameters is prepared from its second use and answers as before", () =>
    onOneConnection(
      true,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        expect(yield* plusOne(1)).toEqual([{ n: 2 }])
        expect(yield* preparedNames).toEqual([])
        expect(yield* plusOne(2)).toEqual([{ n: 3 }])
        expect(yield* plusOne(41)).toEqual([{ n: 42 }])
        expect((yield* preparedNames).length).toBe(1)
        // without parameters: never prepared
        yield* sql`SELECT 1 AS n`
        yield* sql`SELECT 1 AS n`
        yield* sql`SELECT 1 AS n`
        expect((yield* preparedNames).length).toBe(1)
      })
    ))

  it.live("a statement that fails fails the same way every time, and the connection goes on", () =>
    onOneConnection(
      true,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const codeOf = (e: Effect.Effect<unknown, unknown>) =>
          Effect.map(Effect.flip(e), (err) => String(Reflect.get(Reflect.get(Object(err), "cause") ?? {}, "code")))
        // fails at parse (no such column) and at run (division by zero), three times each
        for (let i = 0; i < 3; i++) {
          expect(yield* codeOf(sql`SELECT nothing_here + ${i}::int AS n`)).toBe("42703")
          expect(yield* codeOf(sql`SELECT ${i}::int / 0 AS n`)).toBe("22012")
        }
        expect(yield* plusOne(1)).toEqual([{ n: 2 }])
      })
    ))

  it.live("prepare: false prepares nothing", () =>
    onOneConnection(
      false,
      Effect.gen(function*() {
        for (let i = 0; i < 3; i++) expect(yield* plusOne(i)).toEqual([{ n: i + 1 }])
        expect(yield* preparedNames).toEqual([])
      })
    ))
})
