/**
 * `Admin`: the operator surface ("the portal" of the spec) as one service, called by the admin API
 * (`/admin/v1`) and by the `tuma` CLI. No HTTP here.
 *
 * - accounts: create, read, list, suspend, activate;
 * - API keys: issue (`tuma_live_…`/`tuma_test_…` + 40 random base62 characters; only the SHA-256
 *   is stored; the key is answered once), list, read, update (name, scopes, allowed IPs/CIDRs,
 *   expiry), revoke;
 * - wallets: credit purchases per country (a `purchase` ledger row; feeds `purchased_units`), list,
 *   ledger, enable/disable;
 * - SMS routes: verify (per country, with the verified phone), list, remove;
 * - markets: list, open, close;
 * - sender IDs: list, read (with document metadata and content), grant directly (approved), and the
 *   moves of decisions §18 through the domain state machine (`transitionSenderId`): approve,
 *   reject (reason required), suspend, reinstate. A move is a compare-and-set on the status, so two
 *   operators acting at once cannot both win;
 * - sender-ID requirement documents: create, list, delete (deactivate: documents already submitted
 *   keep their reference);
 * - opt-outs (recipients normalised to E.164): add, remove, list;
 * - spam rules (`blocked_phrase`, `blocked_domain`; per account or global): add, remove, list;
 * - providers: create (with initial credit per country), list, enable/disable, credit per country
 *   (set or add), routes per country in order.
 *
 * Webhook endpoints are `WebhookAdmin`'s. Inputs and views are Schemas (snake_case, ISO strings) so
 * the admin API can use them as payloads and responses as they are. Failures: `ValidationFailed`
 * (422, by field), `ResourceNotFound` (404), `ResourceConflict` / `SenderIdAlreadyRequested` /
 * `IllegalTransition` (409).
 */
import type { ValidationFailed } from "@tuma/domain"
import {
  builtinSpamEntries,
  DEFAULT_DOCUMENT_MAX_SIZE_KB,
  DOCUMENT_FORMATS,
  type IllegalTransition,
  isSenderIdUsable,
  normalizeRecipient,
  parseIsoDateTime,
  ResourceConflict,
  ResourceNotFound,
  SENDER_ID_MAX_LENGTH,
  SENDER_ID_MIN_LENGTH,
  SENDER_ID_PATTERN,
  SenderIdAlreadyRequested,
  type SenderIdEvent,
  StoredJson,
  StoredString,
  transitionSenderId,
  validationFailed
} from "@tuma/domain"
import { Clock, Context, Effect, Either, Layer, Option, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { isIP } from "node:net"
import { apiKeyPrefix } from "./Operator.js"
import type { CountryRouteRow, LedgerRow, OptOutRow, ProviderFullRow, SpamRuleFullRow } from "./ports/AdminStore.js"
import { AdminStore } from "./ports/AdminStore.js"
import { hashApiKey } from "./ports/ApiKeys.js"
import { Ids } from "./ports/Ids.js"
import type { AccountRow, ApiKeyRow } from "./ports/OperatorStore.js"
import { OperatorStore } from "./ports/OperatorStore.js"
import { ReadStore } from "./ports/ReadStore.js"
import type { RequirementRow, SenderIdDocumentRow, SenderIdRecordRow } from "./ports/SenderIdStore.js"
import { SenderIdStore } from "./ports/SenderIdStore.js"
import type { MarketRow } from "./ports/SendStore.js"
import { SendConfig } from "./Send.js"

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

/** Every scope of spec §5.4. */
export const API_KEY_SCOPES = ["sms:read", "sms:send", "sender-ids:read", "sender-ids:write", "profile:read"] as const

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
export const API_KEY_RANDOM_LENGTH = 40

/**
 * A new key: `tuma_<mode>_` + 40 base62 characters (≈ 238 bits), drawn without modulo bias. Only
 * letters and digits, so it matches the auth middleware's key pattern and survives any URL.
 */
export const generateApiKey = (mode: "live" | "test"): string => {
  let s = ""
  while (s.length < API_KEY_RANDOM_LENGTH) {
    for (const b of randomBytes(64)) {
      if (b < 248 && s.length < API_KEY_RANDOM_LENGTH) s += BASE62[b % 62]
    }
  }
  return `tuma_${mode}_${s}`
}

/** An IPv4/IPv6 address or CIDR (`10.0.0.0/8`, `2001:db8::/32`). */
export const isIpOrCidr = (value: string): boolean => {
  const parts = value.trim().split("/")
  if (parts.length > 2) return false
  const version = isIP(parts[0])
  if (version === 0) return false
  if (parts.length === 1) return true
  if (!/^\d{1,3}$/.test(parts[1])) return false
  return Number(parts[1]) <= (version === 4 ? 32 : 128)
}

// ---------------------------------------------------------------------------------------------
// Views (responses)
// ---------------------------------------------------------------------------------------------

const Ts = Schema.String.annotations({ description: "ISO 8601 timestamp" })
const NullTs = Schema.NullOr(Ts)
const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString())

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

export const IssuedApiKey = Schema.Struct({
  /** The full key: shown once, never stored. */
  key: Schema.String,
  api_key: ApiKeyView
}).annotations({ identifier: "AdminIssuedApiKey" })
export type IssuedApiKey = typeof IssuedApiKey.Type

export const WalletView = Schema.Struct({
  wallet_uid: Schema.String,
  country_uid: Schema.String,
  country: Schema.String,
  calling_code: Schema.String,
  balance: Schema.Number,
  enabled: Schema.Boolean
}).annotations({ identifier: "AdminWallet" })
export type WalletView = typeof WalletView.Type

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

export const PurchaseView = Schema.Struct({
  wallet: WalletView,
  entry: LedgerEntryView
}).annotations({ identifier: "AdminPurchase" })
export type PurchaseView = typeof PurchaseView.Type

export const RouteView = Schema.Struct({
  uid: Schema.String,
  country_uid: Schema.String,
  country: Schema.String,
  phone: Schema.String,
  verified_at: Ts
}).annotations({ identifier: "AdminRoute" })
export type RouteView = typeof RouteView.Type

export const MarketView = Schema.Struct({
  uid: Schema.String,
  iso2: Schema.String,
  calling_code: Schema.String,
  name: Schema.String,
  open: Schema.Boolean
}).annotations({ identifier: "AdminMarket" })
export type MarketView = typeof MarketView.Type

export const AccountDetail = Schema.Struct({
  account: AccountView,
  wallets: Schema.Array(WalletView),
  routes: Schema.Array(RouteView),
  api_keys: Schema.Array(ApiKeyView)
}).annotations({ identifier: "AdminAccountDetail" })
export type AccountDetail = typeof AccountDetail.Type

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

export const SenderIdDetail = Schema.Struct({
  sender_id: SenderIdAdminView,
  documents: Schema.Array(SenderIdDocumentView)
}).annotations({ identifier: "AdminSenderIdDetail" })
export type SenderIdDetail = typeof SenderIdDetail.Type

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

export const OptOutView = Schema.Struct({
  account_uid: Schema.String,
  recipient: Schema.String,
  reason: Schema.NullOr(Schema.String),
  created_at: Ts
}).annotations({ identifier: "AdminOptOut" })
export type OptOutView = typeof OptOutView.Type

export const SPAM_RULE_KINDS = ["blocked_phrase", "blocked_domain"] as const
/** Provider kinds the delivery workers can start (`ProvidersFromStore`); any other is refused (422). */
export const PROVIDER_KINDS = ["simulated", "smpp"] as const

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

export const CountryRoutesView = Schema.Struct({
  country: Schema.String,
  routes: Schema.Array(CountryRouteView)
}).annotations({ identifier: "AdminCountryRoutes" })
export type CountryRoutesView = typeof CountryRoutesView.Type

// ---------------------------------------------------------------------------------------------
// Inputs (payloads). Structure here; the service checks meaning and answers ValidationFailed.
// ---------------------------------------------------------------------------------------------

const opt = <A, I, R>(s: Schema.Schema<A, I, R>) => Schema.optionalWith(s, { exact: true })
const Country = StoredString.annotations({ description: "ISO 3166-1 alpha-2 country code, e.g. TZ" })

export const CreateAccountInput = Schema.Struct({
  name: StoredString,
  email: StoredString,
  phone: opt(Schema.NullOr(StoredString)),
  /** Default TZ. */
  country: opt(Country),
  active: opt(Schema.Boolean),
  /** Marks the phone verified now. */
  phone_verified: opt(Schema.Boolean),
  /** The portal owner to invite (default: `email`); the HTTP/CLI layer sends the invitation. */
  owner_email: opt(Schema.String)
}).annotations({ identifier: "AdminCreateAccount" })
export type CreateAccountInput = typeof CreateAccountInput.Type

export const ListAccountsInput = Schema.Struct({
  active: opt(Schema.Boolean),
  search: opt(StoredString),
  limit: opt(Schema.Number),
  offset: opt(Schema.Number)
})
export type ListAccountsInput = typeof ListAccountsInput.Type

export const IssueApiKeyInput = Schema.Struct({
  account_uid: StoredString,
  /** Default live. */
  mode: opt(Schema.Literal("live", "test")),
  name: opt(StoredString),
  /** Default: every scope. */
  scopes: opt(Schema.Array(StoredString)),
  /** IPs or CIDRs; empty or absent = any address. */
  allowed_ips: opt(Schema.Array(StoredString)),
  /** ISO 8601 date-time in the future; absent or null = never. */
  expires_at: opt(Schema.NullOr(StoredString))
}).annotations({ identifier: "AdminIssueApiKey" })
export type IssueApiKeyInput = typeof IssueApiKeyInput.Type

export const UpdateApiKeyInput = Schema.Struct({
  name: opt(StoredString),
  scopes: opt(Schema.Array(StoredString)),
  allowed_ips: opt(Schema.Array(StoredString)),
  /** null clears the expiry. */
  expires_at: opt(Schema.NullOr(StoredString))
}).annotations({ identifier: "AdminUpdateApiKey" })
export type UpdateApiKeyInput = typeof UpdateApiKeyInput.Type

export const PurchaseInput = Schema.Struct({
  account_uid: StoredString,
  country: Country,
  units: Schema.Number,
  /** Decimal string, what was paid. */
  amount: opt(Schema.NullOr(StoredString)),
  currency: opt(Schema.NullOr(StoredString)),
  reference: opt(Schema.NullOr(StoredString))
}).annotations({ identifier: "AdminPurchase" })
export type PurchaseInput = typeof PurchaseInput.Type

export const VerifyRouteInput = Schema.Struct({
  account_uid: StoredString,
  country: Country,
  /** The phone number verified for the country (E.164). */
  phone: StoredString
}).annotations({ identifier: "AdminVerifyRoute" })
export type VerifyRouteInput = typeof VerifyRouteInput.Type

export const GrantSenderIdInput = Schema.Struct({
  account_uid: StoredString,
  sender_id: StoredString,
  country: Country,
  is_default: opt(Schema.Boolean),
  /** Usable for every country of the account. */
  is_global: opt(Schema.Boolean),
  sample_message: opt(StoredString)
}).annotations({ identifier: "AdminGrantSenderId" })
export type GrantSenderIdInput = typeof GrantSenderIdInput.Type

export const ListSenderIdsInput = Schema.Struct({
  account_uid: opt(StoredString),
  status: opt(Schema.Literal("pending", "approved", "rejected", "suspended")),
  limit: opt(Schema.Number),
  offset: opt(Schema.Number)
})
export type ListSenderIdsInput = typeof ListSenderIdsInput.Type

export const CreateRequirementInput = Schema.Struct({
  name: StoredString,
  is_required: opt(Schema.Boolean),
  /** Subset of pdf, jpg, jpeg, png (default all). */
  accepted_formats: opt(Schema.Array(StoredString)),
  /** Default 5120. */
  max_size_kb: opt(Schema.Number),
  /** ISO2; absent or null = every country. */
  country: opt(Schema.NullOr(Country))
}).annotations({ identifier: "AdminCreateRequirement" })
export type CreateRequirementInput = typeof CreateRequirementInput.Type

export const OptOutInput = Schema.Struct({
  account_uid: StoredString,
  recipient: StoredString,
  reason: opt(Schema.NullOr(StoredString))
}).annotations({ identifier: "AdminOptOut" })
export type OptOutInput = typeof OptOutInput.Type

export const SpamRuleInput = Schema.Struct({
  /** null or absent: every account. */
  account_uid: opt(Schema.NullOr(StoredString)),
  kind: StoredString,
  pattern: StoredString,
  description: opt(StoredString)
}).annotations({ identifier: "AdminSpamRuleInput" })
export type SpamRuleInput = typeof SpamRuleInput.Type

export const CreateProviderInput = Schema.Struct({
  name: StoredString,
  /** e.g. `simulated`, `smpp` (default simulated). */
  kind: opt(StoredString),
  config: opt(StoredJson),
  enabled: opt(Schema.Boolean),
  /** Initial credit per country; each also becomes a route (after existing ones). */
  credits: opt(Schema.Array(Schema.Struct({ country: Country, credit: Schema.Number })))
}).annotations({ identifier: "AdminCreateProvider" })
export type CreateProviderInput = typeof CreateProviderInput.Type

export const ProviderCreditInput = Schema.Struct({
  country: Country,
  /** `set`: the new credit; `add`: units to add (negative removes, never below 0). */
  units: Schema.Number,
  operation: opt(Schema.Literal("set", "add"))
}).annotations({ identifier: "AdminProviderCredit" })
export type ProviderCreditInput = typeof ProviderCreditInput.Type

export const CountryRoutesInput = Schema.Struct({
  /** Provider uids in the order they are tried. */
  provider_uids: Schema.Array(StoredString)
}).annotations({ identifier: "AdminCountryRoutesInput" })
export type CountryRoutesInput = typeof CountryRoutesInput.Type

// ---------------------------------------------------------------------------------------------
// View builders
// ---------------------------------------------------------------------------------------------

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

const marketView = (m: MarketRow): MarketView => ({
  uid: m.id,
  iso2: m.iso2,
  calling_code: m.calling_code,
  name: m.name,
  open: m.open
})

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

const providerView = (p: ProviderFullRow): ProviderView => ({
  uid: p.id,
  name: p.name,
  kind: p.kind,
  enabled: p.enabled,
  created_at: p.created_at.toISOString(),
  credits: p.credits.map((c) => ({ country: c.iso2, balance: c.balance, updated_at: c.updated_at.toISOString() })),
  routes: p.routes.map((r) => ({ country: r.iso2, priority: r.priority, enabled: r.enabled }))
})

const countryRouteView = (r: CountryRouteRow): CountryRouteView => ({
  route_uid: r.id,
  provider_uid: r.provider_id,
  provider_name: r.provider_name,
  provider_enabled: r.provider_enabled,
  priority: r.priority,
  enabled: r.enabled,
  credit: r.credit
})

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

type NotFound = ResourceNotFound
type Invalid = ValidationFailed

/**
 * The operator portal's use cases (accounts, API keys, wallets and ledger, routes, markets, sender-ID review,
 * requirement documents, opt-outs, spam rules, providers), as served by the admin API.
 */
export interface AdminService {
  // accounts
  readonly createAccount: (input: CreateAccountInput) => Effect.Effect<AccountView, Invalid | ResourceConflict>
  readonly getAccount: (accountId: string) => Effect.Effect<AccountDetail, NotFound>
  readonly listAccounts: (input?: ListAccountsInput) => Effect.Effect<ReadonlyArray<AccountView>>
  readonly suspendAccount: (accountId: string) => Effect.Effect<AccountView, NotFound>
  readonly activateAccount: (accountId: string) => Effect.Effect<AccountView, NotFound>
  // API keys
  readonly issueApiKey: (input: IssueApiKeyInput) => Effect.Effect<IssuedApiKey, Invalid | NotFound>
  readonly listApiKeys: (accountId: string) => Effect.Effect<ReadonlyArray<ApiKeyView>, NotFound>
  readonly getApiKey: (keyId: string) => Effect.Effect<ApiKeyView, NotFound>
  readonly updateApiKey: (keyId: string, input: UpdateApiKeyInput) => Effect.Effect<ApiKeyView, Invalid | NotFound>
  readonly revokeApiKey: (keyId: string) => Effect.Effect<ApiKeyView, NotFound>
  // wallets
  readonly purchaseCredits: (input: PurchaseInput) => Effect.Effect<PurchaseView, Invalid | NotFound>
  readonly listWallets: (accountId: string) => Effect.Effect<ReadonlyArray<WalletView>, NotFound>
  readonly ledger: (
    accountId: string,
    options?: { readonly country?: string | undefined; readonly limit?: number | undefined }
  ) => Effect.Effect<ReadonlyArray<LedgerEntryView>, Invalid | NotFound>
  readonly setWalletEnabled: (
    accountId: string,
    country: string,
    enabled: boolean
  ) => Effect.Effect<WalletView, Invalid | NotFound>
  // routes
  readonly verifyRoute: (input: VerifyRouteInput) => Effect.Effect<RouteView, Invalid | NotFound>
  readonly listRoutes: (accountId: string) => Effect.Effect<ReadonlyArray<RouteView>, NotFound>
  readonly removeRoute: (accountId: string, country: string) => Effect.Effect<void, Invalid | NotFound>
  // markets
  readonly listMarkets: Effect.Effect<ReadonlyArray<MarketView>>
  readonly setMarketOpen: (country: string, open: boolean) => Effect.Effect<MarketView, NotFound>
  // sender IDs
  readonly listSenderIds: (input?: ListSenderIdsInput) => Effect.Effect<ReadonlyArray<SenderIdAdminView>>
  readonly getSenderId: (senderIdId: string) => Effect.Effect<SenderIdDetail, NotFound>
  readonly getSenderIdDocument: (documentId: string) => Effect.Effect<
    { readonly document: SenderIdDocumentView; readonly content: Uint8Array },
    NotFound
  >
  readonly grantSenderId: (
    input: GrantSenderIdInput
  ) => Effect.Effect<SenderIdAdminView, Invalid | NotFound | SenderIdAlreadyRequested>
  readonly approveSenderId: (
    senderIdId: string
  ) => Effect.Effect<SenderIdAdminView, NotFound | IllegalTransition | Invalid>
  readonly rejectSenderId: (
    senderIdId: string,
    reason: string
  ) => Effect.Effect<SenderIdAdminView, NotFound | IllegalTransition | Invalid>
  readonly suspendSenderId: (
    senderIdId: string,
    reason?: string | null
  ) => Effect.Effect<SenderIdAdminView, NotFound | IllegalTransition | Invalid>
  readonly reinstateSenderId: (
    senderIdId: string
  ) => Effect.Effect<SenderIdAdminView, NotFound | IllegalTransition | Invalid>
  // requirement documents
  readonly createRequirement: (input: CreateRequirementInput) => Effect.Effect<RequirementView, Invalid>
  readonly listRequirements: (
    options?: { readonly include_inactive?: boolean | undefined }
  ) => Effect.Effect<ReadonlyArray<RequirementView>>
  readonly deleteRequirement: (requirementId: string) => Effect.Effect<void, NotFound>
  // opt-outs
  readonly addOptOut: (input: OptOutInput) => Effect.Effect<OptOutView, Invalid | NotFound>
  readonly removeOptOut: (accountId: string, recipient: string) => Effect.Effect<void, Invalid | NotFound>
  readonly listOptOuts: (accountId: string) => Effect.Effect<ReadonlyArray<OptOutView>, NotFound>
  // spam rules
  readonly addSpamRule: (input: SpamRuleInput) => Effect.Effect<SpamRuleView, Invalid | NotFound>
  readonly removeSpamRule: (ruleId: string) => Effect.Effect<void, Invalid | NotFound>
  /** Built-in entries first (global), then the stored rules; `account_uid` lists one account's own. */
  readonly listSpamRules: (
    filter?: { readonly account_uid?: string | null | undefined }
  ) => Effect.Effect<ReadonlyArray<SpamRuleView>>
  /** Switches a stored rule or a built-in entry on or off; every process applies it on its next send. */
  readonly setSpamRuleEnabled: (ruleId: string, enabled: boolean) => Effect.Effect<SpamRuleView, NotFound>
  // providers
  readonly createProvider: (input: CreateProviderInput) => Effect.Effect<ProviderView, Invalid | ResourceConflict>
  readonly listProviders: Effect.Effect<ReadonlyArray<ProviderView>>
  readonly getProvider: (providerId: string) => Effect.Effect<ProviderView, NotFound>
  readonly setProviderEnabled: (providerId: string, enabled: boolean) => Effect.Effect<ProviderView, NotFound>
  readonly creditProvider: (
    providerId: string,
    input: ProviderCreditInput
  ) => Effect.Effect<ProviderView, Invalid | NotFound>
  readonly setCountryRoutes: (
    country: string,
    input: CountryRoutesInput
  ) => Effect.Effect<CountryRoutesView, Invalid | NotFound>
  readonly countryRoutes: (country: string) => Effect.Effect<CountryRoutesView, Invalid>
}

/**
 * The `AdminService` as an Effect service; `Admin.layer` builds it over the admin, operator, sender-ID and
 * read stores.
 */
export class Admin extends Context.Tag("@tuma/core/Admin")<Admin, AdminService>() {
  static readonly layer: Layer.Layer<Admin, never, AdminStore | OperatorStore | SenderIdStore | ReadStore | Ids> = Layer
    .effect(Admin, Effect.suspend(() => makeAdmin))
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const invalid = (field: string, message: string) => validationFailed({ [field]: [message] })
const notFound = (resource: string, id: string) =>
  new ResourceNotFound({ message: `The ${resource.replace(/_/g, " ")} ${id} was not found.`, resource, id })

const nonNegativeInt = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0
const clampLimit = (n: number | undefined, fallback: number, max: number) =>
  n === undefined || !Number.isFinite(n) ? fallback : Math.min(max, Math.max(1, Math.floor(n)))

export const makeAdmin = Effect.gen(function*() {
  const admin = yield* AdminStore
  const op = yield* OperatorStore
  const senderIds = yield* SenderIdStore
  const reads = yield* ReadStore
  const ids = yield* Ids
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  /** The built-in spam phrases (the send path's base policy) with their stored switches. */
  const builtinRules: Effect.Effect<ReadonlyArray<SpamRuleView & { readonly pattern: string }>> = Effect.gen(
    function*() {
      const { spamPolicy } = yield* SendConfig
      const switches = yield* admin.listSpamBuiltinSwitches
      const off = new Set(switches.filter((w) => !w.enabled).map((w) => `${w.kind}\u0000${w.pattern}`))
      return builtinSpamEntries(spamPolicy).map((e) => ({
        uid: e.uid,
        account_uid: null,
        kind: e.kind,
        pattern: e.pattern,
        description: BUILTIN_DESCRIPTION,
        enabled: !off.has(`${e.kind}\u0000${e.pattern}`),
        builtin: true,
        created_at: null
      }))
    }
  )

  // --- look-ups --------------------------------------------------------------------------

  const account = (id: string): Effect.Effect<AccountRow, ResourceNotFound> =>
    (UUID.test(id) ? op.findAccount(id) : Effect.succeed(Option.none())).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.fail(notFound("account", id)),
        onSome: Effect.succeed
      }))
    )

  /** A market by ISO2; unknown → 422 on `field`. */
  const market = (iso2: string, field = "country"): Effect.Effect<MarketRow, ValidationFailed> =>
    (typeof iso2 === "string" && /^[A-Za-z]{2}$/.test(iso2)
      ? op.findMarket(iso2.toUpperCase())
      : Effect.succeed(Option.none())).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(invalid(field, `The selected ${field} is invalid: unknown country ${iso2}.`)),
          onSome: Effect.succeed
        }))
      )

  const apiKeyRow = (id: string): Effect.Effect<ApiKeyRow, ResourceNotFound> =>
    (UUID.test(id) ? admin.findApiKey(id) : Effect.succeed(Option.none())).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound("api_key", id)), onSome: Effect.succeed }))
    )

  const senderIdRow = (id: string): Effect.Effect<SenderIdRecordRow, ResourceNotFound> =>
    (UUID.test(id) ? senderIds.find(id) : Effect.succeed(Option.none())).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound("sender_id", id)), onSome: Effect.succeed }))
    )

  const providerRow = (id: string): Effect.Effect<ProviderFullRow, ResourceNotFound> =>
    (UUID.test(id) ? admin.findProvider(id) : Effect.succeed(Option.none())).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound("provider", id)), onSome: Effect.succeed }))
    )

  const walletsOf = (accountId: string) =>
    Effect.map(reads.wallets(accountId), (rows) =>
      rows.map((w): WalletView => ({
        wallet_uid: w.id,
        country_uid: w.market_id,
        country: w.iso2,
        calling_code: w.calling_code,
        balance: w.balance,
        enabled: w.enabled
      })))

  const routesOf = (accountId: string) =>
    Effect.map(reads.verifiedRoutes(accountId), (rows) =>
      rows.map((r): RouteView => ({
        uid: r.id,
        country_uid: r.market_id,
        country: r.iso2,
        phone: r.phone,
        verified_at: r.verified_at.toISOString()
      })))

  // --- API key input checks ---------------------------------------------------------------

  const checkKeyFields = (
    input: {
      readonly scopes?: ReadonlyArray<string> | undefined
      readonly allowed_ips?: ReadonlyArray<string> | undefined
      readonly expires_at?: string | null | undefined
    },
    at: Date
  ): Either.Either<{ expires: Date | null | undefined }, ValidationFailed> => {
    const errors: Record<string, Array<string>> = {}
    ;(input.scopes ?? []).forEach((s, i) => {
      if (!(API_KEY_SCOPES as ReadonlyArray<string>).includes(s)) {
        errors[`scopes.${i}`] = [`The selected scopes.${i} is invalid: scopes are ${API_KEY_SCOPES.join(", ")}.`]
      }
    })
    ;(input.allowed_ips ?? []).forEach((ip, i) => {
      if (!isIpOrCidr(ip)) errors[`allowed_ips.${i}`] = [`The allowed_ips.${i} field must be an IP address or CIDR.`]
    })
    let expires: Date | null | undefined = input.expires_at === null ? null : undefined
    if (typeof input.expires_at === "string") {
      const parsed = parseIsoDateTime(input.expires_at)
      if (parsed === undefined) errors.expires_at = ["The expires_at field must be a valid ISO 8601 date-time."]
      else if (parsed.getTime() <= at.getTime()) {
        errors.expires_at = ["The expires_at field must be a date-time in the future."]
      } else expires = parsed
    }
    return Object.keys(errors).length > 0 ? Either.left(validationFailed(errors)) : Either.right({ expires })
  }

  // --- sender-ID moves ----------------------------------------------------------------------

  const moveSenderId = (id: string, event: SenderIdEvent) =>
    Effect.gen(function*() {
      for (let attempt = 0; attempt < 5; attempt++) {
        const row = yield* senderIdRow(id)
        const next = yield* transitionSenderId(row.status, event)
        const at = yield* now
        const changed = yield* senderIds.changeStatus({
          id,
          from: row.status,
          to: next,
          rejection_reason: event.type === "reject" ? event.reason.trim() : null,
          suspension_reason: event.type === "suspend" ? (event.reason?.trim() || null) : null,
          at: at.getTime() < row.updated_at.getTime() ? row.updated_at : at
        })
        if (Option.isSome(changed)) return senderIdAdminView(changed.value)
        // the status moved under us: read again and re-decide
      }
      return yield* Effect.dieMessage(`Sender ID ${id}: its status kept changing during the update`)
    })

  const service: AdminService = {
    // --- accounts ---------------------------------------------------------------------------
    createAccount: (input) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        const name = typeof input.name === "string" ? input.name.trim() : ""
        const email = typeof input.email === "string" ? input.email.trim() : ""
        if (name === "") errors.name = ["The name field is required."]
        else if (name.length > 200) errors.name = ["The name field must not be greater than 200 characters."]
        if (!EMAIL.test(email)) errors.email = ["The email field must be a valid email address."]
        let phone: string | null = null
        if (input.phone != null && input.phone.trim() !== "") {
          const r = normalizeRecipient(input.phone)
          if (r._tag === "Left") errors.phone = ["The phone field must be a valid phone number in E.164 format."]
          else phone = r.right.e164
        }
        if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
        const country = yield* market(input.country ?? "TZ")
        const at = yield* now
        const row: AccountRow = {
          id: yield* ids.uuidV4,
          name,
          email,
          phone,
          phone_verified_at: input.phone_verified === true && phone !== null ? at : null,
          country_id: country.id,
          active: input.active ?? true,
          created_at: at,
          updated_at: at
        }
        const inserted = yield* admin.insertAccount(row)
        if (!inserted) {
          return yield* new ResourceConflict({
            message: `An account with the e-mail ${email} exists.`,
            resource: "account"
          })
        }
        return accountView(row)
      }),

    getAccount: (accountId) =>
      Effect.gen(function*() {
        const row = yield* account(accountId)
        const at = yield* now
        const [wallets, routes, keys] = yield* Effect.all([
          walletsOf(accountId),
          routesOf(accountId),
          admin.listApiKeys(accountId)
        ], { concurrency: 3 })
        return { account: accountView(row), wallets, routes, api_keys: keys.map((k) => apiKeyView(k, at)) }
      }),

    listAccounts: (input = {}) =>
      Effect.map(
        admin.listAccounts({
          active: input.active,
          search: input.search?.trim() || undefined,
          limit: clampLimit(input.limit, 50, 500),
          offset: Math.max(0, Math.floor(input.offset ?? 0))
        }),
        (rows) => rows.map(accountView)
      ),

    suspendAccount: (accountId) => setActive(accountId, false),
    activateAccount: (accountId) => setActive(accountId, true),

    // --- API keys -----------------------------------------------------------------------------
    issueApiKey: (input) =>
      Effect.gen(function*() {
        const at = yield* now
        const { expires } = yield* checkKeyFields(input, at)
        yield* account(input.account_uid)
        const mode = input.mode ?? "live"
        const key = generateApiKey(mode)
        const row: ApiKeyRow = {
          id: yield* ids.uuidV4,
          account_id: input.account_uid,
          name: input.name?.trim() ?? "",
          key_hash: hashApiKey(key),
          prefix: apiKeyPrefix(key),
          mode,
          scopes: [...new Set(input.scopes ?? API_KEY_SCOPES)],
          allowed_ips: (input.allowed_ips ?? []).map((ip) => ip.trim()),
          expires_at: expires ?? null,
          revoked_at: null,
          last_used_at: null,
          created_at: at
        }
        yield* op.insertApiKey(row)
        return { key, api_key: apiKeyView(row, at) }
      }),

    listApiKeys: (accountId) =>
      Effect.gen(function*() {
        yield* account(accountId)
        const at = yield* now
        return (yield* admin.listApiKeys(accountId)).map((k) => apiKeyView(k, at))
      }),

    getApiKey: (keyId) => Effect.zipWith(apiKeyRow(keyId), now, apiKeyView),

    updateApiKey: (keyId, input) =>
      Effect.gen(function*() {
        const at = yield* now
        const { expires } = yield* checkKeyFields(input, at)
        yield* apiKeyRow(keyId)
        const updated = yield* admin.updateApiKey(keyId, {
          name: input.name?.trim(),
          scopes: input.scopes === undefined ? undefined : [...new Set(input.scopes)],
          allowed_ips: input.allowed_ips?.map((ip) => ip.trim()),
          expires_at: expires
        })
        return yield* Option.match(updated, {
          onNone: () => Effect.fail(notFound("api_key", keyId)),
          onSome: (row) => Effect.succeed(apiKeyView(row, at))
        })
      }),

    revokeApiKey: (keyId) =>
      Effect.gen(function*() {
        const at = yield* now
        const revoked = UUID.test(keyId) ? yield* admin.revokeApiKey(keyId, at) : Option.none()
        return yield* Option.match(revoked, {
          onNone: () => Effect.fail(notFound("api_key", keyId)),
          onSome: (row) => Effect.succeed(apiKeyView(row, at))
        })
      }),

    // --- wallets ------------------------------------------------------------------------------
    purchaseCredits: (input) =>
      Effect.gen(function*() {
        if (!nonNegativeInt(input.units) || input.units === 0) {
          return yield* invalid("units", "The units field must be a positive integer.")
        }
        if (input.amount != null && !/^\d+(\.\d{1,2})?$/.test(input.amount)) {
          return yield* invalid("amount", "The amount field must be a decimal number with at most 2 decimals.")
        }
        const m = yield* market(input.country)
        yield* account(input.account_uid)
        const at = yield* now
        const entry = yield* admin.purchase({
          account_id: input.account_uid,
          market_id: m.id,
          new_wallet_id: yield* ids.uuidV4,
          units: input.units,
          amount: input.amount ?? null,
          currency: input.currency ?? null,
          reference: input.reference ?? null,
          at
        })
        const wallets = yield* walletsOf(input.account_uid)
        const wallet = wallets.find((w) => w.wallet_uid === entry.wallet_id)!
        return { wallet, entry: ledgerView(entry) }
      }),

    listWallets: (accountId) => Effect.zipRight(account(accountId), walletsOf(accountId)),

    ledger: (accountId, options = {}) =>
      Effect.gen(function*() {
        yield* account(accountId)
        const m = options.country === undefined ? undefined : yield* market(options.country)
        const rows = yield* admin.ledger(accountId, { marketId: m?.id, limit: clampLimit(options.limit, 100, 1000) })
        return rows.map(ledgerView)
      }),

    setWalletEnabled: (accountId, country, enabled) =>
      Effect.gen(function*() {
        yield* account(accountId)
        const m = yield* market(country)
        const found = yield* admin.setWalletEnabled(accountId, m.id, enabled, yield* now)
        if (!found) return yield* notFound("wallet", `${accountId}/${m.iso2}`)
        return (yield* walletsOf(accountId)).find((w) => w.country_uid === m.id)!
      }),

    // --- routes -------------------------------------------------------------------------------
    verifyRoute: (input) =>
      Effect.gen(function*() {
        const phone = normalizeRecipient(typeof input.phone === "string" ? input.phone : "")
        if (phone._tag === "Left") {
          return yield* invalid("phone", "The phone field must be a valid phone number in E.164 format.")
        }
        const m = yield* market(input.country)
        yield* account(input.account_uid)
        yield* op.upsertVerifiedRoute({
          id: yield* ids.uuidV4,
          account_id: input.account_uid,
          market_id: m.id,
          phone: phone.right.e164,
          verified_at: yield* now
        })
        return (yield* routesOf(input.account_uid)).find((r) => r.country_uid === m.id)!
      }),

    listRoutes: (accountId) => Effect.zipRight(account(accountId), routesOf(accountId)),

    removeRoute: (accountId, country) =>
      Effect.gen(function*() {
        yield* account(accountId)
        const m = yield* market(country)
        if (!(yield* admin.deleteVerifiedRoute(accountId, m.id))) {
          return yield* notFound("route", `${accountId}/${m.iso2}`)
        }
      }),

    // --- markets ------------------------------------------------------------------------------
    listMarkets: Effect.map(admin.listMarkets, (rows) => rows.map(marketView)),

    setMarketOpen: (country, open) =>
      Effect.gen(function*() {
        const iso2 = country.toUpperCase()
        if (!(yield* op.setMarketOpen(iso2, open))) return yield* notFound("market", country)
        const m = yield* op.findMarket(iso2)
        return marketView(Option.getOrThrow(m))
      }),

    // --- sender IDs ---------------------------------------------------------------------------
    listSenderIds: (input = {}) =>
      Effect.map(
        senderIds.list({
          accountId: input.account_uid !== undefined && UUID.test(input.account_uid) ? input.account_uid : undefined,
          status: input.status,
          limit: clampLimit(input.limit, 100, 1000),
          offset: Math.max(0, Math.floor(input.offset ?? 0))
        }),
        (rows) => input.account_uid !== undefined && !UUID.test(input.account_uid) ? [] : rows.map(senderIdAdminView)
      ),

    getSenderId: (senderIdId) =>
      Effect.gen(function*() {
        const row = yield* senderIdRow(senderIdId)
        const docs = yield* senderIds.documents(senderIdId)
        return { sender_id: senderIdAdminView(row), documents: docs.map(documentView) }
      }),

    getSenderIdDocument: (documentId) =>
      Effect.gen(function*() {
        const found = UUID.test(documentId) ? yield* senderIds.documentContent(documentId) : Option.none()
        if (Option.isNone(found)) return yield* notFound("document", documentId)
        return { document: documentView(found.value), content: found.value.content }
      }),

    grantSenderId: (input) =>
      Effect.gen(function*() {
        // operators may grant reserved names (a bank its BANK name); length and pattern still apply
        const display = typeof input.sender_id === "string" ? input.sender_id.trim().replace(/\s+/g, " ") : ""
        if (
          display.length < SENDER_ID_MIN_LENGTH || display.length > SENDER_ID_MAX_LENGTH ||
          !SENDER_ID_PATTERN.test(display)
        ) {
          return yield* invalid(
            "sender_id",
            `The sender_id field must be ${SENDER_ID_MIN_LENGTH} to ${SENDER_ID_MAX_LENGTH} letters, digits and single spaces.`
          )
        }
        const name = display.toUpperCase()
        const m = yield* market(input.country)
        yield* account(input.account_uid)
        const at = yield* now
        const inserted = yield* senderIds.insert({
          id: yield* ids.uuidV7,
          account_id: input.account_uid,
          market_id: m.id,
          name,
          display_name: display,
          status: "approved",
          is_default: input.is_default ?? false,
          is_global: input.is_global ?? false,
          sample_message: input.sample_message ?? "",
          purpose: null,
          protection_requested: false,
          at,
          documents: []
        })
        if (Option.isNone(inserted)) {
          return yield* new SenderIdAlreadyRequested({
            message: `The account already has the sender ID ${name} for ${m.name}; move that record instead.`,
            sender_id: name
          })
        }
        return senderIdAdminView(inserted.value)
      }),

    approveSenderId: (id) => moveSenderId(id, { type: "approve" }),
    rejectSenderId: (id, reason) => moveSenderId(id, { type: "reject", reason }),
    suspendSenderId: (id, reason) => moveSenderId(id, { type: "suspend", reason: reason ?? undefined }),
    reinstateSenderId: (id) => moveSenderId(id, { type: "reinstate" }),

    // --- requirement documents ----------------------------------------------------------------
    createRequirement: (input) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        const name = typeof input.name === "string" ? input.name.trim() : ""
        if (name === "") errors.name = ["The name field is required."]
        const formats = [...new Set((input.accepted_formats ?? DOCUMENT_FORMATS).map((f) => f.toLowerCase()))]
        if (formats.length === 0) errors.accepted_formats = ["The accepted_formats field must not be empty."]
        formats.forEach((f, i) => {
          if (!(DOCUMENT_FORMATS as ReadonlyArray<string>).includes(f)) {
            errors[`accepted_formats.${i}`] = [`The selected accepted_formats.${i} is invalid: pdf, jpg, jpeg or png.`]
          }
        })
        const maxKb = input.max_size_kb ?? DEFAULT_DOCUMENT_MAX_SIZE_KB
        if (!nonNegativeInt(maxKb) || maxKb === 0) {
          errors.max_size_kb = ["The max_size_kb field must be a positive integer."]
        }
        if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
        const m = input.country == null ? null : yield* market(input.country)
        const row = {
          id: yield* ids.uuidV4,
          market_id: m?.id ?? null,
          name,
          is_required: input.is_required ?? false,
          accepted_formats: formats,
          max_size_kb: maxKb,
          active: true,
          created_at: yield* now
        }
        yield* senderIds.insertRequirement(row)
        return requirementView(row)
      }),

    listRequirements: (options = {}) =>
      Effect.map(
        senderIds.requirements({ includeInactive: options.include_inactive === true }),
        (rows) => rows.map(requirementView)
      ),

    deleteRequirement: (id) =>
      Effect.flatMap(
        UUID.test(id) ? senderIds.deactivateRequirement(id) : Effect.succeed(false),
        (found) => (found ? Effect.void : Effect.fail(notFound("requirement", id)))
      ),

    // --- opt-outs -----------------------------------------------------------------------------
    addOptOut: (input) =>
      Effect.gen(function*() {
        const recipient = yield* e164(input.recipient)
        yield* account(input.account_uid)
        yield* op.insertOptOut(input.account_uid, recipient, input.reason ?? null, yield* now)
        const row = yield* admin.findOptOut(input.account_uid, recipient)
        return optOutView(Option.getOrThrow(row))
      }),

    removeOptOut: (accountId, recipient) =>
      Effect.gen(function*() {
        const e = yield* e164(recipient)
        yield* account(accountId)
        if (!(yield* admin.deleteOptOut(accountId, e))) return yield* notFound("opt_out", e)
      }),

    listOptOuts: (accountId) =>
      Effect.zipRight(account(accountId), Effect.map(admin.listOptOuts(accountId), (rows) => rows.map(optOutView))),

    // --- spam rules ---------------------------------------------------------------------------
    addSpamRule: (input) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        if (!(SPAM_RULE_KINDS as ReadonlyArray<string>).includes(input.kind)) {
          errors.kind = [`The selected kind is invalid: ${SPAM_RULE_KINDS.join(" or ")}.`]
        }
        const pattern = typeof input.pattern === "string" ? input.pattern.trim() : ""
        if (pattern === "") errors.pattern = ["The pattern field is required."]
        if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
        if (input.account_uid != null) yield* account(input.account_uid)
        const id = yield* ids.uuidV4
        yield* op.insertSpamRule({
          id,
          account_id: input.account_uid ?? null,
          kind: input.kind,
          pattern,
          description: input.description ?? "",
          created_at: yield* now
        })
        const row = yield* admin.findSpamRule(id)
        return spamRuleView(Option.getOrThrow(row))
      }),

    removeSpamRule: (id) =>
      Effect.gen(function*() {
        if ((yield* builtinRules).some((r) => r.uid === id)) {
          return yield* invalid(
            "rule_uid",
            `The spam rule ${id} is built in: it cannot be removed; switch it off with POST /admin/v1/spam-rules/${id}/disable.`
          )
        }
        const found = UUID.test(id) ? yield* admin.deleteSpamRule(id) : false
        if (!found) return yield* notFound("spam_rule", id)
      }),

    listSpamRules: (filter = {}) =>
      Effect.gen(function*() {
        const builtin = filter.account_uid == null ? yield* builtinRules : []
        const rows = filter.account_uid != null && !UUID.test(filter.account_uid)
          ? []
          : yield* admin.listSpamRules({ accountId: filter.account_uid })
        return [...builtin, ...rows.map(spamRuleView)]
      }),

    setSpamRuleEnabled: (id, enabled) =>
      Effect.gen(function*() {
        const builtin = (yield* builtinRules).find((r) => r.uid === id)
        if (builtin !== undefined) {
          yield* admin.setSpamBuiltinSwitch({
            kind: builtin.kind,
            pattern: builtin.pattern,
            enabled,
            updated_at: yield* now
          })
          return { ...builtin, enabled }
        }
        const found = UUID.test(id) ? yield* admin.setSpamRuleEnabled(id, enabled) : false
        if (!found) return yield* notFound("spam_rule", id)
        return spamRuleView(Option.getOrThrow(yield* admin.findSpamRule(id)))
      }),

    // --- providers ----------------------------------------------------------------------------
    createProvider: (input) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        const name = typeof input.name === "string" ? input.name.trim() : ""
        if (name === "") errors.name = ["The name field is required."]
        if (input.kind !== undefined && !(PROVIDER_KINDS as ReadonlyArray<string>).includes(input.kind)) {
          errors.kind = [`The selected kind is invalid: ${PROVIDER_KINDS.join(" or ")}.`]
        }
        const credits: Array<{ market: MarketRow; credit: number }> = []
        for (const [i, c] of (input.credits ?? []).entries()) {
          if (!nonNegativeInt(c.credit)) errors[`credits.${i}.credit`] = ["The credit must be a non-negative integer."]
          const m = yield* Effect.either(market(c.country, `credits.${i}.country`))
          if (Either.isLeft(m)) Object.assign(errors, m.left.errors)
          else credits.push({ market: m.right, credit: c.credit })
        }
        if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
        const id = yield* ids.uuidV4
        const at = yield* now
        const inserted = yield* admin.insertProvider({
          id,
          name,
          kind: input.kind ?? "simulated",
          config: input.config ?? {},
          enabled: input.enabled ?? true,
          created_at: at
        })
        if (!inserted) {
          return yield* new ResourceConflict({ message: `A provider named ${name} exists.`, resource: "provider" })
        }
        for (const c of credits) {
          yield* op.setProviderCredit(id, c.market.id, c.credit, at)
          const existing = yield* admin.countryRoutes(c.market.id)
          const priority = existing.reduce((max, r) => Math.max(max, r.priority + 1), 0)
          yield* op.upsertProviderRoute({
            id: yield* ids.uuidV4,
            provider_id: id,
            market_id: c.market.id,
            priority,
            enabled: true,
            created_at: at
          })
        }
        return providerView(yield* providerRow(id).pipe(Effect.orDie))
      }),

    listProviders: Effect.map(admin.listProviders, (rows) => rows.map(providerView)),

    getProvider: (id) => Effect.map(providerRow(id), providerView),

    setProviderEnabled: (id, enabled) =>
      Effect.gen(function*() {
        yield* providerRow(id)
        yield* admin.setProviderEnabled(id, enabled)
        return providerView(yield* providerRow(id))
      }),

    creditProvider: (id, input) =>
      Effect.gen(function*() {
        const operation = input.operation ?? "add"
        if (
          typeof input.units !== "number" || !Number.isSafeInteger(input.units) ||
          (operation === "set" && input.units < 0)
        ) {
          return yield* invalid(
            "units",
            operation === "set"
              ? "The units field must be a non-negative integer."
              : "The units field must be an integer."
          )
        }
        const m = yield* market(input.country)
        yield* providerRow(id)
        const at = yield* now
        if (operation === "set") yield* op.setProviderCredit(id, m.id, input.units, at)
        else yield* admin.addProviderCredit(id, m.id, input.units, at)
        return providerView(yield* providerRow(id))
      }),

    setCountryRoutes: (country, input) =>
      Effect.gen(function*() {
        const m = yield* market(country)
        const list = input.provider_uids ?? []
        const seen = new Set<string>()
        const errors: Record<string, Array<string>> = {}
        for (const [i, pid] of list.entries()) {
          if (seen.has(pid.toLowerCase())) errors[`provider_uids.${i}`] = ["The provider is listed twice."]
          seen.add(pid.toLowerCase())
          const found = UUID.test(pid) ? yield* admin.findProvider(pid) : Option.none()
          if (Option.isNone(found)) errors[`provider_uids.${i}`] = [`The selected provider_uids.${i} is invalid.`]
        }
        if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
        const routes = yield* Effect.forEach(list, (pid) => Effect.map(ids.uuidV4, (id) => ({ id, provider_id: pid })))
        yield* admin.replaceCountryRoutes(m.id, routes, yield* now)
        return { country: m.iso2, routes: (yield* admin.countryRoutes(m.id)).map(countryRouteView) }
      }),

    countryRoutes: (country) =>
      Effect.gen(function*() {
        const m = yield* market(country)
        return { country: m.iso2, routes: (yield* admin.countryRoutes(m.id)).map(countryRouteView) }
      })
  }

  function setActive(accountId: string, active: boolean) {
    return Effect.gen(function*() {
      yield* account(accountId)
      yield* op.setAccountActive(accountId, active, yield* now)
      return accountView(yield* account(accountId))
    })
  }

  function e164(raw: string): Effect.Effect<string, ValidationFailed> {
    const r = normalizeRecipient(typeof raw === "string" ? raw : "")
    return r._tag === "Left"
      ? Effect.fail(invalid("recipient", "The recipient field must be a valid phone number in E.164 format."))
      : Effect.succeed(r.right.e164)
  }

  return service
})

const ledgerView = (r: LedgerRow): LedgerEntryView => ({
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

const documentView = (d: SenderIdDocumentRow): SenderIdDocumentView => ({
  uid: d.id,
  requirement_uid: d.requirement_id,
  kind: d.kind,
  filename: d.filename,
  content_type: d.content_type,
  size_bytes: d.size_bytes,
  created_at: d.created_at.toISOString()
})

const requirementView = (r: RequirementRow): RequirementView => ({
  uid: r.id,
  name: r.name,
  country_uid: r.market_id,
  is_required: r.is_required,
  accepted_formats: r.accepted_formats,
  max_size_kb: r.max_size_kb,
  active: r.active,
  created_at: r.created_at.toISOString()
})

const optOutView = (r: OptOutRow): OptOutView => ({
  account_uid: r.account_id,
  recipient: r.recipient,
  reason: r.reason,
  created_at: r.created_at.toISOString()
})

const spamRuleView = (r: SpamRuleFullRow): SpamRuleView => ({
  uid: r.id,
  account_uid: r.account_id,
  kind: r.kind,
  pattern: r.pattern,
  description: r.description,
  enabled: r.enabled,
  builtin: false,
  created_at: r.created_at.toISOString()
})

const BUILTIN_DESCRIPTION = "built in (the default spam policy; docs/decisions.md, Spam)"
