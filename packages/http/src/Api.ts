/**
 * The HTTP contract of Tuma (spec §4, decisions.md), as one `HttpApi` composed of the features'
 * groups (sms/Api.ts, senderIds/Api.ts, system/Api.ts, admin/Api.ts, portal/Api.ts, console/Api.ts):
 * the server, the OpenAPI document and the typed client are all derived from it. The console's
 * groups are left out of the OpenAPI document (`OpenApi.Exclude`).
 */
import * as OpenApi from "@effect/platform/OpenApi"
import { AdminApi } from "./admin/Api.js"
import { ConsoleApi } from "./console/Api.js"
import { InboundGroup } from "./inbound/Api.js"
import { PortalApi } from "./portal/Api.js"
import { SenderIdsGroup } from "./senderIds/Api.js"
import { makeApi } from "./shared/apiSchemas.js"
import {
  BadRequest,
  InternalError,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  TooManyRequests,
  UnsupportedMediaType
} from "./shared/Envelope.js"
import { SmsGroup } from "./sms/Api.js"
import { SystemGroup } from "./system/Api.js"

export { SenderIdMultipart, SenderIdsGroup } from "./senderIds/Api.js"
export { SingleSendSchemas, SmsGroup } from "./sms/Api.js"
export { SystemGroup } from "./system/Api.js"

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
  .add(InboundGroup)
  .add(SenderIdsGroup)
  .add(SystemGroup)
  .addHttpApi(AdminApi)
  .addHttpApi(PortalApi)
  .addHttpApi(ConsoleApi)
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
