/**
 * Opt-outs (recipients normalised to E.164): add, remove, list.
 */
import { Effect, Option } from "effect"
import type { AdminContext } from "./context.js"
import { notFound } from "./context.js"
import type { AdminService } from "./service.js"
import { optOutView } from "./viewsOf.js"

/** Opt-outs (recipients normalised to E.164): add, remove, list. */
export const makeOptOuts = (ctx: AdminContext): Pick<AdminService, "addOptOut" | "removeOptOut" | "listOptOuts"> => {
  const { admin, op, now, account, e164 } = ctx
  return {
    addOptOut: (input) =>
      Effect.gen(function*() {
        const recipient = yield* e164(input.recipient)
        yield* account(input.account_uid)
        yield* op.insertOptOut(input.account_uid, recipient, input.reason ?? null, yield* now)
        const row = yield* admin.findOptOut(input.account_uid, recipient)
        return optOutView(Option.getOrThrow(row))
      }),

    removeOptOut: (accountId, recipient) =>
      Effect.gen(function*() {
        const e = yield* e164(recipient)
        yield* account(accountId)
        if (!(yield* admin.deleteOptOut(accountId, e))) return yield* notFound("opt_out", e)
      }),

    listOptOuts: (accountId) =>
      Effect.zipRight(account(accountId), Effect.map(admin.listOptOuts(accountId), (rows) => rows.map(optOutView)))
  }
}
