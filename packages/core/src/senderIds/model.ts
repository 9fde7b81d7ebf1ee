/**
 * What the sender-ID use cases take and answer (spec §2.6, §2.7, §4.9) and their settings.
 */
import type { SenderIdRequest } from "@tuma/domain"
import {
  decodeBase64Content,
  DEFAULT_DOCUMENT_MAX_SIZE_KB,
  isSenderIdUsable,
  sampleMessageRules,
  SenderIdAlreadyRequested,
  SenderIdCountryNotAvailable,
  SenderIdNotEligible,
  SenderIdRouteNotVerified,
  senderIdRules
} from "@tuma/domain"
import type { ValidationFailed } from "@tuma/domain"
import { Context } from "effect"
import type { SenderIdRecordRow } from "../ports/SenderIdStore.js"

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

/** Settings of the sender-ID use cases (`SenderIdConfig`). */
export interface SenderIdSettings {
  /** Units an account must have purchased before it may request a sender ID (§2.7). */
  readonly requiredUnits: number
  /** Currency of `price_per_unit` / `minimum_purchase_amount`. */
  readonly currency: string
  /** Decimal string, e.g. "20.00". */
  readonly pricePerUnit: string
  /** Decimal string; default `requiredUnits × pricePerUnit`. */
  readonly minimumPurchaseAmount?: string | undefined
  /** ISO2 of the market a request without `country_uid` is registered for (decisions §17). */
  readonly defaultMarket: string
  /** Size ceiling of protection documents and of requirements without their own (KB). */
  readonly defaultMaxSizeKb: number
}

/** Override with `Layer.succeed(SenderIdConfig, {...})`. */
export class SenderIdConfig extends Context.Reference<SenderIdConfig>()("@tuma/core/SenderIdConfig", {
  defaultValue: (): SenderIdSettings => ({
    requiredUnits: 1000,
    currency: "TZS",
    pricePerUnit: "20.00",
    defaultMarket: "TZ",
    defaultMaxSizeKb: DEFAULT_DOCUMENT_MAX_SIZE_KB
  })
}) {}

/** `units × price` as a decimal string with the price's number of decimals (exact). */
export const multiplyDecimal = (units: number, price: string): string => {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(price.trim())
  if (m === null) return price
  const decimals = m[2]?.length ?? 0
  const scaled = BigInt(m[1] + (m[2] ?? "")) * BigInt(units)
  const s = scaled.toString().padStart(decimals + 1, "0")
  return decimals === 0 ? s : `${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}`
}

// ---------------------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------------------

/** §2.6 */
export interface SenderIdRecord {
  readonly uid: string
  readonly sender_id: string
  readonly country_uid: string
  readonly country_code: string
  readonly country_name: string
  readonly status: "pending" | "approved" | "rejected" | "suspended"
  readonly is_default: boolean
  readonly is_global: boolean
  readonly sample_message: string
  readonly is_usable: boolean
  readonly submitted_document_uids: ReadonlyArray<string>
  readonly requested_at: string
  readonly updated_at: string
  readonly rejection_reason: string | null
}

/** The API form (spec §2.6) of a stored sender-ID row. */
export const senderIdRecord = (row: SenderIdRecordRow): SenderIdRecord => ({
  uid: row.id,
  sender_id: row.name,
  country_uid: row.market_id,
  country_code: row.calling_code,
  country_name: row.market_name,
  status: row.status,
  is_default: row.is_default,
  is_global: row.is_global,
  sample_message: row.sample_message,
  is_usable: isSenderIdUsable(row.status),
  submitted_document_uids: row.document_ids,
  requested_at: row.requested_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  rejection_reason: row.rejection_reason
})

/** A country of the sender-ID requirements answer (spec §2.7). */
export interface RequirementCountry {
  readonly uid: string
  readonly iso2: string
  readonly name: string
  readonly calling_code: string
}

/** A document the sender-ID requirements ask for (spec §2.7 `documents`). */
export interface RequirementDocument {
  readonly uid: string
  readonly name: string
  readonly is_required: boolean
  readonly accepted_formats: ReadonlyArray<string>
  readonly max_size_kb: number
}

/** §2.7 */
export interface SenderIdRequirements {
  readonly eligibility: {
    readonly can_request: boolean
    readonly purchased_units: number
    readonly required_units: number
    readonly currency: string
    readonly minimum_purchase_amount: string
    readonly price_per_unit: string
    readonly reason: string
  }
  readonly countries: ReadonlyArray<RequirementCountry>
  readonly documents: ReadonlyArray<RequirementDocument>
  readonly documents_required: boolean
  readonly purposes: ReadonlyArray<string>
  readonly sender_id_rules: typeof senderIdRules
  readonly sample_message_rules: typeof sampleMessageRules
}

/** A requirement document attached to a sender-ID request, decoded to bytes. */
export interface SenderIdDocumentInput {
  readonly requirement_uid: string
  readonly filename: string
  readonly bytes: Uint8Array
}

/** A protection document attached to a sender-ID request, decoded to bytes. */
export interface ProtectionDocumentInput {
  readonly filename: string
  readonly bytes: Uint8Array
}

/** A sender-ID request as `SenderIds.request` takes it (JSON or multipart, documents as bytes). */
export interface RequestSenderIdInput {
  /** As typed: normalised here. */
  readonly sender_id: string
  readonly country_uid?: string | null | undefined
  readonly sample_message: string
  readonly purpose: string
  readonly documents?: ReadonlyArray<SenderIdDocumentInput> | null | undefined
  readonly protection_requested?: boolean | null | undefined
  readonly protection_documents?: ReadonlyArray<ProtectionDocumentInput> | null | undefined
  /**
   * Where the documents came from, for the error paths: `json` (default) →
   * `documents_base64.N.content_base64`, `protection_documents_base64.N…`; `multipart` →
   * `documents.<requirement_uid>`, `protection_documents.N`.
   */
  readonly source?: "json" | "multipart" | undefined
}

/** The answer to an accepted sender-ID request: the message and the `pending` record. */
export interface SenderIdCreated {
  /** The envelope's `message`. */
  readonly message: string
  readonly data: SenderIdRecord
}

/** Every refusal of a sender-ID request, in the order the checks run (architecture.md). */
export type RequestSenderIdError =
  | ValidationFailed
  | SenderIdNotEligible
  | SenderIdCountryNotAvailable
  | SenderIdRouteNotVerified
  | SenderIdAlreadyRequested

/** The JSON body of §4.9 (decoded by `SenderIdRequest`) with its base64 documents decoded. */
export const fromJsonRequest = (request: SenderIdRequest): RequestSenderIdInput => ({
  sender_id: request.sender_id,
  country_uid: request.country_uid,
  sample_message: request.sample_message,
  purpose: request.purpose,
  protection_requested: request.protection_requested,
  documents: (request.documents_base64 ?? []).map((d) => ({
    requirement_uid: d.requirement_uid,
    filename: d.filename,
    bytes: decodeBase64Content(d.content_base64)
  })),
  protection_documents: (request.protection_documents_base64 ?? []).map((d) => ({
    filename: d.filename,
    bytes: decodeBase64Content(d.content_base64)
  })),
  source: "json"
})
