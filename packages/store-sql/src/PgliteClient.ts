/**
 * The embedded database: PGlite (Postgres compiled to WASM, in-process) behind an `@effect/sql`
 * `SqlClient`, so every adapter runs the same SQL on PGlite and on PostgreSQL.
 *
 * - Statements compile with `PgClient.makeCompiler()` (the `pg` dialect, `$n` placeholders).
 * - PGlite is one connection: access is serialised by a first-come-first-served lock. A plain
 *   statement holds it for its own duration; a transaction (`sql.withTransaction`) for the whole
 *   transaction, so statements of other fibers wait until COMMIT/ROLLBACK. (Effect's Semaphore is
 *   not FIFO: a fiber re-taking it in a loop would starve the others.)
 * - Parameterless statements run with the simple protocol (several statements allowed, as with
 *   `pg`), others with the extended protocol.
 * - `int8`/`bigint` values parse as strings, exactly like `pg` does, so adapters see the same
 *   values on both drivers.
 * - A new data directory is initialised (initdb) in a child process (`initializeDataDir`): initdb
 *   grows PGlite's WebAssembly memory to ≈680 MB, which a process never gives back (measured: a
 *   fresh directory left the opening process at 747 MB, an initialised one at 177 MB). With a
 *   `template` (a dumped data directory) the child loads it instead of running initdb.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { makeCompiler } from "@effect/sql-pg/PgClient"
import * as Client from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import { PGlite } from "@electric-sql/pglite"
import { Config, Context, Effect, Layer, Option, Stream } from "effect"
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"

/** Options of the PGlite `SqlClient`. */
export interface PgliteClientConfig {
  /** `memory://` (default) for an in-memory database, or a directory path for a persistent one. */
  readonly dataDir?: string | undefined
  /**
   * A tarball of an initialised data directory (PGlite's `dumpDataDir`) a new database starts from
   * instead of running initdb: 1–5 s instead of 6–35 s here. Default: `TUMA_PGLITE_TEMPLATE` (a file
   * path), else none. The test suites make one, migrated, per run (store-sql/test/pgliteTemplate.ts).
   */
  readonly template?: string | undefined
}

/** The template of `config`, else `TUMA_PGLITE_TEMPLATE`, when the file exists. */
const templateOf = (config: PgliteClientConfig) =>
  Effect.map(
    Config.option(Config.string("TUMA_PGLITE_TEMPLATE")),
    (env) => {
      const path = config.template ?? Option.getOrUndefined(env)
      return path !== undefined && path !== "" && existsSync(path) ? path : undefined
    }
  ).pipe(Effect.orElseSucceed(() => undefined))

/** The `SqlClient` over PGlite, with the PGlite instance itself. */
export interface PgliteClient extends Client.SqlClient {
  readonly pglite: PGlite
}

export const PgliteClient = Context.GenericTag<PgliteClient>("@tuma/store-sql/PgliteClient")

const INT8 = 20

/** A FIFO mutex: `release` hands the lock straight to the longest waiter (no barging). */
const makeFairLock = () => {
  let locked = false
  const waiters: Array<() => void> = []
  const acquire = Effect.uninterruptible(Effect.async<void>((resume) => {
    if (!locked) {
      locked = true
      resume(Effect.void)
    } else {
      waiters.push(() => resume(Effect.void))
    }
  }))
  const release = Effect.sync(() => {
    const next = waiters.shift()
    if (next === undefined) locked = false
    else next()
  })
  return {
    acquire,
    release,
    /** Runs `eff` holding the lock; uninterruptible (a WASM call cannot be cancelled). */
    with: <A, E>(eff: Effect.Effect<A, E>): Effect.Effect<A, E> =>
      Effect.uninterruptible(Effect.acquireUseRelease(acquire, () => eff, () => release))
  }
}

type Rows = ReadonlyArray<object>

/** PGlite's `shared_buffers` (PostgreSQL's default is 128MB). */
export const SHARED_BUFFERS = "16MB"

/** Whether `dataDir` names a directory on disk that holds no database yet (`memory://` and the like do not). */
const needsInitdb = (dataDir: string) => !dataDir.includes("://") && !existsSync(join(dataDir, "PG_VERSION"))

/**
 * Creates the database in `dataDir` (initdb) in a child node process, which exits and so returns the
 * memory initdb took; the caller then opens an initialised directory.
 */
export const initializeDataDir = (dataDir: string, template?: string): Effect.Effect<void, SqlError> =>
  Effect.async<void, SqlError>((resume) => {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite")
    const options = template === undefined
      ? "{}"
      : `{ loadDataDir: new Blob([require("node:fs").readFileSync(${JSON.stringify(template)})]) }`
    const code = `require(${JSON.stringify(entry)}).PGlite.create(${JSON.stringify(dataDir)}, ${options})` +
      ".then((db) => db.close()).then(() => process.exit(0), (e) => { console.error(e); process.exit(1) })"
    const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    const failed = (cause: unknown) =>
      resume(Effect.fail(new SqlError({ cause, message: `PGlite: could not initialise ${dataDir}` })))
    child.on("error", failed)
    child.on("exit", (code) => code === 0 ? resume(Effect.void) : failed(stderr.trim() || `initdb exited ${code}`))
  })

/**
 * A PGlite `SqlClient` in the scope: statements compiled as for PostgreSQL, serialised through one FIFO lock
 * (PGlite is one connection).
 */
export const make = (config: PgliteClientConfig = {}) =>
  Effect.gen(function*() {
    const dataDir = config.dataDir ?? "memory://"
    const template = yield* templateOf(config)
    if (needsInitdb(dataDir)) yield* initializeDataDir(dataDir, template)
    // an in-memory database is new each time: from the template when there is one
    const loadDataDir = template !== undefined && dataDir.startsWith("memory://")
      ? new Blob([readFileSync(template)])
      : undefined
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () =>
          PGlite.create(dataDir, {
            ...(loadDataDir === undefined ? {} : { loadDataDir }),
            parsers: { [INT8]: (x: string) => x },
            // PostgreSQL's default 128 MB of shared buffers live in PGlite's WebAssembly memory, in
            // the server's process: 16 MB keeps an idle embedded server ≈110 MB smaller
            // (docs/operations.md, "Start-up and memory"); the files are in the OS cache anyway
            startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`]
          }),
        catch: (cause) => new SqlError({ cause, message: `PGlite: failed to open ${dataDir}` })
      }),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
    const lock = makeFairLock()
    const compiler = makeCompiler()

    const run = <A>(f: () => Promise<A>): Effect.Effect<A, SqlError> =>
      Effect.tryPromise({
        try: f,
        catch: (cause) => new SqlError({ cause, message: "Failed to execute statement" })
      })

    const rowsOf = (sql: string, params: ReadonlyArray<unknown>): Effect.Effect<Rows, SqlError> =>
      params.length === 0
        ? run(async () => {
          const results = await db.exec(sql)
          return results.length === 1 ? results[0].rows : results.map((r) => r.rows)
        })
        : run(async () => (await db.query<object>(sql, [...params])).rows)

    /** `locked`: each call takes the permit (outside a transaction) or not (inside one). */
    const makeConnection = (locked: boolean): Connection => {
      const guard = <A>(eff: Effect.Effect<A, SqlError>): Effect.Effect<A, SqlError> =>
        // uninterruptible: the WASM call cannot be cancelled, keep the permit until it returns
        locked ? lock.with(eff) : Effect.uninterruptible(eff)
      const execute = (
        sql: string,
        params: ReadonlyArray<unknown>,
        transformRows: (<A extends object>(row: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
      ) => guard(transformRows ? Effect.map(rowsOf(sql, params), transformRows) : rowsOf(sql, params))
      return {
        execute,
        executeRaw: (sql, params) => guard(run(() => db.query(sql, [...params]))),
        executeValues: (sql, params) =>
          guard(run(async () => (await db.query<Array<unknown>>(sql, [...params], { rowMode: "array" })).rows)),
        executeUnprepared: execute,
        executeStream: (sql, params, transformRows) => Stream.fromIterableEffect(execute(sql, params, transformRows))
      }
    }

    const transactionAcquirer = Effect.as(
      Effect.acquireRelease(lock.acquire, () => lock.release),
      makeConnection(false)
    )

    const client = yield* Client.make({
      acquirer: Effect.succeed(makeConnection(true)),
      transactionAcquirer,
      compiler,
      spanAttributes: [["db.system.name", "postgresql"], ["db.namespace", "pglite"]]
    })
    const withPglite: PgliteClient = Object.assign(client, { pglite: db })
    return withPglite
  })

/** Provides `PgliteClient` and `SqlClient`. */
export const layer = (config: PgliteClientConfig = {}): Layer.Layer<PgliteClient | Client.SqlClient, SqlError> =>
  Layer.scopedContext(
    Effect.map(make(config), (client) => Context.make(PgliteClient, client).pipe(Context.add(Client.SqlClient, client)))
  ).pipe(Layer.provide(Reactivity.layer))
