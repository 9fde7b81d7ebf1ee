/**
 * The `sms` group of the public API (spec §4): sending (single, bulk v1 and v2), messages, balance
 * and profile, with the spec's aliases.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import type { Schema } from "effect"
import { IdempotencyHeaders, sendEndpoint } from "../shared/apiSchemas.js"
import { Conflict, ServiceUnavailable, Unprocessable } from "../shared/Envelope.js"
import * as Req from "../shared/Requests.js"
import * as Res from "../shared/Responses.js"
import { SendsMessages } from "../shared/Routes.js"
import * as Security from "../shared/Security.js"

// --- balance -----------------------------------------------------------------------------

/** A read of the account's balance or messages: scope `sms:read`. */
const smsRead = <const Name extends string>(name: Name, path: HttpApiEndpoint.PathSegment) =>
  HttpApiEndpoint.get(name, path).middleware(Security.RequireSmsRead)

const balance = <const Name extends string>(name: Name, path: HttpApiEndpoint.PathSegment) =>
  smsRead(name, path).addSuccess(Res.BalanceResponse)

// --- sends --------------------------------------------------------------------------------

/** A send of the public API: refusals 422, a reused Idempotency-Key 409, the store out 503; scope `sms:send`. */
const send = <const Name extends string, P extends Schema.Schema.Any, S extends Schema.Schema.Any>(
  name: Name,
  path: HttpApiEndpoint.PathSegment,
  payload: P,
  answer: S
) =>
  sendEndpoint(name, path, payload, answer)
    .addError(Unprocessable)
    .addError(Conflict)
    .addError(ServiceUnavailable)
    .middleware(Security.RequireSmsSend)
    .annotate(SendsMessages, true)

/** The schemas of the single send: its body, its headers (`Idempotency-Key`) and its answer. */
export const SingleSendSchemas = {
  payload: Req.SendSingleRequest,
  headers: IdempotencyHeaders,
  success: Res.SendSingleResponse
} as const

const sendSingle = <const Name extends string>(name: Name, path: HttpApiEndpoint.PathSegment) =>
  send(name, path, SingleSendSchemas.payload, SingleSendSchemas.success)

/** API group: sending (single, bulk v1 and v2), messages, balance and profile, with the spec's aliases. */
export class SmsGroup extends HttpApiGroup.make("sms")
  .add(balance("getBalance", "/v1/balance").annotate(OpenApi.Summary, "Check balance"))
  .add(balance("getBalanceAlias", "/v1/sms/balance").annotate(OpenApi.Summary, "Check balance (alias)"))
  .add(sendSingle("sendMessage", "/v1/sms/messages").annotate(OpenApi.Summary, "Send a single SMS"))
  .add(sendSingle("sendQuickMessage", "/v1/sms/quick-message").annotate(OpenApi.Summary, "Send a single SMS (alias)"))
  .add(
    smsRead("listMessages", "/v1/sms/messages").setUrlParams(Req.ListMessagesQuery)
      .addSuccess(Res.ListMessagesResponse).addError(Unprocessable)
      .annotate(OpenApi.Summary, "List messages (newest first)")
  )
  .add(
    smsRead("getMessage", "/v1/sms/messages/:uid").setPath(Req.MessageUidPath)
      .addSuccess(Res.GetMessageResponse).addError(Unprocessable)
      .annotate(OpenApi.Summary, "Read one message")
  )
  .add(
    send("sendBulkV1", "/v1/sms/send-bulk", Req.SendBulkV1Request, Res.BulkV1Response)
      .annotate(OpenApi.Summary, "Bulk send, v1")
  )
  .add(
    send("sendBulkV2", "/v2/sms/send-bulk", Req.SendBulkV2Request, Res.BulkV2Response)
      .annotate(OpenApi.Summary, "Bulk send, v2 (tags, pre-pricing)")
  )
  .add(
    HttpApiEndpoint.get("getProfile", "/v1/sms/profile")
      .addSuccess(Res.ProfileResponse)
      .middleware(Security.RequireProfileRead)
      .annotate(OpenApi.Summary, "Read the account profile")
  )
  .annotate(OpenApi.Title, "SMS")
{}
