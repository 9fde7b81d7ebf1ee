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
import {
  sampleMessageRules,
  SENDER_ID_PURPOSES,
  SenderIdAlreadyRequested,
  SenderIdCountryNotAvailable,
  SenderIdNotEligible,
  SenderIdRouteNotVerified,
  senderIdRules,
  validationFailed
} from "@tuma/domain"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Ids } from "../ports/Ids.js"
import { SenderIdStore } from "../ports/SenderIdStore.js"
import type { MarketRow } from "../ports/SendStore.js"
import { checkDocuments, checkRequestFields, requirementDocument } from "./checks.js"
import {
  multiplyDecimal,
  RequestSenderIdError,
  RequestSenderIdInput,
  SenderIdConfig,
  SenderIdCreated,
  SenderIdRecord,
  senderIdRecord,
  SenderIdRequirements,
  SenderIdSettings
} from "./model.js"

export * from "./checks.js"
export * from "./model.js"

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
            const pending = {
              account_id: accountId,
              market_id: market.id,
              name,
              display_name: input.sender_id.trim().replace(/\s+/g, " "),
              status: "pending" as const,
              is_default: false,
              is_global: false,
              sample_message: input.sample_message.trim(),
              purpose: input.purpose,
              protection_requested: input.protection_requested === true
            }
            if (options?.sandbox === true) {
              return {
                message: SENDER_ID_CREATED_MESSAGE,
                data: senderIdRecord({
                  ...pending,
                  id: yield* ids.uuidV4,
                  iso2: market.iso2,
                  calling_code: market.calling_code,
                  market_name: market.name,
                  rejection_reason: null,
                  suspension_reason: null,
                  document_ids: documents.map((d) => d.id),
                  requested_at: at,
                  updated_at: at
                })
              }
            }
            const inserted = yield* store.insert({ ...pending, id: yield* ids.uuidV7, at, documents })
            if (Option.isNone(inserted)) return yield* alreadyRequested()
            return { message: SENDER_ID_CREATED_MESSAGE, data: senderIdRecord(inserted.value) }
          })
      })
    })
  )
}
