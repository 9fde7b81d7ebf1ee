/**
 * The HTTP contract of Tuma (spec §4, decisions.md), as one `HttpApi`: the server, the OpenAPI
 * document and the typed client are all derived from it.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { AdminApi } from "./admin/Api.js"
import { PortalApi } from "./portal/Api.js"
import { IdempotencyHeaders, makeApi, sendEndpoint, senderIdMultipart } from "./shared/apiSchemas.js"
import {
  BadRequest,
  Conflict,
  InternalError,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  TooManyRequests,
  Unprocessable,
  UnsupportedMediaType
} from "./shared/Envelope.js"
import * as Req from "./shared/Requests.js"
import * as Res from "./shared/Responses.js"
import { SendsMessages } from "./shared/Routes.js"
import * as Security from "./shared/Security.js"

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

// --- sender IDs ---------------------------------------------------------------------------

const listSenderIds = <const Name extends string>(name: Name, path: HttpApiEndpoint.PathSegment) =>
  HttpApiEndpoint.get(name, path).addSuccess(Res.ListSenderIdsResponse).middleware(Security.RequireSenderIdsRead)

const requirements = <const Name extends string>(name: Name, path: HttpApiEndpoint.PathSegment) =>
  HttpApiEndpoint.get(name, path).addSuccess(Res.RequirementsResponse).middleware(Security.RequireSenderIdsRead)

/** JSON with base64 documents, or multipart with `documents[<requirement_uid>]` / `protection_documents[]` parts. */
export const SenderIdMultipart = senderIdMultipart(Req.Purpose, "SenderIdRequestMultipart")

const requestSenderId = <const Name extends string>(name: Name, path: HttpApiEndpoint.PathSegment) =>
  HttpApiEndpoint.post(name, path)
    .setPayload(Schema.Union(Req.SenderIdRequestJson, SenderIdMultipart))
    .addSuccess(Res.SenderIdCreatedResponse, { status: 201 })
    .addError(Unprocessable)
    .addError(Conflict)
    .middleware(Security.RequireSenderIdsWrite)

/** API group: sender IDs (list, requirements, request as JSON or multipart). */
export class SenderIdsGroup extends HttpApiGroup.make("senderIds")
  .add(listSenderIds("listSenderIds", "/v1/sender-ids").annotate(OpenApi.Summary, "List sender IDs"))
  .add(listSenderIds("listSenderIdsAlias", "/v1/sms/sender-ids").annotate(OpenApi.Summary, "List sender IDs (alias)"))
  .add(
    requirements("getRequirements", "/v1/sender-ids/requirements").annotate(OpenApi.Summary, "Sender ID requirements")
  )
  .add(
    requirements("getRequirementsAlias", "/v1/sms/sender-ids/requirements").annotate(
      OpenApi.Summary,
      "Sender ID requirements (alias)"
    )
  )
  .add(requestSenderId("requestSenderId", "/v1/sender-ids").annotate(OpenApi.Summary, "Request a sender ID"))
  .add(
    requestSenderId("requestSenderIdAlias", "/v1/sms/sender-ids").annotate(
      OpenApi.Summary,
      "Request a sender ID (alias)"
    )
  )
  .annotate(OpenApi.Title, "Sender IDs")
{}

// --- system -------------------------------------------------------------------------------

/** API group: health and readiness. */
export class SystemGroup extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("healthz", "/healthz")
      .addSuccess(Res.HealthResponse)
      .annotate(OpenApi.Summary, "Liveness: the process answers")
  )
  .add(
    HttpApiEndpoint.get("readyz", "/readyz")
      .addSuccess(Res.HealthResponse)
      .addError(ServiceUnavailable)
      .annotate(OpenApi.Summary, "Readiness: the store answers")
  )
  .annotate(OpenApi.Title, "System")
{}

// --- the API ------------------------------------------------------------------------------

/**
 * JSON Schema of `Schema.Unknown`/`Schema.Object` carries `$id: "/schemas/unknown"` at every use,
 * and an OpenAPI document may define an `$id` once: drop these markers (they add nothing).
 */
const dropSchemaIds = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(dropSchemaIds)
  if (node === null || typeof node !== "object") return node
  return dropSchemaIdsOf(node)
}
const dropSchemaIdsOf = (node: object): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(node)) {
    if (k === "$id" && typeof v === "string" && v.startsWith("/schemas/")) continue
    out[k] = dropSchemaIds(v)
  }
  return out
}

const base = makeApi("tuma")

/**
 * The public REST API (spec): its `HttpApi` definition, from which the server, the typed client and the
 * OpenAPI document are derived.
 */
export class TumaApi extends base
  .add(SmsGroup)
  .add(SenderIdsGroup)
  .add(SystemGroup)
  .addHttpApi(AdminApi)
  .addHttpApi(PortalApi)
  .addError(BadRequest)
  .addError(NotFound)
  .addError(MethodNotAllowed)
  .addError(PayloadTooLarge)
  .addError(UnsupportedMediaType)
  .addError(TooManyRequests)
  .addError(InternalError)
  .annotate(OpenApi.Title, "Tuma SMS API")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(OpenApi.Transform, dropSchemaIdsOf)
  .annotate(
    OpenApi.Description,
    "Send SMS, track delivery, request sender IDs. Every response carries `request_uid` and `X-Request-Id`; " +
      "every failure is `{ success: false, request_uid, message, ... }`."
  )
{}
