/**
 * The monthly partitions of `messages` (migration 1040), on PGlite and PostgreSQL: a look-up by uid
 * reads one partition; creating the months ahead is idempotent and safe from several connections at
 * once; and the conversion of a store that already holds messages keeps every message where a look-up
 * finds it, the foreign keys into `messages`, the triggers (the count rollup) and the indexes.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { uuidV7FromTime } from "@tuma/core/ports/Ids"
import { Effect, Layer } from "effect"
import * as Database from "../src/Database.js"
import { runMigrations } from "../src/Migrations.js"
import { migrations } from "../src/migrations/index.js"
import { ensureMonths } from "../src/partitions/maintain.js"
import * as PgliteClient from "../src/PgliteClient.js"
import type { SqlDriverName } from "./harness.js"
import { drivers, forEachDriver, testDatabaseUrl } from "./harness.js"
import { scratchDatabaseUrl } from "./scratchDatabase.js"

const plan = (sql: SqlClient.SqlClient, id: string) =>
  Effect.map(
    sql<{ "QUERY PLAN": string }>`EXPLAIN SELECT id FROM messages WHERE id = ${id}::uuid`,
    (rows) => rows.map((r) => r["QUERY PLAN"]).join("\n")
  )

forEachDriver((db) => db, (it) => {
  it.effect("a look-up by uid reads only the partition of its month", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const id = uuidV7FromTime(Date.now())
      const month = new Date().toISOString().slice(0, 7).replace("-", "_")
      const text = yield* plan(sql, id)
      expect(text).toContain(`messages_p${month}`)
      expect(new Set(text.match(/messages_(p\d{4}_\d{2}|default|legacy)/g)).size).toBe(1)
      expect(yield* plan(sql, "00000000-0000-4000-8000-000000000001")).toContain("messages_default")
    }))

  it.live("creating the months ahead is idempotent, also from several connections at once", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ahead = `messages_p${new Date(Date.now() + 62 * 86_400_000).toISOString().slice(0, 7).replace("-", "_")}`
      yield* sql`ALTER TABLE messages DETACH PARTITION ${sql(ahead)}`
      yield* sql`DROP TABLE ${sql(ahead)}`
      const created = yield* Effect.all([ensureMonths(sql), ensureMonths(sql), ensureMonths(sql)], {
        concurrency: "unbounded"
      })
      expect(created.reduce((a, b) => a + b, 0)).toBe(1)
      expect(yield* ensureMonths(sql)).toBe(0)
    }))
})

/** A database with the migrations before 1040 only, on `driver`. */
const unconverted = (driver: SqlDriverName): Layer.Layer<SqlClient.SqlClient> => {
  const before = Object.fromEntries(Object.entries(migrations).filter(([k]) => k < "1040"))
  const client = driver === "pglite"
    ? PgliteClient.layer({ dataDir: "memory://", template: "" }) // not the suites' template: it is converted
    : Layer.unwrapScoped(
      Effect.map(
        scratchDatabaseUrl(testDatabaseUrl!, "tuma_parts"),
        (url) => Database.layerClient(Database.postgres(url))
      )
    )
  return Layer.effectDiscard(runMigrations(before)).pipe(Layer.provideMerge(client), Layer.orDie)
}

const count = (sql: SqlClient.SqlClient, query: string) =>
  Effect.map(sql.unsafe<{ n: string | number }>(query), (rows) => Number(rows[0].n))

for (const driver of drivers()) {
  describe(driver, () => {
    layer(unconverted(driver), { timeout: "120 seconds" })((it) => {
      it.effect("converting a store with messages keeps them, their foreign keys, counts and indexes", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const [account] = yield* sql<{ id: string }>`INSERT INTO accounts (id, name, email, created_at, updated_at)
            VALUES (gen_random_uuid(), 'Old', 'old@example.com', now(), now()) RETURNING id`
          const now = Date.now()
          const timed = Array.from({ length: 40 }, (_, i) => uuidV7FromTime(now - i * 86_400_000))
          const random = Array.from({ length: 10 }, () => crypto.randomUUID())
          yield* sql.unsafe(
            `INSERT INTO messages (id, account_id, market_id, country, recipient, sender_id, text,
              encoding, parts, units, channel, status, created_at, updated_at)
            SELECT id::uuid, $1, (SELECT id FROM markets WHERE iso2 = 'TZ'), 'TZ', '+255712345678', 'TUMA', 'hi',
              'GSM-7', 1, 1, 'api', 'delivered', now(), now() FROM unnest($2::text[]) id`,
            [account.id, [...timed, ...random]]
          )
          yield* sql`INSERT INTO dispatch_reconcile (message_id, provider_id, reference, reason, deadline, created_at)
            VALUES (${timed[0]}, ${timed[0]}, 'r', 'unknown', now(), now())`
          yield* runMigrations()

          expect(yield* count(sql, `SELECT count(*) AS n FROM messages`)).toBe(50)
          for (const id of [...timed, ...random]) {
            expect(yield* count(sql, `SELECT count(*) AS n FROM messages WHERE id = '${id}'`)).toBe(1)
          }
          expect(yield* count(sql, `SELECT count(*) AS n FROM messages_legacy`)).toBeGreaterThanOrEqual(40)
          const partitioned = yield* count(
            sql,
            `SELECT count(*) AS n FROM pg_partitioned_table
            WHERE partrelid = 'messages'::regclass`
          )
          expect(partitioned).toBe(1)
          const fks = yield* count(
            sql,
            `SELECT count(*) AS n FROM pg_constraint
            WHERE contype = 'f' AND confrelid = 'messages'::regclass AND conrelid = 'dispatch_reconcile'::regclass`
          )
          expect(fks).toBe(1)
          const refused = yield* Effect.either(sql`INSERT INTO dispatch_reconcile (message_id, provider_id, reference,
            reason, deadline, created_at) VALUES (gen_random_uuid(), gen_random_uuid(), 'r', 'unknown', now(), now())`)
          expect(refused._tag).toBe("Left")
          // the rollup's triggers came across: a new message is counted, a move is counted
          const fresh = uuidV7FromTime(Date.now())
          yield* sql.unsafe(
            `INSERT INTO messages (id, account_id, market_id, country, recipient, sender_id, text,
              encoding, parts, units, channel, status, created_at, updated_at)
            SELECT $1, $2, market_id, country, recipient, sender_id, text, encoding, parts, units, channel, 'queued',
              now(), now() FROM messages LIMIT 1`,
            [fresh, account.id]
          )
          yield* sql`UPDATE messages SET status = 'sent' WHERE id = ${fresh}`
          yield* sql`SELECT tuma_fold_message_counts()`
          expect(
            yield* count(
              sql,
              `SELECT coalesce(sum(n), 0) AS n FROM message_counts
            WHERE account_id = '${account.id}'`
            )
          ).toBe(51)
          expect(
            yield* count(
              sql,
              `SELECT coalesce(sum(n), 0) AS n FROM message_counts
            WHERE account_id = '${account.id}' AND status = 'sent'`
            )
          ).toBe(1)
          const indexes = yield* count(
            sql,
            `SELECT count(*) AS n FROM pg_indexes WHERE tablename = 'messages'
            AND indexname IN ('messages_pkey', 'messages_account_created_idx', 'messages_account_status_created_idx')`
          )
          expect(indexes).toBe(3)
        }))
    })
  })
}
