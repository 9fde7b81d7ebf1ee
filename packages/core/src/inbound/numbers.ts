/**
 * The operator's inbound numbers (two-way SMS): assign, list, read, change, remove — each change
 * audited, a conflicting assignment refused (409, `@tuma/domain` `assignmentConflict`), the fields
 * checked (422 by field: E.164 or a short code, one-word keywords, no opt-out word).
 */
import type { ResourceNotFound, ValidationFailed } from "@tuma/domain"
import { isReservedKeyword, normalizeInboundNumber, normalizeKeyword, ResourceConflict } from "@tuma/domain"
import { validationFailed } from "@tuma/domain/validation"
import { Clock, Effect, Either, Option } from "effect"
import { notFound, UUID } from "../admin/context.js"
import type { AuditService } from "../audit/Audit.js"
import type { Ids } from "../ports/Ids.js"
import type { InboundNumberRow, InboundStore } from "../ports/InboundStore.js"
import type { CreateInboundNumberInput, InboundNumberView, UpdateInboundNumberInput } from "./views.js"
import { inboundNumberView } from "./views.js"

/** The inbound-number operations of `Inbound`. */
export interface InboundNumbers {
  readonly createNumber: (
    input: CreateInboundNumberInput
  ) => Effect.Effect<InboundNumberView, ValidationFailed | ResourceConflict | ResourceNotFound>
  readonly listNumbers: (accountUid: string | undefined) => Effect.Effect<ReadonlyArray<InboundNumberView>>
  readonly getNumber: (uid: string) => Effect.Effect<InboundNumberView, ResourceNotFound>
  readonly updateNumber: (
    uid: string,
    input: UpdateInboundNumberInput
  ) => Effect.Effect<InboundNumberView, ValidationFailed | ResourceConflict | ResourceNotFound>
  readonly removeNumber: (uid: string) => Effect.Effect<void, ResourceNotFound>
}

/** The operations over the store, audited through `audit`, ids from `ids`. */
export const makeNumbers = (store: InboundStore["Type"], audit: AuditService, ids: Ids["Type"]): InboundNumbers => {
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
  const findNumber = (uid: string) =>
    (UUID.test(uid) ? store.getNumber(uid) : Effect.succeedNone).pipe(
      Effect.flatMap(
        Option.match({ onNone: () => Effect.fail(notFound("inbound_number", uid)), onSome: Effect.succeed })
      )
    )

  /** The assignment's fields checked: 422 by field. */
  const checked = (
    number: string,
    keyword: string | null | undefined,
    aliases: ReadonlyArray<string> | undefined
  ) => {
    const errors: Record<string, Array<string>> = {}
    const n = normalizeInboundNumber(number)
    if ("error" in n) errors.number = [`The number ${n.error}.`]
    let kw: string | null = null
    if (keyword !== null && keyword !== undefined && keyword.trim() !== "") {
      const k = normalizeKeyword(keyword)
      if ("error" in k) errors.keyword = [`The keyword ${k.error}.`]
      else if (isReservedKeyword(k.keyword)) {
        errors.keyword = [`The keyword ${k.keyword} is reserved (opt-out words).`]
      } else kw = k.keyword
    }
    const al: Array<string> = []
    for (const a of aliases ?? []) {
      const k = normalizeKeyword(a)
      if ("error" in k) errors.aliases = [`Each alias ${k.error}.`]
      else if (isReservedKeyword(k.keyword)) {
        errors.aliases = [`The alias ${k.keyword} is reserved (opt-out words).`]
      } else if (k.keyword !== kw && !al.includes(k.keyword)) al.push(k.keyword)
    }
    if (kw === null && al.length > 0) errors.aliases = ["Aliases need a keyword."]
    if (Object.keys(errors).length > 0 || "error" in n) return Either.left(validationFailed(errors))
    return Either.right({ number: n.number, keyword: kw, aliases: al })
  }

  const conflict = (c: { readonly number: string; readonly keyword: string | null }) =>
    new ResourceConflict({
      message: c.keyword === null
        ? `The address ${c.number} is already assigned.`
        : `The address ${c.number} is already assigned with the keyword ${c.keyword} or an alias of it.`,
      resource: "inbound_number"
    })

  const save = (row: InboundNumberRow, mode: "insert" | "update") =>
    Effect.flatMap(
      store.saveNumber(row, mode),
      (r) => "conflict" in r ? Effect.fail(conflict(r.conflict)) : Effect.succeed(inboundNumberView(row))
    )

  return {
    createNumber: (input) =>
      audit.audited(
        "inbound_number.create",
        Effect.gen(function*() {
          const c = checked(input.number, input.keyword, input.aliases)
          if (Either.isLeft(c)) return yield* c.left
          if (!UUID.test(input.account_uid) || !(yield* store.accountExists(input.account_uid))) {
            return yield* notFound("account", input.account_uid)
          }
          const at = yield* now
          const view = yield* save({
            id: yield* ids.uuidV7,
            accountId: input.account_uid,
            ...c.right,
            createdAt: at,
            updatedAt: at
          }, "insert")
          return { value: view, target: `inbound_number:${view.uid}`, before: null, after: view }
        })
      ),
    listNumbers: (accountUid) =>
      accountUid !== undefined && !UUID.test(accountUid)
        ? Effect.succeed([])
        : Effect.map(store.listNumbers(accountUid), (rows) => rows.map(inboundNumberView)),
    getNumber: (uid) => Effect.map(findNumber(uid), inboundNumberView),
    updateNumber: (uid, input) =>
      audit.audited(
        "inbound_number.update",
        Effect.gen(function*() {
          const was = yield* findNumber(uid)
          const c = checked(
            input.number ?? was.number,
            input.keyword === undefined ? was.keyword : input.keyword,
            input.aliases ?? (input.keyword === null ? [] : was.aliases)
          )
          if (Either.isLeft(c)) return yield* c.left
          const view = yield* save({ ...was, ...c.right, updatedAt: yield* now }, "update")
          return { value: view, target: `inbound_number:${uid}`, before: inboundNumberView(was), after: view }
        })
      ),
    removeNumber: (uid) =>
      audit.audited(
        "inbound_number.delete",
        Effect.gen(function*() {
          const was = yield* findNumber(uid)
          yield* store.deleteNumber(uid)
          return { value: undefined, target: `inbound_number:${uid}`, before: inboundNumberView(was), after: null }
        })
      )
  }
}
