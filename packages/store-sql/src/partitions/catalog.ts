/**
 * What the catalog says about the monthly partitions of `messages` (migration 1040): each partition's
 * upper bound as an instant (the millisecond timestamp a uuid v7 begins with), and the tables a
 * retention run detached but did not finish with (a crash between detach and drop).
 */
import type { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { findAll } from "../rows.js"

/** A partition of `messages` with a range upper bound (the default partition has none). */
export interface MessagePartition {
  readonly name: string
  /** The first instant the partition does not hold (its ids are below this one's uuid floor). */
  readonly until: Date
}

const PartitionRow = Schema.Struct({ name: Schema.String, bound: Schema.NullOr(Schema.String) })
const partitionRows = findAll(PartitionRow)
const NameRow = Schema.Struct({ name: Schema.String })
const nameRows = findAll(NameRow)

/** The instant a uuid v7 (or a `tuma_uuid_floor`) begins with. */
export const uuidTime = (uuid: string): Date => new Date(parseInt(uuid.replace(/-/g, "").slice(0, 12), 16))

const upperBound = (bound: string | null): Date | null => {
  const m = bound === null ? null : /TO \('([0-9a-f-]{36})'\)/.exec(bound)
  return m === null ? null : uuidTime(m[1])
}

/** The range partitions of `messages`, oldest bound first. */
export const partitions = (sql: SqlClient.SqlClient) =>
  partitionRows(sql`SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'messages'::regclass`).pipe(
    Effect.map((rows) =>
      rows.flatMap((r): Array<MessagePartition> => {
        const until = upperBound(r.bound)
        return until === null ? [] : [{ name: r.name, until }]
      }).sort((a, b) => a.until.getTime() - b.until.getTime())
    )
  )

/** Month tables of `messages` that are no longer partitions: detached by a retention run, not yet dropped. */
export const detached = (sql: SqlClient.SqlClient) =>
  nameRows(sql`SELECT relname AS name FROM pg_class
    WHERE relkind = 'r' AND NOT relispartition AND relnamespace = current_schema()::regnamespace
      AND relname ~ '^messages_(p[0-9]{4}_[0-9]{2}|legacy)$'
    ORDER BY relname`).pipe(Effect.map((rows) => rows.map((r) => r.name)))

/**
 * The tables whose rows belong to one message (`message_id`): those with a foreign key to `messages`
 * (a detach refuses while they point into the partition) and the delivery tables without one.
 */
export const dependents = (sql: SqlClient.SqlClient) =>
  nameRows(sql`SELECT DISTINCT c.relname AS name FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'message_id' AND NOT a.attisdropped
    WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relnamespace = current_schema()::regnamespace
      AND (c.oid IN (SELECT conrelid FROM pg_constraint WHERE contype = 'f' AND confrelid = 'messages'::regclass)
        OR c.relname IN ('dispatch_queue', 'message_parts', 'dispatch_reconcile', 'message_trace_context', 'smpp_receipts', 'smpp_receipts_intermediate'))
    ORDER BY 1`).pipe(Effect.map((rows) => rows.map((r) => r.name)))
