/**
 * `Audit`: the log of operator actions — who (`Actor`), what (an action and its target), the
 * relevant fields before and after (secrets as `"***"`, domain `redactSecrets`), when (`Clock`) and
 * from where (the actor's ip). The `Admin` use cases and `Operator` record every change through it,
 * so the admin API, the `tuma` command and the operator console are recorded alike.
 *
 * `atomically(change)` runs a change and its `record` in one store transaction (SQL), so an entry
 * exists exactly when its change was committed; a refused change records nothing.
 *
 * `search` takes the filter as a caller gives it (query strings included) and answers 422
 * (`ValidationFailed`, by field) for a malformed one.
 */
import type { ValidationFailed } from "@tuma/domain"
import { redactSecrets, validationFailed } from "@tuma/domain"
import { Clock, Context, Effect, Layer } from "effect"
import type { AuditEntry, AuditFilter } from "../ports/AuditStore.js"
import { AuditStore } from "../ports/AuditStore.js"
import { Actor } from "./Actor.js"
import type { AuditEntryView, AuditPageMeta } from "./views.js"
import { auditEntryView, auditPageMeta } from "./views.js"

/** A search of the log as a caller gives it: dates as `Date` or ISO 8601 text, `limit` as a number or text. */
export interface AuditSearchInput {
  readonly actor?: string | undefined
  readonly action?: string | undefined
  readonly target?: string | undefined
  readonly from?: Date | string | undefined
  readonly to?: Date | string | undefined
  readonly limit?: number | string | undefined
  readonly before?: string | undefined
}

/** The default and the largest page of `Audit.search`. */
export const AUDIT_PAGE = { default: 100, max: 500 } as const

/** The audit log's use cases. */
export interface AuditService {
  /** Appends an entry for the current `Actor`, now; `before`/`after` have their secrets replaced by `"***"`. */
  readonly record: (
    action: string,
    target: string | null,
    before: unknown,
    after: unknown
  ) => Effect.Effect<AuditEntry>
  /** Newest first; a malformed filter fails with `ValidationFailed` (by field). */
  readonly search: (filter?: AuditSearchInput) => Effect.Effect<ReadonlyArray<AuditEntry>, ValidationFailed>
  /** `search` with its page: the entries and `meta.next_before`, the cursor of the next (older) page. */
  readonly page: (
    filter?: AuditSearchInput
  ) => Effect.Effect<{ readonly data: ReadonlyArray<AuditEntryView>; readonly meta: AuditPageMeta }, ValidationFailed>
  /** Runs a change and its `record` in one store transaction. */
  readonly atomically: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Runs a change and records it in one store transaction: `action` on the `target` the change
   * answers, with its `before` and `after` values. A change that fails records nothing.
   */
  readonly audited: <A, E, R>(action: string, change: Effect.Effect<AuditedChange<A>, E, R>) => Effect.Effect<A, E, R>
}

/** What an audited change answers: its value, and the target and values its audit entry records. */
export interface AuditedChange<A> {
  readonly value: A
  readonly target: string | null
  readonly before: unknown
  readonly after: unknown
}

/**
 * A change recorded by `audited`: reads `before` (null when it cannot be read: `run` then answers
 * why), runs `run`, and records both with the target (fixed, or named from the value) and
 * `after(value)` (the value itself by default). The admin's and the set-up steps' audit trails.
 */
export const auditedChange = (audited: AuditService["audited"]) =>
<A, E>(
  action: string,
  target: string | null | ((value: A) => string | null),
  before: Effect.Effect<unknown, unknown>,
  run: Effect.Effect<A, E>,
  after: (value: A) => unknown = (value) => value
): Effect.Effect<A, E> =>
  audited(
    action,
    Effect.gen(function*() {
      const was = yield* Effect.orElseSucceed(before, () => null)
      const value = yield* run
      return { value, target: typeof target === "function" ? target(value) : target, before: was, after: after(value) }
    })
  )

const TEXT_MAX = 320
const ACTION = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*(\.|\.\*)?$/
const CURSOR = /^[1-9][0-9]{0,17}$/

const parseDate = (v: Date | string | undefined): Date | null | undefined => {
  if (v === undefined || v === "") return undefined
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v
  if (!/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v)) return null
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? null : d
}

/** Checks and normalises a search: 422 by field for a malformed date, limit, cursor or action. */
export const checkAuditSearch = (input: AuditSearchInput): Effect.Effect<AuditFilter, ValidationFailed> => {
  const errors: Record<string, Array<string>> = {}
  const text = (field: "actor" | "action" | "target") => {
    const v = input[field]
    if (v === undefined || v === "") return undefined
    if (typeof v !== "string" || v.length > TEXT_MAX) {
      errors[field] = [`The ${field} field must be a string of at most ${TEXT_MAX} characters.`]
    }
    return v
  }
  const actor = text("actor")
  const action = text("action")
  if (action !== undefined && errors.action === undefined && !ACTION.test(action)) {
    errors.action = ["The action field must be an action such as wallet.top_up, or a prefix such as sender_id.*."]
  }
  const target = text("target")
  const from = parseDate(input.from)
  if (from === null) errors.from = ["The from field must be an ISO 8601 date-time."]
  const to = parseDate(input.to)
  if (to === null) errors.to = ["The to field must be an ISO 8601 date-time."]
  if (from && to && from.getTime() > to.getTime()) errors.to = ["The to field must be a date after from."]
  let limit: number = AUDIT_PAGE.default
  if (input.limit !== undefined && input.limit !== "") {
    const n = typeof input.limit === "number" ? input.limit : /^\d+$/.test(input.limit) ? Number(input.limit) : NaN
    if (!Number.isSafeInteger(n) || n < 1 || n > AUDIT_PAGE.max) {
      errors.limit = [`The limit field must be an integer between 1 and ${AUDIT_PAGE.max}.`]
    } else limit = n
  }
  const before = input.before === undefined || input.before === "" ? undefined : input.before
  if (before !== undefined && !CURSOR.test(before)) errors.before = ["The before field must be an audit entry id."]
  if (Object.keys(errors).length > 0) return validationFailed(errors)
  return Effect.succeed({
    actor,
    action,
    target,
    from: from ?? undefined,
    to: to ?? undefined,
    limit,
    before
  })
}

/** The audit log as an Effect service; `Audit.layer` needs an `AuditStore`. */
export class Audit extends Context.Tag("@tuma/core/Audit")<Audit, AuditService>() {
  /** `Audit` over the context's `AuditStore`. */
  static readonly layer: Layer.Layer<Audit, never, AuditStore> = Layer.effect(
    Audit,
    Effect.map(AuditStore, makeAudit)
  )
}

/** The `AuditService` over one store (for services that hold the store themselves). */
export function makeAudit(store: AuditStore["Type"]): AuditService {
  const record: AuditService["record"] = (action, target, before, after) =>
    Effect.gen(function*() {
      const actor = yield* Actor
      const at = new Date(yield* Clock.currentTimeMillis)
      return yield* store.append({
        at,
        actor_kind: actor.kind,
        actor_id: actor.operatorId,
        actor_name: actor.name,
        ip: actor.ip,
        action,
        target,
        before: redactSecrets(before),
        after: redactSecrets(after)
      })
    })
  return {
    record,
    search: (filter = {}) => Effect.flatMap(checkAuditSearch(filter), store.search),
    page: (filter = {}) =>
      Effect.flatMap(checkAuditSearch(filter), (checked) =>
        Effect.map(store.search(checked), (entries) => ({
          data: entries.map(auditEntryView),
          meta: auditPageMeta(entries, checked.limit ?? AUDIT_PAGE.default)
        }))),
    atomically: store.transaction,
    audited: (action, change) =>
      store.transaction(
        Effect.flatMap(change, (c) => Effect.as(record(action, c.target, c.before, c.after), c.value))
      )
  }
}
