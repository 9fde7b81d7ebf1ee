/** The console's routes of routes, markets and carriers (providers). */
import { Effect, Schema } from "effect"
import { CountryText, Num, OptionalText, param, route, Text, withBody } from "../Http.js"
import { bindStates } from "../Overview.js"
import type { ConsoleRoutes } from "./context.js"
import { admin } from "./helpers.js"

/** Registers the routes of routes, markets and carriers (providers). */
export const platformRoutes = ({ base, on }: ConsoleRoutes) =>
  Effect.gen(function*() {
    // --- routes and markets ------------------------------------------------------------------
    yield* on.get(`${base}/markets`, route("read", () => admin((a) => a.listMarkets)))
    for (const [action, open] of [["open", true], ["close", false]] as const) {
      yield* on.post(
        `${base}/markets/:country/${action}`,
        route("markets.manage", (ctx) => admin((a) => a.setMarketOpen(param(ctx, "country").toUpperCase(), open)))
      )
    }
    yield* on.post(
      `${base}/routes/verify`,
      route(
        "markets.manage",
        withBody(
          Schema.Struct({ account_uid: Text, country: CountryText, phone: Text }),
          (_, input) => admin((a) => a.verifyRoute(input))
        )
      )
    )

    // --- providers ---------------------------------------------------------------------------
    yield* on.get(
      `${base}/providers`,
      route("read", () =>
        Effect.gen(function*() {
          const providers = yield* admin((a) => a.listProviders)
          const binds = yield* bindStates
          return providers.map((p) => ({ ...p, bind_up: binds.get(p.name) ?? null }))
        }))
    )
    yield* on.post(
      `${base}/providers`,
      route(
        "providers.manage",
        withBody(
          Schema.Struct({
            name: Text,
            kind: OptionalText,
            config: Schema.optional(Schema.Unknown),
            enabled: Schema.optional(Schema.Unknown),
            country: OptionalText,
            credit: Num
          }),
          (_, { country, credit, ...body }) =>
            admin((a) =>
              a.createProvider({
                name: body.name,
                kind: body.kind ?? "simulated",
                ...(typeof body.config === "object" && body.config !== null ? { config: body.config } : {}),
                ...(typeof body.enabled === "boolean" ? { enabled: body.enabled } : {}),
                ...(country === undefined
                  ? {}
                  : { credits: [{ country: country.toUpperCase(), credit: Number.isFinite(credit) ? credit : 0 }] })
              })
            )
        )
      )
    )
    for (const [action, enabled] of [["enable", true], ["disable", false]] as const) {
      yield* on.post(
        `${base}/providers/:uid/${action}`,
        route("providers.manage", (ctx) => admin((a) => a.setProviderEnabled(param(ctx, "uid"), enabled)))
      )
    }
    yield* on.post(
      `${base}/providers/:uid/credit`,
      route(
        "providers.manage",
        withBody(Schema.Struct({ country: CountryText, units: Num, operation: Text }), (ctx, body) =>
          admin((a) =>
            a.creditProvider(param(ctx, "uid"), { ...body, operation: body.operation === "add" ? "add" : "set" })
          ))
      )
    )
    yield* on.get(
      `${base}/country-routes/:country`,
      route("read", (ctx) =>
        admin((a) =>
          a.countryRoutes(param(ctx, "country").toUpperCase())
        ))
    )
    yield* on.put(
      `${base}/country-routes/:country`,
      route(
        "providers.manage",
        withBody(
          Schema.Struct({
            provider_uids: Schema.optional(Schema.Unknown)
          }),
          (ctx, body) =>
            admin((a) =>
              a.setCountryRoutes(param(ctx, "country").toUpperCase(), {
                provider_uids: Array.isArray(body.provider_uids) ? body.provider_uids.map(String) : []
              })
            )
        )
      )
    )
  })
