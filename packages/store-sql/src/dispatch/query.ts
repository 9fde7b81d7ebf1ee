/**
 * The statement runner of the SQL `DispatchStore` (dispatch/*.ts): `q` runs a statement text with
 * positional parameters, arrays encoded once as PostgreSQL array literals; `tx` runs a transaction
 * retried on serialization failures.
 */
import { SqlClient } from "@effect/sql"
import type { SqlError, Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import { NotCommitted, transaction } from "../SqlRetry.js"

/** The two ways the dispatch operations reach the database. */
export interface Db {
  readonly q: (text: string, params?: ReadonlyArray<unknown>) => Statement.Statement<object>
  readonly tx: <A, E, R>(eff: Effect.Effect<A, E | SqlError.SqlError, R>) => Effect.Effect<A, E | SqlError.SqlError, R>
}

/** The value of an optional one-row answer's field, or `fallback` without a row. */
export const field = <A, K extends keyof A, B>(row: Option.Option<A>, key: K, fallback: B): A[K] | B =>
  Option.isSome(row) ? row.value[key] : fallback

/** One element of a PostgreSQL array literal, as `pg` writes it. */
const arrayElement = (v: string | number | boolean | null | undefined): string =>
  v === null || v === undefined
    ? "NULL"
    : typeof v !== "string"
    ? String(v)
    : /[\\"]/.test(v)
    ? `"${v.replace(/[\\"]/g, "\\$&")}"`
    : `"${v}"`

/**
 * Array parameters as PostgreSQL array literals built with one `join`: `pg` builds them by
 * appending element after element, which allocated ~6 KB of intermediate strings per dispatched
 * message (the largest source of garbage of a worker).
 */
const encodeParam = (p: unknown): unknown => Array.isArray(p) ? `{${p.map(arrayElement).join(",")}}` : p

/** `Db` over the `SqlClient`. */
export const make: Effect.Effect<Db, never, SqlClient.SqlClient> = Effect.map(SqlClient.SqlClient, (sql) => ({
  q: (text, params = []) => sql.unsafe(text, params.map(encodeParam)),
  // the queue's callers handle a SqlError: a NotCommitted (retried once already) is answered as its cause
  tx: (eff) =>
    transaction(5)(eff).pipe(
      Effect.mapError((e) => e instanceof NotCommitted ? e.cause : e),
      Effect.provideService(SqlClient.SqlClient, sql)
    )
}))
