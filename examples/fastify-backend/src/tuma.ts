/**
 * Tuma inside this backend: one `ManagedRuntime` built at start-up holds the core services (`Send`,
 * `Reads`, `Operator`) over one store. Routes call `tuma.runPromise(...)`; `tuma.dispose()` closes
 * the database when the server stops.
 */
import { Ids, Operator, Reads, Send } from "@tuma/core"
import { Database, SqlContentCounter, SqlOperatorStore, SqlReadStore, SqlSendStore } from "@tuma/store-sql"
import { Layer, ManagedRuntime } from "effect"

/** The services this backend uses. */
export type TumaServices = Send | Reads | Operator

/** The runtime the routes share. */
export type Tuma = ManagedRuntime.ManagedRuntime<TumaServices, unknown>

/**
 * `database`: `Database.pglite("memory://")` for tests, `Database.pglite("./data")` for a
 * persistent embedded store, `Database.postgres(url)` in production. Migrations run when the
 * runtime is first used (or at once with `await tuma.runtime()`).
 */
export const makeTuma = (database: Database.DatabaseConfig): Tuma =>
  ManagedRuntime.make(
    Layer.mergeAll(Send.layer, Reads.layer, Operator.layer).pipe(
      Layer.provide(
        Layer.mergeAll(SqlSendStore.layer, SqlReadStore.layer, SqlOperatorStore.layer, SqlContentCounter.layer)
      ),
      Layer.provide(Ids.layer),
      Layer.provide(Database.layer(database))
    )
  )
