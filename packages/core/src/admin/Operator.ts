/**
 * `Operator`: the operator-side operations that set an account up for sending — create an account,
 * issue an API key (the same generator and scope list as `Admin`), record a credit purchase (the same
 * checks and store call as `Admin.purchaseCredits`), verify a route, grant a sender ID (the record
 * `Admin.grantSenderId` writes, upserted: a grant again moves it), add a provider with
 * credit and a route, open a market, record an opt-out or a spam rule. Used by tests, examples, the
 * CLI and (extended) the admin API. Backed by the `OperatorStore` port; ids from `Ids`, time from
 * `Clock`. With an `AuditStore` in the context, every step is recorded in the audit log (for the
 * current `Actor`, in the step's transaction); without one (test fixtures) nothing is recorded.
 */
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { makeAudit } from "../audit/Audit.js"
import { hashApiKey } from "../ports/ApiKeys.js"
import { AuditStore } from "../ports/AuditStore.js"
import { Ids } from "../ports/Ids.js"
import type { AccountRow, SenderIdRow } from "../ports/OperatorStore.js"
import { OperatorStore } from "../ports/OperatorStore.js"
import type { MarketRow } from "../ports/SendStore.js"
import { API_KEY_SCOPES, apiKeyPrefix, generateApiKey } from "./apiKeys.js"
import { withOperatorAuditTrail } from "./operatorAuditTrail.js"
import { grantedSenderId, grantedSenderIdName } from "./senderIdReview.js"
import { recordPurchase } from "./wallets.js"

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

/**
 * Account set-up as an operator does it (accounts, keys, credit, verified routes, sender IDs, providers,
 * markets, opt-outs, spam rules): for the CLI, tests and embedding backends. `Operator.layer` needs
 * `OperatorStore` and `Ids`.
 */
export class Operator extends Context.Tag("@tuma/core/Operator")<Operator, {
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
}>() {
  /** Needs `OperatorStore` and `Ids`; records in the audit log when an `AuditStore` is provided too. */
  static readonly layer = Layer.effect(
    Operator,
    Effect.gen(function*() {
      const store = yield* OperatorStore
      const ids = yield* Ids
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const market = (iso2: string): Effect.Effect<MarketRow, OperatorError> =>
        store.findMarket(iso2.toUpperCase()).pipe(
          Effect.flatMap(Option.match({
            onNone: () => new OperatorError({ message: `Unknown country ${iso2}` }),
            onSome: Effect.succeed
          }))
        )
      const account = (id: string) =>
        store.findAccount(id).pipe(
          Effect.flatMap(Option.match({
            onNone: () => new OperatorError({ message: `Unknown account ${id}` }),
            onSome: Effect.succeed
          }))
        )
      const positive = (n: number, what: string) =>
        Number.isSafeInteger(n) && n >= 0
          ? Effect.void
          : new OperatorError({ message: `${what} must be a non-negative integer` })

      const service = Operator.of({
        createAccount: (input) =>
          Effect.gen(function*() {
            const country = yield* market(input.country ?? "TZ")
            const at = yield* now
            const row: AccountRow = {
              id: yield* ids.uuidV4,
              name: input.name,
              email: input.email,
              phone: input.phone ?? null,
              phone_verified_at: input.phoneVerified ? at : null,
              country_id: country.id,
              active: input.active ?? true,
              created_at: at,
              updated_at: at
            }
            yield* store.insertAccount(row)
            return row
          }),
        setAccountActive: (accountId, active) =>
          Effect.flatMap(now, (at) => store.setAccountActive(accountId, active, at)).pipe(
            Effect.flatMap((found) =>
              found ? Effect.void : new OperatorError({ message: `Unknown account ${accountId}` })
            )
          ),
        issueApiKey: (input) =>
          Effect.gen(function*() {
            yield* account(input.accountId)
            const mode = input.mode ?? "live"
            const key = generateApiKey(mode)
            const id = yield* ids.uuidV4
            const scopes = input.scopes ?? API_KEY_SCOPES
            yield* store.insertApiKey({
              id,
              account_id: input.accountId,
              name: input.name ?? "",
              key_hash: hashApiKey(key),
              prefix: apiKeyPrefix(key),
              mode,
              scopes,
              allowed_ips: input.allowedIps ?? [],
              expires_at: input.expiresAt ?? null,
              revoked_at: null,
              last_used_at: null,
              created_at: yield* now
            })
            return { id, key, prefix: apiKeyPrefix(key), mode, scopes }
          }),
        purchaseCredits: (input) =>
          Effect.gen(function*() {
            yield* positive(input.units, "units")
            yield* account(input.accountId)
            const m = yield* market(input.country)
            const entry = yield* recordPurchase({ op: store, ids }, { ...input, marketId: m.id })
            return { walletId: entry.wallet_id, balance: entry.balance_after }
          }),
        verifyRoute: (input) =>
          Effect.gen(function*() {
            yield* account(input.accountId)
            const m = yield* market(input.country)
            yield* store.upsertVerifiedRoute({
              id: yield* ids.uuidV4,
              account_id: input.accountId,
              market_id: m.id,
              phone: input.phone,
              verified_at: yield* now
            })
          }),
        grantSenderId: (input) =>
          Effect.gen(function*() {
            yield* account(input.accountId)
            const m = yield* market(input.country)
            const name = grantedSenderIdName(input.senderId)
            if (name.name.length === 0) return yield* new OperatorError({ message: "Sender ID is empty" })
            const at = yield* now
            const row = yield* store.upsertSenderId({
              ...grantedSenderId({ ...input, id: yield* ids.uuidV4, marketId: m.id, name }),
              requested_at: at,
              updated_at: at
            })
            return {
              id: row.id,
              name: row.name,
              display_name: row.display_name,
              country: m.iso2,
              status: row.status
            }
          }),
        addProvider: (input) =>
          Effect.gen(function*() {
            const id = yield* ids.uuidV4
            const at = yield* now
            const routes = yield* Effect.forEach(input.routes, (r) =>
              Effect.zipLeft(
                Effect.map(market(r.country), (m) => ({ ...r, market: m })),
                positive(r.credit, "credit")
              ))
            yield* store.insertProvider({
              id,
              name: input.name,
              kind: input.kind ?? "simulated",
              config: input.config ?? {},
              enabled: true,
              created_at: at
            })
            for (const r of routes) {
              yield* store.setProviderCredit(id, r.market.id, r.credit, at)
              yield* store.upsertProviderRoute({
                id: yield* ids.uuidV4,
                provider_id: id,
                market_id: r.market.id,
                priority: r.priority ?? 0,
                enabled: true,
                created_at: at
              })
            }
            return { id }
          }),
        setProviderCredit: (input) =>
          Effect.gen(function*() {
            yield* positive(input.credit, "credit")
            const m = yield* market(input.country)
            yield* store.setProviderCredit(input.providerId, m.id, input.credit, yield* now)
          }),
        setMarketOpen: (country, open) =>
          store.setMarketOpen(country.toUpperCase(), open).pipe(
            Effect.flatMap((found) =>
              found ? Effect.void : new OperatorError({ message: `Unknown country ${country}` })
            )
          ),
        addOptOut: (accountId, recipient, reason) =>
          Effect.flatMap(now, (at) => store.insertOptOut(accountId, recipient, reason ?? null, at)),
        addSpamRule: (input) =>
          Effect.gen(function*() {
            const id = yield* ids.uuidV4
            yield* store.insertSpamRule({
              id,
              account_id: input.accountId,
              kind: input.kind,
              pattern: input.pattern,
              description: input.description ?? "",
              created_at: yield* now
            })
            return { id }
          })
      })
      // recorded in the audit log when an `AuditStore` is present (the server and the CLI provide one)
      const audit = yield* Effect.serviceOption(AuditStore)
      return Option.match(audit, {
        onNone: () => service,
        onSome: (auditStore) => withOperatorAuditTrail(makeAudit(auditStore), store, service)
      })
    })
  )
}
