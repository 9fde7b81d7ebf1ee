/**
 * The one retry rule of the SQL adapters: a transaction that failed with a serialization failure
 * (`40001`) or a deadlock (`40P01`) did nothing and is run again, whole; any other failure is not
 * retried. Used by the send path (`SqlSendStore`) and the delivery queue (`SqlDispatchStore`).
 */
import { Effect, Predicate, Schedule } from "effect"

const TRANSIENT = new Set(["40001", "40P01"])

/** A `SqlError` whose driver cause carries a serialization-failure or deadlock SQLSTATE. */
export const isTransient = (e: unknown): boolean => {
  if (!Predicate.isTagged(e, "SqlError") || !Predicate.hasProperty(e, "cause")) return false
  const cause = e.cause
  return Predicate.hasProperty(cause, "code") && typeof cause.code === "string" && TRANSIENT.has(cause.code)
}

/** Runs `self` again (at most `times` more) while it fails transiently. */
export const retryTransient = (times: number) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.retry(self, { while: isTransient, schedule: Schedule.recurs(times) })
