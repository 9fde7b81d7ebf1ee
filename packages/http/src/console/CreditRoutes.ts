/**
 * The console's credit corrections (issue 15): `POST /console/api/accounts/:uid/corrections`, for
 * the roles with `credit.manage` (admins). A correction is an `adjustment` ledger row written by
 * `Admin.correctCredits` (the wallet never below 0; refused, nothing written), recorded in the audit
 * log with the operator in the same transaction. Kept apart from `Routes.ts` (one route, one file).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Admin } from "@tuma/core"
import type { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import { Effect, Schema } from "effect"
import type { PortalRequest } from "../portal/Session.js"
import { CountryText, Num, OptionalText, param, route, Text, withBody } from "./Http.js"

/** The correction's body: `units` NaN when absent (`Admin` answers 422), `corrects` absent when blank. */
const CorrectionBody = Schema.Struct({ country: CountryText, units: Num, reason: Text, corrects: OptionalText })

/** The corrections route on the API's router. */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const services = yield* Effect.context<Admin | OperatorAccess | PortalRequest>()
    yield* router.post(
      "/console/api/accounts/:uid/corrections",
      route(
        "credit.manage",
        withBody(CorrectionBody, (ctx, body) =>
          Effect.flatMap(Admin, (admin) =>
            admin.correctCredits({
              account_uid: param(ctx, "uid"),
              country: body.country.trim(),
              units: body.units,
              reason: body.reason,
              ...(body.corrects === undefined ? {} : { corrects: body.corrects })
            })))
      ).pipe(Effect.provide(services))
    )
  })
)
