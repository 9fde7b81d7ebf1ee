/**
 * The admin API's views built from store rows (the `…View` Schemas are `views.ts`).
 */
import { isSenderIdUsable } from "@tuma/domain/stateMachines"
import type { CountryRouteRow, LedgerRow, OptOutRow, ProviderFullRow, SpamRuleFullRow } from "../ports/AdminStore.js"
import type { AccountRow, ApiKeyRow } from "../ports/OperatorStore.js"
import type { VerifiedRouteMarketRow, WalletMarketRow } from "../ports/ReadStore.js"
import type { RequirementRow, SenderIdDocumentRow, SenderIdRecordRow } from "../ports/SenderIdStore.js"
import type { MarketRow } from "../ports/SendStore.js"
import type {
  AccountView,
  ApiKeyView,
  CountryRouteView,
  LedgerEntryView,
  MarketView,
  OptOutView,
  ProviderView,
  RequirementView,
  RouteView,
  SenderIdAdminView,
  SenderIdDocumentView,
  SpamRuleView,
  WalletView
} from "./views.js"

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString())

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

/** The `WalletView` of a read row. */
export const walletView = (w: WalletMarketRow): WalletView => ({
  wallet_uid: w.id,
  country_uid: w.market_id,
  country: w.iso2,
  calling_code: w.calling_code,
  balance: w.balance,
  enabled: w.enabled
})

/** The `RouteView` of a read row. */
export const routeView = (r: VerifiedRouteMarketRow): RouteView => ({
  uid: r.id,
  country_uid: r.market_id,
  country: r.iso2,
  phone: r.phone,
  verified_at: r.verified_at.toISOString()
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
  reason: r.reason,
  corrects: r.corrects_id,
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
