import { SqlClient } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import { Memory } from "@tuma/core"
import { Effect } from "effect"
import { runMigrations } from "../src/Migrations.js"
import * as PgliteClient from "../src/PgliteClient.js"
import { forEachDriver } from "./harness.js"

forEachDriver((db) => db, (it, driver) => {
  it.effect("migrations ran and seeded the markets (Tanzania open)", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ iso2: string; open: boolean }>`SELECT iso2, open FROM markets ORDER BY iso2`
      expect(rows.find((r) => r.iso2 === "TZ")?.open).toBe(true)
      expect(rows.filter((r) => r.iso2 !== "TZ").every((r) => !r.open)).toBe(true)
      expect(rows.length).toBeGreaterThanOrEqual(4)
    }))

  it.effect("core's memory adapters seed the same markets, with the same ids", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql`SELECT id, iso2, calling_code, name, open FROM markets
        WHERE id IN ${sql.in(Memory.SEED_MARKETS.map((m) => m.id))} ORDER BY id`
      expect(rows).toEqual([...Memory.SEED_MARKETS].sort((a, b) => a.id < b.id ? -1 : 1))
    }))

  it.effect("running the migrations again is a no-op, also concurrently", () =>
    Effect.gen(function*() {
      const again = yield* Effect.all([runMigrations(), runMigrations(), runMigrations()], { concurrency: "unbounded" })
      expect(again.map((r) => r.length)).toEqual([0, 0, 0])
    }))

  it.effect("transactions roll back on failure and commit on success", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE tx_probe (n integer)`
      yield* sql.withTransaction(Effect.zipRight(sql`INSERT INTO tx_probe VALUES (1)`, Effect.fail("boom"))).pipe(
        Effect.ignore
      )
      yield* sql.withTransaction(sql`INSERT INTO tx_probe VALUES (2)`)
      const rows = yield* sql<{ n: number }>`SELECT n FROM tx_probe`
      expect(rows).toEqual([{ n: 2 }])
    }))

  it.effect("parameters and types round-trip identically (arrays, json, timestamptz, bigint, bytea)", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const at = new Date("2026-01-02T03:04:05.678Z")
      const [row] = yield* sql<any>`SELECT ${["a", "b"]}::text[] AS arr, ${JSON.stringify({ x: 1 })}::jsonb AS j,
        ${at}::timestamptz AS t, 9007199254740993::bigint AS big, count(*) AS n, ${new Uint8Array([
        1,
        2,
        3
      ])}::bytea AS b FROM markets`
      expect(row.arr).toEqual(["a", "b"])
      expect(row.j).toEqual({ x: 1 })
      expect(row.t).toBeInstanceOf(Date)
      expect((row.t as Date).toISOString()).toBe(at.toISOString())
      expect(row.big).toBe("9007199254740993")
      expect(typeof row.n).toBe("string")
      expect(Array.from(row.b as Uint8Array)).toEqual([1, 2, 3])
      const unnested = yield* sql<{ a: string; n: number }>`SELECT * FROM unnest(${["x", "y"]}::text[], ${[
        1,
        2
      ]}::int[]) AS t(a, n)`
      expect(unnested).toEqual([{ a: "x", n: 1 }, { a: "y", n: 2 }])
    }))

  it.effect(`concurrent statements and transactions do not interleave (${driver})`, () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE counter_probe (n integer NOT NULL)`
      yield* sql`INSERT INTO counter_probe VALUES (0)`
      yield* Effect.forEach(
        Array.from({ length: 50 }),
        () =>
          sql.withTransaction(Effect.gen(function*() {
            const [{ n }] = yield* sql<{ n: number }>`SELECT n FROM counter_probe FOR UPDATE`
            yield* sql`UPDATE counter_probe SET n = ${n + 1}`
          })),
        { concurrency: 10, discard: true }
      )
      const [{ n }] = yield* sql<{ n: number }>`SELECT n FROM counter_probe`
      expect(n).toBe(50)
    }))
})

it.effect(
  "a lower-numbered migration added after higher ones were applied is still applied (gap)",
  () =>
    Effect.gen(function*() {
      const { migrations } = yield* Effect.promise(() => import("../src/migrations/index.js"))
      const without = Object.fromEntries(Object.entries(migrations).filter(([k]) => k !== "0003_idempotency_json"))
      const first = yield* runMigrations(without)
      expect(first.map(([id]) => id)).not.toContain(3)
      const second = yield* runMigrations(migrations)
      expect(second.map(([id]) => id)).toEqual([3])
      const sql = yield* SqlClient.SqlClient
      const [{ t }] = yield* sql<{ t: string }>`SELECT data_type AS t FROM information_schema.columns
      WHERE table_name = 'idempotency_records' AND column_name = 'response'`
      expect(t).toBe("json")
      expect(yield* runMigrations(migrations)).toEqual([])
      // an empty database (initdb), not the run's migrated template
    }).pipe(Effect.provide(PgliteClient.layer({ dataDir: "memory://", template: "" })), Effect.orDie),
  { timeout: 60_000 }
)

it.live(
  "the embedded database runs with 16 MB of shared buffers (PGlite keeps them in the server's process)",
  () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [{ shared_buffers }] = yield* sql<{ shared_buffers: string }>`SHOW shared_buffers`
      expect(shared_buffers).toBe(PgliteClient.SHARED_BUFFERS)
    }).pipe(Effect.provide(PgliteClient.layer({ dataDir: "memory://" })), Effect.orDie),
  { timeout: 60_000 }
)
