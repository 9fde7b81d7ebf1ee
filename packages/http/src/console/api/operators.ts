/** The console's operators: list, invite, role, disable and enable (admins: `operators.manage`). */
import { get, post } from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { ok } from "../../shared/apiSchemas.js"
import { body, consoleGroup, needs, OptionalText, Text, uidAction, UidPath } from "./shared.js"

const OperatorData = ok(Schema.Unknown, "ConsoleOperatorResponse")
export const InviteOperatorBody = body({ email: Text, role: Text, name: OptionalText }, "ConsoleInviteOperator")
export const OperatorRoleBody = body({ role: Text }, "ConsoleOperatorRole")

export class ConsoleOperatorsGroup extends consoleGroup("consoleOperators", "Console: operators")
  .add(needs("operators.manage")(get("list", "/operators").addSuccess(ok(Schema.Unknown, "ConsoleOperatorList"))))
  .add(needs("operators.manage")(post("invite", "/operators").setPayload(InviteOperatorBody).addSuccess(OperatorData)))
  .add(
    needs("operators.manage")(
      post("setRole", "/operators/:uid/role").setPath(UidPath).setPayload(OperatorRoleBody).addSuccess(OperatorData)
    )
  )
  .add(needs("operators.manage")(uidAction("disable", "/operators/:uid/disable").addSuccess(OperatorData)))
  .add(needs("operators.manage")(uidAction("enable", "/operators/:uid/enable").addSuccess(OperatorData)))
{}
