/**
 * The admin API's payloads (`…Input` Schemas). Structure only; the `Admin` modules check meaning and answer `ValidationFailed` by field.
 */
import { StoredJson, StoredString } from "@tuma/domain"
import { Schema } from "effect"

// ---------------------------------------------------------------------------------------------
// Inputs (payloads). Structure here; the service checks meaning and answers ValidationFailed.
// ---------------------------------------------------------------------------------------------

const opt = <A, I, R>(s: Schema.Schema<A, I, R>) => Schema.optionalWith(s, { exact: true })
const Country = StoredString.annotations({ description: "ISO 3166-1 alpha-2 country code, e.g. TZ" })

/** The admin API's `CreateAccountInput` payload (structure only; `Admin` checks meaning). */
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

/** The admin API's `ListAccountsInput` payload (structure only; `Admin` checks meaning). */
export const ListAccountsInput = Schema.Struct({
  active: opt(Schema.Boolean),
  search: opt(StoredString),
  limit: opt(Schema.Number),
  offset: opt(Schema.Number)
})
export type ListAccountsInput = typeof ListAccountsInput.Type

/** What an API key's holder may change after issue (`IssueApiKeyInput` sets them first). */
const ApiKeySettings = {
  name: opt(StoredString),
  /** Default (at issue): every scope. */
  scopes: opt(Schema.Array(StoredString)),
  /** IPs or CIDRs; empty or absent = any address. */
  allowed_ips: opt(Schema.Array(StoredString)),
  /** ISO 8601 date-time in the future; null = never (on update: clears the expiry). */
  expires_at: opt(Schema.NullOr(StoredString))
}

/** The admin API's `IssueApiKeyInput` payload (structure only; `Admin` checks meaning). */
export const IssueApiKeyInput = Schema.Struct({
  account_uid: StoredString,
  /** Default live. */
  mode: opt(Schema.Literal("live", "test")),
  ...ApiKeySettings
}).annotations({ identifier: "AdminIssueApiKey" })
export type IssueApiKeyInput = typeof IssueApiKeyInput.Type

/** The admin API's `UpdateApiKeyInput` payload (structure only; `Admin` checks meaning). */
export const UpdateApiKeyInput = Schema.Struct(ApiKeySettings).annotations({ identifier: "AdminUpdateApiKey" })
export type UpdateApiKeyInput = typeof UpdateApiKeyInput.Type

/** An account in one country: its wallet there (a purchase, a correction) or its route (a verification). */
const AccountInCountry = { account_uid: StoredString, country: Country }

/** The admin API's `PurchaseInput` payload (structure only; `Admin` checks meaning). */
export const PurchaseInput = Schema.Struct({
  ...AccountInCountry,
  units: Schema.Number,
  /** Decimal string, what was paid. */
  amount: opt(Schema.NullOr(StoredString)),
  currency: opt(Schema.NullOr(StoredString)),
  reference: opt(Schema.NullOr(StoredString))
}).annotations({ identifier: "AdminPurchase" })
export type PurchaseInput = typeof PurchaseInput.Type

/**
 * The admin API's `CorrectionInput` payload (structure only; `Admin` checks meaning): a signed
 * correction of a wallet, with its reason and, optionally, the ledger entry it corrects.
 */
export const CorrectionInput = Schema.Struct({
  ...AccountInCountry,
  /** Signed units: positive adds, negative removes (never below 0). */
  units: Schema.Number,
  reason: StoredString,
  /** The id of the ledger entry this corrects (of the same wallet). */
  corrects: opt(Schema.NullOr(StoredString))
}).annotations({ identifier: "AdminCorrection" })
export type CorrectionInput = typeof CorrectionInput.Type

/** The admin API's `VerifyRouteInput` payload (structure only; `Admin` checks meaning). */
export const VerifyRouteInput = Schema.Struct({
  ...AccountInCountry,
  /** The phone number verified for the country (E.164). */
  phone: StoredString
}).annotations({ identifier: "AdminVerifyRoute" })
export type VerifyRouteInput = typeof VerifyRouteInput.Type

/** The admin API's `GrantSenderIdInput` payload (structure only; `Admin` checks meaning). */
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

/** The admin API's `ListSenderIdsInput` payload (structure only; `Admin` checks meaning). */
export const ListSenderIdsInput = Schema.Struct({
  account_uid: opt(StoredString),
  status: opt(Schema.Literal("pending", "approved", "rejected", "suspended")),
  limit: opt(Schema.Number),
  offset: opt(Schema.Number)
})
export type ListSenderIdsInput = typeof ListSenderIdsInput.Type

/** The admin API's `CreateRequirementInput` payload (structure only; `Admin` checks meaning). */
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

/** The admin API's `OptOutInput` payload (structure only; `Admin` checks meaning). */
export const OptOutInput = Schema.Struct({
  account_uid: StoredString,
  recipient: StoredString,
  reason: opt(Schema.NullOr(StoredString))
}).annotations({ identifier: "AdminOptOut" })
export type OptOutInput = typeof OptOutInput.Type

/** The admin API's `SpamRuleInput` payload (structure only; `Admin` checks meaning). */
export const SpamRuleInput = Schema.Struct({
  /** null or absent: every account. */
  account_uid: opt(Schema.NullOr(StoredString)),
  kind: StoredString,
  pattern: StoredString,
  description: opt(StoredString)
}).annotations({ identifier: "AdminSpamRuleInput" })
export type SpamRuleInput = typeof SpamRuleInput.Type

/** The admin API's `CreateProviderInput` payload (structure only; `Admin` checks meaning). */
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

/** The admin API's `ProviderCreditInput` payload (structure only; `Admin` checks meaning). */
export const ProviderCreditInput = Schema.Struct({
  country: Country,
  /** `set`: the new credit; `add`: units to add (negative removes, never below 0). */
  units: Schema.Number,
  operation: opt(Schema.Literal("set", "add"))
}).annotations({ identifier: "AdminProviderCredit" })
export type ProviderCreditInput = typeof ProviderCreditInput.Type

/** The admin API's `CountryRoutesInput` payload (structure only; `Admin` checks meaning). */
export const CountryRoutesInput = Schema.Struct({
  /** Provider uids in the order they are tried. */
  provider_uids: Schema.Array(StoredString)
}).annotations({ identifier: "AdminCountryRoutesInput" })
export type CountryRoutesInput = typeof CountryRoutesInput.Type
