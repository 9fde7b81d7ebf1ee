/**
 * The customer portal's HTTP contract: endpoints under `/portal/api/…`, signed in with a
 * session cookie, every state change guarded by a CSRF token. Part of `TumaApi` (`Api.ts` adds it),
 * and usable alone: the browser app builds its typed client with
 * `HttpApiClient.make(PortalApi, { baseUrl })`.
 *
 * This module (and what it imports) must stay free of `node:` imports so that Vite can bundle it.
 *
 * Sessions and CSRF (docs/architecture.md "Portal users, sessions and CSRF"):
 * - `tuma_portal_session` cookie (HttpOnly, SameSite=Lax, Path=/portal, Secure behind https);
 * - every POST/PATCH/DELETE carries `X-CSRF-Token`: the session's token (from sign-in, `GET
 *   /portal/api/session` or `GET /portal/api/session/csrf`), or before sign-in the token of the
 *   `tuma_portal_csrf` cookie that `GET /portal/api/session/csrf` sets (double submit); a request
 *   whose `Origin` (or `Referer`) is not the portal's own origin is refused too (403).
 * - `PortalSession` endpoints answer 401 without a valid session; `PortalOwner` endpoints 403 for
 *   a member.
 *
 * The groups are declared here; their schemas in portal/schemas.ts, the session middlewares and
 * cookies in portal/security.ts (both re-exported, so this module is the contract's one import).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { del, get, patch, post } from "@effect/platform/HttpApiEndpoint"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context, Schema } from "effect"
import {
  all,
  create,
  done,
  group,
  makeApi,
  NumberFromQuery,
  ok,
  okList,
  opt,
  sendEndpoint
} from "../shared/apiSchemas.js"
import { Forbidden, NotFound, ServiceUnavailable, TooManyRequests, Unauthorized } from "../shared/Envelope.js"
import * as Res from "../shared/Responses.js"

import {
  AcceptInvitationInput,
  ApiKeyView,
  CampaignDetail,
  CampaignInput,
  CampaignList,
  CampaignPreview,
  ChangePasswordInput,
  ChangeRoleInput,
  CreateApiKeyInput,
  CreatedApiKey,
  CreateWebhookInput,
  CsrfView,
  Dashboard,
  DashboardQuery,
  InvitationPath,
  InvitationPreview,
  InvitationView,
  InviteInput,
  KeyPath,
  LedgerEntryView,
  LedgerQuery,
  ListMessagesQuery,
  MessageDetail,
  MessageList,
  MessagePath,
  PageQuery,
  PasswordResetCompleteInput,
  PasswordResetRequestInput,
  PortalUser,
  PreviewInput,
  PreviewView,
  ProfileView,
  SenderIdRequestInput,
  SenderIdRequestMultipart,
  SessionView,
  SignInInput,
  TeamView,
  UpdateProfileInput,
  UserPath,
  WalletView,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookPath,
  WebhookTestResult,
  WebhookWithSecret,
  WebSendInput
} from "./schemas.js"
import { PortalAnonymousCsrf, PortalOwner, PortalSession } from "./security.js"

export * from "./schemas.js"
export * from "./security.js"

export const PortalDone = done("PortalDone")

// --- groups --------------------------------------------------------------------------------

/** Puts an endpoint behind `middleware`, with its OpenAPI description when it has one. */
const behind =
  <I extends HttpApiMiddleware.HttpApiMiddleware.AnyId, S>(middleware: Context.Tag<I, S>) =>
  <Name extends string, Method extends HttpMethod, Path, UrlParams, Payload, Headers, Success, Error, R, RE>(
    endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>,
    description?: string
  ) => {
    const guarded = endpoint.middleware(middleware)
    return description === undefined ? guarded : guarded.annotate(OpenApi.Description, description)
  }

/** Any signed-in user: owner or member. */
const forMember = behind(PortalSession)
/** A signed-in owner (a member gets 403). */
const forOwner = behind(PortalOwner)
/** A state change before sign-in: the pre-session CSRF token and the Origin check. */
const beforeSignIn = behind(PortalAnonymousCsrf)

/** `POST /webhooks/:webhook_uid/<action>`: a change to one webhook endpoint. */
const webhookAction = <const Name extends string>(name: Name, action: string) =>
  post(name, `/webhooks/:webhook_uid/${action}`).setPath(WebhookPath)

const SessionResponse = ok(SessionView, "PortalSessionResponse")
const WebhookResponse = ok(WebhookEndpointView, "PortalWebhookResponse")
const WebhookWithSecretResponse = ok(WebhookWithSecret, "PortalWebhookWithSecretResponse")
const UserResponse = ok(PortalUser, "PortalUserResponse")

export class PortalSessionGroup extends group("portalSession", "Portal: session")
  .add(
    get("csrf", "/session/csrf")
      .addSuccess(ok(CsrfView, "PortalCsrfResponse"))
      .annotate(
        OpenApi.Description,
        "The token to send as X-CSRF-Token: the session's when signed in, else a pre-session token " +
          "(also set as the tuma_portal_csrf cookie) for sign-in, invitations and password reset."
      )
  )
  .add(beforeSignIn(
    post("signIn", "/session").setPayload(SignInInput).addSuccess(SessionResponse)
      .addError(Unauthorized).addError(TooManyRequests),
    "A new session id on every sign-in (any earlier session cookie is ended)."
  ))
  .add(forMember(get("me", "/session").addSuccess(SessionResponse)))
  .add(forMember(del("signOut", "/session").addSuccess(PortalDone)))
  .add(forMember(
    post("signOutEverywhere", "/session/sign-out-everywhere").addSuccess(PortalDone),
    "Ends every session of this user, this one included."
  ))
  .add(
    get("getInvitation", "/invitations/:token").setPath(Schema.Struct({ token: Schema.String }))
      .addSuccess(ok(InvitationPreview, "PortalInvitationPreviewResponse"))
  )
  .add(beforeSignIn(
    post("acceptInvitation", "/invitations/accept").setPayload(AcceptInvitationInput).addSuccess(SessionResponse),
    "Creates the user with this password and signs in."
  ))
  .add(beforeSignIn(
    post("requestPasswordReset", "/password-reset").setPayload(PasswordResetRequestInput)
      .addSuccess(PortalDone, { status: 202 }).addError(TooManyRequests),
    "Always 202 (whether the address is known is not told); mails a link."
  ))
  .add(beforeSignIn(
    post("completePasswordReset", "/password-reset/complete").setPayload(PasswordResetCompleteInput)
      .addSuccess(PortalDone),
    "Sets the password and ends every session of the user."
  ))
{}

export class PortalDashboardGroup extends group("portalDashboard", "Portal: dashboard, preview and send")
  .add(forMember(
    get("dashboard", "/dashboard").setUrlParams(DashboardQuery).addSuccess(ok(Dashboard, "PortalDashboardResponse"))
  ))
  .add(forMember(
    post("preview", "/preview").setPayload(PreviewInput).addSuccess(ok(PreviewView, "PortalPreviewResponse")),
    "Encoding, segments, changed characters and cost of a text; sends nothing."
  ))
  .add(forMember(
    sendEndpoint("sendSms", "/sms", WebSendInput, Res.SendSingleResponse).addError(TooManyRequests)
      .addError(ServiceUnavailable),
    "One SMS with channel `web`: the API's rules (routing, sender ID, wallet, spam)."
  ))
{}

export class PortalCampaignsGroup extends group("portalCampaigns", "Portal: campaigns")
  .add(forMember(
    post("previewCampaign", "/campaigns/preview").setPayload(CampaignInput)
      .addSuccess(ok(CampaignPreview, "PortalCampaignPreviewResponse"))
  ))
  .add(forMember(
    sendEndpoint("createCampaign", "/campaigns", CampaignInput, Res.BulkV2Response).addError(ServiceUnavailable),
    "Bulk v2 with channel `web`; `scheduled_at` schedules it."
  ))
  .add(forMember(get("listCampaigns", "/campaigns").setUrlParams(PageQuery).addSuccess(CampaignList)))
  .add(forMember(
    get("getCampaign", "/campaigns/:campaign_uid").setPath(Schema.Struct({ campaign_uid: Schema.String }))
      .addSuccess(ok(CampaignDetail, "PortalCampaignDetailResponse"))
  ))
{}

export class PortalMessagesGroup extends group("portalMessages", "Portal: messages")
  .add(forMember(get("listMessages", "/messages").setUrlParams(ListMessagesQuery).addSuccess(MessageList)))
  .add(forMember(
    get("exportMessages", "/messages/export.csv").setUrlParams(ListMessagesQuery)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/csv" })),
    "The filtered messages (newest first, up to 10,000) as CSV."
  ))
  .add(forMember(
    get("getMessage", "/messages/:uid").setPath(MessagePath)
      .addSuccess(ok(MessageDetail, "PortalMessageDetailResponse"))
  ))
{}

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

export class PortalAccountGroup extends group("portalAccount", "Portal: balance, profile and team")
  .add(forMember(get("wallets", "/wallets").addSuccess(okList(WalletView, "PortalWalletList"))))
  .add(forMember(
    get("ledger", "/ledger").setUrlParams(LedgerQuery).addSuccess(okList(LedgerEntryView, "PortalLedger")),
    "Newest first; `kind=purchase` lists the purchases."
  ))
  .add(forMember(get("purchases", "/purchases").addSuccess(okList(LedgerEntryView, "PortalPurchases"))))
  .add(forMember(get("profile", "/profile").addSuccess(ok(ProfileView, "PortalProfileResponse"))))
  .add(forMember(patch("updateProfile", "/profile").setPayload(UpdateProfileInput).addSuccess(UserResponse)))
  .add(forMember(
    post("changePassword", "/profile/password").setPayload(ChangePasswordInput).addSuccess(PortalDone),
    "Ends the user's other sessions."
  ))
  .add(forMember(get("team", "/team").addSuccess(ok(TeamView, "PortalTeamResponse"))))
  .add(forOwner(
    create("invite", "/team/invitations", InviteInput, ok(InvitationView, "PortalInvitationResponse")),
    "E-mails an invitation link (valid 7 days)."
  ))
  .add(forOwner(
    del("revokeInvitation", "/team/invitations/:invitation_uid").setPath(InvitationPath).addSuccess(PortalDone)
  ))
  .add(forOwner(
    patch("changeRole", "/team/members/:user_uid").setPath(UserPath).setPayload(ChangeRoleInput)
      .addSuccess(UserResponse),
    "An account keeps at least one owner."
  ))
  .add(forOwner(
    del("removeMember", "/team/members/:user_uid").setPath(UserPath).addSuccess(PortalDone),
    "Ends the user's sessions; an account keeps at least one owner."
  ))
{}

const base = makeApi("portal")

/** The portal API alone (the browser app's typed client is built from it). */
export class PortalApi extends base
  .add(PortalSessionGroup)
  .add(PortalDashboardGroup)
  .add(PortalCampaignsGroup)
  .add(PortalMessagesGroup)
  .add(PortalSenderIdsGroup)
  .add(PortalKeysGroup)
  .add(PortalAccountGroup)
  .addError(Unauthorized)
  .addError(Forbidden)
  .addError(NotFound)
  .addError(TooManyRequests)
  .prefix("/portal/api")
{}
