/**
 * The one retry rule of the SQL adapters, and the one place that knows whether a failed transaction
 * may have committed.
 *
 * - A transaction that failed with a serialization failure (`40001`) or a deadlock (`40P01`) did
 *   nothing and is run again, whole.
 * - A transaction that failed before its COMMIT was sent (at BEGIN or inside its body) did not
 *   commit, whatever the failure: `transaction` marks it `NotCommitted`. When the failure was the
 *   connection itself (a pooled connection the server had already closed, a restart, a failover),
 *   it is run again on a fresh connection (at most twice). A read of one statement likewise.
 * - A failure at COMMIT (a defect of `withTransaction`) is certain only when the server answered a statement error (a deferred
 *   constraint, say): then nothing is stored. A lost connection there (class 08, 57 operator
 *   intervention, 58, XX) may have committed: in doubt, never retried.
 *
 * Used by the send path (`SqlSendStore`, send/accept.ts) and the delivery queue (`SqlDispatchStore`).
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Data, Effect, Predicate } from "effect"

const TRANSIENT = new Set(["40001", "40P01"])

/** The SQLSTATE of a failed statement, if the server answered one. */
export const sqlState = (e: unknown): string | undefined => {
  const inner = e instanceof NotCommitted ? e.cause : e
  if (!Predicate.isTagged(inner, "SqlError") || !Predicate.hasProperty(inner, "cause")) return undefined
  const cause = inner.cause
  return Predicate.hasProperty(cause, "code") && typeof cause.code === "string" ? cause.code : undefined
}

/** A failure the server answered with a statement error (not the connection going away). */
const answeredByServer = (e: unknown): boolean => {
  const code = sqlState(e)
  return code !== undefined && /^[0-9A-Z]{5}$/.test(code) && !/^(08|57|58|XX)/.test(code)
}

const isSqlError = (e: unknown): e is SqlError => Predicate.isTagged(e, "SqlError")

/** A `SqlError` whose connection went: no SQLSTATE at all, or a connection/operator class. */
const connectionLost = (e: unknown): boolean =>
  (e instanceof NotCommitted || isSqlError(e)) && !answeredByServer(e) &&
  !TRANSIENT.has(sqlState(e) ?? "")

/**
 * A transaction's failure before its COMMIT was sent: nothing of it is stored. `begun` tells
 * whether BEGIN had succeeded.
 */
export class NotCommitted extends Data.TaggedError("NotCommitted")<{
  readonly cause: SqlError
  readonly begun: boolean
}> {}

/** A serialization failure or deadlock (the SQLSTATE of a `SqlError`, or of a `NotCommitted`'s cause). */
export const isTransient = (e: unknown): boolean => TRANSIENT.has(sqlState(e) ?? "")

/** The transaction of this failure certainly rolled back: before its COMMIT, or refused by the server. */
export const certainlyRolledBack = (e: unknown): boolean => e instanceof NotCommitted || answeredByServer(e)

/** Runs `self` again (at most `times` more) while it fails transiently. */
export const retryTransient = (times: number) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  // a loop on failure only (no schedule on the success path: the send path runs this per request)
  const attempt = (n: number): Effect.Effect<A, E, R> =>
    Effect.catchAll(self, (e) => isTransient(e) && n < times ? attempt(n + 1) : Effect.fail(e))
  return attempt(0)
}

/** After a lost connection: twice more, 10 then 20 ms later, so that the pool has seen the closed
 * socket and hands out a fresh connection (a connection the server closed stays in the pool until
 * its end event is read). */
const LOST_CONNECTION_RETRIES = 2
const lostConnectionDelay = (retry: number) => `${10 * 2 ** retry} millis` as const

/** A statement that only reads: run again, on a fresh connection, when its connection was lost. */
export const retryOnFreshConnection = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const attempt = (n: number): Effect.Effect<A, E, R> =>
    Effect.catchAll(self, (e) =>
      connectionLost(e) && n < LOST_CONNECTION_RETRIES
        ? Effect.delay(attempt(n + 1), lostConnectionDelay(n))
        : Effect.fail(e))
  return attempt(0)
}

/**
 * `body` in a transaction whose failures before COMMIT are `NotCommitted`; run again whole while
 * transient (at most `times`), and on a fresh connection when the connection was lost before COMMIT
 * (at most twice, 10 then 20 ms later). The retries are a loop on failure only: a transaction that
 * succeeds pays for no schedule (the send path runs one per request).
 */
export const transaction = (times: number) =>
<A, E, R>(
  body: Effect.Effect<A, E, R>
): Effect.Effect<A, E | SqlError | NotCommitted, R | SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const once = Effect.suspend(() => {
      let phase: "begin" | "body" | "commit" = "begin"
      const marked = Effect.sync(() => {
        phase = "body"
      }).pipe(
        Effect.zipRight(body),
        Effect.tap(() => {
          phase = "commit"
        })
      )
      const notCommitted = (e: SqlError) => new NotCommitted({ cause: e, begun: phase === "body" })
      return sql.withTransaction(marked).pipe(
        Effect.mapError((e): E | SqlError | NotCommitted => phase !== "commit" && isSqlError(e) ? notCommitted(e) : e),
        // a ROLLBACK on a lost connection dies (in place of the body's failure): still never committed
        Effect.catchAllDefect((d) => phase !== "commit" && isSqlError(d) ? Effect.fail(notCommitted(d)) : Effect.die(d))
      )
    })
    const attempt = (
      transient: number,
      lost: number
    ): Effect.Effect<A, E | SqlError | NotCommitted, R> =>
      Effect.catchAll(once, (e) =>
        isTransient(e) && transient < times
          ? attempt(transient + 1, lost)
          : e instanceof NotCommitted && connectionLost(e) && lost < LOST_CONNECTION_RETRIES
          ? Effect.delay(attempt(transient, lost + 1), lostConnectionDelay(lost))
          : Effect.fail(e))
    return attempt(0, 0)
  })
