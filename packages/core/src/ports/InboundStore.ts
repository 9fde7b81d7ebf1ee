/**
 * The `InboundStore` port: two-way SMS at rest — the addresses assigned to accounts, the messages
 * handsets sent (joined from their parts), the parts still waiting, the auto-reply texts and the
 * auto replies owed. The SQL adapter is `SqlInboundStore` in @tuma/store-sql.
 *
 * What a carrier delivers is written by the delivery writer's transaction (`DispatchBatch.inbound`,
 * `DispatchStore.apply`), so it is stored before the carrier is acknowledged; this port joins what
 * waited too long, simulates, reads and administers.
 */
import type { AutoReplyTexts, Concat, InboundAssignment, InboundEncoding } from "@tuma/domain"
import type { Effect, Option } from "effect"
import { Context } from "effect"

/** One mobile-originated part as received from a carrier (or simulated), before it is joined. */
export interface InboundRecord {
  /** The provider's name (or `simulator` for a simulated message). */
  readonly provider: string
  /** The handset, E.164 with `+` when the carrier gave a number. */
  readonly from: string
  /** The address it was sent to. */
  readonly to: string
  readonly text: string
  readonly encoding: InboundEncoding
  /** Its place in a concatenated message; null for a single-part message. */
  readonly concat: Concat | null
  readonly receivedAt: Date
  /** Simulated by a sandbox key of this account: routed to it whatever the address. */
  readonly sandboxAccountId?: string | undefined
}

/** What recording a batch of parts did. */
export interface InboundOutcome {
  /** Parts stored (new). */
  readonly parts: number
  /** Parts dropped as a carrier's re-send. */
  readonly duplicates: number
  /** Messages made (routed or not). */
  readonly messages: number
  /** Of them, unrouted. */
  readonly unrouted: number
  /** Ids of the messages made, in the order of their first part. */
  readonly messageIds: ReadonlyArray<string>
}

/** An inbound message at rest. */
export interface InboundRow {
  readonly id: string
  readonly account_id: string | null
  readonly provider: string
  readonly from_addr: string
  readonly to_addr: string
  readonly keyword: string | null
  readonly text: string
  readonly encoding: InboundEncoding
  readonly parts: number
  readonly complete: boolean
  readonly command: "stop" | "start" | "help" | null
  readonly in_reply_to: string | null
  readonly sandbox: boolean
  readonly received_at: Date
}

/** An assignment at rest. */
export interface InboundNumberRow extends InboundAssignment {
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A page of inbound messages: newest first, `since`/`from`/`to` filters. */
export interface InboundQuery {
  /** Simulated messages (a sandbox key's) or real ones. */
  readonly sandbox: boolean
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly since?: Date | undefined
  readonly offset: number
  readonly limit: number
}

/** A conversation: a handset and the account's number it wrote to, its latest message and unread count. */
export interface ConversationRow {
  readonly handset: string
  readonly number: string
  readonly last_text: string
  readonly last_at: Date
  /** Inbound messages in it. */
  readonly messages: number
  /** Inbound messages not yet opened in the portal. */
  readonly unread: number
}

/** A message the account sent to a handset from a number (the other direction of a conversation). */
export interface SentToRow {
  readonly id: string
  readonly text: string
  readonly status: string
  readonly created_at: Date
}

/** An auto reply owed, leased to the worker that sends it. */
export interface DueReply {
  readonly inboundId: string
  readonly accountId: string
  readonly handset: string
  readonly sender: string
  readonly text: string
  readonly attempts: number
}

/** Two-way SMS at rest. */
export class InboundStore extends Context.Tag("@tuma/core/InboundStore")<InboundStore, {
  // addresses ------------------------------------------------------------------------------------
  /**
   * Inserts (no `id` change) or replaces an assignment, checking the conflict rule against the
   * others of its address in the same transaction; answers the assignment it collides with instead.
   */
  readonly saveNumber: (
    row: InboundNumberRow,
    mode: "insert" | "update"
  ) => Effect.Effect<{ readonly saved: true } | { readonly conflict: InboundAssignment }>
  readonly listNumbers: (accountId: string | undefined) => Effect.Effect<ReadonlyArray<InboundNumberRow>>
  readonly getNumber: (id: string) => Effect.Effect<Option.Option<InboundNumberRow>>
  readonly deleteNumber: (id: string) => Effect.Effect<boolean>
  readonly accountExists: (accountId: string) => Effect.Effect<boolean>

  // messages -------------------------------------------------------------------------------------
  /** Records parts (as the delivery writer does), in one transaction. */
  readonly record: (records: ReadonlyArray<InboundRecord>, now: Date) => Effect.Effect<InboundOutcome>
  /** Joins the groups whose first part arrived before `before` with what arrived (complete: false). */
  readonly joinExpired: (before: Date, now: Date) => Effect.Effect<InboundOutcome>
  /** Forgets joined parts past their re-send window; answers how many. */
  readonly purgeParts: (now: Date) => Effect.Effect<number>
  /** The account's messages (or the unrouted ones, `accountId` null), newest first, and their total. */
  readonly list: (
    accountId: string | null,
    query: InboundQuery
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<InboundRow>; readonly total: number }>
  /** One message of the account (null: an unrouted one, for operators). */
  readonly get: (accountId: string | null, id: string) => Effect.Effect<Option.Option<InboundRow>>

  // conversations (the portal's inbox) -----------------------------------------------------------
  /** The account's conversations (live or simulated messages), latest message first, and their total. */
  readonly conversations: (
    accountId: string,
    sandbox: boolean,
    offset: number,
    limit: number
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<ConversationRow>; readonly total: number }>
  /** Inbound messages of the account not yet opened. */
  readonly unread: (accountId: string, sandbox: boolean) => Effect.Effect<number>
  /** Marks the conversation's inbound messages opened at `now`; answers how many were unread. */
  readonly markRead: (
    accountId: string,
    sandbox: boolean,
    handset: string,
    number: string,
    now: Date
  ) => Effect.Effect<number>
  /** The newest `limit` messages the account sent to `handset` from `number` (its digits), newest first. */
  readonly sentTo: (
    accountId: string,
    handset: string,
    number: string,
    limit: number
  ) => Effect.Effect<ReadonlyArray<SentToRow>>

  // auto replies ---------------------------------------------------------------------------------
  readonly settings: (accountId: string) => Effect.Effect<AutoReplyTexts>
  readonly saveSettings: (accountId: string, texts: AutoReplyTexts, now: Date) => Effect.Effect<void>
  /** Leases up to `limit` due auto replies until `leaseUntil`. */
  readonly claimReplies: (limit: number, now: Date, leaseUntil: Date) => Effect.Effect<ReadonlyArray<DueReply>>
  /** Records an auto reply's outcome: sent (its message), or failed (retry at, or never). */
  readonly completeReply: (
    inboundId: string,
    result:
      | { readonly _tag: "Sent"; readonly messageId: string }
      | { readonly _tag: "Failed"; readonly error: string; readonly retryAt: Date | null }
  ) => Effect.Effect<void>

  // metrics --------------------------------------------------------------------------------------
  /** Parts waiting for the rest of their message, and unrouted messages stored. */
  readonly gauges: Effect.Effect<{ readonly partsWaiting: number; readonly unrouted: number }>
}>() {}
