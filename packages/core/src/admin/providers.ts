/**
 * Providers: create (with credit per country), list, enable/disable, credit, routes per country in order.
 */
import {
  carrierWarnings,
  marketsLeftWithoutCarrier,
  providerConfigErrors,
  ResourceConflict,
  say,
  validationFailed
} from "@tuma/domain"
import type { CarrierRoutes } from "@tuma/domain"
import { Effect, Either, Option } from "effect"
import type { ProviderFullRow } from "../ports/AdminStore.js"
import type { MarketRow } from "../ports/SendStore.js"
import type { AdminContext } from "./context.js"
import { invalid, nonNegativeInt, UUID } from "./context.js"
import type { AdminService } from "./service.js"
import { PROVIDER_KINDS } from "./views.js"
import { countryRouteView, providerView } from "./viewsOf.js"

/** A stored carrier as the coverage rules read it. */
const carrierOf = (p: ProviderFullRow): CarrierRoutes => ({
  id: p.id,
  name: p.name,
  kind: p.kind,
  config: p.config,
  enabled: p.enabled,
  routes: p.routes
})

/** Providers: create (with credit per country), list, enable/disable, credit, routes per country in order. */
export const makeProviders = (
  ctx: AdminContext
): Pick<
  AdminService,
  | "createProvider"
  | "listProviders"
  | "getProvider"
  | "setProviderEnabled"
  | "creditProvider"
  | "setCountryRoutes"
  | "countryRoutes"
  | "carrierWarnings"
> => {
  const { admin, op, ids, now, market, providerRow } = ctx
  return {
    createProvider: (input) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        const name = typeof input.name === "string" ? input.name.trim() : ""
        if (name === "") errors.name = ["The name field is required."]
        if (input.kind !== undefined && !PROVIDER_KINDS.some((k) => k === input.kind)) {
          errors.kind = [`The selected kind is invalid: ${PROVIDER_KINDS.join(" or ")}.`]
        }
        // a carrier Tuma could not start (an smpp one without host or credentials) is refused here
        Object.assign(errors, providerConfigErrors(input.kind ?? "simulated", input.config ?? {}))
        const credits: Array<{ market: MarketRow; credit: number }> = []
        for (const [i, c] of (input.credits ?? []).entries()) {
          if (!nonNegativeInt(c.credit)) errors[`credits.${i}.credit`] = ["The credit must be a non-negative integer."]
          const m = yield* Effect.either(market(c.country, `credits.${i}.country`))
          if (Either.isLeft(m)) Object.assign(errors, m.left.errors)
          else credits.push({ market: m.right, credit: c.credit })
        }
        if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
        const id = yield* ids.uuidV4
        const at = yield* now
        const inserted = yield* admin.insertProvider({
          id,
          name,
          kind: input.kind ?? "simulated",
          config: input.config ?? {},
          enabled: input.enabled ?? true,
          created_at: at
        })
        if (!inserted) {
          return yield* new ResourceConflict({ message: `A provider named ${name} exists.`, resource: "provider" })
        }
        for (const c of credits) {
          yield* op.setProviderCredit(id, c.market.id, c.credit, at)
          const existing = yield* admin.countryRoutes(c.market.id)
          const priority = existing.reduce((max, r) => Math.max(max, r.priority + 1), 0)
          yield* op.upsertProviderRoute({
            id: yield* ids.uuidV4,
            provider_id: id,
            market_id: c.market.id,
            priority,
            enabled: true,
            created_at: at
          })
        }
        return providerView(yield* providerRow(id).pipe(Effect.orDie))
      }),

    listProviders: Effect.map(admin.listProviders, (rows) => rows.map(providerView)),

    getProvider: (id) => Effect.map(providerRow(id), providerView),

    setProviderEnabled: (id, enabled, options) =>
      Effect.gen(function*() {
        const row = yield* providerRow(id)
        if (!enabled && row.enabled && options?.confirmNoRoute !== true) {
          // the last carrier of an open market is disabled only when the caller says so (decisions: carrier coverage)
          const [markets, carriers] = yield* Effect.all([admin.listMarkets, admin.listProviders])
          const left = marketsLeftWithoutCarrier(markets, carriers.map(carrierOf), row.id)
          if (left.length > 0) {
            return yield* new ResourceConflict({
              message: say("provider.last_carrier", { provider: row.name, markets: left.join(", ") }),
              resource: "provider"
            })
          }
        }
        yield* admin.setProviderEnabled(id, enabled)
        return providerView(yield* providerRow(id))
      }),

    creditProvider: (id, input) =>
      Effect.gen(function*() {
        const operation = input.operation ?? "add"
        if (
          typeof input.units !== "number" || !Number.isSafeInteger(input.units) ||
          (operation === "set" && input.units < 0)
        ) {
          return yield* invalid(
            "units",
            operation === "set"
              ? "The units field must be a non-negative integer."
              : "The units field must be an integer."
          )
        }
        const m = yield* market(input.country)
        yield* providerRow(id)
        const at = yield* now
        if (operation === "set") yield* op.setProviderCredit(id, m.id, input.units, at)
        else yield* admin.addProviderCredit(id, m.id, input.units, at)
        return providerView(yield* providerRow(id))
      }),

    setCountryRoutes: (country, input) =>
      Effect.gen(function*() {
        const m = yield* market(country)
        const list = input.provider_uids ?? []
        const seen = new Set<string>()
        const errors: Record<string, Array<string>> = {}
        for (const [i, pid] of list.entries()) {
          if (seen.has(pid.toLowerCase())) errors[`provider_uids.${i}`] = ["The provider is listed twice."]
          seen.add(pid.toLowerCase())
          const found = UUID.test(pid) ? yield* admin.findProvider(pid) : Option.none()
          if (Option.isNone(found)) errors[`provider_uids.${i}`] = [`The selected provider_uids.${i} is invalid.`]
        }
        if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
        const routes = yield* Effect.forEach(list, (pid) => Effect.map(ids.uuidV4, (id) => ({ id, provider_id: pid })))
        yield* admin.replaceCountryRoutes(m.id, routes, yield* now)
        return { country: m.iso2, routes: (yield* admin.countryRoutes(m.id)).map(countryRouteView) }
      }),

    carrierWarnings: Effect.map(
      Effect.all([admin.listMarkets, admin.listProviders]),
      ([markets, carriers]) => carrierWarnings(markets, carriers.map(carrierOf))
    ),

    countryRoutes: (country) =>
      Effect.gen(function*() {
        const m = yield* market(country)
        return { country: m.iso2, routes: (yield* admin.countryRoutes(m.id)).map(countryRouteView) }
      })
  }
}
