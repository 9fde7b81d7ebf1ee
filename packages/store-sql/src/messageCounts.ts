/**
 * Message counts from the rollup of migration 0980: `message_counts` (folded sums per account, UTC
 * hour, status and channel) plus `message_count_deltas` (what the triggers on `messages` appended
 * since the last fold). A count reads both in one statement, so it is exact at any fold lag, and
 * costs one index range per table instead of a scan of the account's messages.
 *
 * The rollup answers whole UTC days, and whole hours of the last `HOURLY_DAYS` days; anything else
 * (a campaign, bounds inside a day) is counted from `messages` by the caller.
 */
import type { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import type { MessageListFilter } from "@tuma/core/ports/ReadStore"
import { Effect, Schema } from "effect"
import { Count, single } from "./rows.js"

const DAY_MS = 86_400_000

/** How many UTC days back the rollup keeps hours (older ones are one row per day): migration 0980. */
export const HOURLY_DAYS = 10

const isWholeDay = (d: Date | undefined) => d === undefined || d.getTime() % DAY_MS === 0

/**
 * Whether the rollup can count what `f` selects: no campaign, bounds on whole UTC days (the API's
 * `from`/`to`; older hours are kept as days, so an hour bound is counted over the messages).
 */
export const countable = (f: MessageListFilter): boolean =>
  f.campaignId === undefined && isWholeDay(f.createdFrom) && isWholeDay(f.createdBefore)

const total = single(Schema.Struct({ n: Count }))

/** The rows of both tables an account's filter selects, as `SELECT hour, status, n`. */
const both = (sql: SqlClient.SqlClient, conditions: (table: string) => Fragment) =>
  sql`SELECT hour, status, n FROM message_counts WHERE ${conditions("message_counts")}
    UNION ALL SELECT hour, status, n FROM message_count_deltas WHERE ${conditions("message_count_deltas")}`

/** How many messages `f` selects, from the rollup (only when `countable(f)`). */
export const countFromRollup = (sql: SqlClient.SqlClient, f: MessageListFilter) =>
  total(sql`SELECT COALESCE(sum(n), 0) AS n FROM (${
    both(sql, (table) => {
      const t = sql(table)
      const clauses = [sql`${t}.account_id = ${f.accountId}`]
      if (f.status !== undefined) clauses.push(sql`${t}.status = ${f.status}`)
      if (f.channel !== undefined) clauses.push(sql`${t}.channel = ${f.channel}`)
      if (f.createdFrom !== undefined) {
        clauses.push(sql`${t}.hour >= (${f.createdFrom}::timestamptz AT TIME ZONE 'UTC')`)
      }
      if (f.createdBefore !== undefined) {
        clauses.push(sql`${t}.hour < (${f.createdBefore}::timestamptz AT TIME ZONE 'UTC')`)
      }
      return sql.and(clauses)
    })
  }) counted`).pipe(Effect.map((row) => row.n))

const Aligned = single(Schema.Struct({ aligned: Schema.Boolean }))

/** The first instant of the local day six days before `now`'s in `timeZone` (the dashboard's week), as SQL. */
const weekStart = (sql: SqlClient.SqlClient, timeZone: string, now: Date) =>
  sql`((((${now}::timestamptz AT TIME ZONE ${timeZone})::date - 6)::timestamp) AT TIME ZONE ${timeZone})`

/**
 * Whether the rollup holds the dashboard's week in `timeZone` as whole hours: its local midnights fall
 * on whole UTC hours and it starts within the hours the rollup keeps (the last `HOURLY_DAYS` UTC days).
 */
export const weekInRollup = (sql: SqlClient.SqlClient, timeZone: string, now: Date) =>
  Aligned(sql`SELECT date_part('minute', ${weekStart(sql, timeZone, now)} AT TIME ZONE 'UTC') = 0
      AND date_part('minute', ((((${now}::timestamptz AT TIME ZONE ${timeZone})::date)::timestamp)
        AT TIME ZONE ${timeZone}) AT TIME ZONE 'UTC') = 0
      AND (${weekStart(sql, timeZone, now)} AT TIME ZONE 'UTC')
        >= date_trunc('day', now() AT TIME ZONE 'UTC') - ${`${HOURLY_DAYS} days`}::interval AS aligned`).pipe(
    Effect.map((r) => r.aligned)
  )

/**
 * The dashboard's week by local day and status (`day`, `status`, `n`), from the rollup (only when
 * `weekInRollup`); the caller decodes the rows.
 */
export const weekFromRollup = (sql: SqlClient.SqlClient, accountId: string, timeZone: string, now: Date) =>
  sql`SELECT to_char(((hour AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS day,
      status, sum(n)::int AS n
    FROM (${
    both(
      sql,
      (table) =>
        sql`${sql(table)}.account_id = ${accountId}
          AND ${sql(table)}.hour >= (${weekStart(sql, timeZone, now)} AT TIME ZONE 'UTC')`
    )
  }) counted
    GROUP BY 1, 2 HAVING sum(n) <> 0`

/** Moves the appended deltas into the folded sums; answers how many delta rows it took. */
export const fold = (sql: SqlClient.SqlClient) =>
  total(sql`SELECT tuma_fold_message_counts() AS n`).pipe(Effect.map((r) => r.n))
