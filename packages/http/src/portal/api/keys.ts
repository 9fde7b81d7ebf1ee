/**
 * The portal's sender IDs, API keys and webhook endpoints.
 */
import { get, post } from "@effect/platform/HttpApiEndpoint"
import * as Views from "@tuma/core/admin/views"
import * as D from "@tuma/domain/schemas"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import {
  all,
  create,
  group,
  NumberFromQuery,
  ok,
  okList,
  opt,
  senderIdMultipart,
  WebhookEndpoint,
  withSecret
} from "../../shared/apiSchemas.js"
import * as Res from "../../shared/Responses.js"
import { WebhookDeliveryView } from "./messaging.js"
import { forMember, forOwner } from "./shared.js"
// sender IDs

export const SenderIdRequestInput = D.SenderIdRequest.annotations({ identifier: "PortalSenderIdRequest", ...all })

/** The same request as multipart/form-data: file parts `documents[<requirement_uid>]` and
 * `protection_documents[]` (what a browser's FormData sends). */
export const SenderIdRequestMultipart = senderIdMultipart(Schema.String, "PortalSenderIdRequestMultipart")

// API keys

export const ApiKeyView = Views.ApiKeyView.omit("account_uid").annotations({ identifier: "PortalApiKey" })
export type ApiKeyView = typeof ApiKeyView.Type

export const CreateApiKeyInput = Schema.Struct({
  name: StoredString,
  /** `live` sends and charges; `test` is the sandbox. */
  mode: Schema.Literal("live", "test"),
  /** Default: every scope. */
  scopes: opt(Schema.Array(StoredString)),
  /** IPs or CIDRs; empty = any address. */
  allowed_ips: opt(Schema.Array(StoredString)),
  /** Future ISO 8601 date-time; absent or null = never. */
  expires_at: opt(Schema.NullOr(StoredString))
}).annotations({ identifier: "PortalCreateApiKey", ...all })

export const CreatedApiKey = Schema.Struct({ ...Views.IssuedApiKey.fields, api_key: ApiKeyView }).annotations({
  identifier: "PortalCreatedApiKey"
})

const KeyPath = Schema.Struct({ key_uid: Schema.String })

// webhooks

export const WebhookEndpointView = WebhookEndpoint.omit("account_uid").annotations({
  identifier: "PortalWebhookEndpoint"
})
export type WebhookEndpointView = typeof WebhookEndpointView.Type

export const WebhookWithSecret = withSecret(WebhookEndpointView, "PortalWebhookWithSecret")

export const CreateWebhookInput = Schema.Struct({
  api_key_uid: StoredString,
  url: StoredString
}).annotations({ identifier: "PortalCreateWebhook", ...all })

export const WebhookTestResult = Schema.Struct({
  /** The receiver answered 2xx. */
  ok: Schema.Boolean,
  response_status: Schema.NullOr(Schema.Number),
  latency_ms: Schema.Number,
  error: Schema.NullOr(Schema.String),
  /** The exact signed body posted (event `webhook.test`). */
  body: Schema.String
}).annotations({ identifier: "PortalWebhookTestResult" })

const WebhookPath = Schema.Struct({ webhook_uid: Schema.String })

/** `POST /webhooks/:webhook_uid/<action>`: a change to one webhook endpoint. */
const webhookAction = <const Name extends string>(name: Name, action: string) =>
  post(name, `/webhooks/:webhook_uid/${action}`).setPath(WebhookPath)

const WebhookResponse = ok(WebhookEndpointView, "PortalWebhookResponse")
const WebhookWithSecretResponse = ok(WebhookWithSecret, "PortalWebhookWithSecretResponse")

export class PortalSenderIdsGroup extends group("portalSenderIds", "Portal: sender IDs")
  .add(forMember(get("listSenderIds", "/sender-ids").addSuccess(okList(Res.SenderIdRecord, "PortalSenderIdList"))))
  .add(forMember(
    get("requirements", "/sender-ids/requirements")
      .addSuccess(ok(Res.SenderIdRequirements, "PortalRequirementsResponse"))
  ))
  .add(forOwner(
    create(
      "requestSenderId",
      "/sender-ids",
      Schema.Union(SenderIdRequestInput, SenderIdRequestMultipart),
      Res.SenderIdCreatedResponse
    ),
    "multipart/form-data with file parts `documents[<requirement_uid>]` and `protection_documents[]`, or JSON " +
      "with base64 documents, exactly as POST /v1/sender-ids."
  ))
{}

export class PortalKeysGroup extends group("portalKeys", "Portal: API keys and webhooks")
  .add(forMember(get("listApiKeys", "/api-keys").addSuccess(okList(ApiKeyView, "PortalApiKeyList"))))
  .add(forOwner(
    create("createApiKey", "/api-keys", CreateApiKeyInput, ok(CreatedApiKey, "PortalCreatedApiKeyResponse")),
    "The full key is in this answer only."
  ))
  .add(forOwner(
    post("revokeApiKey", "/api-keys/:key_uid/revoke").setPath(KeyPath)
      .addSuccess(ok(ApiKeyView, "PortalApiKeyResponse"))
  ))
  .add(forMember(get("listWebhooks", "/webhooks").addSuccess(okList(WebhookEndpointView, "PortalWebhookList"))))
  .add(forOwner(
    create("createWebhook", "/webhooks", CreateWebhookInput, WebhookWithSecretResponse),
    "One endpoint per API key; the secret is in this answer only."
  ))
  .add(forOwner(webhookAction("regenerateWebhookSecret", "secret").addSuccess(WebhookWithSecretResponse)))
  .add(forOwner(webhookAction("enableWebhook", "enable").addSuccess(WebhookResponse)))
  .add(forOwner(webhookAction("disableWebhook", "disable").addSuccess(WebhookResponse)))
  .add(forMember(
    get("listWebhookDeliveries", "/webhooks/:webhook_uid/deliveries").setPath(WebhookPath)
      .setUrlParams(Schema.Struct({ limit: opt(NumberFromQuery) }).annotations(all))
      .addSuccess(okList(WebhookDeliveryView, "PortalWebhookDeliveryList")),
    "Newest first, each with its attempts."
  ))
  .add(forOwner(
    webhookAction("testWebhook", "test").addSuccess(ok(WebhookTestResult, "PortalWebhookTestResponse")),
    "Posts a signed `webhook.test` event now and answers what the receiver said."
  ))
{}
