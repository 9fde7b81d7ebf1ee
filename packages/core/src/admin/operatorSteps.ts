/**
 * The set-up steps of `Operator`, in two groups over one `OperatorSteps` context: the account's own
 * (account, key, credit, route, sender ID) and the platform's (providers, markets, opt-outs, spam
 * rules). `Operator.layer` assembles them and adds the audit trail.
 */
import { Clock, Effect, Option } from "effect"
import { hashApiKey } from "../ports/ApiKeys.js"
import type { Ids } from "../ports/Ids.js"
import type { AccountRow, OperatorStore } from "../ports/OperatorStore.js"
import type { MarketRow } from "../ports/SendStore.js"
import { API_KEY_SCOPES, apiKeyPrefix, generateApiKey } from "./apiKeys.js"
import type { OperatorService } from "./operatorService.js"
import { OperatorError } from "./operatorService.js"
import { grantedSenderId, grantedSenderIdName } from "./senderIdReview.js"
import { recordPurchase } from "./wallets.js"

/** What every step uses: the store, ids, the clock, and the lookups that refuse unknown rows. */
export interface OperatorSteps {
  readonly store: OperatorStore["Type"]
  readonly ids: Ids["Type"]
  readonly now: Effect.Effect<Date>
  readonly market: (iso2: string) => Effect.Effect<MarketRow, OperatorError>
  readonly account: (id: string) => Effect.Effect<AccountRow, OperatorError>
  readonly positive: (n: number, what: string) => Effect.Effect<void, OperatorError>
}

/** The steps' context over `store` and `ids`. */
export const makeOperatorSteps = (store: OperatorStore["Type"], ids: Ids["Type"]): OperatorSteps => ({
  store,
  ids,
  now: Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms)),
  market: (iso2) =>
    store.findMarket(iso2.toUpperCase()).pipe(
      Effect.flatMap(Option.match({
        onNone: () => new OperatorError({ message: `Unknown country ${iso2}` }),
        onSome: Effect.succeed
      }))
    ),
  account: (id) =>
    store.findAccount(id).pipe(
      Effect.flatMap(Option.match({
        onNone: () => new OperatorError({ message: `Unknown account ${id}` }),
        onSome: Effect.succeed
      }))
    ),
  positive: (n, what) =>
    Number.isSafeInteger(n) && n >= 0
      ? Effect.void
      : new OperatorError({ message: `${what} must be a non-negative integer` })
})

type AccountStepNames =
  | "createAccount"
  | "setAccountActive"
  | "issueApiKey"
  | "purchaseCredits"
  | "verifyRoute"
  | "grantSenderId"

/** The account's own steps: create it, (de)activate it, issue a key, credit a wallet, verify a route, grant a sender ID. */
export const accountSteps = (
  { account, ids, market, now, positive, store }: OperatorSteps
): Pick<OperatorService, AccountStepNames> => ({
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
      Effect.flatMap((found) => found ? Effect.void : new OperatorError({ message: `Unknown account ${accountId}` }))
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
      return { id: row.id, name: row.name, display_name: row.display_name, country: m.iso2, status: row.status }
    })
})

/** The platform's steps: providers (with credit and routes), markets, opt-outs, spam rules. */
export const platformSteps = (
  { ids, market, now, positive, store }: OperatorSteps
): Omit<OperatorService, AccountStepNames> => ({
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
      Effect.flatMap((found) => found ? Effect.void : new OperatorError({ message: `Unknown country ${country}` }))
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
