/** Handlers of the console's markets, route checks, carriers (providers) and country routes. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { TumaApi } from "../../Api.js"
import { asOperator } from "../Http.js"
import { bindStates } from "../Overview.js"
import { admin } from "./helpers.js"

export const ConsolePlatformLive = HttpApiBuilder.group(TumaApi, "consolePlatform", (handlers) =>
  handlers
    .handle("markets", () => asOperator(() => admin((a) => a.listMarkets)))
    .handle("open", ({ path }) => asOperator(() => admin((a) => a.setMarketOpen(path.country.toUpperCase(), true))))
    .handle("close", ({ path }) => asOperator(() => admin((a) => a.setMarketOpen(path.country.toUpperCase(), false))))
    .handle("verifyRoute", ({ payload }) => asOperator(() => admin((a) => a.verifyRoute(payload))))
    .handle("providers", () =>
      asOperator(() =>
        Effect.gen(function*() {
          const providers = yield* admin((a) => a.listProviders)
          const binds = yield* bindStates
          return providers.map((p) => ({ ...p, bind_up: binds.get(p.name) ?? null }))
        })
      ))
    .handle("createProvider", ({ payload: { country, credit, ...body } }) =>
      asOperator(() =>
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
      ))
    .handle("enableProvider", ({ path }) =>
      asOperator(() =>
        admin((a) => a.setProviderEnabled(path.uid, true))
      ))
    .handle("disableProvider", ({ path, payload }) =>
      asOperator(() =>
        admin((a) =>
          a.setProviderEnabled(path.uid, false, { confirmNoRoute: payload.confirm_no_route === true })
        )
      ))
    .handle("creditProvider", ({ path, payload }) =>
      asOperator(() =>
        admin((a) =>
          a.creditProvider(path.uid, { ...payload, operation: payload.operation === "add" ? "add" : "set" })
        )
      ))
    .handle("countryRoutes", ({ path }) =>
      asOperator(() => admin((a) => a.countryRoutes(path.country.toUpperCase()))))
    .handle("setCountryRoutes", ({ path, payload }) =>
      asOperator(() =>
        admin((a) =>
          a.setCountryRoutes(path.country.toUpperCase(), {
            provider_uids: Array.isArray(payload.provider_uids) ? payload.provider_uids.map(String) : []
          })
        )
      )))
