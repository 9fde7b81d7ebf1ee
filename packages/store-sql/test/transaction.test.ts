/**
 * The transaction rule of the SQL adapters (SqlRetry.ts), on a real server: a transaction that
 * failed before its COMMIT was sent is `NotCommitted` (certainly rolled back) and, when its
 * connection was lost, runs again on a fresh connection — a pooled connection the server closed
 * (restart, failover, pg_terminate_backend) does not fail the next send. A statement the server
 * refuses is not retried; a connection lost at COMMIT is in doubt and never retried. A read of one
 * statement whose connection was lost runs again.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { certainlyRolledBack, NotCommitted, retryOnFreshConnection, transaction } from "../src/SqlRetry.js"
import { forEachDriver } from "./harness.js"

/** The error or defect a transaction ended with. */
const failureOf = <A, E>(exit: Exit.Exit<A, E>): unknown => Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined

forEachDriver((db) => db, (it, driver) => {
  const setup = Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql.unsafe(`CREATE TABLE IF NOT EXISTS tx_probe (label text NOT NULL);
      CREATE OR REPLACE FUNCTION tx_probe_lose_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$;
      DROP TRIGGER IF EXISTS tx_probe_lose_commit ON tx_probe;
      CREATE CONSTRAINT TRIGGER tx_probe_lose_commit AFTER INSERT ON tx_probe DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (NEW.label = 'lose the commit') EXECUTE FUNCTION tx_probe_lose_commit();`)
  )
  const countOf = (label: string) =>
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM tx_probe WHERE label = ${label}`
    ).pipe(
      Effect.map((rows) => rows[0].n)
    )

  it.live("a statement the server refuses: NotCommitted (rolled back), run once, nothing stored", () =>
    Effect.gen(function*() {
      yield* setup
      const sql = yield* SqlClient.SqlClient
      let attempts = 0
      const exit = yield* Effect.exit(
        transaction(3)(Effect.gen(function*() {
          attempts++
          yield* sql`INSERT INTO tx_probe (label) VALUES ('refused')`
          yield* sql`SELECT 1 / 0`
        }))
      )
      const failure = failureOf(exit)
      expect(failure).toBeInstanceOf(NotCommitted)
      expect((failure as NotCommitted).begun).toBe(true)
      expect(certainlyRolledBack(failure)).toBe(true)
      expect(attempts).toBe(1)
      expect(yield* countOf("refused")).toBe(0)
    }))

  it.live.skipIf(driver === "pglite")(
    "a connection lost inside the transaction, before COMMIT: run again on a fresh connection, stored once",
    () =>
      Effect.gen(function*() {
        yield* setup
        const sql = yield* SqlClient.SqlClient
        let attempts = 0
        yield* transaction(3)(Effect.gen(function*() {
          attempts++
          yield* sql`INSERT INTO tx_probe (label) VALUES ('reconnected')`
          if (attempts === 1) yield* sql`SELECT pg_terminate_backend(pg_backend_pid())`
        }))
        expect(attempts).toBe(2)
        expect(yield* countOf("reconnected")).toBe(1)
      })
  )

  it.live.skipIf(driver === "pglite")(
    "a connection lost at COMMIT: in doubt (not NotCommitted, not certainly rolled back), never run again",
    () =>
      Effect.gen(function*() {
        yield* setup
        const sql = yield* SqlClient.SqlClient
        let attempts = 0
        const exit = yield* Effect.exit(
          transaction(3)(Effect.suspend(() => {
            attempts++
            return sql`INSERT INTO tx_probe (label) VALUES ('lose the commit')`
          }))
        )
        const failure = failureOf(exit)
        expect(failure).toBeDefined()
        expect(failure).not.toBeInstanceOf(NotCommitted)
        expect(certainlyRolledBack(failure)).toBe(false)
        expect(attempts).toBe(1)
      })
  )

  it.live.skipIf(driver === "pglite")(
    "a read whose connection was lost runs again on a fresh connection",
    () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        let attempts = 0
        const rows = yield* retryOnFreshConnection(Effect.suspend(() => {
          attempts++
          return attempts === 1
            ? sql<{ n: number }>`SELECT 0 AS n FROM pg_terminate_backend(pg_backend_pid())`
            : sql<{ n: number }>`SELECT 7 AS n`
        }))
        expect(rows[0].n).toBe(7)
        expect(attempts).toBe(2)
      })
  )
}, { maxConnections: 1 })
