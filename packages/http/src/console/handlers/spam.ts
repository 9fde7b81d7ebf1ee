/** Handlers of the console's spam rules and opt-outs. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { TumaApi } from "../../Api.js"
import { asOperator } from "../Http.js"
import { admin } from "./helpers.js"

export const ConsoleSpamLive = HttpApiBuilder.group(TumaApi, "consoleSpam", (handlers) =>
  handlers
    .handle("spamRules", () => asOperator(() => admin((a) => a.listSpamRules())))
    .handle("addSpamRule", ({ payload: { account_uid, ...input } }) =>
      asOperator(() =>
        admin((a) => a.addSpamRule({ ...input, account_uid: account_uid ?? null }))
      ))
    .handle("enableSpamRule", ({ path }) => asOperator(() => admin((a) => a.setSpamRuleEnabled(path.uid, true))))
    .handle("disableSpamRule", ({ path }) => asOperator(() => admin((a) => a.setSpamRuleEnabled(path.uid, false))))
    .handle("removeSpamRule", ({ path }) =>
      asOperator(() =>
        Effect.as(admin((a) => a.removeSpamRule(path.uid)), { ok: true })
      ))
    .handle("optOuts", ({ path }) => asOperator(() => admin((a) => a.listOptOuts(path.uid))))
    .handle("addOptOut", ({ path, payload }) =>
      asOperator(() =>
        admin((a) => a.addOptOut({ ...payload, account_uid: path.uid }))
      ))
    .handle("removeOptOut", ({ path }) =>
      asOperator(() =>
        Effect.as(admin((a) => a.removeOptOut(path.uid, path.recipient)), { ok: true })
      )))
