/**
 * `/admin/v1/inbound-numbers` (two-way SMS): the addresses assigned to accounts — a long number, a
 * dedicated short code, or a keyword (with aliases) on a shared short code — created, listed, read,
 * changed, removed (a conflicting assignment is 409; every change is audited); and
 * `/admin/v1/inbound?unrouted=true`, the messages no assignment took. Declared here, added to the
 * admin API in admin/Api.ts; handlers in AdminHttp.ts over core's `Inbound`.
 */
import { del, get, patch } from "@effect/platform/HttpApiEndpoint"
import * as OpenApi from "@effect/platform/OpenApi"
import { CreateInboundNumberInput, InboundNumberView, UnroutedMessageView, UpdateInboundNumberInput } from "@tuma/core"
import { PageNumber, PerPage } from "@tuma/domain"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import { all, create, done, group, ok, okList, opt } from "../shared/apiSchemas.js"
import { successFields } from "../shared/Envelope.js"
import * as Res from "../shared/Responses.js"
import { RequireAdmin } from "../shared/Security.js"

const NumberPath = Schema.Struct({ inbound_number_uid: StoredString })
const NumberQuery = Schema.Struct({ account_uid: Schema.optional(StoredString) }).annotations(all)
const NumberResponse = ok(InboundNumberView, "AdminInboundNumberResponse")

/** Filters of the operators' inbound list: only the unrouted messages (the one list operators read). */
const InboundQuery = Schema.Struct({
  unrouted: Schema.Literal("true").annotations({ description: "Only messages no assignment took (required)." }),
  from: opt(StoredString),
  to: opt(StoredString),
  since: opt(StoredString),
  per_page: opt(PerPage),
  page: opt(PageNumber)
}).annotations(all)

/** Admin API group: inbound numbers and unrouted messages. */
export class AdminInbound extends group("adminInbound", "Admin: inbound numbers").middleware(RequireAdmin)
  .add(
    create(
      "createInboundNumber",
      "/inbound-numbers",
      CreateInboundNumberInput.annotations({ ...all }),
      NumberResponse
    )
      .annotate(
        OpenApi.Description,
        "Assigns a long number (E.164), a dedicated short code (no keyword) or a keyword on a shared short " +
          "code. 409 when the address is taken by a dedicated assignment, or the keyword or an alias is."
      )
  )
  .add(
    get("listInboundNumbers", "/inbound-numbers").setUrlParams(NumberQuery)
      .addSuccess(okList(InboundNumberView, "AdminInboundNumberList"))
  )
  .add(get("getInboundNumber", "/inbound-numbers/:inbound_number_uid").setPath(NumberPath).addSuccess(NumberResponse))
  .add(
    patch("updateInboundNumber", "/inbound-numbers/:inbound_number_uid").setPath(NumberPath)
      .setPayload(UpdateInboundNumberInput.annotations({ ...all }))
      .addSuccess(NumberResponse)
  )
  .add(
    del("deleteInboundNumber", "/inbound-numbers/:inbound_number_uid").setPath(NumberPath)
      .addSuccess(done("AdminInboundNumberDone"))
  )
  .add(
    get("listUnroutedInbound", "/inbound").setUrlParams(InboundQuery)
      .addSuccess(
        Schema.Struct({ ...successFields, data: Schema.Array(UnroutedMessageView), meta: Res.PageMeta })
          .annotations({ identifier: "AdminUnroutedInboundList" })
      )
      .annotate(OpenApi.Description, "Messages to no assigned address, newest first: kept, never dropped.")
  )
{}
