/**
 * The audit log as the admin API and the console answer it: snake_case, ISO strings (Schemas).
 */
import { Schema } from "effect"
import type { AuditEntry } from "../ports/AuditStore.js"

/** One audit entry as answered (`at` ISO 8601; `before`/`after` JSON, secrets as "***"). */
export const AuditEntryView = Schema.Struct({
  id: Schema.String,
  at: Schema.String,
  actor_kind: Schema.Literal("operator", "admin-token", "cli", "system"),
  actor_id: Schema.NullOr(Schema.String),
  actor_name: Schema.String,
  ip: Schema.NullOr(Schema.String),
  action: Schema.String,
  target: Schema.NullOr(Schema.String),
  before: Schema.Unknown,
  after: Schema.Unknown
}).annotations({ identifier: "AuditEntry" })
/** One audit entry as answered. */
export type AuditEntryView = typeof AuditEntryView.Type

/** The `AuditEntryView` of a stored entry. */
export const auditEntryView = (e: AuditEntry): AuditEntryView => ({
  id: e.id,
  at: e.at.toISOString(),
  actor_kind: e.actor_kind,
  actor_id: e.actor_id,
  actor_name: e.actor_name,
  ip: e.ip,
  action: e.action,
  target: e.target,
  before: e.before ?? null,
  after: e.after ?? null
})

/**
 * The paging of a search: `next_before` is the cursor of the next (older) page — the last entry's
 * id when the page is full, null when there is nothing older.
 */
export const AuditPageMeta = Schema.Struct({
  limit: Schema.Number,
  next_before: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AuditPageMeta" })
/** The paging of a search. */
export type AuditPageMeta = typeof AuditPageMeta.Type

/** The page metadata of a search answered with `limit`. */
export const auditPageMeta = (entries: ReadonlyArray<AuditEntry>, limit: number): AuditPageMeta => ({
  limit,
  next_before: entries.length >= limit && entries.length > 0 ? entries[entries.length - 1].id : null
})
