/**
 * The `ReadStore` port: the look-ups behind the read use cases (`Reads`): the message list and one
 * message (spec §4.3–4.4), wallets (§2.5) and the account profile (§2.8). Read-only; every query is
 * scoped to one account. The SQL adapter is `SqlReadStore.layer` in @tuma/store-sql.
 */
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { MessageEntryRow } from "../MessageEntry.js"
import type { Channel, MessageStatus } from "./SendStore.js"

/** Filters of a message list read. */
export interface MessageListFilter {
  readonly accountId: string
  readonly status?: MessageStatus | undefined
  readonly channel?: Channel | undefined
  /** Only the messages of this campaign. */
  readonly campaignId?: string | undefined
  /** `created_at >= createdFrom` */
  readonly createdFrom?: Date | undefined
  /** `created_at < createdBefore` (exclusive) */
  readonly createdBefore?: Date | undefined
}

/** A message list read: filters plus the page's limit and offset. */
export interface MessagePageRequest extends MessageListFilter {
  readonly limit: number
  readonly offset: number
}

/** A wallet with its market (an enabled wallet counts towards the balance). */
export interface WalletMarketRow {
  readonly id: string
  readonly market_id: string
  readonly iso2: string
  readonly calling_code: string
  readonly market_name: string
  readonly balance: number
  readonly enabled: boolean
}

/** A verified SMS route of the account with its market. */
export interface VerifiedRouteMarketRow {
  readonly id: string
  readonly market_id: string
  readonly iso2: string
  readonly calling_code: string
  readonly market_name: string
  readonly market_open: boolean
  readonly phone: string
  readonly verified_at: Date
}

/** The stored account fields of the profile (spec §2.8). */
export interface ProfileRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly phone: string | null
  readonly phone_verified_at: Date | null
  readonly active: boolean
  readonly country: {
    readonly id: string
    readonly iso2: string
    readonly calling_code: string
    readonly name: string
  } | null
}

/** Port: the storage the `Reads` use cases need. Adapter: `SqlReadStore` in `@tuma/store-sql`. */
export class ReadStore extends Context.Tag("@tuma/core/ReadStore")<ReadStore, {
  /** One page, newest first (`created_at DESC, id DESC`), rows joined with their campaign name. */
  readonly listMessages: (request: MessagePageRequest) => Effect.Effect<ReadonlyArray<MessageEntryRow>>
  /** How many messages match the filter (for the pagination meta). */
  readonly countMessages: (filter: MessageListFilter) => Effect.Effect<number>
  /** The message if it exists AND belongs to the account. */
  readonly findMessage: (accountId: string, messageId: string) => Effect.Effect<Option.Option<MessageEntryRow>>
  /** Every wallet of the account (enabled or not), by country code. */
  readonly wallets: (accountId: string) => Effect.Effect<ReadonlyArray<WalletMarketRow>>
  /** Verified routes of the account, by country code. */
  readonly verifiedRoutes: (accountId: string) => Effect.Effect<ReadonlyArray<VerifiedRouteMarketRow>>
  readonly profile: (accountId: string) => Effect.Effect<Option.Option<ProfileRow>>
}>() {}
