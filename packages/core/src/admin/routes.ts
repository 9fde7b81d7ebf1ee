/**
 * SMS routes: verify (per country, with the verified phone), list, remove.
 */
import { normalizeRecipient } from "@tuma/domain"
import { Effect } from "effect"
import type { AdminContext } from "./context.js"
import { invalid, notFound } from "./context.js"
import type { AdminService } from "./service.js"

/** SMS routes: verify (per country, with the verified phone), list, remove. */
export const makeRoutes = (ctx: AdminContext): Pick<AdminService, "verifyRoute" | "listRoutes" | "removeRoute"> => {
  const { admin, op, ids, now, account, market, routesOf } = ctx
  return {
    verifyRoute: (input) =>
      Effect.gen(function*() {
        const phone = normalizeRecipient(typeof input.phone === "string" ? input.phone : "")
        if (phone._tag === "Left") {
          return yield* invalid("phone", "The phone field must be a valid phone number in E.164 format.")
        }
        const m = yield* market(input.country)
        yield* account(input.account_uid)
        yield* op.upsertVerifiedRoute({
          id: yield* ids.uuidV4,
          account_id: input.account_uid,
          market_id: m.id,
          phone: phone.right.e164,
          verified_at: yield* now
        })
        return (yield* routesOf(input.account_uid)).find((r) => r.country_uid === m.id)!
      }),

    listRoutes: (accountId) => Effect.zipRight(account(accountId), routesOf(accountId)),

    removeRoute: (accountId, country) =>
      Effect.gen(function*() {
        yield* account(accountId)
        const m = yield* market(country)
        if (!(yield* admin.deleteVerifiedRoute(accountId, m.id))) {
          return yield* notFound("route", `${accountId}/${m.iso2}`)
        }
      })
  }
}
