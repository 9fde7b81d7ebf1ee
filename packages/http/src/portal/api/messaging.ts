/**
 * The portal's dashboard, previews, single send, campaigns and messages.
 */
import { get, post } from "@effect/platform/HttpApiEndpoint"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { Encoding } from "@tuma/domain/encoding"
import * as D from "@tuma/domain/schemas"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import {
  all,
  group,
  NullTs,
  NumberFromQuery,
  ok,
  opt,
  sendEndpoint,
  Ts,
  WebhookAttempt,
  WebhookDelivery
} from "../../shared/apiSchemas.js"
import { ServiceUnavailable, successFields, TooManyRequests } from "../../shared/Envelope.js"
import * as Res from "../../shared/Responses.js"
import { forMember } from "./shared.js"
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
  /** Where the campaign is as its owner follows it (domain `campaignStageOf`). */
  stage: Schema.Literal("scheduled", "sending", "finished", "cancelled"),
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

export const CampaignCancelled = Schema.Struct({
  /** Messages that will not be sent. */
  messages: Schema.Number,
  /** Units given back to the wallets. */
  units: Schema.Number
}).annotations({ identifier: "PortalCampaignCancelled" })

export const RecipientRowsInput = Schema.Struct({
  /** The recipients as listed, each with its 1-based row number (a CSV's header is row 1). */
  rows: Schema.Array(Schema.Struct({ row: Schema.Number, to: StoredString })).pipe(Schema.maxItems(10_000))
}).annotations({ identifier: "PortalRecipientRowsInput", ...all })

export const RecipientRowProblems = Schema.Struct({
  /** The rows whose number cannot be read (national numbers are read in the account's country). */
  problems: Schema.Array(Schema.Struct({ row: Schema.Number, to: Schema.String, message: Schema.String }))
}).annotations({ identifier: "PortalRecipientRowProblems" })

export const CampaignCopy = Schema.Struct({
  name: Schema.String,
  sender_id: Schema.String,
  /** The text as written (a v2 template keeps its tags). */
  message: Schema.String,
  /** The accepted recipients' numbers (tag values are not kept after sending). */
  recipients: Schema.Array(Schema.String)
}).annotations({ identifier: "PortalCampaignCopy" })

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

export const ListMessagesQuery = D.CampaignMessagesQuery.annotations(all)

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
  .add(forMember(
    post("checkRecipients", "/campaigns/check-recipients").setPayload(RecipientRowsInput)
      .addSuccess(ok(RecipientRowProblems, "PortalRecipientRowProblemsResponse")),
    "Which listed rows have a number that cannot be read, by row number (the rest can be sent)."
  ))
  .add(forMember(get("listCampaigns", "/campaigns").setUrlParams(PageQuery).addSuccess(CampaignList)))
  .add(forMember(
    get("getCampaign", "/campaigns/:campaign_uid").setPath(Schema.Struct({ campaign_uid: Schema.String }))
      .addSuccess(ok(CampaignDetail, "PortalCampaignDetailResponse"))
  ))
  .add(forMember(
    get("copyCampaign", "/campaigns/:campaign_uid/copy").setPath(Schema.Struct({ campaign_uid: Schema.String }))
      .addSuccess(ok(CampaignCopy, "PortalCampaignCopyResponse")),
    "What a duplicate of the campaign starts from: its text, sender ID, name and recipients."
  ))
  .add(forMember(
    post("cancelCampaign", "/campaigns/:campaign_uid/cancel").setPath(Schema.Struct({ campaign_uid: Schema.String }))
      .addSuccess(ok(CampaignCancelled, "PortalCampaignCancelledResponse")),
    "Cancels a scheduled campaign before its time: its messages fail `CANCELLED`, every unit is refunded (409 once it has started)."
  ))
{}

export class PortalMessagesGroup extends group("portalMessages", "Portal: messages")
  .add(forMember(get("listMessages", "/messages").setUrlParams(ListMessagesQuery).addSuccess(MessageList)))
  .add(forMember(
    get("exportMessages", "/messages/export.csv").setUrlParams(ListMessagesQuery)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/csv" })),
    "The filtered messages (newest first, up to 10,000) as CSV, with each message's text and its times also " +
      "in the user's time zone."
  ))
  .add(forMember(
    get("getMessage", "/messages/:uid").setPath(MessagePath)
      .addSuccess(ok(MessageDetail, "PortalMessageDetailResponse"))
  ))
{}
