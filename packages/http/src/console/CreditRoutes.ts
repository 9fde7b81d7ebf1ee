/**
 * The console's credit corrections (issue 15): `POST /console/api/accounts/:uid/corrections`, for
 * the roles with `credit.manage` (admins). A correction is an `adjustment` ledger row written by
 * `Admin.correctCredits` (the wallet never below 0; refused, nothing written), recorded in the audit
 * log with the operator in the same transaction. Kept apart from `Routes.ts` (one route, one file).
 */
import { HttpApiBuilder } from "@effect/platform"
import { Admin } from "@tuma/core"
import type { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import { Effect } from "effect"
import type { PortalRequest } from "../portal/Session.js"
import { param, route, str } from "./Http.js"

/** The body's `units` as a number (NaN when absent: `Admin` answers 422). */
const units = (body: Record<string, unknown>) => {
  const v = body.units
  return typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN
}

/** The corrections route on the API's router. */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const services = yield* Effect.context<Admin | OperatorAccess | PortalRequest>()
    yield* router.post(
      "/console/api/accounts/:uid/corrections",
      route("credit.manage", (ctx) =>
        Effect.flatMap(Admin, (admin) => {
          const corrects = str(ctx.body, "corrects").trim()
          return admin.correctCredits({
            account_uid: param(ctx, "uid"),
            country: str(ctx.body, "country").trim().toUpperCase(),
            units: units(ctx.body),
            reason: str(ctx.body, "reason"),
            ...(corrects === "" ? {} : { corrects })
          })
        })).pipe(Effect.provide(services))
    )
  })
)
