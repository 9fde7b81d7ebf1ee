/**
 * The `DispatchStore` port: the durable side of delivery. SQL adapter: @tuma/store-sql
 * `SqlDispatchStore` (tables `dispatch_queue`, `messages`, `message_parts`, `provider_credits`,
 * `wallets`/`wallet_ledger`, `dispatch_reconcile`, `delivery_receipts_pending`, `dispatch_rate`).
 *
 * Workers call `claim` (a leased batch: FOR UPDATE SKIP LOCKED; the lease is the row's
 * `available_at`, so an expired lease makes the row claimable again by itself) and write every
 * outcome through `apply`, one transaction per batch. Times are passed in (Effect `Clock`).
 */
import type { Effect } from "effect"
import { Context } from "effect"
import type { InboundOutcome, InboundRecord } from "./InboundStore.js"
import type { PartState, ProviderEncoding } from "./Provider.js"

/** A queued message claimed by a worker (now `processing`), with what routing, provider credit and the submit need. */
export interface ClaimedMessage {
  readonly id: string
  readonly accountId: string
  readonly marketId: string
  readonly country: string
  readonly recipient: string
  readonly senderId: string
  readonly text: string
  readonly encoding: ProviderEncoding
  readonly parts: number
  readonly units: number
  readonly queuedAt: Date | null
  readonly createdAt: Date
  /** Claims so far, this one included. */
  readonly attempts: number
}

/** An enabled route to a market through an enabled provider. */
export interface RouteRow {
  readonly marketId: string
  /** providers.id (uuid). */
  readonly providerId: string
  /** providers.name: the adapter's `Provider.id`. */
  readonly providerName: string
  readonly priority: number
  /** Messages (submit_sm PDUs) per second across every worker; null = unlimited. */
  readonly maxPerSecond: number | null
}

/** A configured provider: `id` (uuid), `name` (the adapter's `Provider.id`), adapter `kind` and its settings. */
export interface ProviderRow {
  readonly id: string
  readonly name: string
  readonly kind: string
  readonly config: Record<string, unknown>
}

/** One part of a message the provider took, as the submit left it. */
export interface SentPart {
  readonly index: number
  /** As the carrier wrote it; null when refused or unknown. */
  readonly providerMessageId: string | null
  /** `normalizeRef` of it. */
  readonly ref: string | null
  readonly state: "enroute" | "failed" | "unknown"
}

/** The provider took (or may have taken) the message: processing -> sent. */
export interface SentRecord {
  readonly messageId: string
  readonly providerId: string
  readonly parts: ReadonlyArray<SentPart>
  /** Set when some parts were refused after others were accepted: the message then fails (no refund). */
  readonly failureReason: string | null
  /** Set for an `Unknown` outcome: reconciliation waits until `deadline`. */
  readonly unknown: { readonly reference: string; readonly reason: string; readonly deadline: Date } | null
  /**
   * A final receipt of a single-part message that came while this record still waited for its
   * write (it would have been written in the same transaction anyway): the one UPDATE moves the
   * message processing -> delivered/failed with `sent_at` and `delivered_at`/`failed_at` together.
   */
  readonly receipt?: SentReceipt | undefined
}

/** A final receipt written together with its `SentRecord` (see `SentRecord.receipt`). */
export interface SentReceipt {
  readonly state: "delivered" | "failed"
  readonly deliveryStatus: string
  readonly failureReason: string | null
}

/** Final failure before any provider accepted it; `refund` per decisions §20. */
export interface FailRecord {
  readonly messageId: string
  readonly reason: string
  readonly code: string
  readonly refund: boolean
}

/** Back to `queued`, tried again at `availableAt`. */
export interface RequeueRecord {
  readonly messageId: string
  readonly availableAt: Date
  readonly lastError: string
}

/** Provider credit reserved but not used (not needed, or the submit was not accepted), given back. */
export interface CreditReturn {
  readonly providerId: string
  readonly marketId: string
  readonly units: number
}

/** A delivery receipt for one part, matched to a recorded part by provider and normalised carrier id. */
export interface ReceiptRecord {
  /** providers.id */
  readonly providerId: string
  /** `refCandidates` of the receipt's id, most literal first. */
  readonly candidates: ReadonlyArray<string>
  readonly state: PartState
  readonly deliveryStatus: string
  readonly errorCode: string | null
  /** Human-readable failure reason when `state` is failed. */
  readonly failureReason: string | null
  readonly receivedAt: Date
}

/** A part's provider message id that arrived after its submit had timed out (`Unknown`): recorded on the part. */
export interface LateAcceptanceRecord {
  readonly providerId: string
  readonly messageId: string
  readonly partIndex: number
  readonly providerMessageId: string
  readonly ref: string
}

/** An inbound STOP from a handset: opts it out of the account whose message it answered. */
export interface OptOutRecord {
  readonly providerId: string
  /** The handset, E.164. */
  readonly recipient: string
  /** The address the handset wrote to (sender ID or number). */
  readonly to: string
  readonly text: string
  readonly receivedAt: Date
}

/** Every outcome the writer collected since its last flush, written by `apply` in one transaction. */
export interface DispatchBatch {
  readonly now: Date
  readonly owner: string
  readonly sent: ReadonlyArray<SentRecord>
  readonly failed: ReadonlyArray<FailRecord>
  readonly requeued: ReadonlyArray<RequeueRecord>
  readonly creditReturns: ReadonlyArray<CreditReturn>
  readonly receipts: ReadonlyArray<ReceiptRecord>
  readonly lateAcceptances: ReadonlyArray<LateAcceptanceRecord>
  readonly optOuts: ReadonlyArray<OptOutRecord>
  /** Mobile-originated parts (two-way SMS): stored, joined, routed (`InboundStore`). */
  readonly inbound: ReadonlyArray<InboundRecord>
}

/** What `apply` did with a batch's receipts and opt-outs (counts). */
export interface ApplyResult {
  readonly receiptsMatched: number
  /** Receipts with no known part yet: kept in `delivery_receipts_pending`, matched later. */
  readonly receiptsPending: number
  readonly optedOut: number
  /** What the batch's inbound parts became. */
  readonly inbound: InboundOutcome
}

/** A message whose submit outcome was `Unknown` and whose deadline passed, leased for reconciliation. */
export interface ReconcileItem {
  readonly messageId: string
  readonly providerId: string
  readonly reference: string
  /** Provider ids known for its parts (from late acceptances), for a status query. */
  readonly providerMessageIds: ReadonlyArray<string>
}

/** The durable side of delivery: claims, routes and credit, batched outcome writes, reconciliation and liveness. */
export class DispatchStore extends Context.Tag("@tuma/core/DispatchStore")<DispatchStore, {
  /** Claims up to `limit` due messages for `owner`, leased until `leaseUntil`; they become `processing`. */
  readonly claim: (
    options: { readonly owner: string; readonly limit: number; readonly now: Date; readonly leaseUntil: Date }
  ) => Effect.Effect<ReadonlyArray<ClaimedMessage>>
  readonly routes: Effect.Effect<ReadonlyArray<RouteRow>>
  readonly providers: Effect.Effect<ReadonlyArray<ProviderRow>>
  /** Takes up to `units` of a provider's credit for a market; answers what it got (0..units). */
  readonly reserveCredit: (providerId: string, marketId: string, units: number, now: Date) => Effect.Effect<number>
  /** Writes a batch of outcomes in one transaction. */
  readonly apply: (batch: DispatchBatch) => Effect.Effect<ApplyResult>
  /** scheduled -> queued for messages due at `now` (at most `limit`); answers how many moved. */
  readonly promoteScheduled: (now: Date, limit: number) => Effect.Effect<number>
  /** Unknown outcomes past their deadline (leased for `leaseMs` to the caller). */
  readonly dueReconciliations: (
    now: Date,
    limit: number,
    leaseUntil: Date
  ) => Effect.Effect<ReadonlyArray<ReconcileItem>>
  /** Fails unconfirmed messages (no refund: the provider may have accepted them). */
  readonly failUnconfirmed: (
    items: ReadonlyArray<{ messageId: string; reason: string }>,
    now: Date
  ) => Effect.Effect<void>
  /** Matches pending receipts against parts recorded since (cheap when there are none). */
  readonly matchPendingReceipts: (now: Date) => Effect.Effect<number>
  /** Matches pending receipts against parts recorded since; drops ones older than `olderThan`. */
  readonly sweepPendingReceipts: (now: Date, olderThan: Date) => Effect.Effect<number>
  /**
   * Reserves `count` send slots of a provider limited to `perSecond` across every process;
   * answers the delay in ms from now to the first slot (slots are spaced 1000/perSecond ms).
   */
  readonly reserveSlots: (providerId: string, count: number, perSecond: number) => Effect.Effect<number>
  /**
   * Records that worker `owner` is alive (database clock). With `takeOverAfterMs` (the caller has
   * itself been heard from continuously that long), also forgets the workers silent for that long
   * and makes their claimed rows claimable at `now`. Answers whether `owner` was still registered
   * (false on its first beat, or when another worker took its claims over) and how many rows were
   * released.
   */
  readonly heartbeat: (
    owner: string,
    now: Date,
    takeOverAfterMs: number | null
  ) => Effect.Effect<{ readonly registered: boolean; readonly released: number }>
  /**
   * Gives back claims of `owner` it will not settle, claimable again from `availableAt` (their
   * messages `processing` -> `queued`): the rows of `messageIds`, or every row still leased by one
   * claim (its `leaseUntil`), whose answer was lost with the connection. Rows `owner` no longer holds
   * (settled, requeued, taken over) are left alone. Answers how many rows were released.
   */
  readonly release: (
    owner: string,
    which: ReleaseSelection,
    availableAt: Date
  ) => Effect.Effect<number>
}>() {}

/** The claims `DispatchStore.release` gives back: these messages, or everything one claim leased. */
export type ReleaseSelection =
  | { readonly messageIds: ReadonlyArray<string> }
  | { readonly leaseUntil: Date }

/** Wake-ups when work may be waiting (pg_notify / PGlite listen); the worker also polls. */
export class DispatchWakeups extends Context.Tag("@tuma/core/DispatchWakeups")<DispatchWakeups, {
  /** Completes when a wake-up arrives (or never, when the driver has none). */
  readonly next: Effect.Effect<void>
}>() {}
