/**
 * SQL of the `LoginFailures` part of `PortalStore` and `OperatorUserStore` (core/src/ports/
 * LoginFailures.ts): one table per kind of user (`portal_login_failures`, `operator_login_failures`,
 * and the SMPP server's failed binds `smpp_bind_failures`, the same columns). A failure is one upsert, so failures racing each other are all counted.
 */
import type { SqlClient } from "@effect/sql"
import type { LoginFailures } from "@tuma/core/ports/LoginFailures"
import { Effect, Schema } from "effect"
import { findFirst, NullableDate } from "./rows.js"

const lock = findFirst(Schema.Struct({ locked_until: NullableDate }))
const lockedUntil = <E, R>(rows: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
  lock(rows).pipe(Effect.map((row) => row?.locked_until ?? null), Effect.orDie)

/** The failed sign-ins kept in `table`. */
export const sqlLoginFailures = (
  sql: SqlClient.SqlClient,
  table: "portal_login_failures" | "operator_login_failures" | "smpp_bind_failures"
): LoginFailures => {
  const failures = sql(table)
  return {
    lockedUntil: (key, now) =>
      lockedUntil(sql`SELECT locked_until FROM ${failures} WHERE key = ${key} AND locked_until > ${now}`),

    recordFailure: ({ key, lockUntil, now, threshold, windowStart }) =>
      lockedUntil(sql`
        INSERT INTO ${failures} AS f (key, failures, window_start, locked_until)
        VALUES (${key}, 1, ${now}, CASE WHEN 1 >= ${threshold}::int THEN ${lockUntil}::timestamptz END)
        ON CONFLICT (key) DO UPDATE SET
          failures = CASE WHEN f.window_start < ${windowStart} THEN 1 ELSE f.failures + 1 END,
          window_start = CASE WHEN f.window_start < ${windowStart} THEN ${now} ELSE f.window_start END,
          locked_until = CASE
            WHEN (CASE WHEN f.window_start < ${windowStart} THEN 1 ELSE f.failures + 1 END) >= ${threshold}::int
              THEN ${lockUntil}::timestamptz
            ELSE f.locked_until END
        RETURNING CASE WHEN locked_until > ${now} THEN locked_until END AS locked_until`),

    clearFailures: (key) => sql`DELETE FROM ${failures} WHERE key = ${key}`.pipe(Effect.asVoid, Effect.orDie)
  }
}
