/**
 * The admin API's responses (`…View` Schemas: snake_case, ISO strings) and the builders from store rows.
 */
import { isSenderIdUsable } from "@tuma/domain"
import { Schema } from "effect"
import type { CountryRouteRow, LedgerRow, OptOutRow, ProviderFullRow, SpamRuleFullRow } from "../ports/AdminStore.js"
import type { AccountRow, ApiKeyRow } from "../ports/OperatorStore.js"
import type { RequirementRow, SenderIdDocumentRow, SenderIdRecordRow } from "../ports/SenderIdStore.js"
import type { MarketRow } from "../ports/SendStore.js"

// ---------------------------------------------------------------------------------------------
// Views (responses)
// ---------------------------------------------------------------------------------------------

const Ts = Schema.String.annotations({ description: "ISO 8601 timestamp" })
const NullTs = Schema.NullOr(Ts)
const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString())

/** The admin API's `AccountView` response shape (a Schema; snake_case, ISO strings). */
export const AccountView = Schema.Struct({
  uid: Schema.String,
  name: Schema.String,
  email: Schema.String,
  phone: Schema.NullOr(Schema.String),
  phone_verified_at: NullTs,
  country_uid: Schema.NullOr(Schema.String),
  active: Schema.Boolean,
  created_at: Ts,
  updated_at: Ts
}).annotations({ identifier: "AdminAccount" })
export type AccountView = typeof AccountView.Type

/** The admin API's `ApiKeyView` response shape (a Schema; snake_case, ISO strings). */
export const ApiKeyView = Schema.Struct({
  uid: Schema.String,
  account_uid: Schema.String,
  name: Schema.String,
  /** The first characters of the key, for recognising it. */
  prefix: Schema.String,
  mode: Schema.Literal("live", "test"),
  status: Schema.Literal("active", "revoked", "expired"),
  scopes: Schema.Array(Schema.String),
  allowed_ips: Schema.Array(Schema.String),
  expires_at: NullTs,
  revoked_at: NullTs,
  last_used_at: NullTs,
  created_at: Ts
}).annotations({ identifier: "AdminApiKey" })
export type ApiKeyView = typeof ApiKeyView.Type

/** A newly issued key as the admin API answers it: the full key, shown this once. */
export const IssuedApiKey = Schema.Struct({
  /** The full key: shown once, never stored. */
  key: Schema.String,
  api_key: ApiKeyView
}).annotations({ identifier: "AdminIssuedApiKey" })
export type IssuedApiKey = typeof IssuedApiKey.Type

/** The admin API's `WalletView` response shape (a Schema; snake_case, ISO strings). */
export const WalletView = Schema.Struct({
  wallet_uid: Schema.String,
  country_uid: Schema.String,
  country: Schema.String,
  calling_code: Schema.String,
  balance: Schema.Number,
  enabled: Schema.Boolean
}).annotations({ identifier: "AdminWallet" })
export type WalletView = typeof WalletView.Type

/** The admin API's `LedgerEntryView` response shape (a Schema; snake_case, ISO strings). */
export const LedgerEntryView = Schema.Struct({
  id: Schema.String,
  wallet_uid: Schema.String,
  country: Schema.String,
  kind: Schema.Literal("purchase", "debit", "refund", "adjustment"),
  units: Schema.Number,
  balance_after: Schema.Number,
  amount: Schema.NullOr(Schema.String),
  currency: Schema.NullOr(Schema.String),
  message_uid: Schema.NullOr(Schema.String),
  campaign_uid: Schema.NullOr(Schema.String),
  reference: Schema.NullOr(Schema.String),
  created_at: Ts
}).annotations({ identifier: "AdminLedgerEntry" })
export type LedgerEntryView = typeof LedgerEntryView.Type

/** The admin API's `PurchaseView` response shape (a Schema; snake_case, ISO strings). */
export const PurchaseView = Schema.Struct({
  wallet: WalletView,
  entry: LedgerEntryView
}).annotations({ identifier: "AdminPurchase" })
export type PurchaseView = typeof PurchaseView.Type

/** The admin API's `RouteView` response shape (a Schema; snake_case, ISO strings). */
export const RouteView = Schema.Struct({
  uid: Schema.String,
  country_uid: Schema.String,
  country: Schema.String,
  phone: Schema.String,
  verified_at: Ts
}).annotations({ identifier: "AdminRoute" })
export type RouteView = typeof RouteView.Type

/** The admin API's `MarketView` response shape (a Schema; snake_case, ISO strings). */
export const MarketView = Schema.Struct({
  uid: Schema.String,
  iso2: Schema.String,
  calling_code: Schema.String,
  name: Schema.String,
  open: Schema.Boolean
}).annotations({ identifier: "AdminMarket" })
export type MarketView = typeof MarketView.Type

/** An account with its wallets, keys and routes, as the admin API reads it. */
export const AccountDetail = Schema.Struct({
  account: AccountView,
  wallets: Schema.Array(WalletView),
  routes: Schema.Array(RouteView),
  api_keys: Schema.Array(ApiKeyView)
}).annotations({ identifier: "AdminAccountDetail" })
export type AccountDetail = typeof AccountDetail.Type

/** The admin API's `SenderIdAdminView` response shape (a Schema; snake_case, ISO strings). */
export const SenderIdAdminView = Schema.Struct({
  uid: Schema.String,
  account_uid: Schema.String,
  sender_id: Schema.String,
  display_name: Schema.String,
  country_uid: Schema.String,
  country: Schema.String,
  country_code: Schema.String,
  country_name: Schema.String,
  status: Schema.Literal("pending", "approved", "rejected", "suspended"),
  is_usable: Schema.Boolean,
  is_default: Schema.Boolean,
  is_global: Schema.Boolean,
  sample_message: Schema.String,
  purpose: Schema.NullOr(Schema.String),
  protection_requested: Schema.Boolean,
  rejection_reason: Schema.NullOr(Schema.String),
  suspension_reason: Schema.NullOr(Schema.String),
  submitted_document_uids: Schema.Array(Schema.String),
  requested_at: Ts,
  updated_at: Ts
}).annotations({ identifier: "AdminSenderId" })
export type SenderIdAdminView = typeof SenderIdAdminView.Type

/** The admin API's `SenderIdDocumentView` response shape (a Schema; snake_case, ISO strings). */
export const SenderIdDocumentView = Schema.Struct({
  uid: Schema.String,
  requirement_uid: Schema.NullOr(Schema.String),
  kind: Schema.Literal("requirement", "protection"),
  filename: Schema.String,
  content_type: Schema.String,
  size_bytes: Schema.Number,
  created_at: Ts
}).annotations({ identifier: "AdminSenderIdDocument" })
export type SenderIdDocumentView = typeof SenderIdDocumentView.Type

/** A sender ID with its documents, as the admin API reads it. */
export const SenderIdDetail = Schema.Struct({
  sender_id: SenderIdAdminView,
  documents: Schema.Array(SenderIdDocumentView)
}).annotations({ identifier: "AdminSenderIdDetail" })
export type SenderIdDetail = typeof SenderIdDetail.Type

/** The admin API's `RequirementView` response shape (a Schema; snake_case, ISO strings). */
export const RequirementView = Schema.Struct({
  uid: Schema.String,
  name: Schema.String,
  /** null: every country. */
  country_uid: Schema.NullOr(Schema.String),
  is_required: Schema.Boolean,
  accepted_formats: Schema.Array(Schema.String),
  max_size_kb: Schema.Number,
  active: Schema.Boolean,
  created_at: Ts
}).annotations({ identifier: "AdminRequirement" })
export type RequirementView = typeof RequirementView.Type

/** The admin API's `OptOutView` response shape (a Schema; snake_case, ISO strings). */
export const OptOutView = Schema.Struct({
  account_uid: Schema.String,
  recipient: Schema.String,
  reason: Schema.NullOr(Schema.String),
  created_at: Ts
}).annotations({ identifier: "AdminOptOut" })
export type OptOutView = typeof OptOutView.Type

/** The kinds of stored spam rules. */
export const SPAM_RULE_KINDS = ["blocked_phrase", "blocked_domain"] as const
/** Provider kinds the delivery workers can start (`ProvidersFromStore`); any other is refused (422). */
export const PROVIDER_KINDS = ["simulated", "smpp"] as const

/** The admin API's `SpamRuleView` response shape (a Schema; snake_case, ISO strings). */
export const SpamRuleView = Schema.Struct({
  uid: Schema.String,
  /** null: applies to every account. */
  account_uid: Schema.NullOr(Schema.String),
  kind: Schema.String,
  pattern: Schema.String,
  description: Schema.String,
  enabled: Schema.Boolean,
  /** true: an entry of the built-in list (switched off and on, never removed). */
  builtin: Schema.Boolean,
  /** null for a built-in entry. */
  created_at: Schema.NullOr(Ts)
}).annotations({ identifier: "AdminSpamRule" })
export type SpamRuleView = typeof SpamRuleView.Type

/** A provider (its `config` — credentials — is never answered). */
export const ProviderView = Schema.Struct({
  uid: Schema.String,
  name: Schema.String,
  kind: Schema.String,
  enabled: Schema.Boolean,
  created_at: Ts,
  credits: Schema.Array(Schema.Struct({ country: Schema.String, balance: Schema.Number, updated_at: Ts })),
  routes: Schema.Array(Schema.Struct({ country: Schema.String, priority: Schema.Number, enabled: Schema.Boolean }))
}).annotations({ identifier: "AdminProvider" })
export type ProviderView = typeof ProviderView.Type

/** The admin API's `CountryRouteView` response shape (a Schema; snake_case, ISO strings). */
export const CountryRouteView = Schema.Struct({
  route_uid: Schema.String,
  provider_uid: Schema.String,
  provider_name: Schema.String,
  provider_enabled: Schema.Boolean,
  priority: Schema.Number,
  enabled: Schema.Boolean,
  credit: Schema.Number
}).annotations({ identifier: "AdminCountryRoute" })
export type CountryRouteView = typeof CountryRouteView.Type

/** The admin API's `CountryRoutesView` response shape (a Schema; snake_case, ISO strings). */
export const CountryRoutesView = Schema.Struct({
  country: Schema.String,
  routes: Schema.Array(CountryRouteView)
}).annotations({ identifier: "AdminCountryRoutes" })
export type CountryRoutesView = typeof CountryRoutesView.Type

// ---------------------------------------------------------------------------------------------
// View builders
// ---------------------------------------------------------------------------------------------

/** The `AccountView` of a store row. */
export const accountView = (row: AccountRow): AccountView => ({
  uid: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  phone_verified_at: iso(row.phone_verified_at),
  country_uid: row.country_id,
  active: row.active,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString()
})

/** The `ApiKeyView` of a store row. */
export const apiKeyView = (row: ApiKeyRow, now: Date): ApiKeyView => ({
  uid: row.id,
  account_uid: row.account_id,
  name: row.name,
  prefix: row.prefix,
  mode: row.mode,
  status: row.revoked_at !== null && row.revoked_at.getTime() <= now.getTime()
    ? "revoked"
    : row.expires_at !== null && row.expires_at.getTime() <= now.getTime()
    ? "expired"
    : "active",
  scopes: row.scopes,
  allowed_ips: row.allowed_ips,
  expires_at: iso(row.expires_at),
  revoked_at: iso(row.revoked_at),
  last_used_at: iso(row.last_used_at),
  created_at: row.created_at.toISOString()
})

/** The `MarketView` of a store row. */
export const marketView = (m: MarketRow): MarketView => ({
  uid: m.id,
  iso2: m.iso2,
  calling_code: m.calling_code,
  name: m.name,
  open: m.open
})

/** The `SenderIdAdminView` of a store row. */
export const senderIdAdminView = (row: SenderIdRecordRow): SenderIdAdminView => ({
  uid: row.id,
  account_uid: row.account_id,
  sender_id: row.name,
  display_name: row.display_name,
  country_uid: row.market_id,
  country: row.iso2,
  country_code: row.calling_code,
  country_name: row.market_name,
  status: row.status,
  is_usable: isSenderIdUsable(row.status),
  is_default: row.is_default,
  is_global: row.is_global,
  sample_message: row.sample_message,
  purpose: row.purpose,
  protection_requested: row.protection_requested,
  rejection_reason: row.rejection_reason,
  suspension_reason: row.suspension_reason,
  submitted_document_uids: row.document_ids,
  requested_at: row.requested_at.toISOString(),
  updated_at: row.updated_at.toISOString()
})

/** The `ProviderView` of a store row. */
export const providerView = (p: ProviderFullRow): ProviderView => ({
  uid: p.id,
  name: p.name,
  kind: p.kind,
  enabled: p.enabled,
  created_at: p.created_at.toISOString(),
  credits: p.credits.map((c) => ({ country: c.iso2, balance: c.balance, updated_at: c.updated_at.toISOString() })),
  routes: p.routes.map((r) => ({ country: r.iso2, priority: r.priority, enabled: r.enabled }))
})

/** The `CountryRouteView` of a store row. */
export const countryRouteView = (r: CountryRouteRow): CountryRouteView => ({
  route_uid: r.id,
  provider_uid: r.provider_id,
  provider_name: r.provider_name,
  provider_enabled: r.provider_enabled,
  priority: r.priority,
  enabled: r.enabled,
  credit: r.credit
})

/** The `LedgerView` of a store row. */
export const ledgerView = (r: LedgerRow): LedgerEntryView => ({
  id: r.id,
  wallet_uid: r.wallet_id,
  country: r.iso2,
  kind: r.kind,
  units: r.units,
  balance_after: r.balance_after,
  amount: r.amount,
  currency: r.currency,
  message_uid: r.message_id,
  campaign_uid: r.campaign_id,
  reference: r.reference,
  created_at: r.created_at.toISOString()
})

/** The `DocumentView` of a store row. */
export const documentView = (d: SenderIdDocumentRow): SenderIdDocumentView => ({
  uid: d.id,
  requirement_uid: d.requirement_id,
  kind: d.kind,
  filename: d.filename,
  content_type: d.content_type,
  size_bytes: d.size_bytes,
  created_at: d.created_at.toISOString()
})

/** The `RequirementView` of a store row. */
export const requirementView = (r: RequirementRow): RequirementView => ({
  uid: r.id,
  name: r.name,
  country_uid: r.market_id,
  is_required: r.is_required,
  accepted_formats: r.accepted_formats,
  max_size_kb: r.max_size_kb,
  active: r.active,
  created_at: r.created_at.toISOString()
})

/** The `OptOutView` of a store row. */
export const optOutView = (r: OptOutRow): OptOutView => ({
  account_uid: r.account_id,
  recipient: r.recipient,
  reason: r.reason,
  created_at: r.created_at.toISOString()
})

/** The `SpamRuleView` of a store row. */
export const spamRuleView = (r: SpamRuleFullRow): SpamRuleView => ({
  uid: r.id,
  account_uid: r.account_id,
  kind: r.kind,
  pattern: r.pattern,
  description: r.description,
  enabled: r.enabled,
  builtin: false,
  created_at: r.created_at.toISOString()
})

/** The description listed for the built-in spam entries. */
export const BUILTIN_DESCRIPTION = "built in (the default spam policy; docs/decisions.md, Spam)"
