/**
 * Crediting a wallet: the one SQL of a credit purchase, shared by the operator and admin stores.
 * Creates the wallet when needed, adds the units and writes the `purchase` ledger row; callers run
 * it inside a transaction so the balance always equals its ledger.
 */
import type { SqlClient } from "@effect/sql"
import type { CorrectionRefused, CorrectionRow, LedgerRow, PurchaseRow } from "@tuma/core"
import { isCorrectable } from "@tuma/domain/ledger"
import { Effect, Either, Schema } from "effect"
import { findFirst, Ids, LedgerEntries, single } from "./rows.js"

const walletRow = single(Schema.Struct({ id: Schema.String, balance: Schema.Number }))
const correctedEntry = findFirst(Schema.Struct({ kind: Schema.String }))
const lockedWallet = findFirst(Schema.Struct({ id: Schema.String, balance: Schema.Number }))

export const creditWallet = (sql: SqlClient.SqlClient, row: PurchaseRow) =>
  Effect.gen(function*() {
    const wallet = yield* walletRow(sql`
      INSERT INTO wallets (id, account_id, market_id, balance, created_at, updated_at)
      VALUES (${row.new_wallet_id}, ${row.account_id}, ${row.market_id}, ${row.units}, ${row.at}, ${row.at})
      ON CONFLICT (account_id, market_id)
      DO UPDATE SET balance = wallets.balance + excluded.balance, updated_at = excluded.updated_at
      RETURNING id, balance`)
    const entry = yield* Ids.single(sql`INSERT INTO wallet_ledger ${
      sql.insert({
        wallet_id: wallet.id,
        account_id: row.account_id,
        kind: "purchase",
        units: row.units,
        balance_after: wallet.balance,
        amount: row.amount,
        currency: row.currency,
        reference: row.reference,
        created_at: row.at
      })
    } RETURNING id`)
    return { wallet_id: wallet.id, balance: wallet.balance, ledger_id: entry.id }
  })

/** The columns of a `LedgerRow` (from `wallet_ledger l`, its wallet `w` and market `k`). */
export const LEDGER =
  `l.id::text AS id, l.wallet_id, k.iso2, l.kind, l.units, l.balance_after, l.amount::text AS amount,
  l.currency, l.message_id, l.campaign_id, l.reference, l.reason, l.corrects_id::text AS corrects_id, l.created_at
  FROM wallet_ledger l JOIN wallets w ON w.id = l.wallet_id JOIN markets k ON k.id = w.market_id`

/** A credit purchase in one transaction, answering its ledger row: the one purchase of the store. */
export const purchase = (sql: SqlClient.SqlClient, row: PurchaseRow) =>
  sql.withTransaction(Effect.gen(function*() {
    const { ledger_id } = yield* creditWallet(sql, row)
    return yield* LedgerEntries.single(sql`SELECT ${sql.literal(LEDGER)} WHERE l.id = ${ledger_id}`)
  })).pipe(Effect.orDie)

/**
 * A credit correction in one transaction: the wallet locked, the corrected row checked to be the
 * wallet's, the balance kept at or above 0, then the balance and its `adjustment` row; refused, nothing.
 */
export const correct = (
  sql: SqlClient.SqlClient,
  row: CorrectionRow
): Effect.Effect<Either.Either<LedgerRow, CorrectionRefused>> =>
  sql.withTransaction(Effect.gen(function*() {
    const wallet = yield* lockedWallet(sql`SELECT id, balance FROM wallets
      WHERE account_id = ${row.account_id} AND market_id = ${row.market_id} FOR UPDATE`)
    if (wallet === undefined) return Either.left<CorrectionRefused>({ _tag: "NoWallet" })
    if (row.corrects_id !== null) {
      const found = yield* correctedEntry(sql`SELECT kind FROM wallet_ledger
        WHERE id = ${row.corrects_id}::bigint AND wallet_id = ${wallet.id}`)
      if (found === undefined) return Either.left<CorrectionRefused>({ _tag: "NotInWallet" })
      if (!isCorrectable(found.kind)) {
        return Either.left<CorrectionRefused>({ _tag: "NotCorrectable", kind: found.kind })
      }
    }
    const balance = wallet.balance + row.units
    if (balance < 0) return Either.left<CorrectionRefused>({ _tag: "Negative", balance: wallet.balance })
    yield* sql`UPDATE wallets SET balance = ${balance}, updated_at = ${row.at} WHERE id = ${wallet.id}`
    const entry = yield* Ids.single(sql`INSERT INTO wallet_ledger ${
      sql.insert({
        wallet_id: wallet.id,
        account_id: row.account_id,
        kind: "adjustment",
        units: row.units,
        balance_after: balance,
        reason: row.reason,
        corrects_id: row.corrects_id,
        created_at: row.at
      })
    } RETURNING id::text AS id`)
    return Either.right(yield* LedgerEntries.single(sql`SELECT ${sql.literal(LEDGER)} WHERE l.id = ${entry.id}`))
  })).pipe(Effect.orDie)
