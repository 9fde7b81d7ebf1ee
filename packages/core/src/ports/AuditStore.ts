/**
 * The `AuditStore` port: the append-only log of operator actions. An entry is never changed or
 * removed (the SQL table refuses UPDATE and DELETE by trigger). SQL adapter: @tuma/store-sql
 * `SqlAuditStore` (table `audit_log`); in memory: `MemoryAuditStore.layerMemory`.
 *
 * Entries are listed newest first; `id` is a decimal string from the log's own sequence, so it
 * orders the entries as they were appended and is the paging cursor (`before`).
 */
import type { Effect } from "effect"
import { Context } from "effect"
import type { ActorKind } from "../audit/Actor.js"

/** One recorded operator action. */
export interface AuditEntry {
  /** A decimal string from the log's sequence (the paging cursor). */
  readonly id: string
  readonly at: Date
  readonly actor_kind: ActorKind
  readonly actor_id: string | null
  readonly actor_name: string
  readonly ip: string | null
  /** e.g. `sender_id.approve`, `wallet.top_up`, `provider.update`, `operator.create`. */
  readonly action: string
  /** e.g. `sender_id:<uid>`, `account:<uid>`; null for an action on no one thing. */
  readonly target: string | null
  /** The relevant fields before the change (secrets as `"***"`); null for a creation. */
  readonly before: unknown | null
  /** The relevant fields after the change (secrets as `"***"`); null for a removal. */
  readonly after: unknown | null
}

/** What is appended: an entry without its id. */
export type AuditEntryInput = Omit<AuditEntry, "id">

/** A search of the log (every field optional; all given ones must match). */
export interface AuditFilter {
  /** The actor's name (`admin-token`, `cli:root`, an operator's e-mail) or operator id. */
  readonly actor?: string | undefined
  /** An action (`wallet.top_up`), or a prefix ending in `.` or `.*` (`sender_id.`). */
  readonly action?: string | undefined
  /** A target (`account:<uid>`). */
  readonly target?: string | undefined
  /** Entries at or after. */
  readonly from?: Date | undefined
  /** Entries before. */
  readonly to?: Date | undefined
  /** At most this many (the `Audit` service clamps it to 1–500, default 100). */
  readonly limit?: number | undefined
  /** Cursor: entries older than the entry with this id. */
  readonly before?: string | undefined
}

/**
 * Port: the append-only audit log. `transaction` runs an effect in one store transaction, so an
 * operator's change and its entry are committed together (SQL: `withTransaction`; memory: as is).
 */
export class AuditStore extends Context.Tag("@tuma/core/AuditStore")<AuditStore, {
  readonly append: (entry: AuditEntryInput) => Effect.Effect<AuditEntry>
  /** Newest first, filtered; `limit` as given (the caller clamps). */
  readonly search: (filter: AuditFilter) => Effect.Effect<ReadonlyArray<AuditEntry>>
  /** Runs `self` in one transaction of the store (the change and its audit entry commit together). */
  readonly transaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}

/** Whether an entry matches a filter (the memory adapter's and the contract tests' reading of it). */
export const matchesAuditFilter = (e: AuditEntry, f: AuditFilter): boolean =>
  (f.actor === undefined || e.actor_name === f.actor || e.actor_id === f.actor) &&
  (f.action === undefined || matchesAction(e.action, f.action)) &&
  (f.target === undefined || e.target === f.target) &&
  (f.from === undefined || e.at.getTime() >= f.from.getTime()) &&
  (f.to === undefined || e.at.getTime() < f.to.getTime()) &&
  (f.before === undefined || BigInt(e.id) < BigInt(f.before))

/** `action` filter: exact, or a prefix when it ends in `.` or `.*`. */
export const actionPrefix = (filter: string): string | null =>
  filter.endsWith(".*") ? filter.slice(0, -1) : filter.endsWith(".") ? filter : null

const matchesAction = (action: string, filter: string) => {
  const prefix = actionPrefix(filter)
  return prefix === null ? action === filter : action.startsWith(prefix)
}
