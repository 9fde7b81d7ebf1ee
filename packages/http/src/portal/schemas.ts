/** The portal contract's schemas: what its endpoints take and answer. */
import * as Views from "@tuma/core/admin/views"
import { Encoding } from "@tuma/domain/encoding"
import * as D from "@tuma/domain/schemas"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import {
  all,
  NullTs,
  NumberFromQuery,
  opt,
  senderIdMultipart,
  Ts,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  withSecret
} from "../shared/apiSchemas.js"
import { successFields } from "../shared/Envelope.js"
import * as Res from "../shared/Responses.js"

import { Locale, PortalRole } from "./security.js"

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

export const MessagePath = Schema.Struct({ uid: Schema.String })

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

export const KeyPath = Schema.Struct({ key_uid: Schema.String })

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

export const WebhookPath = Schema.Struct({ webhook_uid: Schema.String })

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

export const UserPath = Schema.Struct({ user_uid: Schema.String })
export const InvitationPath = Schema.Struct({ invitation_uid: Schema.String })
