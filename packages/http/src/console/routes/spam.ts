/** The console's routes of spam rules and opt-outs. */
import { Effect, Schema } from "effect"
import { OptionalText, param, route, Text, withBody } from "../Http.js"
import type { ConsoleRoutes } from "./context.js"
import { admin } from "./helpers.js"

/** Registers the routes of spam rules and opt-outs. */
export const spamRoutes = ({ base, on }: ConsoleRoutes) =>
  Effect.gen(function*() {
    // --- spam rules and opt-outs -------------------------------------------------------------
    yield* on.get(`${base}/spam-rules`, route("read", () => admin((a) => a.listSpamRules())))
    yield* on.post(
      `${base}/spam-rules`,
      route(
        "spam_rules.manage",
        withBody(
          Schema.Struct({ account_uid: OptionalText, kind: Text, pattern: Text, description: OptionalText }),
          (_, { account_uid, ...input }) => admin((a) => a.addSpamRule({ ...input, account_uid: account_uid ?? null }))
        )
      )
    )
    for (const [action, enabled] of [["enable", true], ["disable", false]] as const) {
      yield* on.post(
        `${base}/spam-rules/:uid/${action}`,
        route("spam_rules.manage", (ctx) => admin((a) => a.setSpamRuleEnabled(param(ctx, "uid"), enabled)))
      )
    }
    yield* on.del(
      `${base}/spam-rules/:uid`,
      route("spam_rules.manage", (ctx) => Effect.as(admin((a) => a.removeSpamRule(param(ctx, "uid"))), { ok: true }))
    )
    yield* on.get(
      `${base}/accounts/:uid/opt-outs`,
      route("read", (ctx) => admin((a) => a.listOptOuts(param(ctx, "uid"))))
    )
    yield* on.post(
      `${base}/accounts/:uid/opt-outs`,
      route(
        "opt_outs.manage",
        withBody(
          Schema.Struct({ recipient: Text, reason: OptionalText }),
          (ctx, input) => admin((a) => a.addOptOut({ ...input, account_uid: param(ctx, "uid") }))
        )
      )
    )
    yield* on.del(
      `${base}/accounts/:uid/opt-outs/:recipient`,
      route("opt_outs.manage", (ctx) =>
        Effect.as(
          admin((a) => a.removeOptOut(param(ctx, "uid"), param(ctx, "recipient"))),
          { ok: true }
        ))
    )
  })
