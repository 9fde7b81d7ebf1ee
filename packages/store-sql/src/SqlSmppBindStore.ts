/**
 * SQL adapter of `SmppBindStore` (@tuma/core/ports/SmppBindStore): the live SMPP binds of every process
 * (migration 0930). An unbind request marks the rows and sends `pg_notify('tuma_smpp_binds', <process>)`
 * (at COMMIT); the listeners LISTEN on PostgreSQL, `pglite.listen` on PGlite (`Wakeups`), and also look
 * at every heartbeat. Same SQL on PostgreSQL 15 and PGlite; SQL failures are defects.
 */
import { SqlClient } from "@effect/sql"
import type { SmppBindRow } from "@tuma/core/ports/SmppBindStore"
import { SmppBindStore } from "@tuma/core/ports/SmppBindStore"
import { Effect, Layer, Schema } from "effect"
import { Count, findAll, findFirst, findOne, NullableDate, rowOf } from "./rows.js"
import * as Wakeups from "./Wakeups.js"

const liveCount = findFirst(Schema.Struct({ n: Count }))

/** The LISTEN/NOTIFY channel that wakes the SMPP listeners when an unbind is asked. */
export const BINDS_CHANNEL = "tuma_smpp_binds"

const BindRow = rowOf<SmppBindRow>()(Schema.Struct({
  id: Schema.String,
  smpp_account_id: Schema.String,
  account_id: Schema.String,
  system_id: Schema.String,
  bind_type: Schema.Literal("transmitter", "receiver", "transceiver"),
  remote_address: Schema.String,
  process_id: Schema.String,
  since: Schema.DateFromSelf,
  heartbeat_at: Schema.DateFromSelf,
  in_flight: Schema.Number,
  submits_last_minute: Schema.Number,
  unbind_requested_at: NullableDate
}))
const allBinds = findAll(BindRow)
const oneBind = findOne(BindRow)
const ids = findAll(Schema.Struct({ id: Schema.String }))

const columns = `id, smpp_account_id, account_id, system_id, bind_type, remote_address, process_id, since,
  heartbeat_at, in_flight, submits_last_minute, unbind_requested_at`

/** The SQL `SmppBindStore`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // the database clients (PostgreSQL's LISTEN connection, PGlite's listen) for the wake-ups
  const context = yield* Effect.context<never>()
  const upsert = (rows: ReadonlyArray<SmppBindRow>, now: Date) =>
    sql`INSERT INTO smpp_binds (${sql.unsafe(columns)})
      SELECT b.id, b.smpp_account_id, b.account_id, b.system_id, b.bind_type, b.remote_address, b.process_id,
        b.since, ${now}::timestamptz, b.in_flight, b.submits_last_minute, NULL
      FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.smpp_account_id)}::uuid[],
        ${rows.map((r) => r.account_id)}::uuid[], ${rows.map((r) => r.system_id)}::text[],
        ${rows.map((r) => r.bind_type)}::text[], ${rows.map((r) => r.remote_address)}::text[],
        ${rows.map((r) => r.process_id)}::text[], ${rows.map((r) => r.since.toISOString())}::timestamptz[],
        ${rows.map((r) => r.in_flight)}::int[], ${rows.map((r) => r.submits_last_minute)}::int[])
        AS b(id, smpp_account_id, account_id, system_id, bind_type, remote_address, process_id, since, in_flight,
          submits_last_minute)
      ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at, in_flight = EXCLUDED.in_flight,
        submits_last_minute = EXCLUDED.submits_last_minute`
  const requested = (processId: string) =>
    ids(sql`SELECT id FROM smpp_binds WHERE process_id = ${processId} AND unbind_requested_at IS NOT NULL`).pipe(
      Effect.map((rows) => rows.map((r) => r.id))
    )
  return SmppBindStore.of({
    register: (row) => upsert([row], row.heartbeat_at).pipe(Effect.asVoid, Effect.orDie),
    admit: (row, maxBinds, liveSince) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(hashtext(${"smpp_binds:" + row.smpp_account_id}))`
        const live = yield* liveCount(sql`SELECT count(*)::int AS n FROM smpp_binds
          WHERE smpp_account_id = ${row.smpp_account_id} AND heartbeat_at >= ${liveSince} AND id <> ${row.id}`)
        if ((live?.n ?? 0) >= maxBinds) return false
        yield* upsert([row], row.heartbeat_at)
        return true
      })).pipe(Effect.orDie),
    heartbeat: (processId, rows, now) =>
      sql.withTransaction(Effect.gen(function*() {
        if (rows.length > 0) yield* upsert(rows, now)
        yield* sql`DELETE FROM smpp_binds WHERE process_id = ${processId}
          AND NOT (id = ANY(${rows.map((r) => r.id)}::uuid[]))`
        return yield* requested(processId)
      })).pipe(Effect.orDie),
    remove: (id) => sql`DELETE FROM smpp_binds WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
    list: (accountId, liveSince) =>
      allBinds(
        accountId === undefined
          ? sql`SELECT ${sql.unsafe(columns)} FROM smpp_binds WHERE heartbeat_at >= ${liveSince} ORDER BY since, id`
          : sql`SELECT ${sql.unsafe(columns)} FROM smpp_binds
            WHERE account_id = ${accountId} AND heartbeat_at >= ${liveSince} ORDER BY since, id`
      ).pipe(Effect.orDie),
    get: (id, liveSince) =>
      oneBind(sql`SELECT ${sql.unsafe(columns)} FROM smpp_binds WHERE id = ${id} AND heartbeat_at >= ${liveSince}`)
        .pipe(Effect.orDie),
    requestUnbind: (target, now, liveSince) =>
      sql.withTransaction(Effect.gen(function*() {
        const marked = yield* allBinds(sql`UPDATE smpp_binds
          SET unbind_requested_at = COALESCE(unbind_requested_at, ${now}::timestamptz)
          WHERE ${"bindId" in target ? sql`id = ${target.bindId}` : sql`smpp_account_id = ${target.smppAccountId}`}
            AND heartbeat_at >= ${liveSince}
          RETURNING ${sql.unsafe(columns)}`)
        const processes = [...new Set(marked.map((b) => b.process_id))]
        if (processes.length > 0) {
          yield* sql`SELECT pg_notify(${BINDS_CHANNEL}, p) FROM unnest(${processes}::text[]) AS p`
        }
        return [...marked].sort((a, b) => a.since.getTime() - b.since.getTime())
      })).pipe(Effect.orDie),
    unbindRequests: (processId) => requested(processId).pipe(Effect.orDie),
    purge: (before) =>
      sql`DELETE FROM smpp_binds WHERE heartbeat_at < ${before} RETURNING id`.pipe(
        Effect.map((rows) => rows.length),
        Effect.orDie
      ),
    wakeups: Effect.provide(Wakeups.listen(BINDS_CHANNEL, "smpp binds"), context)
  })
})

/** `SmppBindStore` over the `SqlClient`. */
export const layer: Layer.Layer<SmppBindStore, never, SqlClient.SqlClient> = Layer.effect(SmppBindStore, make)
