/** The console's spam rules and opt-outs. */
import { del, get, post } from "@effect/platform/HttpApiEndpoint"
import * as Views from "@tuma/core/admin/views"
import { Schema } from "effect"
import { ok, okList } from "../../shared/apiSchemas.js"
import { body, ConsoleDone, consoleGroup, needs, OptionalText, Text, uidAction, UidPath } from "./shared.js"

const SpamRuleData = ok(Views.SpamRuleView, "ConsoleSpamRuleResponse")
export const SpamRuleBody = body(
  { account_uid: OptionalText, kind: Text, pattern: Text, description: OptionalText },
  "ConsoleSpamRule"
)
export const OptOutBody = body({ recipient: Text, reason: OptionalText }, "ConsoleOptOut")

export class ConsoleSpamGroup extends consoleGroup("consoleSpam", "Console: spam rules and opt-outs")
  .add(needs("read")(get("spamRules", "/spam-rules").addSuccess(okList(Views.SpamRuleView, "ConsoleSpamRules"))))
  .add(needs("spam_rules.manage")(post("addSpamRule", "/spam-rules").setPayload(SpamRuleBody).addSuccess(SpamRuleData)))
  .add(needs("spam_rules.manage")(uidAction("enableSpamRule", "/spam-rules/:uid/enable").addSuccess(SpamRuleData)))
  .add(needs("spam_rules.manage")(uidAction("disableSpamRule", "/spam-rules/:uid/disable").addSuccess(SpamRuleData)))
  .add(needs("spam_rules.manage")(del("removeSpamRule", "/spam-rules/:uid").setPath(UidPath).addSuccess(ConsoleDone)))
  .add(
    needs("read")(
      get("optOuts", "/accounts/:uid/opt-outs").setPath(UidPath).addSuccess(okList(Views.OptOutView, "ConsoleOptOuts"))
    )
  )
  .add(
    needs("opt_outs.manage")(
      post("addOptOut", "/accounts/:uid/opt-outs").setPath(UidPath).setPayload(OptOutBody)
        .addSuccess(ok(Schema.Unknown, "ConsoleOptOutResponse"))
    )
  )
  .add(
    needs("opt_outs.manage")(
      del("removeOptOut", "/accounts/:uid/opt-outs/:recipient")
        .setPath(Schema.Struct({ uid: Schema.String, recipient: Schema.String })).addSuccess(ConsoleDone)
    )
  )
{}
