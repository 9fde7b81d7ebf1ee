/**
 * Markets: list, open, close.
 */
import { Effect, Option } from "effect"
import type { AdminContext } from "./context.js"
import { notFound } from "./context.js"
import type { AdminService } from "./service.js"
import { marketView } from "./viewsOf.js"

/** Markets: list, open, close. */
export const makeMarkets = (ctx: AdminContext): Pick<AdminService, "listMarkets" | "setMarketOpen"> => {
  const { admin, op } = ctx
  return {
    listMarkets: Effect.map(admin.listMarkets, (rows) => rows.map(marketView)),

    setMarketOpen: (country, open) =>
      Effect.gen(function*() {
        const iso2 = country.toUpperCase()
        if (!(yield* op.setMarketOpen(iso2, open))) return yield* notFound("market", country)
        const m = yield* op.findMarket(iso2)
        return marketView(Option.getOrThrow(m))
      })
  }
}
