/**
 * The shape of the `Operator` service and its inputs, outputs and error: their own module so the audit
 * trail (`operatorAuditTrail.ts`) and the steps (`operatorSteps.ts`) can name them without importing
 * `Operator.ts`, which assembles them.
 */
import type { Effect } from "effect"
import { Schema } from "effect"
import type { AccountRow, SenderIdRow } from "../ports/OperatorStore.js"

/** A refused operator set-up step (unknown account, market or provider, a duplicate, …); `message` says which. */
export class OperatorError extends Schema.TaggedError<OperatorError>()("OperatorError", {
  message: Schema.String
}) {}

/** `live` keys send and charge; `test` (sandbox) keys validate exactly as live ones but never send or charge. */
export type ApiKeyMode = "live" | "test"

/** A new account: name, e-mail and the optional profile fields. */
export interface NewAccountInput {
  readonly name: string
  readonly email: string
  readonly phone?: string | undefined
  /** ISO2 of the account's country (default TZ). */
  readonly country?: string | undefined
  readonly active?: boolean | undefined
  /** Marks the phone verified now. */
  readonly phoneVerified?: boolean | undefined
}

/** A newly issued API key, with the full key shown this once. */
export interface NewApiKey {
  readonly id: string
  /** The full key: shown once, never stored. */
  readonly key: string
  readonly prefix: string
  readonly mode: ApiKeyMode
  readonly scopes: ReadonlyArray<string>
}

/** A sender ID granted to an account for a country. */
export interface SenderIdGrant {
  readonly id: string
  readonly name: string
  readonly display_name: string
  readonly country: string
  readonly status: SenderIdRow["status"]
}

/** Every set-up step of `Operator`. */
export interface OperatorService {
  readonly createAccount: (input: NewAccountInput) => Effect.Effect<AccountRow, OperatorError>
  readonly setAccountActive: (accountId: string, active: boolean) => Effect.Effect<void, OperatorError>
  readonly issueApiKey: (input: {
    readonly accountId: string
    readonly mode?: ApiKeyMode | undefined
    readonly scopes?: ReadonlyArray<string> | undefined
    readonly allowedIps?: ReadonlyArray<string> | undefined
    readonly expiresAt?: Date | undefined
    readonly name?: string | undefined
  }) => Effect.Effect<NewApiKey, OperatorError>
  /** Credits a country wallet (a `purchase` ledger entry; feeds `purchased_units`). */
  readonly purchaseCredits: (input: {
    readonly accountId: string
    readonly country: string
    readonly units: number
    readonly amount?: string | undefined
    readonly currency?: string | undefined
    readonly reference?: string | undefined
  }) => Effect.Effect<{ readonly walletId: string; readonly balance: number }, OperatorError>
  readonly verifyRoute: (input: {
    readonly accountId: string
    readonly country: string
    readonly phone: string
  }) => Effect.Effect<void, OperatorError>
  /** Grants (or moves) a sender ID for a country, `approved` unless another status is given. */
  readonly grantSenderId: (input: {
    readonly accountId: string
    readonly senderId: string
    readonly country: string
    readonly status?: SenderIdRow["status"] | undefined
    readonly isDefault?: boolean | undefined
    readonly isGlobal?: boolean | undefined
  }) => Effect.Effect<SenderIdGrant, OperatorError>
  /** Adds a provider with credit and a route for each listed country. */
  readonly addProvider: (input: {
    readonly name: string
    readonly kind?: string | undefined
    readonly config?: unknown
    readonly routes: ReadonlyArray<{ readonly country: string; readonly credit: number; readonly priority?: number }>
  }) => Effect.Effect<{ readonly id: string }, OperatorError>
  readonly setProviderCredit: (input: {
    readonly providerId: string
    readonly country: string
    readonly credit: number
  }) => Effect.Effect<void, OperatorError>
  readonly setMarketOpen: (country: string, open: boolean) => Effect.Effect<void, OperatorError>
  readonly addOptOut: (accountId: string, recipient: string, reason?: string) => Effect.Effect<void>
  /** A spam rule for one account, or for every account when `accountId` is null. */
  readonly addSpamRule: (input: {
    readonly accountId: string | null
    readonly kind: string
    readonly pattern: string
    readonly description?: string | undefined
  }) => Effect.Effect<{ readonly id: string }>
}
