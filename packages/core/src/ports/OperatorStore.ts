/**
 * The `OperatorStore` port: plain writes and look-ups behind the `Operator` service (account set-up,
 * API keys, credit purchases, routes, sender IDs, providers, markets, opt-outs, spam rules).
 * Ids and timestamps are decided by the caller. The SQL adapter is `SqlOperatorStore.layer`.
 *
 * Extend it (additively) for the admin API.
 */
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { LedgerRow } from "./ledger.js"
import type { MarketRow, SenderIdStatus } from "./SendStore.js"

/** A stored account. */
export interface AccountRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly phone: string | null
  readonly phone_verified_at: Date | null
  readonly country_id: string | null
  readonly active: boolean
  readonly created_at: Date
  readonly updated_at: Date
}

/** A stored API key (its SHA-256, never the key). */
export interface ApiKeyRow {
  readonly id: string
  readonly account_id: string
  readonly name: string
  /** sha256 hex of the full key. */
  readonly key_hash: string
  /** The first characters of the key, for display. */
  readonly prefix: string
  readonly mode: "live" | "test"
  readonly scopes: ReadonlyArray<string>
  readonly allowed_ips: ReadonlyArray<string>
  readonly expires_at: Date | null
  readonly revoked_at: Date | null
  readonly last_used_at: Date | null
  readonly created_at: Date
}

/** A credit purchase to record in a wallet's ledger. */
export interface PurchaseRow {
  readonly account_id: string
  readonly market_id: string
  /** Used when the wallet does not exist yet. */
  readonly new_wallet_id: string
  readonly units: number
  readonly amount: string | null
  readonly currency: string | null
  readonly reference: string | null
  readonly at: Date
}

/** A verified route: an account may send to a market. */
export interface VerifiedRouteRow {
  readonly id: string
  readonly account_id: string
  readonly market_id: string
  readonly phone: string
  readonly verified_at: Date
}

/** A stored sender-ID record. */
export interface SenderIdRow {
  readonly id: string
  readonly account_id: string
  readonly market_id: string
  /** Uppercase. */
  readonly name: string
  /** The case chosen by the requester. */
  readonly display_name: string
  readonly status: SenderIdStatus
  readonly is_default: boolean
  readonly is_global: boolean
  readonly sample_message: string
  readonly purpose: string | null
  readonly requested_at: Date
  readonly updated_at: Date
}

/** A stored provider (carrier). */
export interface ProviderRow {
  readonly id: string
  readonly name: string
  readonly kind: string
  readonly config: unknown
  readonly enabled: boolean
  readonly created_at: Date
}

/** A new spam rule. */
export interface SpamRuleInsert {
  readonly id: string
  readonly account_id: string | null
  readonly kind: string
  readonly pattern: string
  readonly description: string
  readonly created_at: Date
}

/** Port: the storage the `Operator` use cases need. Adapter: `SqlOperatorStore` in `@tuma/store-sql`. */
export class OperatorStore extends Context.Tag("@tuma/core/OperatorStore")<OperatorStore, {
  readonly findMarket: (iso2: string) => Effect.Effect<Option.Option<MarketRow>>
  readonly setMarketOpen: (iso2: string, open: boolean) => Effect.Effect<boolean>
  readonly insertAccount: (row: AccountRow) => Effect.Effect<void>
  readonly findAccount: (id: string) => Effect.Effect<Option.Option<AccountRow>>
  readonly setAccountActive: (id: string, active: boolean, at: Date) => Effect.Effect<boolean>
  readonly insertApiKey: (row: ApiKeyRow) => Effect.Effect<void>
  /** Creates the wallet if needed; credits it and writes the `purchase` ledger row, atomically; answers the row. */
  readonly purchase: (row: PurchaseRow) => Effect.Effect<LedgerRow>
  /** Inserts or refreshes the account's verified route for the market. */
  readonly upsertVerifiedRoute: (row: VerifiedRouteRow) => Effect.Effect<void>
  /** Inserts the sender ID, or updates status/flags of the existing (account, market, name). */
  readonly upsertSenderId: (row: SenderIdRow) => Effect.Effect<SenderIdRow>
  readonly insertProvider: (row: ProviderRow) => Effect.Effect<void>
  readonly setProviderCredit: (providerId: string, marketId: string, balance: number, at: Date) => Effect.Effect<void>
  readonly upsertProviderRoute: (
    row: { id: string; provider_id: string; market_id: string; priority: number; enabled: boolean; created_at: Date }
  ) => Effect.Effect<void>
  readonly insertOptOut: (accountId: string, recipient: string, reason: string | null, at: Date) => Effect.Effect<void>
  readonly insertSpamRule: (row: SpamRuleInsert) => Effect.Effect<void>
}>() {}
