/**
 * Wallets: credit purchases per country (a `purchase` ledger row), corrections (an `adjustment`
 * row, never an edit; the wallet never below 0), list, ledger, enable/disable.
 */
import type { ValidationFailed } from "@tuma/domain"
import { Clock, Effect, Either } from "effect"
import type { CorrectionRefused, LedgerRow } from "../ports/AdminStore.js"
import type { Ids } from "../ports/Ids.js"
import type { OperatorStore } from "../ports/OperatorStore.js"
import type { AdminContext } from "./context.js"
import { clampLimit, invalid, nonNegativeInt, notFound } from "./context.js"
import type { CorrectionInput } from "./inputs.js"
import type { AdminService } from "./service.js"
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

/** The checks of a correction: signed non-zero integer units, a reason, an entry id of digits. */
export const checkCorrection = (input: CorrectionInput): Either.Either<void, ValidationFailed> =>
  !Number.isSafeInteger(input.units) || input.units === 0
    ? Either.left(invalid("units", "The units field must be a non-zero integer (negative removes credit)."))
    : input.reason.trim() === ""
    ? Either.left(invalid("reason", "A reason is required for a correction."))
    : input.corrects != null && !/^[1-9]\d{0,17}$/.test(input.corrects)
    ? Either.left(invalid("corrects", "The corrects field must be the id of a ledger entry."))
    : Either.right(undefined)

/** The answer to a refused correction (nothing was written). */
const refused = (why: CorrectionRefused, input: CorrectionInput, country: string) =>
  Effect.fail(
    why._tag === "NoWallet"
      ? invalid("country", `The account has no ${country} wallet to correct.`)
      : why._tag === "NotInWallet"
      ? invalid("corrects", `The ledger entry ${input.corrects} is not an entry of the account's ${country} wallet.`)
      : why._tag === "NotCorrectable"
      ? invalid(
        "corrects",
        `The ledger entry ${input.corrects} is a ${why.kind}: a correction names a purchase or an earlier adjustment.`
      )
      : invalid(
        "units",
        `The correction would make the ${country} wallet negative: its balance is ${why.balance}, the correction ${input.units}.`
      )
  )

/** Wallets: credit purchases per country (a `purchase` ledger row), list, ledger, enable/disable. */
export const makeWallets = (
  ctx: AdminContext
): Pick<AdminService, "purchaseCredits" | "correctCredits" | "listWallets" | "ledger" | "setWalletEnabled"> => {
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

    correctCredits: (input) =>
      Effect.gen(function*() {
        yield* checkCorrection(input)
        const m = yield* market(input.country)
        yield* account(input.account_uid)
        const outcome = yield* admin.correctWallet({
          account_id: input.account_uid,
          market_id: m.id,
          units: input.units,
          reason: input.reason.trim(),
          corrects_id: input.corrects ?? null,
          at: yield* now
        })
        if (Either.isLeft(outcome)) return yield* refused(outcome.left, input, m.iso2)
        const entry = outcome.right
        const wallet = (yield* walletsOf(input.account_uid)).find((w) => w.wallet_uid === entry.wallet_id)!
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
