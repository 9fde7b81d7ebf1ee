/**
 * The `inbound` group of the public API (two-way SMS): the inbox of messages handsets sent to the
 * account's numbers (`GET /v1/sms/inbound`, `GET /v1/sms/inbound/{uid}`, scope `sms:inbound`), a
 * reply from the number a message came in on (`POST /v1/sms/inbound/{uid}/reply`, an ordinary send:
 * scope `sms:send`), and a simulated message for sandbox keys (`POST /v1/sms/inbound/simulate`).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { AutoRepliesView, InboundMessageView } from "@tuma/core"
import { PageNumber, PerPage } from "@tuma/domain"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import { all, opt, sendEndpoint } from "../shared/apiSchemas.js"
import {
  Conflict,
  Forbidden,
  sandboxMode,
  ServiceUnavailable,
  successFields,
  Unprocessable
} from "../shared/Envelope.js"
import * as Res from "../shared/Responses.js"
import { SendsMessages } from "../shared/Routes.js"
import * as Security from "../shared/Security.js"

const Message = InboundMessageView.annotations({ identifier: "InboundMessage" })

/** Filters and page of the inbox, newest first. */
export const InboundListQuery = Schema.Struct({
  from: opt(StoredString.annotations({ description: "Only messages from this handset (E.164)." })),
  to: opt(StoredString.annotations({ description: "Only messages to this number or short code." })),
  since: opt(StoredString.annotations({ description: "ISO 8601: only messages received at or after." })),
  per_page: opt(PerPage),
  page: opt(PageNumber)
}).annotations(all)

const UidPath = Schema.Struct({ uid: StoredString })

/** The body of a reply. */
export const ReplyInput = Schema.Struct({ body: Schema.String }).annotations({ identifier: "InboundReply", ...all })

/** The body of a simulated inbound message. */
export const SimulateInput = Schema.Struct({
  from: StoredString.annotations({ description: "The handset (E.164)." }),
  to: opt(StoredString.annotations({ description: "The number it was sent to; default the account's first." })),
  text: Schema.String
}).annotations({ identifier: "InboundSimulate", ...all })

const Text = Schema.optional(Schema.NullOr(Schema.String))

/** The account's auto-reply texts: each absent or null or empty = the default. */
export const AutoRepliesInput = Schema.Struct({
  stop_en: Text,
  stop_sw: Text,
  start_en: Text,
  start_sw: Text,
  help_en: Text,
  help_sw: Text
}).annotations({ identifier: "AutoRepliesInput", ...all })

const answer = <Fields extends Schema.Struct.Fields>(fields: Fields, identifier: string) =>
  Schema.Struct({ ...successFields, ...sandboxMode, ...fields }).annotations({ identifier })

/** API group: the inbox (two-way SMS). */
export class InboundGroup extends HttpApiGroup.make("inbound")
  .add(
    HttpApiEndpoint.get("listInbound", "/v1/sms/inbound").setUrlParams(InboundListQuery)
      .addSuccess(answer({ data: Schema.Array(Message), meta: Res.PageMeta }, "ListInboundResponse"))
      .addError(Unprocessable)
      .middleware(Security.RequireSmsInbound)
      .annotate(OpenApi.Summary, "List received messages (newest first)")
  )
  .add(
    HttpApiEndpoint.post("simulateInbound", "/v1/sms/inbound/simulate").setPayload(SimulateInput)
      .addSuccess(answer({ data: Message }, "SimulateInboundResponse"), { status: 201 })
      .addError(Unprocessable)
      .addError(Forbidden)
      .middleware(Security.RequireSmsInbound)
      .annotate(OpenApi.Summary, "Simulate a received message (sandbox keys only)")
  )
  .add(
    HttpApiEndpoint.get("getInbound", "/v1/sms/inbound/:uid").setPath(UidPath)
      .addSuccess(answer({ data: Message }, "GetInboundResponse"))
      .middleware(Security.RequireSmsInbound)
      .annotate(OpenApi.Summary, "Read one received message")
  )
  .add(
    sendEndpoint("replyInbound", "/v1/sms/inbound/:uid/reply", ReplyInput, Res.SendSingleResponse).setPath(UidPath)
      .addError(Unprocessable)
      .addError(Conflict)
      .addError(ServiceUnavailable)
      .middleware(Security.RequireSmsSend)
      .annotate(SendsMessages, true)
      .annotate(OpenApi.Summary, "Reply from the number the message came in on")
  )
  .add(
    HttpApiEndpoint.get("getAutoReplies", "/v1/sms/auto-replies")
      .addSuccess(answer({ data: AutoRepliesView }, "AutoRepliesResponse"))
      .middleware(Security.RequireSmsInbound)
      .annotate(OpenApi.Summary, "Read the automatic replies to STOP, START and HELP (null: the default)")
  )
  .add(
    HttpApiEndpoint.put("setAutoReplies", "/v1/sms/auto-replies").setPayload(AutoRepliesInput)
      .addSuccess(answer({ data: AutoRepliesView }, "SetAutoRepliesResponse"))
      .addError(Unprocessable)
      .middleware(Security.RequireSmsInbound)
      .annotate(OpenApi.Summary, "Set the automatic replies (English and Kiswahili; null or empty: the default)")
  )
  .annotate(OpenApi.Title, "Inbound SMS")
{}
