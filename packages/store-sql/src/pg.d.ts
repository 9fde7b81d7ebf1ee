/**
 * The few parts of `pg` (node-postgres, the driver under `@effect/sql-pg`) that `PgPrepared.ts` and
 * `bench/statement.bench.ts` use:
 * the package ships no types and `@types/pg` is not installed.
 */
declare module "pg" {
  /** A statement with its parameters; a `name` prepares it once per connection. */
  export interface QueryConfig {
    readonly text: string
    readonly values?: ReadonlyArray<unknown>
    readonly name?: string
  }
  /** A connection; `query` takes a text and parameters, a `QueryConfig` or a submittable, then a callback. */
  export class Client {
    constructor(config?: unknown)
    query(...args: ReadonlyArray<unknown>): unknown
    connect(): Promise<void>
    end(): Promise<void>
  }
  /** The pool's options used here (`Client`: the class of its connections). */
  export interface PoolConfig {
    readonly connectionString?: string
    readonly max?: number
    readonly application_name?: string
    readonly Client?: typeof Client
  }
  /** A pool of connections. */
  export class Pool {
    constructor(config?: PoolConfig)
    query(text: string): Promise<unknown>
    query(...args: ReadonlyArray<unknown>): unknown
    on(event: "error", listener: (error: Error) => void): this
    end(): Promise<void>
  }
}
