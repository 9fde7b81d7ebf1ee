/**
 * The console's Inbound page: the addresses assigned to accounts (the admin API's inbound numbers:
 * list, assign, change, remove — a conflict is 409) and the unrouted messages (kept for no
 * assignment), newest first. Changes need `accounts.manage`; reading needs `read`.
 */
import { del, get, patch, post } from "@effect/platform/HttpApiEndpoint"
import { InboundNumberView, UnroutedMessageView } from "@tuma/core"
import { Schema } from "effect"
import { ok, okList } from "../../shared/apiSchemas.js"
import * as Res from "../../shared/Responses.js"
import {
  Anything,
  body,
  ConsoleDone,
  consoleGroup,
  needs,
  OptionalText,
  query,
  QueryText,
  Text,
  UidPath
} from "./shared.js"

/** A new assignment as the console's form sends it (`aliases`: an array, or words separated by commas or spaces). */
export const CreateInboundNumberBody = body({
  account_uid: Text,
  number: Text,
  keyword: OptionalText,
  aliases: Anything
}, "ConsoleCreateInboundNumber")

/** A change: what is given changes; a blank `keyword` makes the address dedicated (aliases dropped). */
export const UpdateInboundNumberBody = body({
  number: OptionalText,
  keyword: Anything,
  aliases: Anything
}, "ConsoleUpdateInboundNumber")

const NumberAnswer = ok(InboundNumberView, "ConsoleInboundNumber")

/** A page of unrouted messages. */
export const UnroutedPage = Schema.Struct({ messages: Schema.Array(UnroutedMessageView), meta: Res.PageMeta })

/** Console group: inbound numbers and unrouted messages. */
export class ConsoleInboundGroup
  extends consoleGroup("consoleInbound", "Console: inbound numbers and unrouted messages")
    .add(
      needs("read")(
        get("inboundNumbers", "/inbound-numbers").setUrlParams(query({ account: QueryText }))
          .addSuccess(okList(InboundNumberView, "ConsoleInboundNumbers"))
      )
    )
    .add(
      needs("accounts.manage")(
        post("createInboundNumber", "/inbound-numbers").setPayload(CreateInboundNumberBody).addSuccess(NumberAnswer)
      )
    )
    .add(
      needs("accounts.manage")(
        patch("updateInboundNumber", "/inbound-numbers/:uid").setPath(UidPath).setPayload(UpdateInboundNumberBody)
          .addSuccess(NumberAnswer)
      )
    )
    .add(
      needs("accounts.manage")(
        del("deleteInboundNumber", "/inbound-numbers/:uid").setPath(UidPath).addSuccess(ConsoleDone)
      )
    )
    .add(
      needs("read")(
        get("unroutedInbound", "/inbound/unrouted")
          .setUrlParams(query({ from: QueryText, to: QueryText, page: QueryText }))
          .addSuccess(ok(UnroutedPage, "ConsoleUnroutedInbound"))
      )
    )
{}
