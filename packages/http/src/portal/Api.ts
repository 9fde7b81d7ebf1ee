/**
 * The customer portal's HTTP contract (issue 14): endpoints under `/portal/api/…`, signed in with a
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
 * Why one file of ≈660 lines: the whole portal contract in one declaration (endpoint groups and
 * their schemas), so the OpenAPI document and the handlers' types come from one place.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { del, get, patch, post } from "@effect/platform/HttpApiEndpoint"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Views from "@tuma/core/admin/views"
import { Encoding } from "@tuma/domain/encoding"
import * as D from "@tuma/domain/schemas"
import { StoredString } from "@tuma/domain/storedText"
import { Context, Schema } from "effect"
import {
  all,
  create,
  done,
  group,
  makeApi,
  NullTs,
  NumberFromQuery,
  ok,
  okList,
  opt,
  sendEndpoint,
  senderIdMultipart,
  Ts,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  withSecret
} from "../shared/apiSchemas.js"
import {
  Forbidden,
  NotFound,
  ServiceUnavailable,
  successFields,
  TooManyRequests,
  Unauthorized
} from "../shared/Envelope.js"
import * as Res from "../shared/Responses.js"

export const PortalDone = done("PortalDone")

// --- security ------------------------------------------------------------------------------

/** Cookie holding the session id (HttpOnly). */
export const SESSION_COOKIE = "tuma_portal_session"
/** Cookie holding the pre-session CSRF token (double submit before sign-in). */
export const CSRF_COOKIE = "tuma_portal_csrf"
/** Header every state-changing portal request carries. */
export const CSRF_HEADER = "x-csrf-token"

export const PortalRole = Schema.Literal("owner", "member")
export type PortalRole = typeof PortalRole.Type

export const Locale = Schema.Literal("en", "sw")
export type Locale = typeof Locale.Type

/** The signed-in user of a portal request. */
export interface PortalUserContext {
  readonly userId: string
  readonly accountId: string
  readonly role: PortalRole
  /** SHA-256 of the session id (the stored key). */
  readonly sessionId: string
  readonly email: string
  readonly timeZone: string
}

export class CurrentPortalUser extends Context.Tag("@tuma/http/CurrentPortalUser")<
  CurrentPortalUser,
  PortalUserContext
>() {}

const sessionFailure = Schema.Union(Unauthorized, Forbidden)

/** A signed-in user (owner or member); CSRF-checked on state changes. */
export class PortalSession extends HttpApiMiddleware.Tag<PortalSession>()("@tuma/http/PortalSession", {
  provides: CurrentPortalUser,
  failure: sessionFailure
}) {}

/** A signed-in owner; CSRF-checked on state changes. Members get 403. */
export class PortalOwner extends HttpApiMiddleware.Tag<PortalOwner>()("@tuma/http/PortalOwner", {
  provides: CurrentPortalUser,
  failure: sessionFailure
}) {}

/** State changes without a session (sign in, accept invitation, password reset): the pre-session
 * CSRF token (double submit) and the Origin check. */
export class PortalAnonymousCsrf extends HttpApiMiddleware.Tag<PortalAnonymousCsrf>()(
  "@tuma/http/PortalAnonymousCsrf",
  { failure: Forbidden }
) {}

// --- views ---------------------------------------------------------------------------------

export const PortalUser = Schema.Struct({
  uid: Schema.String,
  email: Schema.String,
  name: Schema.String,
  role: PortalRole,
  locale: Locale,
  time_zone: Schema.String.annotations({ description: "IANA zone, default Africa/Dar_es_Salaam" }),
  created_at: Ts,
  last_sign_in_at: NullTs
}).annotations({ identifier: "PortalUser" })
export type PortalUser = typeof PortalUser.Type

export const PortalAccount = Views.AccountView.pick("uid", "name", "email", "active").annotations({
  identifier: "PortalAccount"
})
export type PortalAccount = typeof PortalAccount.Type

export const SessionView = Schema.Struct({
  user: PortalUser,
  account: PortalAccount,
  /** Send it as `X-CSRF-Token` on every state change of this session. */
  csrf_token: Schema.String,
  idle_expires_at: Ts,
  absolute_expires_at: Ts
}).annotations({ identifier: "PortalSessionView" })
export type SessionView = typeof SessionView.Type

export const SignInInput = Schema.Struct({
  email: StoredString,
  password: StoredString
}).annotations({ identifier: "PortalSignIn", ...all })

export const CsrfView = Schema.Struct({ csrf_token: Schema.String }).annotations({ identifier: "PortalCsrf" })

export const InvitationPreview = Schema.Struct({
  email: Schema.String,
  account_name: Schema.String,
  role: PortalRole,
  expires_at: Ts
}).annotations({ identifier: "PortalInvitationPreview" })

export const AcceptInvitationInput = Schema.Struct({
  token: StoredString,
  password: StoredString,
  name: opt(StoredString)
}).annotations({ identifier: "PortalAcceptInvitation", ...all })

export const PasswordResetRequestInput = Schema.Struct({ email: StoredString }).annotations({
  identifier: "PortalPasswordResetRequest",
  ...all
})
export const PasswordResetCompleteInput = Schema.Struct({ token: StoredString, password: StoredString })
  .annotations({ identifier: "PortalPasswordResetComplete", ...all })

// dashboard

export const StatusCounts = Schema.Struct({
  scheduled: Schema.Number,
  queued: Schema.Number,
  processing: Schema.Number,
  sent: Schema.Number,
  delivered: Schema.Number,
  failed: Schema.Number,
  total: Schema.Number
}).annotations({ identifier: "PortalStatusCounts" })
export type StatusCounts = typeof StatusCounts.Type

export const Dashboard = Schema.Struct({
  time_zone: Schema.String,
  balances: Schema.Array(Schema.Struct({
    country: Schema.String,
    calling_code: Schema.NullOr(Schema.String),
    balance: Schema.Number,
    enabled: Schema.Boolean
  })),
  today: StatusCounts,
  /** Seven days ending today (oldest first), in `time_zone`. */
  last_7_days: Schema.Array(Schema.Struct({ date: Schema.String, counts: StatusCounts })),
  /** Over the last 7 days: delivered / (delivered + failed); null when neither. */
  delivery_rate: Schema.Struct({
    delivered: Schema.Number,
    failed: Schema.Number,
    rate: Schema.NullOr(Schema.Number)
  }),
  recent_failures: Schema.Array(Schema.Struct({
    uid: Schema.String,
    recipient: Schema.String,
    sender_id: Schema.String,
    failure_reason: Schema.NullOr(Schema.String),
    failed_at: NullTs,
    created_at: Ts
  }))
}).annotations({ identifier: "PortalDashboard" })
export type Dashboard = typeof Dashboard.Type

export const DashboardQuery = Schema.Struct({
  /** IANA time zone for "today" and the days; default the user's. */
  tz: opt(StoredString)
}).annotations(all)

// preview and send

export const PreviewInput = Schema.Struct({
  body: StoredString,
  /** Prices for this recipient's country when given. */
  recipient: opt(StoredString)
}).annotations({ identifier: "PortalPreviewInput", ...all })

export const PreviewView = Schema.Struct({
  encoding: Encoding,
  /** The text as it will be sent (GSM-7 conversions applied). */
  text: Schema.String,
  parts: Schema.Array(Schema.String),
  /** Units per recipient (= segments). */
  units: Schema.Number,
  /** The recipient's country and wallet, when a valid recipient was given. */
  country: Schema.NullOr(Schema.String),
  balance: Schema.NullOr(Schema.Number),
  sufficient: Schema.NullOr(Schema.Boolean),
  recipient_error: Schema.NullOr(Schema.String)
}).annotations({ identifier: "PortalPreview" })
export type PreviewView = typeof PreviewView.Type

export const WebSendInput = D.SendMessageRequest.annotations({ identifier: "PortalSendInput", ...all })

// campaigns

export const CampaignInput = D.BulkSendV2Request.annotations({ identifier: "PortalCampaignInput", ...all })

export const CampaignPreview = Schema.Struct({
  recipients: Schema.Number,
  /** Recipients that would be sent (after removing invalid, opted-out and duplicate ones). */
  sendable: Schema.Number,
  units: Schema.Number,
  countries: Schema.Array(Schema.Struct({
    country: Schema.String,
    recipients: Schema.Number,
    units: Schema.Number,
    balance: Schema.Number,
    sufficient: Schema.Boolean
  })),
  /** Every country's wallet covers its part (bulk v2 is all-or-nothing). */
  sufficient: Schema.Boolean,
  /** The first recipients' personalised texts. */
  samples: Schema.Array(Schema.Struct({
    recipient: Schema.String,
    text: Schema.String,
    encoding: Encoding,
    units: Schema.Number
  })),
  failures: Schema.Array(Res.CampaignFailure)
}).annotations({ identifier: "PortalCampaignPreview" })
export type CampaignPreview = typeof CampaignPreview.Type

export const DeliveryFigures = StatusCounts.annotations({ identifier: "PortalDeliveryFigures" })

export const CampaignSummary = Schema.Struct({
  uid: Schema.String,
  name: Schema.String,
  sender_id: Schema.String,
  api_version: Schema.Literal("v1", "v2"),
  channel: Schema.Literal("api", "web"),
  status: Schema.String,
  recipient_count: Schema.Number,
  queued_count: Schema.Number,
  failed_count: Schema.Number,
  units: Schema.Number,
  scheduled_at: NullTs,
  created_at: Ts,
  delivery: DeliveryFigures
}).annotations({ identifier: "PortalCampaign" })
export type CampaignSummary = typeof CampaignSummary.Type

export const CampaignDetail = Schema.Struct({
  ...CampaignSummary.fields,
  failures: Schema.Array(Res.CampaignFailure)
}).annotations({ identifier: "PortalCampaignDetail" })

export const PageQuery = Schema.Struct({
  page: opt(NumberFromQuery),
  per_page: opt(NumberFromQuery)
}).annotations(all)

export const CampaignList = Schema.Struct({
  ...successFields,
  data: Schema.Array(CampaignSummary),
  meta: Res.PageMeta
}).annotations({ identifier: "PortalCampaignList" })

// messages

export const ListMessagesQuery = D.ListMessagesQuery.annotations(all)

export const MessageList = Schema.Struct({
  ...successFields,
  data: Schema.Array(Res.MessageEntry),
  meta: Res.PageMeta
}).annotations({ identifier: "PortalMessageList" })

export const WebhookAttemptView = WebhookAttempt.annotations({ identifier: "PortalWebhookAttempt" })

export const WebhookDeliveryView = Schema.Struct({
  ...WebhookDelivery.fields,
  attempt_log: Schema.Array(WebhookAttemptView)
}).annotations({ identifier: "PortalWebhookDelivery" })
export type WebhookDeliveryView = typeof WebhookDeliveryView.Type

export const TimelineEvent = Schema.Struct({
  at: Ts,
  event: Schema.Literal("created", "scheduled", "queued", "sent", "delivered", "failed", "delivery_report"),
  detail: Schema.NullOr(Schema.String)
}).annotations({ identifier: "PortalTimelineEvent" })

export const MessageDetail = Schema.Struct({
  message: Res.MessageEntry,
  text: Schema.String,
  country: Schema.String,
  created_at: Ts,
  timeline: Schema.Array(TimelineEvent),
  webhooks: Schema.Array(WebhookDeliveryView)
}).annotations({ identifier: "PortalMessageDetail" })
export type MessageDetail = typeof MessageDetail.Type

const MessagePath = Schema.Struct({ uid: Schema.String })

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

// balance

export const WalletView = Views.WalletView.omit("country_uid").annotations({ identifier: "PortalWallet" })

export const LedgerEntryView = Views.LedgerEntryView.annotations({ identifier: "PortalLedgerEntry" })

export const LedgerQuery = Schema.Struct({
  country: opt(StoredString),
  kind: opt(Schema.Literal("purchase", "debit", "refund", "adjustment")),
  limit: opt(NumberFromQuery)
}).annotations(all)

// profile and team

export const UpdateProfileInput = Schema.Struct({
  name: opt(StoredString),
  locale: opt(Locale),
  time_zone: opt(StoredString)
}).annotations({ identifier: "PortalUpdateProfile", ...all })

export const ChangePasswordInput = Schema.Struct({
  current_password: StoredString,
  new_password: StoredString
}).annotations({ identifier: "PortalChangePassword", ...all })

export const ProfileView = Schema.Struct({
  user: PortalUser,
  account: Res.Profile
}).annotations({ identifier: "PortalProfile" })

export const InvitationView = Schema.Struct({
  uid: Schema.String,
  email: Schema.String,
  role: PortalRole,
  invited_by: Schema.NullOr(Schema.String),
  created_at: Ts,
  expires_at: Ts,
  accepted_at: NullTs
}).annotations({ identifier: "PortalInvitation" })

export const TeamView = Schema.Struct({
  members: Schema.Array(PortalUser),
  invitations: Schema.Array(InvitationView)
}).annotations({ identifier: "PortalTeam" })

export const InviteInput = Schema.Struct({
  email: StoredString,
  role: PortalRole
}).annotations({ identifier: "PortalInvite", ...all })

export const ChangeRoleInput = Schema.Struct({ role: PortalRole }).annotations({
  identifier: "PortalChangeRole",
  ...all
})

const UserPath = Schema.Struct({ user_uid: Schema.String })
const InvitationPath = Schema.Struct({ invitation_uid: Schema.String })

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
