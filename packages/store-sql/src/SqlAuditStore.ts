/**
 * SQL adapter of the `AuditStore` port (PostgreSQL and PGlite): table `audit_log` (migration 0600),
 * append-only by trigger. `transaction` is the client's `withTransaction`, so an operator's change
 * and its entry commit together (the adapters' own transactions inside it become savepoints).
 */
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { AuditEntryView } from "@tuma/core"
import type { AuditEntry } from "@tuma/core/ports/AuditStore"
import { actionPrefix, AuditStore } from "@tuma/core/ports/AuditStore"
import { Effect, Layer, Schema } from "effect"
import { findAll, single } from "./rows.js"

/** `audit_log`: the answered entry's fields, `at` a `timestamptz`. */
const AuditRow = Schema.Struct({ ...AuditEntryView.fields, at: Schema.DateFromSelf })

const COLUMNS = `id::text AS id, at, actor_kind, actor_id, actor_name, ip, action, target, before, after`

const entry = (r: typeof AuditRow.Type): AuditEntry => ({ ...r, before: r.before ?? null, after: r.after ?? null })
const entryRow = single(AuditRow)
const entryRows = findAll(AuditRow)

const json = (v: unknown) => v === null || v === undefined ? null : JSON.stringify(v)

/** The SQL `AuditStore` over the context's `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(COLUMNS)
  return AuditStore.of({
    append: (e) =>
      entryRow(sql`INSERT INTO audit_log (at, actor_kind, actor_id, actor_name, ip, action, target, before, after)
        VALUES (${e.at}, ${e.actor_kind}, ${e.actor_id}, ${e.actor_name}, ${e.ip}, ${e.action}, ${e.target},
          ${json(e.before)}::jsonb, ${json(e.after)}::jsonb)
        RETURNING ${columns}`).pipe(Effect.map(entry), Effect.orDie),
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
      return entryRows(sql`SELECT ${columns} FROM audit_log WHERE ${sql.and(clauses)}
        ORDER BY audit_log.id DESC LIMIT ${f.limit ?? 100}`).pipe(
        Effect.map((rows) => rows.map(entry)),
        Effect.orDie
      )
    },
    transaction: <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      sql.withTransaction(self).pipe(
        Effect.catchAll((e): Effect.Effect<never, E> => e instanceof SqlError ? Effect.die(e) : Effect.fail(e))
      )
  })
})

/** `AuditStore` over the context's `SqlClient`. */
export const layer: Layer.Layer<AuditStore, never, SqlClient.SqlClient> = Layer.effect(AuditStore, make)
