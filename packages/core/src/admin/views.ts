/**
 * The admin API's responses (`…View` Schemas: snake_case, ISO strings). Free of `node:` imports:
 * the portal's contract (bundled for the browser) reuses them. The builders from store rows are
 * `viewsOf.ts`.
 */
import { Schema } from "effect"

// ---------------------------------------------------------------------------------------------
// Views (responses)
// ---------------------------------------------------------------------------------------------

const Ts = Schema.String.annotations({ description: "ISO 8601 timestamp" })
const NullTs = Schema.NullOr(Ts)

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
  /** A correction's reason (an `adjustment` row); null otherwise. */
  reason: Schema.NullOr(Schema.String),
  /** The id of the entry a correction corrects, when it names one. */
  corrects: Schema.NullOr(Schema.String),
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
