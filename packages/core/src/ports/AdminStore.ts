/**
 * The `AdminStore` port: the operator-side reads and writes `Admin` needs beyond `OperatorStore`
 * (which it reuses for markets, purchases, routes, provider credit and spam/opt-out inserts).
 * Ids and timestamps are decided by the caller. The SQL adapter is `SqlAdminStore.layer`.
 */
import type { Effect, Either, Option } from "effect"
import { Context } from "effect"
import type { LedgerRow } from "./ledger.js"
import type { AccountRow, ApiKeyRow, ProviderRow } from "./OperatorStore.js"
import type { MarketRow } from "./SendStore.js"

export type { LedgerRow } from "./ledger.js"

/** Filters of the operator's account list. */
export interface AccountListFilter {
  readonly active?: boolean | undefined
  /** Case-insensitive substring of name or e-mail. */
  readonly search?: string | undefined
  readonly limit: number
  readonly offset: number
}

/** The fields of an API key an operator may change; omitted fields stay. */
export interface ApiKeyPatch {
  readonly name?: string | undefined
  readonly scopes?: ReadonlyArray<string> | undefined
  readonly allowed_ips?: ReadonlyArray<string> | undefined
  /** `null` clears the expiry. */
  readonly expires_at?: Date | null | undefined
}

/** A credit correction: an `adjustment` row of the wallet's ledger (never an edit of a row). */
export interface CorrectionRow {
  readonly account_id: string
  readonly market_id: string
  /** Signed, non-zero. */
  readonly units: number
  readonly reason: string
  /** A ledger row id (digits) of the same wallet, or null. */
  readonly corrects_id: string | null
  readonly at: Date
}

/** Why a correction wrote nothing: no wallet, the corrected row is not the wallet's, or below 0. */
export type CorrectionRefused =
  | { readonly _tag: "NoWallet" }
  | { readonly _tag: "NotInWallet" }
  /** The entry is of a kind a correction may not name (domain `isCorrectable`). */
  | { readonly _tag: "NotCorrectable"; readonly kind: string }
  | { readonly _tag: "Negative"; readonly balance: number }

/** A stored opt-out: the account, the recipient and why. */
export interface OptOutRow {
  readonly account_id: string
  readonly recipient: string
  readonly reason: string | null
  readonly created_at: Date
}

/** A stored spam rule, global (`account_id` null) or for one account. */
export interface SpamRuleFullRow {
  readonly id: string
  readonly account_id: string | null
  readonly kind: string
  readonly pattern: string
  readonly description: string
  readonly enabled: boolean
  readonly created_at: Date
}

/** An operator's switch of one built-in spam check. */
export interface SpamBuiltinSwitchRow {
  readonly kind: string
  readonly pattern: string
  readonly enabled: boolean
  readonly updated_at: Date
}

/** A stored provider with its settings (`config` holds credentials: never answered). */
export interface ProviderFullRow extends ProviderRow {
  readonly credits: ReadonlyArray<{ readonly iso2: string; readonly balance: number; readonly updated_at: Date }>
  readonly routes: ReadonlyArray<{ readonly iso2: string; readonly priority: number; readonly enabled: boolean }>
}

/** A provider route for a country, with its priority. */
export interface CountryRouteRow {
  readonly id: string
  readonly provider_id: string
  readonly provider_name: string
  readonly provider_enabled: boolean
  readonly priority: number
  readonly enabled: boolean
  /** Provider credit for the market (0 when none recorded). */
  readonly credit: number
}

/** Port: the storage the `Admin` use cases need. Adapter: `SqlAdminStore` in `@tuma/store-sql`. */
export class AdminStore extends Context.Tag("@tuma/core/AdminStore")<AdminStore, {
  /** false when an account with that e-mail (case-insensitive) exists; nothing written then. */
  readonly insertAccount: (row: AccountRow) => Effect.Effect<boolean>
  readonly listAccounts: (filter: AccountListFilter) => Effect.Effect<ReadonlyArray<AccountRow>>
  readonly listMarkets: Effect.Effect<ReadonlyArray<MarketRow>>
  readonly findMarketById: (id: string) => Effect.Effect<Option.Option<MarketRow>>

  readonly listApiKeys: (accountId: string) => Effect.Effect<ReadonlyArray<ApiKeyRow>>
  readonly findApiKey: (id: string) => Effect.Effect<Option.Option<ApiKeyRow>>
  readonly updateApiKey: (id: string, patch: ApiKeyPatch) => Effect.Effect<Option.Option<ApiKeyRow>>
  /** Sets `revoked_at` unless already revoked (the first revocation time is kept). */
  readonly revokeApiKey: (id: string, at: Date) => Effect.Effect<Option.Option<ApiKeyRow>>

  readonly ledger: (
    accountId: string,
    options: { readonly marketId?: string | undefined; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<LedgerRow>>
  /**
   * Applies a correction atomically: the wallet's balance and its `adjustment` ledger row, or,
   * refused, nothing (the wallet never goes below 0). Answers the row.
   */
  readonly correctWallet: (row: CorrectionRow) => Effect.Effect<Either.Either<LedgerRow, CorrectionRefused>>
  readonly setWalletEnabled: (accountId: string, marketId: string, enabled: boolean, at: Date) => Effect.Effect<boolean>
  readonly deleteVerifiedRoute: (accountId: string, marketId: string) => Effect.Effect<boolean>

  readonly listOptOuts: (accountId: string) => Effect.Effect<ReadonlyArray<OptOutRow>>
  readonly findOptOut: (accountId: string, recipient: string) => Effect.Effect<Option.Option<OptOutRow>>
  readonly deleteOptOut: (accountId: string, recipient: string) => Effect.Effect<boolean>

  readonly listSpamRules: (
    filter: { readonly accountId?: string | null | undefined }
  ) => Effect.Effect<ReadonlyArray<SpamRuleFullRow>>
  readonly findSpamRule: (id: string) => Effect.Effect<Option.Option<SpamRuleFullRow>>
  readonly deleteSpamRule: (id: string) => Effect.Effect<boolean>
  /** false when no rule has that id. */
  readonly setSpamRuleEnabled: (id: string, enabled: boolean) => Effect.Effect<boolean>
  /** The stored switches of built-in entries (an entry without one is on). */
  readonly listSpamBuiltinSwitches: Effect.Effect<ReadonlyArray<SpamBuiltinSwitchRow>>
  readonly setSpamBuiltinSwitch: (row: SpamBuiltinSwitchRow) => Effect.Effect<void>

  /** false when a provider with that name exists; nothing written then. */
  readonly insertProvider: (row: ProviderRow) => Effect.Effect<boolean>
  readonly listProviders: Effect.Effect<ReadonlyArray<ProviderFullRow>>
  readonly findProvider: (id: string) => Effect.Effect<Option.Option<ProviderFullRow>>
  readonly setProviderEnabled: (id: string, enabled: boolean) => Effect.Effect<boolean>
  /** Adds (or, negative, removes) provider credit; never below 0. Answers the new balance. */
  readonly addProviderCredit: (
    providerId: string,
    marketId: string,
    units: number,
    at: Date
  ) => Effect.Effect<number>
  /**
   * Makes `providerIds` the market's routes in that order (priority 0, 1, …, enabled); every other
   * route of the market is disabled. One transaction.
   */
  readonly replaceCountryRoutes: (
    marketId: string,
    routes: ReadonlyArray<{ readonly id: string; readonly provider_id: string }>,
    at: Date
  ) => Effect.Effect<void>
  readonly countryRoutes: (marketId: string) => Effect.Effect<ReadonlyArray<CountryRouteRow>>
}>() {}
