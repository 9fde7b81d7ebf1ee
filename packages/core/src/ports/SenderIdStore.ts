/**
 * The `SenderIdStore` port: sender-ID records and requests (spec §2.6, §4.7–4.9), their documents
 * and the operator's document requirements (§2.7 `documents`). Used by `SenderIds` (the customer
 * side) and `Admin` (the operator side). The SQL adapter is `SqlSenderIdStore.layer`.
 */
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { SenderIdRow } from "./OperatorStore.js"
import type { MarketRow, SenderIdStatus } from "./SendStore.js"

/** A sender-ID record with its market and submitted document ids (what §2.6 shows). */
export interface SenderIdRecordRow extends SenderIdRow {
  readonly iso2: string
  readonly calling_code: string
  readonly market_name: string
  readonly protection_requested: boolean
  readonly rejection_reason: string | null
  readonly suspension_reason: string | null
  readonly document_ids: ReadonlyArray<string>
}

/** A stored sender-ID document requirement. */
export interface RequirementRow {
  readonly id: string
  /** `null`: applies to every market. */
  readonly market_id: string | null
  readonly name: string
  readonly is_required: boolean
  readonly accepted_formats: ReadonlyArray<string>
  readonly max_size_kb: number
  readonly active: boolean
  readonly created_at: Date
}

/** A document to store with a sender-ID request. */
export interface NewSenderIdDocument {
  readonly id: string
  readonly requirement_id: string | null
  readonly kind: "requirement" | "protection"
  readonly filename: string
  readonly content_type: string
  readonly bytes: Uint8Array
}

/** A new `pending` sender-ID record. */
export interface NewSenderId extends Omit<SenderIdRow, "requested_at" | "updated_at"> {
  readonly protection_requested: boolean
  readonly at: Date
  readonly documents: ReadonlyArray<NewSenderIdDocument>
}

/** The `sender_ids` columns a new record is stored with (both adapters write these; documents apart). */
export const newSenderIdColumns = (row: NewSenderId) => ({
  id: row.id,
  account_id: row.account_id,
  market_id: row.market_id,
  name: row.name,
  display_name: row.display_name,
  status: row.status,
  is_default: row.is_default,
  is_global: row.is_global,
  sample_message: row.sample_message,
  purpose: row.purpose,
  protection_requested: row.protection_requested,
  requested_at: row.at,
  updated_at: row.at
})

/** A stored sender-ID document (without its bytes). */
export interface SenderIdDocumentRow {
  readonly id: string
  readonly sender_id_id: string
  readonly requirement_id: string | null
  readonly kind: "requirement" | "protection"
  readonly filename: string
  readonly content_type: string
  readonly size_bytes: number
  readonly created_at: Date
}

/** An operator's decision on a sender-ID record, applied compare-and-set. */
export interface StatusChange {
  readonly id: string
  /** Applied only while the record is still in this status (compare-and-set). */
  readonly from: SenderIdStatus
  readonly to: SenderIdStatus
  readonly rejection_reason: string | null
  readonly suspension_reason: string | null
  readonly at: Date
}

/** Port: the storage of the sender-ID use cases. Adapter: `SqlSenderIdStore` in `@tuma/store-sql`. */
export class SenderIdStore extends Context.Tag("@tuma/core/SenderIdStore")<SenderIdStore, {
  /** Every record of the account, newest request first. */
  readonly listForAccount: (accountId: string) => Effect.Effect<ReadonlyArray<SenderIdRecordRow>>
  /** Records across accounts (operator), newest first. */
  readonly list: (filter: {
    readonly accountId?: string | undefined
    readonly status?: SenderIdStatus | undefined
    readonly limit: number
    readonly offset: number
  }) => Effect.Effect<ReadonlyArray<SenderIdRecordRow>>
  readonly find: (id: string) => Effect.Effect<Option.Option<SenderIdRecordRow>>
  /** Sum of the account's `purchase` ledger units (spec §2.7 `purchased_units`). */
  readonly purchasedUnits: (accountId: string) => Effect.Effect<number>
  readonly findMarketById: (id: string) => Effect.Effect<Option.Option<MarketRow>>
  readonly findMarketByIso2: (iso2: string) => Effect.Effect<Option.Option<MarketRow>>
  /** Markets where the account has a verified route (with their `open` flag). */
  readonly verifiedMarkets: (accountId: string) => Effect.Effect<ReadonlyArray<MarketRow>>
  /** Active requirements; with `marketIds`, those for any of these markets plus the global ones. */
  readonly requirements: (
    options: { readonly marketIds?: ReadonlyArray<string> | undefined; readonly includeInactive?: boolean }
  ) => Effect.Effect<ReadonlyArray<RequirementRow>>
  /**
   * Whether the name is taken for the market: the account already has a record with it (any
   * status), or another account holds a protected claim on it (not rejected).
   */
  readonly nameTaken: (accountId: string, marketId: string, name: string) => Effect.Effect<boolean>
  /**
   * Inserts the record and its documents in one transaction. `None` when (account, market, name)
   * already exists (nothing written).
   */
  readonly insert: (row: NewSenderId) => Effect.Effect<Option.Option<SenderIdRecordRow>>
  /** Compare-and-set of the status; `None` when the record is not (any longer) in `from`. */
  readonly changeStatus: (change: StatusChange) => Effect.Effect<Option.Option<SenderIdRecordRow>>
  readonly documents: (senderIdId: string) => Effect.Effect<ReadonlyArray<SenderIdDocumentRow>>
  readonly documentContent: (
    documentId: string
  ) => Effect.Effect<Option.Option<SenderIdDocumentRow & { readonly content: Uint8Array }>>
  readonly insertRequirement: (row: RequirementRow) => Effect.Effect<void>
  /** Deactivates (documents already submitted keep their reference); false when unknown. */
  readonly deactivateRequirement: (id: string) => Effect.Effect<boolean>
}>() {}
