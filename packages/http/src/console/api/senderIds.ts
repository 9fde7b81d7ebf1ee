/** The console's sender-ID review: the queue, one request, its documents, decisions. */
import { get, post } from "@effect/platform/HttpApiEndpoint"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Views from "@tuma/core/admin/views"
import { Schema } from "effect"
import { ok, okList } from "../../shared/apiSchemas.js"
import { body, consoleGroup, needs, OptionalText, query, QueryText, UidPath } from "./shared.js"

export const DecisionBody = body({ reason: OptionalText }, "ConsoleReviewDecision")
const decision = <const Name extends string>(name: Name) =>
  needs("sender_ids.review")(
    post(name, `/sender-ids/:uid/${name}`).setPath(UidPath).setPayload(DecisionBody)
      .addSuccess(ok(Schema.Unknown, "ConsoleDecision"))
  )

export class ConsoleSenderIdsGroup extends consoleGroup("consoleSenderIds", "Console: sender-ID review")
  .add(
    needs("read")(
      get("queue", "/sender-ids").setUrlParams(query({ status: QueryText }))
        .addSuccess(okList(Views.SenderIdAdminView, "ConsoleSenderIdQueue"))
    )
  )
  .add(
    needs("read")(
      get("get", "/sender-ids/:uid").setPath(UidPath).addSuccess(ok(Views.SenderIdDetail, "ConsoleSenderId"))
    )
  )
  .add(
    needs("read")(
      get("document", "/sender-id-documents/:uid").setPath(UidPath)
        .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" }))
    )
  )
  .add(decision("approve"))
  .add(decision("reject"))
  .add(decision("suspend"))
{}
