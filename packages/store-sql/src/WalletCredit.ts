/**
 * Crediting a wallet: the one SQL of a credit purchase, shared by the operator and admin stores.
 * Creates the wallet when needed, adds the units and writes the `purchase` ledger row; callers run
 * it inside a transaction so the balance always equals its ledger.
 */
import type { SqlClient } from "@effect/sql"
import type { PurchaseRow } from "@tuma/core"
import { Effect, Schema } from "effect"
import { IdRow, LedgerRowSchema, single } from "./rows.js"

const walletRow = single(Schema.Struct({ id: Schema.String, balance: Schema.Number }))
const idRow = single(IdRow)
const ledgerRow = single(LedgerRowSchema)

export const creditWallet = (sql: SqlClient.SqlClient, row: PurchaseRow) =>
  Effect.gen(function*() {
    const wallet = yield* walletRow(sql`
      INSERT INTO wallets (id, account_id, market_id, balance, created_at, updated_at)
      VALUES (${row.new_wallet_id}, ${row.account_id}, ${row.market_id}, ${row.units}, ${row.at}, ${row.at})
      ON CONFLICT (account_id, market_id)
      DO UPDATE SET balance = wallets.balance + excluded.balance, updated_at = excluded.updated_at
      RETURNING id, balance`)
    const entry = yield* idRow(sql`INSERT INTO wallet_ledger ${
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
  l.currency, l.message_id, l.campaign_id, l.reference, l.created_at
  FROM wallet_ledger l JOIN wallets w ON w.id = l.wallet_id JOIN markets k ON k.id = w.market_id`

/** A credit purchase in one transaction, answering its ledger row: the one purchase of the store. */
export const purchase = (sql: SqlClient.SqlClient, row: PurchaseRow) =>
  sql.withTransaction(Effect.gen(function*() {
    const { ledger_id } = yield* creditWallet(sql, row)
    return yield* ledgerRow(sql`SELECT ${sql.literal(LEDGER)} WHERE l.id = ${ledger_id}`)
  })).pipe(Effect.orDie)
