/**
 * PostgreSQL connections that prepare their statements. `@effect/sql-pg` sends every statement
 * unnamed, so PostgreSQL parses and plans it on every call; the store's batch statements (the accept,
 * the claim, the `sent` and receipt writes: `unnest` arrays, CTEs, tables with triggers) spend as
 * much of their server time being parsed and planned as being run, or more (docs/performance.md). Here each connection of the pool
 * prepares a statement with parameters the second time the process sends its text (named after a
 * hash of it) and runs it by name from then on: parsed once per connection, its plan cached by
 * PostgreSQL (custom plans for the first five runs, then the generic one when it is no dearer).
 *
 * - Only statements with parameters are prepared (schema scripts, `BEGIN`, `COMMIT` are not), and at
 *   most `MAX_PREPARED_PER_CONNECTION` per connection (each holds a plan in its backend): texts built
 *   with a varying number of placeholders beyond that run unnamed, as before.
 * - `TUMA_PG_PREPARE=0` turns it off (a pooler in transaction mode, such as PgBouncer's, does not keep
 *   a connection's prepared statements).
 * - A running process's prepared statements survive a schema change made by another process only if
 *   their result columns do not change (PostgreSQL refuses a cached plan whose result type changed):
 *   restart every process after a schema upgrade (docs/operations.md, `TUMA_PG_PREPARE`).
 */
import type { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Layer, Redacted } from "effect"
import { createHash } from "node:crypto"
import { Client, Pool } from "pg"

/** How many statements one connection keeps prepared at most. */
export const MAX_PREPARED_PER_CONNECTION = 256

/** Per text the process sent: its statement name from its second use (`null`: sent once so far). */
const names = new Map<string, string | null>()
const MAX_TRACKED_TEXTS = 10_000

/** The name a text is prepared under on a connection, or `undefined` to send it unnamed. */
const nameFor = (prepared: Set<string>, text: string): string | undefined => {
  let name = names.get(text)
  if (name === undefined) {
    if (names.size >= MAX_TRACKED_TEXTS) names.clear()
    names.set(text, null)
    return undefined
  }
  if (name === null) {
    name = `tuma_${createHash("sha1").update(text).digest("base64url")}`
    names.set(text, name)
  }
  if (prepared.has(name)) return name
  if (prepared.size >= MAX_PREPARED_PER_CONNECTION) return undefined
  prepared.add(name)
  return name
}

/** A connection that sends a statement with parameters by name (`nameFor`). */
class PreparingClient extends Client {
  private readonly prepared = new Set<string>()
  override query(...args: ReadonlyArray<unknown>): unknown {
    const [text, values, ...rest] = args
    if (typeof text === "string" && Array.isArray(values) && values.length > 0) {
      const name = nameFor(this.prepared, text)
      if (name !== undefined) return super.query({ text, values, name }, ...rest)
    }
    return super.query(...args)
  }
}

/** The pool, checked with one statement (5 s at most) and ended (1 s at most) with its scope. */
const acquirePool = (url: Redacted.Redacted<string>, maxConnections: number) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const pool = new Pool({
        connectionString: Redacted.value(url),
        max: maxConnections,
        application_name: "tuma",
        Client: PreparingClient
      })
      // an idle connection's error is the next statement's to report, as in `@effect/sql-pg`
      pool.on("error", () => {})
      return pool
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
  ).pipe(
    Effect.tap((pool) =>
      Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
      }).pipe(
        Effect.timeoutFail({
          duration: Duration.seconds(5),
          onTimeout: () =>
            new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
        })
      )
    )
  )

/** The `SqlClient` on PostgreSQL at `url` whose connections prepare their statements (module comment). */
export const layer = (
  url: Redacted.Redacted<string>,
  maxConnections: number
): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, SqlError> =>
  PgClient.layerFromPool({ acquire: acquirePool(url, maxConnections), applicationName: "tuma" })
