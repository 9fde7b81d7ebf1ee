/** The console's routes of the console's operators: list, invite, role, disable. */
import { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import { Effect, Schema } from "effect"
import { OptionalText, param, route, Text, withBody } from "../Http.js"
import type { ConsoleRoutes } from "./context.js"

/** Registers the routes of the console's operators: list, invite, role, disable. */
export const operatorsRoutes = ({ base, on, portal }: ConsoleRoutes) =>
  Effect.gen(function*() {
    // --- operators ---------------------------------------------------------------------------
    yield* on.get(`${base}/operators`, route("operators.manage", () => Effect.flatMap(OperatorAccess, (a) => a.list)))
    yield* on.post(
      `${base}/operators`,
      route(
        "operators.manage",
        withBody(Schema.Struct({ email: Text, role: Text, name: OptionalText }), (ctx, body) =>
          Effect.flatMap(OperatorAccess, (a) =>
            a.create({ ...body, linkBase: portal.baseUrl(ctx.request) })).pipe(
              Effect.map(({ operator }) => operator)
            ))
      )
    )
    yield* on.post(
      `${base}/operators/:uid/role`,
      route(
        "operators.manage",
        withBody(
          Schema.Struct({ role: Text }),
          (ctx, { role }) =>
            Effect.flatMap(OperatorAccess, (a) => a.setRole(param(ctx, "uid"), role))
        )
      )
    )
    for (const [action, disabled] of [["disable", true], ["enable", false]] as const) {
      yield* on.post(
        `${base}/operators/:uid/${action}`,
        route("operators.manage", (ctx) =>
          Effect.flatMap(OperatorAccess, (a) =>
            a.setDisabled(param(ctx, "uid"), disabled)))
      )
    }
  })
