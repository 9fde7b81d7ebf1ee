/** The console's markets, route checks, carriers (providers) and country routes. */
import { get, post, put } from "@effect/platform/HttpApiEndpoint"
import * as Views from "@tuma/core/admin/views"
import { Schema } from "effect"
import { ok, okList } from "../../shared/apiSchemas.js"
import {
  Anything,
  body,
  consoleGroup,
  CountryPath,
  CountryText,
  needs,
  Num,
  OptionalText,
  Text,
  uidAction,
  UidPath
} from "./shared.js"

const MarketData = ok(Schema.Unknown, "ConsoleMarketResponse")
const ProviderData = ok(Schema.Unknown, "ConsoleProviderResponse")
export const VerifyRouteBody = body({ account_uid: Text, country: CountryText, phone: Text }, "ConsoleVerifyRoute")
export const CreateProviderBody = body({
  name: Text,
  kind: OptionalText,
  config: Anything,
  enabled: Anything,
  country: OptionalText,
  credit: Num
}, "ConsoleCreateProvider")
export const ProviderCreditBody = body({ country: CountryText, units: Num, operation: Text }, "ConsoleProviderCredit")
/** `confirm_no_route: true` disables the last carrier of an open market (otherwise 409, decisions "Carrier coverage"). */
export const DisableProviderBody = body({ confirm_no_route: Anything }, "ConsoleDisableProvider")
export const CountryRoutesBody = body({ provider_uids: Anything }, "ConsoleCountryRoutes")
const marketAction = <const Name extends string>(name: Name) =>
  needs("markets.manage")(post(name, `/markets/:country/${name}`).setPath(CountryPath).addSuccess(MarketData))

export class ConsolePlatformGroup extends consoleGroup("consolePlatform", "Console: markets, routes and carriers")
  .add(needs("read")(get("markets", "/markets").addSuccess(okList(Views.MarketView, "ConsoleMarkets"))))
  .add(marketAction("open"))
  .add(marketAction("close"))
  .add(
    needs("markets.manage")(
      post("verifyRoute", "/routes/verify").setPayload(VerifyRouteBody).addSuccess(ok(Schema.Unknown, "ConsoleRoute"))
    )
  )
  .add(needs("read")(get("providers", "/providers").addSuccess(ok(Schema.Unknown, "ConsoleProviders"))))
  .add(
    needs("providers.manage")(
      post("createProvider", "/providers").setPayload(CreateProviderBody).addSuccess(ProviderData)
    )
  )
  .add(needs("providers.manage")(uidAction("enableProvider", "/providers/:uid/enable").addSuccess(ProviderData)))
  .add(
    needs("providers.manage")(
      uidAction("disableProvider", "/providers/:uid/disable").setPayload(DisableProviderBody).addSuccess(ProviderData)
    )
  )
  .add(
    needs("providers.manage")(
      post("creditProvider", "/providers/:uid/credit").setPath(UidPath).setPayload(ProviderCreditBody)
        .addSuccess(ProviderData)
    )
  )
  .add(
    needs("read")(
      get("countryRoutes", "/country-routes/:country").setPath(CountryPath)
        .addSuccess(ok(Views.CountryRoutesView, "ConsoleCountryRoutesResponse"))
    )
  )
  .add(
    needs("providers.manage")(
      put("setCountryRoutes", "/country-routes/:country").setPath(CountryPath).setPayload(CountryRoutesBody)
        .addSuccess(ok(Views.CountryRoutesView, "ConsoleSetCountryRoutesResponse"))
    )
  )
{}
