/**
 * The accept of `SendStore`, one path for every plan: a plan alone (`acceptAlone`: a bulk or
 * campaign send, or a single send with no concurrent company) and a group of concurrent single
 * sends in one transaction (`acceptGroup`) run the same statements (send/statements.ts) in the same
 * order — guards checked, keys claimed, wallets locked (several only), then the messages, queue rows,
 * debits and ledger written by one statement (`writeAccepted`). A single send alone is at most three
 * statements in its transaction: the guard (when it reuses a snapshot), the key (when it has one),
 * the write; its one wallet is locked by the write's debit itself. A bulk send writes its messages
 * first and its debits last (the same statement, called twice), as before.
 *
 * A serialization failure or deadlock (40001/40P01) retries the whole transaction, a connection lost
 * before COMMIT runs it once more on a fresh connection (SqlRetry.ts).
 */
import type { SqlClient } from "@effect/sql"
import type { AcceptPlan } from "@tuma/core"
import { AcceptanceRolledBack, AcceptOutcome } from "@tuma/core"
import { Data, Effect } from "effect"
import { certainlyRolledBack, transaction as inTransaction } from "../SqlRetry.js"
import {
  balancesOf,
  claimKeys,
  insertCampaign,
  type KeyClaim,
  keyOf,
  type LedgerEntry,
  lockWallets,
  releaseKeys,
  staleGuards,
  takenRecords,
  writeAccepted
} from "./statements.js"

class Insufficient extends Data.TaggedError("Insufficient")<{
  readonly shortfall: ReadonlyArray<{ market_id: string; units_required: number; units_available: number }>
}> {}

const claimOf = (plan: AcceptPlan): ReadonlyArray<KeyClaim> =>
  plan.idempotency === undefined ? [] : [{ accountId: plan.accountId, now: plan.now, idempotency: plan.idempotency }]

/** The ledger entries of a plan: one per wallet debited (the message's id when it is a single send). */
const ledgerOf = (plan: AcceptPlan): ReadonlyArray<LedgerEntry> => {
  const single = plan.campaign === undefined && plan.messages.items.length === 1 ? plan.messages.items[0].id : null
  return plan.debits.filter((d) => d.units > 0).map((d) => ({
    wallet: d.wallet_id,
    account: plan.accountId,
    units: d.units,
    message: single,
    campaign: plan.campaign?.id ?? null
  }))
}

/** One plan in the caller's transaction. */
const transaction = (plan: AcceptPlan) =>
  Effect.gen(function*() {
    if (plan.guard !== undefined && (yield* staleGuards([plan], [0])).size > 0) return AcceptOutcome.Stale()
    const claims = claimOf(plan)
    if (claims.length > 0 && (yield* claimKeys(claims)).size === 0) {
      const record = (yield* takenRecords(claims)).get(keyOf(plan.accountId, claims[0].idempotency.key))
      if (record === undefined) return yield* Effect.dieMessage("an idempotency key held by no record")
      return AcceptOutcome.KeyTaken({ record })
    }
    if (plan.campaign !== undefined) yield* insertCampaign(plan.campaign)
    const ledger = ledgerOf(plan)
    const { items } = plan.messages
    // a bulk send writes its messages before the debit, so that the wallet row — the one hot row every
    // send of an account touches — stays locked only from the debit to COMMIT; a single send writes
    // its message and debit in one statement (one round trip less)
    const bulk = items.length > 1
    if (bulk) yield* writeAccepted({ now: plan.now, messages: [plan.messages], ledger: [] })
    // several wallets: locked in id order first, so two sends never deadlock
    if (ledger.length > 1) yield* lockWallets(ledger.map((l) => l.wallet))
    if (ledger.length === 0 && (bulk || items.length === 0)) return AcceptOutcome.Accepted()
    const debited = yield* writeAccepted({ now: plan.now, messages: bulk ? [] : [plan.messages], ledger })
    const missing = plan.debits.filter((d) => d.units > 0 && !debited.has(d.wallet_id))
    if (missing.length > 0) {
      const balances = yield* balancesOf(missing.map((d) => d.wallet_id))
      return yield* new Insufficient({
        shortfall: missing.map((d) => ({
          market_id: d.market_id,
          units_required: d.units,
          units_available: balances.get(d.wallet_id) ?? 0
        }))
      })
    }
    return AcceptOutcome.Accepted()
  })

/** One plan in its own transaction; a rolled-back transaction is an `AcceptanceRolledBack` defect. */
export const acceptAlone = (plan: AcceptPlan): Effect.Effect<AcceptOutcome, never, SqlClient.SqlClient> =>
  inTransaction(10)(transaction(plan)).pipe(
    Effect.catchTag("Insufficient", (e) => Effect.succeed(AcceptOutcome.InsufficientFunds({ shortfall: e.shortfall }))),
    Effect.orDie,
    // failed before its COMMIT, or the server refused it: rolled back, nothing of it is stored
    Effect.catchAllDefect((defect) =>
      Effect.die(certainlyRolledBack(defect) ? new AcceptanceRolledBack({ cause: defect }) : defect)
    )
  )

/**
 * The plans whose keys are free: claims them, answers `KeyTaken` for the others. A key claimed twice
 * in the group is left to its second plan's own transaction afterwards (`undefined` outcome).
 */
const claimGroupKeys = (plans: ReadonlyArray<AcceptPlan>, outcomes: Array<AcceptOutcome | undefined>) =>
  Effect.gen(function*() {
    const seen = new Set<string>()
    const keyed: Array<number> = []
    const live: Array<number> = []
    plans.forEach((p, i) => {
      if (p.idempotency === undefined) return void live.push(i)
      const k = keyOf(p.accountId, p.idempotency.key)
      if (seen.has(k)) return // left undefined: accepted alone after this group
      seen.add(k)
      keyed.push(i)
    })
    if (keyed.length === 0) return live
    const claims = keyed.map((i) => claimOf(plans[i])[0])
    const ok = yield* claimKeys(claims)
    const taken = claims.filter((c) => !ok.has(keyOf(c.accountId, c.idempotency.key)))
    const records = taken.length > 0 ? yield* takenRecords(taken) : new Map()
    for (const i of keyed) {
      const k = keyOf(plans[i].accountId, plans[i].idempotency!.key)
      if (ok.has(k)) live.push(i)
      else {
        const record = records.get(k)
        if (record === undefined) return yield* Effect.dieMessage("an idempotency key held by no record")
        outcomes[i] = AcceptOutcome.KeyTaken({ record })
      }
    }
    return live.sort((a, b) => a - b)
  })

/**
 * Accepts a group of single-message plans in a constant number of statements, whatever its size:
 * claim the idempotency keys, lock the wallets (id order), decide each plan in arrival order
 * against the locked balances, release the keys of refused plans, then write every accepted
 * message, queue row, debit and ledger row in one statement. Answers one outcome per plan, or
 * `undefined` for a plan whose key another plan of the group already claims (run it alone after).
 */
export const acceptGroup = (plans: ReadonlyArray<AcceptPlan>) =>
  Effect.gen(function*() {
    const outcomes: Array<AcceptOutcome | undefined> = plans.map(() => undefined)
    const claimed = yield* claimGroupKeys(plans, outcomes)
    const released: Array<number> = []
    const stale = yield* staleGuards(plans, claimed)
    for (const i of stale) {
      outcomes[i] = AcceptOutcome.Stale()
      if (plans[i].idempotency !== undefined) released.push(i)
    }
    const live = claimed.filter((i) => !stale.has(i))
    const walletIds = [...new Set(live.flatMap((i) => ledgerOf(plans[i]).map((l) => l.wallet)))]
    const balance = walletIds.length > 0 ? yield* lockWallets(walletIds) : new Map<string, number>()
    const accepted: Array<number> = []
    const ledger: Array<LedgerEntry> = []
    // the wallets are locked: each ledger row's balance_after is known here (taken in order)
    const after = new Map(balance)
    for (const i of live) {
      const plan = plans[i]
      const debit = plan.debits.find((d) => d.units > 0)
      if (debit !== undefined) {
        const available = balance.get(debit.wallet_id) ?? 0
        if (available < debit.units) {
          outcomes[i] = AcceptOutcome.InsufficientFunds({
            shortfall: [{ market_id: debit.market_id, units_required: debit.units, units_available: available }]
          })
          if (plan.idempotency !== undefined) released.push(i)
          continue
        }
        balance.set(debit.wallet_id, available - debit.units)
        for (const entry of ledgerOf(plan)) {
          const left = (after.get(entry.wallet) ?? 0) - entry.units
          after.set(entry.wallet, left)
          ledger.push({ ...entry, after: left })
        }
      }
      outcomes[i] = AcceptOutcome.Accepted()
      accepted.push(i)
    }
    if (released.length > 0) yield* releaseKeys(released.flatMap((i) => claimOf(plans[i])))
    if (accepted.length > 0) {
      const debited = yield* writeAccepted({
        now: plans[accepted[0]].now,
        messages: accepted.map((i) => plans[i].messages),
        ledger
      })
      if (debited.size !== new Set(ledger.map((l) => l.wallet)).size) {
        return yield* Effect.dieMessage("group accept: a locked wallet could not cover its debit")
      }
    }
    return outcomes
  })
