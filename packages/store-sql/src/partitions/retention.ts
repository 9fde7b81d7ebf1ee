/**
 * Retention of `messages` by whole monthly partitions (migration 1040). A month whose upper bound is
 * older than the retention is retired in steps, each safe to repeat and to run from several processes
 * at once:
 *
 * 1. its dependent rows (`catalog.dependents`: parts, queue, reconcile, trace context, SMPP receipts)
 *    are deleted — a detach refuses while a foreign key points into the partition;
 * 2. one short transaction: the partition is locked against writes (SHARE: a late receipt for an old
 *    message waits, sends to the current month do not), the count rollup gets the partition's counts
 *    as negative deltas (exact, whatever the fold's lag), the partition is detached, and the audit log
 *    records it. `lock_timeout` bounds how long the detach may queue for the parent's lock (and so how
 *    long a send may wait behind it); a timeout rolls back and is retried;
 * 3. the detached table is exported to `<dir>/<table>.csv.gz` when an export directory is set, then
 *    dropped; the rollup is folded and its rows left at zero are deleted.
 *
 * `DETACH PARTITION CONCURRENTLY` is not used: PostgreSQL refuses it on a table with a default
 * partition, and the default partition is what guarantees that no message is refused. PGlite has one
 * connection, so nothing else waits there.
 */
import type { SqlClient } from "@effect/sql"
import { Effect, Option, Schedule, Schema } from "effect"
import { Count, single } from "../rows.js"
import { dependents, detached, partitions } from "./catalog.js"
import { exportTable } from "./exportCsv.js"

/** How long the detach may wait for the lock on `messages` before it rolls back and retries. */
export const LOCK_TIMEOUT = "200ms"

/** What a retention run is told. */
export interface RetentionOptions {
  /** Whole months entirely older than `now` minus this many days are dropped. */
  readonly days: number
  /** Where each dropped month is written as gzip CSV first, if anywhere. */
  readonly exportDir: Option.Option<string>
  readonly now: Date
}

/** What a retention run did: the months detached and the tables dropped (with their export files). */
export interface RetentionReport {
  readonly detached: ReadonlyArray<{ readonly table: string; readonly messages: number }>
  readonly dropped: ReadonlyArray<{ readonly table: string; readonly file: string | null }>
}

const Removed = single(Schema.Struct({ n: Count }))

/** Step 1 and 2 for one partition: dependents deleted, counts taken out of the rollup, detached, audited. */
export const detachMonth = (sql: SqlClient.SqlClient, table: string) =>
  Effect.gen(function*() {
    for (const dependent of yield* dependents(sql)) {
      yield* sql`DELETE FROM ${sql(dependent)} WHERE message_id IN (SELECT id FROM ${sql(table)})`
    }
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql.unsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`)
      yield* sql`LOCK TABLE ${sql(table)} IN SHARE MODE`
      const { n } = yield* Removed(sql`WITH removed AS (
          INSERT INTO message_count_deltas (account_id, hour, status, channel, n)
          SELECT account_id, date_trunc('hour', created_at AT TIME ZONE 'UTC'), status, channel, -count(*)
          FROM ${sql(table)} GROUP BY 1, 2, 3, 4 RETURNING n)
        SELECT COALESCE(-sum(n), 0) AS n FROM removed`)
      yield* sql`ALTER TABLE messages DETACH PARTITION ${sql(table)}`
      yield* sql`INSERT INTO audit_log (at, actor_kind, actor_name, action, target, after)
        VALUES (now(), 'system', 'retention', 'messages.partition_detach', ${table},
          ${JSON.stringify({ messages: n })}::jsonb)`
      return n
    }))
  }).pipe(
    Effect.retry(Schedule.spaced("1 second").pipe(Schedule.intersect(Schedule.recurs(10)))),
    Effect.tap((n) => Effect.logInfo(`retention: ${table} detached (${n} messages)`))
  )

/** Step 3 for one detached table: exported if asked, dropped, the rollup folded and its zero rows removed. */
export const dropDetached = (sql: SqlClient.SqlClient, table: string, exportDir: Option.Option<string>) =>
  Effect.gen(function*() {
    const file = Option.isSome(exportDir) ? (yield* exportTable(sql, table, exportDir.value)).path : null
    yield* sql`DROP TABLE IF EXISTS ${sql(table)}`
    yield* sql`INSERT INTO audit_log (at, actor_kind, actor_name, action, target, after)
      VALUES (now(), 'system', 'retention', 'messages.partition_drop', ${table}, ${JSON.stringify({ file })}::jsonb)`
    yield* sql`SELECT tuma_fold_message_counts()`
    yield* sql`DELETE FROM message_counts WHERE n = 0`
    yield* Effect.logInfo(`retention: ${table} dropped${file === null ? "" : `, exported to ${file}`}`)
    return { table, file }
  })

/** One retention run: every month older than the retention detached, then every detached month dropped. */
export const retain = (sql: SqlClient.SqlClient, options: RetentionOptions) =>
  Effect.gen(function*() {
    const cutoff = options.now.getTime() - options.days * 86_400_000
    const expired = (yield* partitions(sql)).filter((p) => p.until.getTime() <= cutoff)
    const report: {
      detached: Array<RetentionReport["detached"][number]>
      dropped: Array<RetentionReport["dropped"][number]>
    } = {
      detached: [],
      dropped: []
    }
    for (const p of expired) report.detached.push({ table: p.name, messages: yield* detachMonth(sql, p.name) })
    for (const table of yield* detached(sql)) report.dropped.push(yield* dropDetached(sql, table, options.exportDir))
    const done: RetentionReport = report
    return done
  })
