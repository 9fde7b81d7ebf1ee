/**
 * The `SmppStore` port: SMPP credentials (issue 28) and the receipt outbox their messages fill.
 * The SQL adapter is `SqlSmppStore` in @tuma/store-sql; receipts are written by a trigger on
 * `messages` (migration 0900), so this port only reads, leases and acknowledges them.
 */
import type { Bucket, SmppMode } from "@tuma/domain"
import type { Option } from "effect"
import { Context, type Effect } from "effect"
import type { LoginFailures } from "./LoginFailures.js"

/** Stored SMPP credentials. */
export interface SmppAccountRow {
  readonly id: string
  readonly account_id: string
  readonly system_id: string
  readonly password_hash: string
  readonly mode: SmppMode
  readonly throughput_rate: number
  readonly throughput_burst: number
  readonly max_binds: number
  readonly allowed_ips: ReadonlyArray<string>
  readonly disabled_at: Date | null
  readonly created_at: Date
  readonly updated_at: Date
}

/**
 * Which receipts: `final` (delivered/failed, `smpp_receipts`) or `intermediate` (enroute, when the carrier
 * accepted a message whose submit asked for it: `smpp_receipts_intermediate`, migration 1001).
 */
export type ReceiptKind = "final" | "intermediate"

/** A receipt due to a bind, with what its deliver_sm says. */
export interface DueReceipt {
  readonly message_id: string
  readonly smpp_account_id: string
  readonly status: "delivered" | "failed" | "enroute"
  readonly final_at: Date
  readonly attempts: number
  readonly created_at: Date
  readonly recipient: string
  readonly sender_id: string
  readonly text: string
  readonly submitted_at: Date
}

/** An inbound message due to a bind of its account (migration 1000), with what its deliver_sm says. */
export interface DueInbound {
  readonly inbound_id: string
  /** The credentials whose receiver/transceiver bind gets it (the oldest of the account's bound here). */
  readonly smpp_account_id: string
  readonly attempts: number
  readonly created_at: Date
  /** The handset. */
  readonly from_addr: string
  /** The number or short code it was sent to. */
  readonly to_addr: string
  readonly text: string
  /** How it arrived: `GSM-7`, `Latin-1` or `UCS-2`. */
  readonly encoding: string
}

/** The store of SMPP credentials, their receipts and the inbound messages owed to their binds. */
export class SmppStore extends Context.Tag("@tuma/core/SmppStore")<SmppStore, {
  /** Inserts; `false` when the system_id is taken. */
  readonly insert: (row: SmppAccountRow) => Effect.Effect<boolean>
  readonly list: (accountId: string | undefined) => Effect.Effect<ReadonlyArray<SmppAccountRow>>
  readonly get: (id: string) => Effect.Effect<Option.Option<SmppAccountRow>>
  readonly bySystemId: (systemId: string) => Effect.Effect<Option.Option<SmppAccountRow>>
  readonly accountExists: (accountId: string) => Effect.Effect<boolean>
  /** Sets the disabled time (null: enabled), the password hash, or the limits (throughput, binds, addresses). */
  readonly update: (
    id: string,
    change: {
      readonly disabled_at?: Date | null
      readonly password_hash?: string
      readonly limits?: Pick<SmppAccountRow, "throughput_rate" | "throughput_burst" | "max_binds" | "allowed_ips">
    },
    now: Date
  ) => Effect.Effect<Option.Option<SmppAccountRow>>
  /** Deletes the credentials and their pending receipts. */
  readonly remove: (id: string) => Effect.Effect<boolean>
  /**
   * Leases up to `limit` pending receipts of these credentials that are due: their next attempt is
   * pushed `leaseMillis` ahead and their attempts counted (a receipt not acknowledged comes back).
   */
  readonly claimReceipts: (
    kind: ReceiptKind,
    smppAccountIds: ReadonlyArray<string>,
    limit: number,
    leaseMillis: number
  ) => Effect.Effect<ReadonlyArray<DueReceipt>>
  /** Makes a leased receipt due again after `delayMillis` (its deliver_sm was not acknowledged). */
  readonly retryAfter: (kind: ReceiptKind, messageId: string, delayMillis: number) => Effect.Effect<void>
  /** Marks these receipts acknowledged (deliver_sm_resp ESME_ROK), in one statement (one per pump pass). */
  readonly acknowledge: (kind: ReceiptKind, messageIds: ReadonlyArray<string>) => Effect.Effect<void>
  /** Marks pending receipts (both kinds) and inbound messages created before `before` expired; answers how many. */
  readonly expire: (before: Date) => Effect.Effect<number>
  /**
   * Leases up to `limit` pending inbound messages of the accounts of these credentials (bound here), each
   * with the oldest of these credentials of its account and mode; as `claimReceipts`.
   */
  readonly claimInbound: (
    smppAccountIds: ReadonlyArray<string>,
    limit: number,
    leaseMillis: number
  ) => Effect.Effect<ReadonlyArray<DueInbound>>
  /** Makes a leased inbound message due again after `delayMillis`. */
  readonly retryInbound: (inboundId: string, delayMillis: number) => Effect.Effect<void>
  /** Marks these inbound messages acknowledged by a bind of these credentials, in one statement. */
  readonly acknowledgeInbound: (
    delivered: ReadonlyArray<{ readonly inboundId: string; readonly smppAccountId: string }>
  ) => Effect.Effect<void>
  /** Failed binds per system_id, shared by every process of the store (the lockout; migration 1002). */
  readonly bindFailures: LoginFailures
  /** Pending receipts (a gauge). */
  readonly pending: Effect.Effect<number>
  /**
   * The credentials' throughput bucket shared by every process (migration 0920): reads it locked (none
   * yet: undefined) with the store's clock in milliseconds, writes the bucket `decide` answers and
   * answers its `answer`, in one transaction (processes lease one after the other).
   */
  readonly withBucket: <A>(
    smppAccountId: string,
    decide: (bucket: Bucket | undefined, nowMillis: number) => { readonly bucket: Bucket; readonly answer: A }
  ) => Effect.Effect<A>
}>() {}
