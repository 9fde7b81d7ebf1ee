/**
 * Spam rules (`blocked_phrase`, `blocked_domain`; per account or global, and the built-in entries): add, remove, list, switch.
 */
import { builtinSpamEntries, validationFailed } from "@tuma/domain"
import { Effect, Option } from "effect"
import { SendConfig } from "../send/model.js"
import type { AdminContext } from "./context.js"
import { invalid, notFound, UUID } from "./context.js"
import type { AdminService } from "./service.js"
import { SPAM_RULE_KINDS, SpamRuleView } from "./views.js"
import { BUILTIN_DESCRIPTION, spamRuleView } from "./viewsOf.js"

/** Spam rules (`blocked_phrase`, `blocked_domain`; per account or global, and the built-in entries): add, remove, list, switch. */
export const makeSpamRules = (
  ctx: AdminContext
): Pick<AdminService, "addSpamRule" | "removeSpamRule" | "listSpamRules" | "setSpamRuleEnabled"> => {
  const { admin, op, ids, now, account } = ctx

  /** The built-in spam phrases (the send path's base policy) with their stored switches. */
  const builtinRules: Effect.Effect<ReadonlyArray<SpamRuleView & { readonly pattern: string }>> = Effect.gen(
    function*() {
      const { spamPolicy } = yield* SendConfig
      const switches = yield* admin.listSpamBuiltinSwitches
      const off = new Set(switches.filter((w) => !w.enabled).map((w) => `${w.kind}\u0000${w.pattern}`))
      return builtinSpamEntries(spamPolicy).map((e) => ({
        uid: e.uid,
        account_uid: null,
        kind: e.kind,
        pattern: e.pattern,
        description: BUILTIN_DESCRIPTION,
        enabled: !off.has(`${e.kind}\u0000${e.pattern}`),
        builtin: true,
        created_at: null
      }))
    }
  )

  return {
    addSpamRule: (input) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        if (!SPAM_RULE_KINDS.some((k) => k === input.kind)) {
          errors.kind = [`The selected kind is invalid: ${SPAM_RULE_KINDS.join(" or ")}.`]
        }
        const pattern = typeof input.pattern === "string" ? input.pattern.trim() : ""
        if (pattern === "") errors.pattern = ["The pattern field is required."]
        if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
        if (input.account_uid != null) yield* account(input.account_uid)
        const id = yield* ids.uuidV4
        yield* op.insertSpamRule({
          id,
          account_id: input.account_uid ?? null,
          kind: input.kind,
          pattern,
          description: input.description ?? "",
          created_at: yield* now
        })
        const row = yield* admin.findSpamRule(id)
        return spamRuleView(Option.getOrThrow(row))
      }),

    removeSpamRule: (id) =>
      Effect.gen(function*() {
        if ((yield* builtinRules).some((r) => r.uid === id)) {
          return yield* invalid(
            "rule_uid",
            `The spam rule ${id} is built in: it cannot be removed; switch it off with POST /admin/v1/spam-rules/${id}/disable.`
          )
        }
        const found = UUID.test(id) ? yield* admin.deleteSpamRule(id) : false
        if (!found) return yield* notFound("spam_rule", id)
      }),

    listSpamRules: (filter = {}) =>
      Effect.gen(function*() {
        const builtin = filter.account_uid == null ? yield* builtinRules : []
        const rows = filter.account_uid != null && !UUID.test(filter.account_uid)
          ? []
          : yield* admin.listSpamRules({ accountId: filter.account_uid })
        return [...builtin, ...rows.map(spamRuleView)]
      }),

    setSpamRuleEnabled: (id, enabled) =>
      Effect.gen(function*() {
        const builtin = (yield* builtinRules).find((r) => r.uid === id)
        if (builtin !== undefined) {
          yield* admin.setSpamBuiltinSwitch({
            kind: builtin.kind,
            pattern: builtin.pattern,
            enabled,
            updated_at: yield* now
          })
          return { ...builtin, enabled }
        }
        const found = UUID.test(id) ? yield* admin.setSpamRuleEnabled(id, enabled) : false
        if (!found) return yield* notFound("spam_rule", id)
        return spamRuleView(Option.getOrThrow(yield* admin.findSpamRule(id)))
      })
  }
}
