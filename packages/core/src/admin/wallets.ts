/**
 * Wallets: credit purchases per country (a `purchase` ledger row), list, ledger, enable/disable.
 */
import type { ValidationFailed } from "@tuma/domain"
import { Clock, Effect, Either } from "effect"
import type { LedgerRow } from "../ports/AdminStore.js"
import type { Ids } from "../ports/Ids.js"
import type { OperatorStore } from "../ports/OperatorStore.js"
import type { AdminService } from "./Admin.js"
import type { AdminContext } from "./context.js"
import { clampLimit, invalid, nonNegativeInt, notFound } from "./context.js"
import { ledgerView } from "./viewsOf.js"

/** A credit purchase as both `Admin` and `Operator` take it (account and market already looked up). */
export interface Purchase {
  readonly accountId: string
  readonly marketId: string
  readonly units: number
  readonly amount?: string | null | undefined
  readonly currency?: string | null | undefined
  readonly reference?: string | null | undefined
}

/** The checks of a purchase: units a positive integer, amount a decimal with at most 2 decimals. */
export const checkPurchase = (input: {
  readonly units: unknown
  readonly amount?: string | null | undefined
}): Either.Either<void, ValidationFailed> =>
  !nonNegativeInt(input.units) || input.units === 0
    ? Either.left(invalid("units", "The units field must be a positive integer."))
    : input.amount != null && !/^\d+(\.\d{1,2})?$/.test(input.amount)
    ? Either.left(invalid("amount", "The amount field must be a decimal number with at most 2 decimals."))
    : Either.right(undefined)

/**
 * The one purchase path of `Admin` and `Operator`: the wallet created if needed, credited, and its
 * `purchase` ledger row written, atomically. Callers check the input first (`checkPurchase` for the
 * admin API; `Operator` also allows 0 units, which opens an empty wallet).
 */
export const recordPurchase = (
  deps: { readonly op: OperatorStore["Type"]; readonly ids: Ids["Type"] },
  input: Purchase
): Effect.Effect<LedgerRow> =>
  Effect.gen(function*() {
    return yield* deps.op.purchase({
      account_id: input.accountId,
      market_id: input.marketId,
      new_wallet_id: yield* deps.ids.uuidV4,
      units: input.units,
      amount: input.amount ?? null,
      currency: input.currency ?? null,
      reference: input.reference ?? null,
      at: new Date(yield* Clock.currentTimeMillis)
    })
  })

/** Wallets: credit purchases per country (a `purchase` ledger row), list, ledger, enable/disable. */
export const makeWallets = (
  ctx: AdminContext
): Pick<AdminService, "purchaseCredits" | "listWallets" | "ledger" | "setWalletEnabled"> => {
  const { account, admin, ids, market, now, op, walletsOf } = ctx
  return {
    purchaseCredits: (input) =>
      Effect.gen(function*() {
        yield* checkPurchase(input)
        const m = yield* market(input.country)
        yield* account(input.account_uid)
        const entry = yield* recordPurchase({ op, ids }, {
          accountId: input.account_uid,
          marketId: m.id,
          units: input.units,
          amount: input.amount,
          currency: input.currency,
          reference: input.reference
        })
        const wallets = yield* walletsOf(input.account_uid)
        const wallet = wallets.find((w) => w.wallet_uid === entry.wallet_id)!
        return { wallet, entry: ledgerView(entry) }
      }),

    listWallets: (accountId) => Effect.zipRight(account(accountId), walletsOf(accountId)),

    ledger: (accountId, options = {}) =>
      Effect.gen(function*() {
        yield* account(accountId)
        const m = options.country === undefined ? undefined : yield* market(options.country)
        const rows = yield* admin.ledger(accountId, { marketId: m?.id, limit: clampLimit(options.limit, 100, 1000) })
        return rows.map(ledgerView)
      }),

    setWalletEnabled: (accountId, country, enabled) =>
      Effect.gen(function*() {
        yield* account(accountId)
        const m = yield* market(country)
        const found = yield* admin.setWalletEnabled(accountId, m.id, enabled, yield* now)
        if (!found) return yield* notFound("wallet", `${accountId}/${m.iso2}`)
        return (yield* walletsOf(accountId)).find((w) => w.country_uid === m.id)!
      })
  }
}
