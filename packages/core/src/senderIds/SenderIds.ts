/**
 * `SenderIds`: the customer side of sender IDs (spec §4.7–4.9, decisions §17–18).
 *
 * - `list`: every record of the account (§2.6) — the sender IDs it can send with and every request
 *   at any status — newest request first.
 * - `requirements`: §2.7. Eligibility compares the units the account has *purchased* (the
 *   `purchase` rows of its wallet ledger, whatever was spent since) with `requiredUnits`
 *   (configurable, default 1,000). Countries are the open markets with a verified SMS route.
 *   Documents are the active requirements for those markets plus the global ones.
 * - `request`: checks, in order, and answers the first failure:
 *     1. fields (422 `ValidationFailed`, all at once): `sender_id` normalised by `normalizeSenderId`
 *        (3–11 chars, pattern, reserved names), `sample_message` 50–500 characters, `purpose`,
 *        `country_uid` a UUID, `protection_requested` needs ≥ 1 protection document;
 *     2. `sender_id_not_eligible` (422) — not enough purchased units;
 *     3. `country_not_available` (422) — `country_uid` unknown or its market closed; omitted →
 *        the default market (`defaultMarket`, Tanzania);
 *     4. `route_not_verified` (422) — no verified route for that country;
 *     5. `sender_id_already_requested` (409) — the account already has that name for the country
 *        (any status), or another account holds a protected claim on it;
 *     6. documents (422 by field path): each `requirement_uid` one of the country's requirements,
 *        every `is_required` one attached, format by magic bytes (pdf/jpg/jpeg/png) matching the
 *        file name, size ≤ the requirement's `max_size_kb` (protection documents: default formats,
 *        `defaultMaxSizeKb`).
 *   Then ONE transaction stores the `pending` record and its documents (a concurrent duplicate
 *   becomes the 409). Documents arrive decoded (bytes), so the HTTP layer feeds this from JSON
 *   base64 (`fromJsonRequest`) or from multipart parts (`source: "multipart"` for error paths).
 */
import type { SenderIdRequest } from "@tuma/domain"
import {
  decodeBase64Content,
  DEFAULT_DOCUMENT_MAX_SIZE_KB,
  detectDocumentFormat,
  DOCUMENT_FORMATS,
  isSenderIdUsable,
  normalizeSenderId,
  SAMPLE_MESSAGE_MAX_LENGTH,
  SAMPLE_MESSAGE_MIN_LENGTH,
  sampleMessageRules,
  SENDER_ID_PURPOSES,
  SenderIdAlreadyRequested,
  SenderIdCountryNotAvailable,
  SenderIdNotEligible,
  SenderIdRouteNotVerified,
  senderIdRules,
  validationFailed
} from "@tuma/domain"
import type { ValidationFailed } from "@tuma/domain"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Ids } from "../ports/Ids.js"
import type { NewSenderIdDocument, RequirementRow, SenderIdRecordRow } from "../ports/SenderIdStore.js"
import { SenderIdStore } from "../ports/SenderIdStore.js"
import type { MarketRow } from "../ports/SendStore.js"

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

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const codePoints = (s: string) => {
  let n = 0
  for (const _ of s) n++
  return n
}

type Errors = Record<string, Array<string>>
const addError = (errors: Errors, path: string, message: string) => (errors[path] ??= []).push(message)

/** Field checks of a request (step 1). Answers the normalised name. */
export const checkRequestFields = (input: RequestSenderIdInput): { name: string | undefined; errors: Errors } => {
  const errors: Errors = {}
  let name: string | undefined
  if (typeof input.sender_id !== "string" || input.sender_id.trim() === "") {
    addError(errors, "sender_id", "The sender_id field is required.")
  } else {
    const r = normalizeSenderId(input.sender_id)
    if (r._tag === "Left") addError(errors, "sender_id", r.left.message)
    else name = r.right
  }
  const sample = typeof input.sample_message === "string" ? input.sample_message.trim() : ""
  if (sample === "") addError(errors, "sample_message", "The sample_message field is required.")
  else if (codePoints(sample) < SAMPLE_MESSAGE_MIN_LENGTH) {
    addError(
      errors,
      "sample_message",
      `The sample_message field must be at least ${SAMPLE_MESSAGE_MIN_LENGTH} characters.`
    )
  } else if (codePoints(sample) > SAMPLE_MESSAGE_MAX_LENGTH) {
    addError(
      errors,
      "sample_message",
      `The sample_message field must not be greater than ${SAMPLE_MESSAGE_MAX_LENGTH} characters.`
    )
  }
  if (!(SENDER_ID_PURPOSES as ReadonlyArray<string>).includes(input.purpose)) {
    addError(errors, "purpose", "The selected purpose is invalid.")
  }
  if (input.country_uid != null && !UUID.test(input.country_uid)) {
    addError(errors, "country_uid", "The country_uid field must be a valid UUID.")
  }
  if (input.protection_requested === true && (input.protection_documents ?? []).length === 0) {
    const path = input.source === "multipart" ? "protection_documents" : "protection_documents_base64"
    addError(errors, path, `The ${path} field is required when protection_requested is true.`)
  }
  return { name, errors }
}

const familyOf = (format: string) => (format.toLowerCase() === "jpeg" ? "jpg" : format.toLowerCase())
const extensionOf = (filename: string) => {
  const dot = filename.lastIndexOf(".")
  return dot === -1 ? "" : familyOf(filename.slice(dot + 1))
}
const CONTENT_TYPES = { pdf: "application/pdf", jpg: "image/jpeg", png: "image/png" } as const

/**
 * Document checks (step 6) against the requirements of the chosen market. Answers the rows to
 * store (ids to be filled) or the field errors.
 */
export const checkDocuments = (
  input: RequestSenderIdInput,
  requirements: ReadonlyArray<RequirementRow>,
  defaultMaxSizeKb: number
): { documents: Array<Omit<NewSenderIdDocument, "id">>; errors: Errors } => {
  const errors: Errors = {}
  const multipart = input.source === "multipart"
  const byUid = new Map(requirements.map((r) => [r.id.toLowerCase(), r]))
  const documents: Array<Omit<NewSenderIdDocument, "id">> = []

  const check = (
    doc: { readonly filename: string; readonly bytes: Uint8Array },
    base: string,
    accepted: ReadonlyArray<string>,
    maxKb: number
  ) => {
    const filenamePath = multipart ? base : `${base}.filename`
    const contentPath = multipart ? base : `${base}.content_base64`
    const families = [...new Set(accepted.map(familyOf))]
    const format = detectDocumentFormat(doc.bytes)
    const extension = extensionOf(doc.filename ?? "")
    let ok = true
    if (!families.includes(extension)) {
      addError(errors, filenamePath, `The ${filenamePath} field must be a file of type: ${accepted.join(", ")}.`)
      ok = false
    }
    if (format === undefined || !families.includes(format)) {
      addError(
        errors,
        contentPath,
        `The ${contentPath} field must be a ${accepted.join(", ")} file (checked by content).`
      )
      ok = false
    } else if (ok && extension !== format) {
      addError(errors, contentPath, `The ${contentPath} field content does not match its file name.`)
      ok = false
    }
    if (doc.bytes.length > maxKb * 1024) {
      addError(errors, contentPath, `The ${contentPath} field must not be greater than ${maxKb} kilobytes.`)
      ok = false
    }
    return ok && format !== undefined ? format : undefined
  }

  const attached = new Set<string>()
  ;(input.documents ?? []).forEach((doc, i) => {
    const base = multipart ? `documents.${doc.requirement_uid}` : `documents_base64.${i}`
    const requirement = typeof doc.requirement_uid === "string"
      ? byUid.get(doc.requirement_uid.toLowerCase())
      : undefined
    if (requirement === undefined) {
      const path = multipart ? base : `${base}.requirement_uid`
      addError(errors, path, `The selected ${path} is invalid.`)
      return
    }
    attached.add(requirement.id)
    const format = check(doc, base, requirement.accepted_formats, requirement.max_size_kb)
    if (format !== undefined) {
      documents.push({
        requirement_id: requirement.id,
        kind: "requirement",
        filename: doc.filename,
        content_type: CONTENT_TYPES[format],
        bytes: doc.bytes
      })
    }
  })
  for (const r of requirements) {
    if (r.is_required && !attached.has(r.id)) {
      addError(errors, multipart ? `documents.${r.id}` : "documents_base64", `The document "${r.name}" is required.`)
    }
  }
  ;(input.protection_documents ?? []).forEach((doc, i) => {
    const base = multipart ? `protection_documents.${i}` : `protection_documents_base64.${i}`
    const format = check(doc, base, DOCUMENT_FORMATS, defaultMaxSizeKb)
    if (format !== undefined) {
      documents.push({
        requirement_id: null,
        kind: "protection",
        filename: doc.filename,
        content_type: CONTENT_TYPES[format],
        bytes: doc.bytes
      })
    }
  })
  return { documents, errors }
}

const requirementDocument = (r: RequirementRow): RequirementDocument => ({
  uid: r.id,
  name: r.name,
  is_required: r.is_required,
  accepted_formats: r.accepted_formats,
  max_size_kb: r.max_size_kb
})

// ---------------------------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------------------------

/** The `message` of an accepted sender-ID request. */
export const SENDER_ID_CREATED_MESSAGE =
  "Sender ID request submitted for review. Approval is manual: poll GET /v1/sender-ids for its status."

/** The sender-ID use cases: list, requirements, request. `SenderIds.layer` needs a `SenderIdStore` and `Ids`. */
export class SenderIds extends Context.Tag("@tuma/core/SenderIds")<SenderIds, {
  readonly list: (accountId: string) => Effect.Effect<ReadonlyArray<SenderIdRecord>>
  readonly requirements: (accountId: string) => Effect.Effect<SenderIdRequirements>
  /**
   * With `{ sandbox: true }` (a `tuma_test_` key, decisions §12) every check runs exactly as live,
   * then a synthetic `pending` record is answered and nothing is stored.
   */
  readonly request: (
    accountId: string,
    input: RequestSenderIdInput,
    options?: { readonly sandbox?: boolean | undefined }
  ) => Effect.Effect<SenderIdCreated, RequestSenderIdError>
}>() {
  static readonly layer: Layer.Layer<SenderIds, never, SenderIdStore | Ids> = Layer.effect(
    SenderIds,
    Effect.gen(function*() {
      const store = yield* SenderIdStore
      const ids = yield* Ids

      const eligibility = (accountId: string, config: SenderIdSettings) =>
        Effect.map(store.purchasedUnits(accountId), (purchased) => {
          const canRequest = purchased >= config.requiredUnits
          return {
            can_request: canRequest,
            purchased_units: purchased,
            required_units: config.requiredUnits,
            currency: config.currency,
            minimum_purchase_amount: config.minimumPurchaseAmount ??
              multiplyDecimal(config.requiredUnits, config.pricePerUnit),
            price_per_unit: config.pricePerUnit,
            reason: canRequest
              ? `The account has purchased ${purchased} SMS units; at least ${config.requiredUnits} are required.`
              : `Purchase at least ${
                config.requiredUnits - purchased
              } more SMS units to request a sender ID (${purchased} of ${config.requiredUnits} purchased).`
          }
        })

      const resolveMarket = (
        countryUid: string | null | undefined,
        config: SenderIdSettings
      ): Effect.Effect<MarketRow, SenderIdCountryNotAvailable> =>
        (countryUid == null ? store.findMarketByIso2(config.defaultMarket) : store.findMarketById(countryUid)).pipe(
          Effect.flatMap(Option.match({
            onNone: () =>
              Effect.fail(
                new SenderIdCountryNotAvailable({
                  message: "The selected country is not available for sender IDs.",
                  country: countryUid ?? config.defaultMarket
                })
              ),
            onSome: (market) =>
              market.open ? Effect.succeed(market) : Effect.fail(
                new SenderIdCountryNotAvailable({
                  message: `${market.name} is not open for sending; sender IDs cannot be requested for it yet.`,
                  country: market.iso2
                })
              )
          }))
        )

      return SenderIds.of({
        list: (accountId) => Effect.map(store.listForAccount(accountId), (rows) => rows.map(senderIdRecord)),

        requirements: (accountId) =>
          Effect.gen(function*() {
            const config = yield* SenderIdConfig
            const [elig, markets] = yield* Effect.all([
              eligibility(accountId, config),
              store.verifiedMarkets(accountId)
            ], { concurrency: 2 })
            const countries = markets.filter((m) => m.open)
            const documents = yield* store.requirements({ marketIds: countries.map((m) => m.id) })
            return {
              eligibility: elig,
              countries: countries.map((m) => ({
                uid: m.id,
                iso2: m.iso2,
                name: m.name,
                calling_code: m.calling_code
              })),
              documents: documents.map(requirementDocument),
              documents_required: documents.some((d) => d.is_required),
              purposes: SENDER_ID_PURPOSES,
              sender_id_rules: senderIdRules,
              sample_message_rules: sampleMessageRules
            }
          }),

        request: (accountId, input, options) =>
          Effect.gen(function*() {
            const config = yield* SenderIdConfig
            // 1. fields
            const fields = checkRequestFields(input)
            if (fields.name === undefined || Object.keys(fields.errors).length > 0) {
              return yield* validationFailed(fields.errors)
            }
            const name = fields.name
            // 2. eligibility
            const elig = yield* eligibility(accountId, config)
            if (!elig.can_request) return yield* new SenderIdNotEligible({ message: elig.reason })
            // 3. country
            const market = yield* resolveMarket(input.country_uid, config)
            // 4. route
            const verified = yield* store.verifiedMarkets(accountId)
            if (!verified.some((m) => m.id === market.id)) {
              return yield* new SenderIdRouteNotVerified({
                message: `No verified SMS route for ${market.name}: verify a phone number for it first.`,
                country: market.iso2
              })
            }
            // 5. name taken
            const alreadyRequested = () =>
              new SenderIdAlreadyRequested({
                message: `The sender ID ${name} already exists for ${market.name}; poll the list instead of retrying.`,
                sender_id: name
              })
            if (yield* store.nameTaken(accountId, market.id, name)) return yield* alreadyRequested()
            // 6. documents
            const requirements = yield* store.requirements({ marketIds: [market.id] })
            const docs = checkDocuments(input, requirements, config.defaultMaxSizeKb)
            if (Object.keys(docs.errors).length > 0) return yield* validationFailed(docs.errors)

            const documents = yield* Effect.forEach(
              docs.documents,
              (d) => Effect.map(ids.uuidV4, (id) => ({ ...d, id }))
            )
            const at = new Date(yield* Clock.currentTimeMillis)
            if (options?.sandbox === true) {
              return {
                message: SENDER_ID_CREATED_MESSAGE,
                data: senderIdRecord({
                  id: yield* ids.uuidV4,
                  account_id: accountId,
                  market_id: market.id,
                  iso2: market.iso2,
                  calling_code: market.calling_code,
                  market_name: market.name,
                  name,
                  display_name: input.sender_id.trim().replace(/\s+/g, " "),
                  status: "pending",
                  is_default: false,
                  is_global: false,
                  sample_message: input.sample_message.trim(),
                  purpose: input.purpose,
                  protection_requested: input.protection_requested === true,
                  rejection_reason: null,
                  suspension_reason: null,
                  document_ids: documents.map((d) => d.id),
                  requested_at: at,
                  updated_at: at
                })
              }
            }
            const inserted = yield* store.insert({
              id: yield* ids.uuidV7,
              account_id: accountId,
              market_id: market.id,
              name,
              display_name: input.sender_id.trim().replace(/\s+/g, " "),
              status: "pending",
              is_default: false,
              is_global: false,
              sample_message: input.sample_message.trim(),
              purpose: input.purpose,
              protection_requested: input.protection_requested === true,
              at,
              documents
            })
            if (Option.isNone(inserted)) return yield* alreadyRequested()
            return { message: SENDER_ID_CREATED_MESSAGE, data: senderIdRecord(inserted.value) }
          })
      })
    })
  )
}
