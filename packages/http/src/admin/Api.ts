/**
 * The operator surface ("the portal" of the spec) under `/admin/v1`, bearer `TUMA_ADMIN_TOKEN`
 * (every request is refused with 401 when the token is not configured). Payloads and views are
 * core's `Admin` schemas; webhook endpoints are `WebhookAdmin`'s. Every answer is the envelope.
 *
 * Why one file of ≈420 lines: the whole `/admin/v1` contract in one place (one endpoint per
 * entry, grouped by sub-domain), so the OpenAPI document and the handlers' types come from one
 * declaration.
 */
import { del, get, patch, post, put } from "@effect/platform/HttpApiEndpoint"
import * as OpenApi from "@effect/platform/OpenApi"
import * as A from "@tuma/core"
import { WebhookEventType } from "@tuma/domain"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import { AdminInbound } from "../inbound/AdminApi.js"
import {
  all,
  BooleanFromQuery,
  create,
  done,
  group as contractGroup,
  makeApi,
  NumberFromQuery,
  ok,
  okList,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  withSecret
} from "../shared/apiSchemas.js"
import { successFields } from "../shared/Envelope.js"
import { RequireAdmin } from "../shared/Security.js"
import { AdminSmpp } from "../smpp/AdminApi.js"

const Done = done("AdminDone")

const AccountPath = Schema.Struct({ account_uid: StoredString })
const KeyPath = Schema.Struct({ key_uid: StoredString })
const SenderIdPath = Schema.Struct({ sender_id_uid: StoredString })
const CountryPath = Schema.Struct({ country: StoredString })
const ProviderPath = Schema.Struct({ provider_uid: StoredString })
const WebhookPath = Schema.Struct({ webhook_uid: StoredString })

// --- webhook views (WebhookAdmin answers camelCase records; the API answers snake_case) -----

/** A webhook endpoint as the admin API answers it (its secret never). */
export const WebhookEndpointView = WebhookEndpoint.annotations({ identifier: "AdminWebhookEndpoint" })

/** A webhook endpoint with its signing secret, answered once at creation and regeneration. */
export const WebhookWithSecret = withSecret(WebhookEndpointView, "AdminWebhookWithSecret")

/** A webhook delivery as the admin API answers it: event, status, attempts, next retry. */
export const WebhookDeliveryView = WebhookDelivery.annotations({ identifier: "AdminWebhookDelivery" })

/** One attempt of a webhook delivery: when, the answer's status or the error, duration. */
export const WebhookAttemptView = WebhookAttempt.annotations({ identifier: "AdminWebhookAttempt" })

/** A webhook delivery with its attempts and the exact body posted. */
export const WebhookDeliveryDetailView = Schema.Struct({
  delivery: WebhookDeliveryView,
  /** The exact body posted (and signed) on every attempt. */
  body: Schema.String,
  attempts: Schema.Array(WebhookAttemptView)
}).annotations({ identifier: "AdminWebhookDeliveryDetail" })

/** The body of a bulk redelivery: every event of the endpoint since a time. */
export const RedeliverSinceInput = Schema.Struct({
  /** Every event of the endpoint's key whose final state is at or after this time. */
  since: Schema.Date
}).annotations({ identifier: "AdminRedeliverSince", ...all })

/** The body of a new webhook endpoint: the API key whose messages it receives, and its URL. */
export const CreateWebhookInput = Schema.Struct({
  api_key_uid: Schema.String,
  /**
   * Refused (422) when its host is a private, loopback, link-local or metadata address in any
   * spelling, or a name resolving to one — unless the server's allow-list (`TUMA_WEBHOOK_ALLOW`)
   * permits it. There is no per-endpoint exception.
   */
  url: StoredString,
  /** The events it gets; default the two delivery events (`sms.delivered`, `sms.failed`). */
  events: Schema.optional(Schema.Array(WebhookEventType))
}).annotations({ identifier: "AdminCreateWebhook", ...all })

/** The events an endpoint is subscribed to (at least one). */
export const WebhookEventsInput = Schema.Struct({
  events: Schema.Array(WebhookEventType).pipe(Schema.minItems(1))
}).annotations({ identifier: "AdminWebhookEvents", ...all })

/** A new account and the invitation of its portal owner (null when that address has a user already). */
export const CreatedAccount = Schema.Struct({
  ...A.AccountView.fields,
  owner_invitation: Schema.NullOr(
    Schema.Struct({
      email: Schema.String,
      expires_at: Schema.String,
      link: Schema.String,
      /** `sent` when the SMTP server took the mail; `outbox` when no mail server is configured. */
      mail: Schema.Literal("sent", "outbox", "failed")
    })
  )
}).annotations({ identifier: "AdminCreatedAccount" })

/**
 * The optional body of `POST /providers/:uid/disable`: `confirm_no_route: true` disables the last
 * carrier of an open market (otherwise 409 CONFLICT). No body, `null` or `{}` read as no confirmation.
 */
export const DisableProviderInput = Schema.transform(
  Schema.Unknown,
  Schema.Struct({ confirm_no_route: Schema.optionalWith(Schema.Boolean, { exact: true }) }),
  {
    strict: false,
    decode: (u) => (typeof u === "object" && u !== null && !Array.isArray(u) ? u : {}),
    encode: (a) => a
  }
).annotations({
  identifier: "AdminDisableProvider",
  ...all,
  jsonSchema: {
    type: "object",
    properties: {
      confirm_no_route: {
        type: "boolean",
        description:
          "true: disable it even when it is the last carrier of an open market (its sends would then fail \"no carrier route\")."
      }
    },
    description: "Optional; no body is the same as {}."
  }
})
const ReasonInput = Schema.Struct({ reason: StoredString }).annotations({ identifier: "AdminReason", ...all })
const OptionalReasonInput = Schema.Struct({
  reason: Schema.optionalWith(Schema.NullOr(StoredString), { exact: true })
}).annotations({ identifier: "AdminOptionalReason", ...all })

const group = <const Name extends string>(name: Name, title: string) =>
  contractGroup(name, title).middleware(RequireAdmin)

// --- groups -------------------------------------------------------------------------------

/** A core input as an admin body: named `identifier`, every field error at once, unknown fields ignored. */
const body = <A, I, R>(schema: Schema.Schema<A, I, R>, identifier: string): Schema.Schema<A, I, R> =>
  schema.annotations({ identifier, ...all })

const AccountCountryPath = Schema.Struct({ account_uid: StoredString, country: StoredString })
const DeliveryPath = Schema.Struct({ delivery_uid: StoredString })

const AccountsQuery = Schema.Struct({
  active: Schema.optionalWith(BooleanFromQuery, { exact: true }),
  search: Schema.optionalWith(StoredString, { exact: true }),
  limit: Schema.optionalWith(NumberFromQuery, { exact: true }),
  offset: Schema.optionalWith(NumberFromQuery, { exact: true })
}).annotations(all)

const LedgerQuery = Schema.Struct({ country: Schema.optional(StoredString), limit: Schema.optional(NumberFromQuery) })
  .annotations(all)

const SenderIdsQuery = Schema.Struct({
  account_uid: Schema.optionalWith(StoredString, { exact: true }),
  status: Schema.optionalWith(Schema.Literal("pending", "approved", "rejected", "suspended"), { exact: true }),
  limit: Schema.optionalWith(NumberFromQuery, { exact: true }),
  offset: Schema.optionalWith(NumberFromQuery, { exact: true })
}).annotations(all)

const WebhooksQuery = Schema.Struct({
  account_uid: Schema.optional(StoredString),
  api_key_uid: Schema.optional(StoredString)
}).annotations(all)

const AuditQuery = Schema.Struct({
  actor: Schema.optional(StoredString),
  action: Schema.optional(StoredString),
  target: Schema.optional(StoredString),
  from: Schema.optional(StoredString),
  to: Schema.optional(StoredString),
  limit: Schema.optional(StoredString),
  before: Schema.optional(StoredString)
}).annotations(all)

const AccountResponse = ok(A.AccountView, "AdminAccountResponse")
const ApiKeyResponse = ok(A.ApiKeyView, "AdminApiKeyResponse")
const WalletResponse = ok(A.WalletView, "AdminWalletResponse")
const MarketResponse = ok(A.MarketView, "AdminMarketResponse")
const SenderIdResponse = ok(A.SenderIdAdminView, "AdminSenderIdResponse")
const SpamRuleResponse = ok(A.SpamRuleView, "AdminSpamRuleResponse")
const ProviderResponse = ok(A.ProviderView, "AdminProviderResponse")
const CountryRoutesResponse = ok(A.CountryRoutesView, "AdminCountryRoutesResponse")
const WebhookResponse = ok(WebhookEndpointView, "AdminWebhookResponse")
const WebhookWithSecretResponse = ok(WebhookWithSecret, "AdminWebhookWithSecretResponse")

/** Admin API group: accounts and API keys. */
export class AdminAccounts extends group("adminAccounts", "Admin: accounts and API keys")
  .add(
    create(
      "createAccount",
      "/accounts",
      body(A.CreateAccountInput, "AdminCreateAccountInput"),
      ok(CreatedAccount, "AdminCreatedAccountResponse")
    ).annotate(OpenApi.Description, "Also invites the portal owner (`owner_email`, default `email`) by e-mail.")
  )
  .add(
    get("listAccounts", "/accounts").setUrlParams(AccountsQuery).addSuccess(okList(A.AccountView, "AdminAccountList"))
  )
  .add(
    get("getAccount", "/accounts/:account_uid").setPath(AccountPath)
      .addSuccess(ok(A.AccountDetail, "AdminAccountDetailResponse"))
  )
  .add(post("suspendAccount", "/accounts/:account_uid/suspend").setPath(AccountPath).addSuccess(AccountResponse))
  .add(post("activateAccount", "/accounts/:account_uid/activate").setPath(AccountPath).addSuccess(AccountResponse))
  .add(
    create(
      "issueApiKey",
      "/api-keys",
      body(A.IssueApiKeyInput, "AdminIssueApiKeyInput"),
      ok(A.IssuedApiKey, "AdminIssuedApiKeyResponse")
    ).annotate(OpenApi.Description, "The full key is in the answer once and is never stored.")
  )
  .add(
    get("listApiKeys", "/accounts/:account_uid/api-keys").setPath(AccountPath)
      .addSuccess(okList(A.ApiKeyView, "AdminApiKeyList"))
  )
  .add(get("getApiKey", "/api-keys/:key_uid").setPath(KeyPath).addSuccess(ApiKeyResponse))
  .add(
    patch("updateApiKey", "/api-keys/:key_uid").setPath(KeyPath)
      .setPayload(body(A.UpdateApiKeyInput, "AdminUpdateApiKeyInput")).addSuccess(ApiKeyResponse)
  )
  .add(post("revokeApiKey", "/api-keys/:key_uid/revoke").setPath(KeyPath).addSuccess(ApiKeyResponse))
{}

/** Admin API group: wallets and ledger, verified routes and markets. */
export class AdminWallets extends group("adminWallets", "Admin: wallets, routes and markets")
  .add(
    create(
      "purchaseCredits",
      "/purchases",
      body(A.PurchaseInput, "AdminPurchaseInput"),
      ok(A.PurchaseView, "AdminPurchaseResponse")
    )
  )
  .add(
    create(
      "correctCredits",
      "/corrections",
      body(A.CorrectionInput, "AdminCorrectionInput"),
      ok(A.PurchaseView, "AdminCorrectionResponse")
    )
  )
  .add(
    get("listWallets", "/accounts/:account_uid/wallets").setPath(AccountPath)
      .addSuccess(okList(A.WalletView, "AdminWalletList"))
  )
  .add(
    get("ledger", "/accounts/:account_uid/ledger").setPath(AccountPath).setUrlParams(LedgerQuery)
      .addSuccess(okList(A.LedgerEntryView, "AdminLedger"))
  )
  .add(
    post("enableWallet", "/accounts/:account_uid/wallets/:country/enable").setPath(AccountCountryPath)
      .addSuccess(WalletResponse)
  )
  .add(
    post("disableWallet", "/accounts/:account_uid/wallets/:country/disable").setPath(AccountCountryPath)
      .addSuccess(WalletResponse)
  )
  .add(
    create(
      "verifyRoute",
      "/routes",
      body(A.VerifyRouteInput, "AdminVerifyRouteInput"),
      ok(A.RouteView, "AdminRouteResponse")
    )
  )
  .add(
    get("listRoutes", "/accounts/:account_uid/routes").setPath(AccountPath)
      .addSuccess(okList(A.RouteView, "AdminRouteList"))
  )
  .add(del("removeRoute", "/accounts/:account_uid/routes/:country").setPath(AccountCountryPath).addSuccess(Done))
  .add(get("listMarkets", "/markets").addSuccess(okList(A.MarketView, "AdminMarketList")))
  .add(post("openMarket", "/markets/:country/open").setPath(CountryPath).addSuccess(MarketResponse))
  .add(post("closeMarket", "/markets/:country/close").setPath(CountryPath).addSuccess(MarketResponse))
{}

/** Admin API group: sender-ID review and requirement documents. */
export class AdminSenderIds extends group("adminSenderIds", "Admin: sender IDs and requirement documents")
  .add(
    get("listSenderIds", "/sender-ids").setUrlParams(SenderIdsQuery)
      .addSuccess(okList(A.SenderIdAdminView, "AdminSenderIdList"))
  )
  .add(
    get("getSenderId", "/sender-ids/:sender_id_uid").setPath(SenderIdPath)
      .addSuccess(ok(A.SenderIdDetail, "AdminSenderIdDetailResponse"))
  )
  .add(
    get("getSenderIdDocument", "/sender-id-documents/:document_uid")
      .setPath(Schema.Struct({ document_uid: StoredString }))
      .addSuccess(
        ok(
          Schema.Struct({ document: A.SenderIdDocumentView, content_base64: Schema.String }),
          "AdminSenderIdDocumentResponse"
        )
      )
  )
  .add(
    create("grantSenderId", "/sender-ids", body(A.GrantSenderIdInput, "AdminGrantSenderIdInput"), SenderIdResponse)
      .annotate(OpenApi.Description, "Grants a sender ID directly (approved).")
  )
  .add(post("approveSenderId", "/sender-ids/:sender_id_uid/approve").setPath(SenderIdPath).addSuccess(SenderIdResponse))
  .add(
    post("rejectSenderId", "/sender-ids/:sender_id_uid/reject").setPath(SenderIdPath).setPayload(ReasonInput)
      .addSuccess(SenderIdResponse)
      .annotate(OpenApi.Description, "A rejection requires a reason (decisions §18).")
  )
  .add(
    post("suspendSenderId", "/sender-ids/:sender_id_uid/suspend").setPath(SenderIdPath).setPayload(OptionalReasonInput)
      .addSuccess(SenderIdResponse)
  )
  .add(
    post("reinstateSenderId", "/sender-ids/:sender_id_uid/reinstate").setPath(SenderIdPath).addSuccess(SenderIdResponse)
  )
  .add(
    create(
      "createRequirement",
      "/requirements",
      body(A.CreateRequirementInput, "AdminCreateRequirementInput"),
      ok(A.RequirementView, "AdminRequirementResponse")
    )
  )
  .add(
    get("listRequirements", "/requirements")
      .setUrlParams(Schema.Struct({ include_inactive: Schema.optional(BooleanFromQuery) }).annotations(all))
      .addSuccess(okList(A.RequirementView, "AdminRequirementList"))
  )
  .add(
    del("deleteRequirement", "/requirements/:requirement_uid").setPath(Schema.Struct({ requirement_uid: StoredString }))
      .addSuccess(Done)
  )
{}

/** Admin API group: opt-outs and spam rules. */
export class AdminPolicy extends group("adminPolicy", "Admin: opt-outs and spam rules")
  .add(
    create("addOptOut", "/opt-outs", body(A.OptOutInput, "AdminOptOutInput"), ok(A.OptOutView, "AdminOptOutResponse"))
  )
  .add(
    get("listOptOuts", "/accounts/:account_uid/opt-outs").setPath(AccountPath)
      .addSuccess(okList(A.OptOutView, "AdminOptOutList"))
  )
  .add(
    del("removeOptOut", "/accounts/:account_uid/opt-outs/:recipient")
      .setPath(Schema.Struct({ account_uid: StoredString, recipient: StoredString }))
      .addSuccess(Done)
  )
  .add(create("addSpamRule", "/spam-rules", body(A.SpamRuleInput, "AdminSpamRuleInputBody"), SpamRuleResponse))
  .add(
    get("listSpamRules", "/spam-rules")
      .setUrlParams(Schema.Struct({ account_uid: Schema.optional(StoredString) }).annotations(all))
      .addSuccess(okList(A.SpamRuleView, "AdminSpamRuleList"))
  )
  .add(
    del("removeSpamRule", "/spam-rules/:rule_uid").setPath(Schema.Struct({ rule_uid: StoredString })).addSuccess(Done)
  )
  .add(
    post("enableSpamRule", "/spam-rules/:rule_uid/enable").setPath(Schema.Struct({ rule_uid: Schema.String }))
      .addSuccess(SpamRuleResponse)
  )
  .add(
    post("disableSpamRule", "/spam-rules/:rule_uid/disable").setPath(Schema.Struct({ rule_uid: Schema.String }))
      .addSuccess(SpamRuleResponse)
  )
{}

/** Admin API group: providers, their credit and routing. */
export class AdminProviders extends group("adminProviders", "Admin: providers, credit and routing")
  .add(
    create("createProvider", "/providers", body(A.CreateProviderInput, "AdminCreateProviderInput"), ProviderResponse)
  )
  .add(get("listProviders", "/providers").addSuccess(okList(A.ProviderView, "AdminProviderList")))
  .add(get("getProvider", "/providers/:provider_uid").setPath(ProviderPath).addSuccess(ProviderResponse))
  .add(post("enableProvider", "/providers/:provider_uid/enable").setPath(ProviderPath).addSuccess(ProviderResponse))
  .add(
    post("disableProvider", "/providers/:provider_uid/disable").setPath(ProviderPath).setPayload(DisableProviderInput)
      .addSuccess(ProviderResponse)
  )
  .add(
    post("creditProvider", "/providers/:provider_uid/credit").setPath(ProviderPath)
      .setPayload(body(A.ProviderCreditInput, "AdminProviderCreditInput")).addSuccess(ProviderResponse)
  )
  .add(get("countryRoutes", "/markets/:country/routes").setPath(CountryPath).addSuccess(CountryRoutesResponse))
  .add(
    put("setCountryRoutes", "/markets/:country/routes").setPath(CountryPath)
      .setPayload(body(A.CountryRoutesInput, "AdminCountryRoutesInputBody")).addSuccess(CountryRoutesResponse)
  )
{}

/** Admin API group: webhook endpoints and deliveries. */
export class AdminWebhooks extends group("adminWebhooks", "Admin: webhook endpoints")
  .add(
    create("createWebhook", "/webhooks", CreateWebhookInput, WebhookWithSecretResponse)
      .annotate(OpenApi.Description, "The signing secret is in the answer once.")
  )
  .add(
    get("listWebhooks", "/webhooks").setUrlParams(WebhooksQuery).addSuccess(
      okList(WebhookEndpointView, "AdminWebhookList")
    )
  )
  .add(get("getWebhook", "/webhooks/:webhook_uid").setPath(WebhookPath).addSuccess(WebhookResponse))
  .add(
    put("setWebhookEvents", "/webhooks/:webhook_uid/events").setPath(WebhookPath).setPayload(WebhookEventsInput)
      .addSuccess(WebhookResponse)
      .annotate(
        OpenApi.Description,
        "The events the endpoint gets: sms.delivered, sms.failed, sms.received, optout.changed."
      )
  )
  .add(
    post("regenerateWebhookSecret", "/webhooks/:webhook_uid/regenerate-secret").setPath(WebhookPath)
      .addSuccess(WebhookWithSecretResponse)
  )
  .add(
    post("enableWebhook", "/webhooks/:webhook_uid/enable").setPath(WebhookPath).addSuccess(WebhookResponse)
      .annotate(OpenApi.Description, "Re-enables the endpoint and resets its failure count.")
  )
  .add(
    post("disableWebhook", "/webhooks/:webhook_uid/disable").setPath(WebhookPath).setPayload(OptionalReasonInput)
      .addSuccess(WebhookResponse)
  )
  .add(
    get("listWebhookDeliveries", "/webhooks/:webhook_uid/deliveries").setPath(WebhookPath)
      .setUrlParams(Schema.Struct({ limit: Schema.optional(NumberFromQuery) }).annotations(all))
      .addSuccess(okList(WebhookDeliveryView, "AdminWebhookDeliveryList"))
  )
  .add(
    post("redeliverWebhook", "/webhook-deliveries/:delivery_uid/redeliver").setPath(DeliveryPath)
      .addSuccess(ok(Schema.Struct({ delivery_uid: Schema.String }), "AdminRedeliverResponse"), { status: 202 })
  )
  .add(
    get("getWebhookDelivery", "/webhook-deliveries/:delivery_uid").setPath(DeliveryPath)
      .addSuccess(ok(WebhookDeliveryDetailView, "AdminWebhookDeliveryDetailResponse"))
      .annotate(OpenApi.Description, "A delivery, the exact body it posts, and every attempt.")
  )
  .add(
    post("redeliverWebhookSince", "/webhooks/:webhook_uid/redeliver").setPath(WebhookPath)
      .setPayload(RedeliverSinceInput)
      .addSuccess(
        ok(Schema.Struct({ delivery_uids: Schema.Array(Schema.String) }), "AdminRedeliverSinceResponse"),
        { status: 202 }
      )
      .annotate(OpenApi.Description, "Redelivers every event since a time (also those missed while disabled).")
  )
{}

/** Admin API group: the audit log of operator actions (issue 15), newest first, filtered, paged by cursor. */
export class AdminAudit extends group("adminAudit", "Admin: audit log")
  .add(
    get("auditLog", "/audit-log").setUrlParams(AuditQuery)
      .addSuccess(
        Schema.Struct({ ...successFields, data: Schema.Array(A.AuditEntryView), meta: A.AuditPageMeta })
          .annotations({ identifier: "AdminAuditLog" })
      )
      .annotate(
        OpenApi.Description,
        "Every operator action (admin API, `tuma` command, console): who, what, before/after, when, from where. " +
          "Filters: actor (name or operator id), action (exact, or a prefix ending in `.*`), target, from/to " +
          "(ISO 8601), limit (1–500, default 100), before (cursor: `meta.next_before` of the previous page)."
      )
  )
{}

const base = makeApi("admin")

/** The operator API under `/admin/v1`, behind the `TUMA_ADMIN_TOKEN` bearer. */
export class AdminApi extends base
  .add(AdminAccounts)
  .add(AdminWallets)
  .add(AdminSenderIds)
  .add(AdminPolicy)
  .add(AdminProviders)
  .add(AdminWebhooks)
  .add(AdminAudit)
  .add(AdminSmpp)
  .add(AdminInbound)
  .prefix("/admin/v1")
{}
