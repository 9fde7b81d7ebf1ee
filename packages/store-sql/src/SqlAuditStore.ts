/**
 * SQL adapter of the `AuditStore` port (PostgreSQL and PGlite): table `audit_log` (migration 0600),
 * append-only by trigger. `transaction` is the client's `withTransaction`, so an operator's change
 * and its entry commit together (the adapters' own transactions inside it become savepoints).
 */
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import type { AuditEntry } from "@tuma/core/ports/AuditStore"
import { actionPrefix, AuditStore } from "@tuma/core/ports/AuditStore"
import { Effect, Layer } from "effect"

interface AuditSqlRow {
  readonly id: string | number | bigint
  readonly at: Date | string
  readonly actor_kind: AuditEntry["actor_kind"]
  readonly actor_id: string | null
  readonly actor_name: string
  readonly ip: string | null
  readonly action: string
  readonly target: string | null
  readonly before: unknown
  readonly after: unknown
}

const COLUMNS = `id::text AS id, at, actor_kind, actor_id, actor_name, ip, action, target, before, after`

const entry = (r: AuditSqlRow): AuditEntry => ({
  id: String(r.id),
  at: r.at instanceof Date ? r.at : new Date(r.at),
  actor_kind: r.actor_kind,
  actor_id: r.actor_id,
  actor_name: r.actor_name,
  ip: r.ip,
  action: r.action,
  target: r.target,
  before: r.before ?? null,
  after: r.after ?? null
})

const json = (v: unknown) => v === null || v === undefined ? null : JSON.stringify(v)

/** The SQL `AuditStore` over the context's `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(COLUMNS)
  return AuditStore.of({
    append: (e) =>
      sql<AuditSqlRow>`INSERT INTO audit_log (at, actor_kind, actor_id, actor_name, ip, action, target, before, after)
        VALUES (${e.at}, ${e.actor_kind}, ${e.actor_id}, ${e.actor_name}, ${e.ip}, ${e.action}, ${e.target},
          ${json(e.before)}::jsonb, ${json(e.after)}::jsonb)
        RETURNING ${columns}`.pipe(
        Effect.map((rows) => entry(rows[0])),
        Effect.orDie
      ),
    search: (f) => {
      const clauses = [sql`true`]
      if (f.actor !== undefined) clauses.push(sql`(actor_name = ${f.actor} OR actor_id = ${f.actor})`)
      if (f.action !== undefined) {
        const prefix = actionPrefix(f.action)
        if (prefix === null) clauses.push(sql`action = ${f.action}`)
        else clauses.push(sql`action LIKE ${prefix.replace(/[\\%_]/g, (c) => `\\${c}`) + "%"}`)
      }
      if (f.target !== undefined) clauses.push(sql`target = ${f.target}`)
      if (f.from !== undefined) clauses.push(sql`at >= ${f.from}`)
      if (f.to !== undefined) clauses.push(sql`at < ${f.to}`)
      if (f.before !== undefined) clauses.push(sql`id < ${f.before}::bigint`)
      return sql<AuditSqlRow>`SELECT ${columns} FROM audit_log WHERE ${sql.and(clauses)}
        ORDER BY audit_log.id DESC LIMIT ${f.limit ?? 100}`.pipe(
        Effect.map((rows) => rows.map(entry)),
        Effect.orDie
      )
    },
    transaction: <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      sql.withTransaction(self).pipe(
        Effect.catchIf((e): e is SqlError => e instanceof SqlError, Effect.die)
      ) as Effect.Effect<A, E, R>
  })
})

/** `AuditStore` over the context's `SqlClient`. */
export const layer: Layer.Layer<AuditStore, never, SqlClient.SqlClient> = Layer.effect(AuditStore, make)
