/**
 * Crediting a wallet: the one SQL of a credit purchase, shared by the operator and admin stores.
 * Creates the wallet when needed, adds the units and writes the `purchase` ledger row; callers run
 * it inside a transaction so the balance always equals its ledger.
 */
import type { SqlClient } from "@effect/sql"
import type { PurchaseRow } from "@tuma/core"
import { Effect } from "effect"

export const creditWallet = (sql: SqlClient.SqlClient, row: PurchaseRow) =>
  Effect.gen(function*() {
    const [wallet] = yield* sql<{ id: string; balance: number }>`
      INSERT INTO wallets (id, account_id, market_id, balance, created_at, updated_at)
      VALUES (${row.new_wallet_id}, ${row.account_id}, ${row.market_id}, ${row.units}, ${row.at}, ${row.at})
      ON CONFLICT (account_id, market_id)
      DO UPDATE SET balance = wallets.balance + excluded.balance, updated_at = excluded.updated_at
      RETURNING id, balance`
    const [entry] = yield* sql<{ id: string }>`INSERT INTO wallet_ledger ${
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
    } RETURNING id`
    return { wallet_id: wallet.id, balance: wallet.balance, ledger_id: entry.id }
  })
