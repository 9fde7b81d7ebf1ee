/**
 * Retention of `messages` by monthly partitions (migration 1040, `partitions/retention.ts`), on PGlite
 * and PostgreSQL: messages of months past the retention are gone with their dependent rows (a foreign
 * key into the partition included), the rollup's counts stay equal to `count(*)`, recent messages and
 * those of the default partition stay, sends running during the run all land, the audit log records
 * the run, and the export holds every dropped message.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { uuidV7FromTime } from "@tuma/core/ports/Ids"
import type { MessageListFilter } from "@tuma/core/ports/ReadStore"
import { ReadStore } from "@tuma/core/ports/ReadStore"
import { Deferred, Effect, Fiber, Layer, Option } from "effect"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { detached, partitions } from "../src/partitions/catalog.js"
import { retain } from "../src/partitions/retention.js"
import type { SqlLayerFor } from "./harness.js"
import { forEachDriver } from "./harness.js"
import type { OperatorStack } from "./operatorFixtures.js"
import { newAccount, operatorStack, seedMessage } from "./operatorFixtures.js"

const MONTH_MS = 31 * 86_400_000

/** `count(*)` over `messages` for `f`, beside the rollup's answer. */
const bothCounts = (f: MessageListFilter) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const clauses = [sql`account_id = ${f.accountId}`]
    if (f.status !== undefined) clauses.push(sql`status = ${f.status}`)
    const rows = yield* sql<{ n: string | number }>`SELECT count(*) AS n FROM messages WHERE ${sql.and(clauses)}`
    return { rollup: yield* (yield* ReadStore).countMessages(f), counted: Number(rows[0].n) }
  })

const countWhere = (ids: ReadonlyArray<string>, table = "messages", column = "id") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ n: string | number }>`SELECT count(*) AS n FROM ${sql(table)} WHERE ${sql(column)} IN ${
      sql.in(ids)
    }`
    return Number(rows[0].n)
  })

/** The months `back` × 31 days before now get their partition and `n` messages each (time-ordered ids). */
const seedOldMonths = (accountId: string, now: number, backs: ReadonlyArray<number>, n: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids: Array<string> = []
    for (const back of backs) {
      const month = new Date(now - back * MONTH_MS)
      // the 10th at noon: the messages' hours stay inside the month
      const at = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 10, 12))
      yield* sql`SELECT tuma_message_partition_create(${at.toISOString().slice(0, 10)}::date)`
      for (let i = 0; i < n; i++) {
        const createdAt = new Date(at.getTime() + i * 3_600_000)
        const id = uuidV7FromTime(createdAt.getTime())
        yield* seedMessage({ id, accountId, createdAt, status: i % 2 === 0 ? "delivered" : "failed" })
        ids.push(id)
      }
    }
    return ids
  })

const stack: SqlLayerFor<OperatorStack | SqlClient.SqlClient> = (db, driver) =>
  Layer.merge(operatorStack.sql(db, driver), db)

forEachDriver(stack, (it, driver) => {
  it.live("old months are dropped with their dependents and exported; counts stay exact; sends keep landing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const account = yield* newAccount()
      const accountId = account.uid
      const now = Date.now()
      const old = yield* seedOldMonths(accountId, now, [14, 13], 6)
      const recent: Array<string> = []
      for (let i = 0; i < 4; i++) {
        const createdAt = new Date(now - i * 60_000)
        recent.push(yield* seedMessage({ id: uuidV7FromTime(createdAt.getTime()), accountId, createdAt }))
      }
      const unordered = yield* seedMessage({ accountId, createdAt: new Date(now - 20 * MONTH_MS) })
      yield* sql`INSERT INTO dispatch_reconcile (message_id, provider_id, reference, reason, deadline, created_at)
        SELECT id, id, 'ref', 'unknown', now(), now() FROM messages WHERE id IN ${sql.in(old.slice(0, 3))}`
      yield* sql`INSERT INTO message_trace_context (message_id, traceparent) VALUES (${old[0]}, 'tp')`
      yield* sql`SELECT tuma_fold_message_counts()`
      expect((yield* bothCounts({ accountId })).rollup).toBe(old.length + recent.length + 1)

      const exportDir = mkdtempSync(join(tmpdir(), "tuma-retention-"))
      const sends = Effect.forEach(
        Array.from({ length: 30 }, (_, i) => i),
        (i) =>
          Effect.flatMap(
            Effect.sync(() => Date.now()),
            (at) => seedMessage({ id: uuidV7FromTime(at + i), accountId, createdAt: new Date(at) })
          )
      )
      const [report, sent] = yield* Effect.all(
        [retain(sql, { days: 200, exportDir: Option.some(exportDir), now: new Date(now) }), sends],
        { concurrency: 2 }
      )

      expect(report.detached.map((d) => d.messages)).toEqual([6, 6])
      expect(report.dropped.map((d) => d.table).sort()).toEqual(report.detached.map((d) => d.table).sort())
      expect(yield* countWhere(old)).toBe(0)
      expect(yield* countWhere(old, "dispatch_reconcile", "message_id")).toBe(0)
      expect(yield* countWhere(old, "message_trace_context", "message_id")).toBe(0)
      expect(yield* countWhere([...recent, unordered, ...sent])).toBe(recent.length + 1 + sent.length)
      const left = (yield* partitions(sql)).map((p) => p.name)
      for (const d of report.detached) expect(left).not.toContain(d.table)
      expect(yield* detached(sql)).toEqual([])
      for (
        const f of [{ accountId }, { accountId, status: "delivered" as const }, {
          accountId,
          status: "failed" as const
        }]
      ) {
        const { counted, rollup } = yield* bothCounts(f)
        expect(rollup).toBe(counted)
      }
      const audited = yield* sql<{ action: string; target: string }>`SELECT action, target FROM audit_log
        WHERE actor_name = 'retention' AND target IN ${sql.in(report.detached.map((d) => d.table))} ORDER BY id`
      expect(audited.filter((a) => a.action === "messages.partition_detach")).toHaveLength(2)
      expect(audited.filter((a) => a.action === "messages.partition_drop")).toHaveLength(2)
      const exported = report.dropped.flatMap((d) =>
        d.file === null ? [] : gunzipSync(readFileSync(d.file)).toString("utf8").trim().split("\n")
      )
      expect(exported.filter((line) => line.startsWith("id,"))).toHaveLength(2)
      expect(old.every((id) => exported.some((line) => line.startsWith(`${id},`)))).toBe(true)

      // a second run finds nothing to do
      const again = yield* retain(sql, { days: 200, exportDir: Option.none(), now: new Date(now) })
      expect(again).toEqual({ detached: [], dropped: [] })
    }))

  // PGlite has one connection: no second transaction can hold a lock meanwhile
  it.live.skipIf(driver === "pglite")(
    "a detach that cannot get its lock gives way to sends and retries, instead of queueing them behind it",
    () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const account = yield* newAccount()
        const accountId = account.uid
        const now = Date.now()
        const old = yield* seedOldMonths(accountId, now, [16], 3)
        // a long reader of `messages` (a report, a backup) holds its lock until released
        const reading = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const reader = yield* Effect.fork(sql.withTransaction(Effect.gen(function*() {
          yield* sql`SELECT count(*) FROM messages`
          yield* Deferred.succeed(reading, undefined)
          yield* Deferred.await(release)
        })))
        yield* Deferred.await(reading)
        const retention = yield* Effect.fork(
          retain(sql, { days: 200, exportDir: Option.none(), now: new Date(now) })
        )
        yield* Effect.sleep("300 millis")
        // sends land while the reader still holds its lock (a detach queued without a timeout would hold them)
        const sent: Array<string> = []
        for (let i = 0; i < 5; i++) {
          const at = Date.now()
          sent.push(yield* seedMessage({ id: uuidV7FromTime(at + i), accountId, createdAt: new Date(at) }))
        }
        expect(yield* countWhere(sent)).toBe(5)
        expect(yield* countWhere(old)).toBe(3)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(reader)
        const report = yield* Fiber.join(retention)
        expect(report.detached.map((d) => d.messages)).toEqual([3])
        expect(yield* countWhere(old)).toBe(0)
        const { counted, rollup } = yield* bothCounts({ accountId })
        expect(rollup).toBe(counted)
      })
  )
})
