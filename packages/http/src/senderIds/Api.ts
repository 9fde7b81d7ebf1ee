/** The `senderIds` group of the public API: list, requirements, request as JSON or multipart. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { senderIdMultipart } from "../shared/apiSchemas.js"
import { Conflict, Unprocessable } from "../shared/Envelope.js"
import * as Req from "../shared/Requests.js"
import * as Res from "../shared/Responses.js"
import * as Security from "../shared/Security.js"

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
