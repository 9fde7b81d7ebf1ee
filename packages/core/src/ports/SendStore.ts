/**
 * The `SendStore` port: what the send use cases need from the durable store.
 *
 * A send reads everything its checks need in ONE call (`snapshot`), decides in memory, then hands
 * a complete plan to `accept`, which applies it in ONE transaction:
 *
 *   claim the idempotency key → conditional wallet debits (+ ledger rows) → campaign → messages →
 *   dispatch queue rows (queued messages only)
 *
 * and either commits all of it or nothing. The snapshot is only advisory for the wallet balance:
 * `accept` re-checks it atomically (`balance >= units` in the UPDATE), so a wallet never goes
 * negative under any concurrency; when it cannot cover the plan, `accept` writes nothing and
 * answers `InsufficientFunds`.
 *
 * Infrastructure failures are defects (the adapter retries serialization failures/deadlocks).
 * The SQL adapter is `SqlSendStore.layer` in @tuma/store-sql.
 */
import type { Option } from "effect"
import { Context, Data, Effect } from "effect"

/** The status of a stored sender-ID record. */
export type SenderIdStatus = "pending" | "approved" | "rejected" | "suspended"
/** The status of a stored message. */
export type MessageStatus = "scheduled" | "queued" | "processing" | "sent" | "delivered" | "failed"
/** How a message was sent: through the API, by staff in the portal (`web`) or over the SMPP server (`smpp`). */
export type Channel = "api" | "web" | "smpp"
/** The final encoding of a stored message. */
export type Encoding = "GSM-7" | "Unicode"

/** A market (country) as the send checks read it. */
export interface MarketRow {
  readonly id: string
  readonly iso2: string
  readonly calling_code: string
  readonly name: string
  readonly open: boolean
}

/** A sender-ID record as the send checks read it. */
export interface SenderIdGrantRow {
  readonly id: string
  readonly market_id: string
  /** Uppercase, as stored. */
  readonly name: string
  /** The case chosen by the requester, carried to the handset. */
  readonly display_name: string
  readonly status: SenderIdStatus
  readonly is_global: boolean
}

/** A credit wallet (account × market) as the send checks read it. */
export interface WalletRow {
  readonly id: string
  readonly market_id: string
  readonly balance: number
  readonly enabled: boolean
}

/** Per market: enabled routes through enabled providers, and their summed provider credit. */
export interface ProviderCapacityRow {
  readonly market_id: string
  readonly routes: number
  readonly credit: number
}

/** A spam rule as the send checks read it. */
export interface SpamRuleRow {
  readonly id: string
  readonly kind: string
  readonly pattern: string
  readonly description: string
}

/** What `SendStore.snapshot` reads for one send: account, sender ID, markets and recipients. */
export interface SnapshotRequest {
  readonly accountId: string
  /** Sender ID name, already normalised to uppercase. */
  readonly senderName: string
  /** ISO2 destination countries of the send. */
  readonly countries: ReadonlyArray<string>
  /** E.164 recipients (for the opt-out lookup). */
  readonly recipients: ReadonlyArray<string>
}

/** Everything the checks of spec §1 need for one send, read in one round trip. */
export interface SendSnapshot {
  readonly account: { readonly id: string; readonly active: boolean } | undefined
  /** The account's sender-ID records with that name, any status, any market. */
  readonly senderIds: ReadonlyArray<SenderIdGrantRow>
  /** Known markets among the requested countries (an unknown country is simply absent). */
  readonly markets: ReadonlyArray<MarketRow>
  /** Market ids with a verified route for the account. */
  readonly verifiedMarketIds: ReadonlyArray<string>
  readonly wallets: ReadonlyArray<WalletRow>
  readonly providerCapacity: ReadonlyArray<ProviderCapacityRow>
  /** The requested recipients that opted out of this account's messages. */
  readonly optedOut: ReadonlyArray<string>
  /** Enabled spam rules: global ones and the account's own. */
  readonly spamRules: ReadonlyArray<SpamRuleRow>
  /** Phrases of the built-in list (the base policy) that operators switched off. */
  readonly spamBuiltinOff: ReadonlyArray<string>
  /**
   * The settings version the snapshot was read at (`SettingsChanges.version`, read in the same
   * statement), when the store keeps one: a snapshot that carries it may be reused for later sends
   * (`send/snapshotCache.ts`), because `accept` then re-checks it (`AcceptGuard`). Absent: never reused.
   */
  readonly settingsVersion?: string | undefined
}

/** Fields every message of one send shares. */
export interface MessageCommon {
  readonly account_id: string
  readonly api_key_id: string | null
  readonly campaign_id: string | null
  readonly sender_id: string
  readonly channel: Channel
  /** `queued` messages are also written to the dispatch queue; `scheduled` ones are not (yet). */
  readonly status: "queued" | "scheduled"
  readonly idempotency_key: string | null
  /** The SMPP credentials a message was submitted with (channel `smpp`); absent otherwise. */
  readonly smpp_account_id?: string | null | undefined
  /** The SMPP submit asked for an intermediate receipt when the carrier accepts (migration 1001). */
  readonly smpp_intermediate?: boolean | undefined
  readonly created_at: Date
  readonly scheduled_at: Date | null
  readonly queued_at: Date | null
}

/** What differs per message of one send. */
export interface MessageItem {
  readonly id: string
  readonly market_id: string
  readonly country: string
  readonly recipient: string
  readonly text: string
  readonly encoding: Encoding
  readonly parts: number
  readonly units: number
}

/** The messages a send accepts: fields they share and one item per recipient. */
export interface NewMessages {
  readonly common: MessageCommon
  readonly items: ReadonlyArray<MessageItem>
}

/** The campaign row of an accepted bulk send. */
export interface NewCampaign {
  readonly id: string
  readonly account_id: string
  readonly api_key_id: string | null
  readonly api_version: "v1" | "v2"
  readonly name: string
  readonly sender_id: string
  readonly status: "queued" | "scheduled"
  readonly recipient_count: number
  readonly queued_count: number
  readonly failed_count: number
  readonly units: number
  readonly failures: ReadonlyArray<unknown>
  readonly scheduled_at: Date | null
  readonly created_at: Date
  /** The text as the caller wrote it (v2: the template with its tags), kept to duplicate the campaign. */
  readonly message?: string | undefined
}

/** Units to take from one wallet. */
export interface WalletDebit {
  readonly wallet_id: string
  readonly market_id: string
  readonly units: number
}

/** The idempotency record a send claims, carrying its first answer. */
export interface IdempotencyClaim {
  readonly key: string
  readonly endpoint: string
  readonly fingerprint: string
  readonly expires_at: Date
  /** The answer to replay to later requests with this key (JSON-serialisable). */
  readonly response: unknown
}

/**
 * What a plan decided on a reused snapshot asks `accept` to re-check inside its transaction: the settings
 * are still at the version the snapshot was read at, and the recipient has not opted out since. If not,
 * `accept` writes nothing and answers `Stale` (the send is then decided again on a fresh snapshot).
 */
export interface AcceptGuard {
  readonly settingsVersion: string
  readonly recipient: string
}

/** Everything one accepted send writes in its single transaction: idempotency claim, debits, campaign, messages. */
export interface AcceptPlan {
  readonly accountId: string
  readonly now: Date
  /** Set when the plan was decided on a reused snapshot (see `AcceptGuard`). */
  readonly guard?: AcceptGuard | undefined
  readonly idempotency: IdempotencyClaim | undefined
  readonly debits: ReadonlyArray<WalletDebit>
  readonly campaign: NewCampaign | undefined
  readonly messages: NewMessages
}

/** A stored idempotency record. */
export interface IdempotencyRecord {
  readonly key: string
  readonly endpoint: string
  readonly fingerprint: string
  readonly response: unknown
  readonly created_at: Date
  readonly expires_at: Date
}

/** How `SendStore.accept` ended: accepted, key taken by a committed record, or a wallet short at commit time. */
export type AcceptOutcome = Data.TaggedEnum<{
  /** Everything is stored, charged and queued. */
  Accepted: {}
  /** The idempotency key is held by a committed (unexpired) record: nothing was written. */
  KeyTaken: { readonly record: IdempotencyRecord }
  /**
   * The plan's `guard` no longer holds (settings changed since its snapshot, or the recipient opted out):
   * nothing was written; decide the send again on a fresh snapshot.
   */
  Stale: {}
  /** A wallet could not cover its debit at commit time: nothing was written. */
  InsufficientFunds: {
    readonly shortfall: ReadonlyArray<{
      readonly market_id: string
      readonly units_required: number
      readonly units_available: number
    }>
  }
}>
export const AcceptOutcome = Data.taggedEnum<AcceptOutcome>()

/**
 * Defect of `accept` whose transaction may have committed (a lost COMMIT): the send's outcome is
 * unknown (503 `UNKNOWN`, decisions §5). `Send` wraps every other defect of `accept` in it; a defect
 * anywhere else in a send (look-ups, the snapshot) means nothing was stored.
 */
export class AcceptanceInDoubt extends Data.TaggedError("AcceptanceInDoubt")<{ readonly cause: unknown }> {}

/**
 * Defect of `accept` that the adapter knows rolled back (the server refused a statement of the
 * transaction, so nothing of it is stored): answered like a failure before the transaction.
 */
export class AcceptanceRolledBack extends Data.TaggedError("AcceptanceRolledBack")<{ readonly cause: unknown }> {}

/** `accept`'s defects, classified: rolled back stays as it is, anything else is in doubt. */
export const classifyAcceptDefects = <A, E, R>(accept: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.catchAllDefect(
    accept,
    (defect) =>
      Effect.die(
        defect instanceof AcceptanceRolledBack || defect instanceof AcceptanceInDoubt
          ? defect
          : new AcceptanceInDoubt({ cause: defect })
      )
  )

/**
 * Port: the storage of the send path (one-statement snapshot, one-transaction accept). Adapter:
 * `SqlSendStore` in `@tuma/store-sql`.
 */
export class SendStore extends Context.Tag("@tuma/core/SendStore")<SendStore, {
  /** One round trip: everything the checks of spec §1 need for this send. */
  readonly snapshot: (request: SnapshotRequest) => Effect.Effect<SendSnapshot>
  /** The unexpired idempotency record of (account, key), if any. */
  readonly findIdempotency: (
    accountId: string,
    key: string,
    now: Date
  ) => Effect.Effect<Option.Option<IdempotencyRecord>>
  /** Applies the plan atomically (see the module comment). */
  readonly accept: (plan: AcceptPlan) => Effect.Effect<AcceptOutcome>
}>() {}
