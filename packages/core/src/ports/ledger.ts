/**
 * The wallet ledger row, shared by the `OperatorStore` (a purchase answers its entry) and the
 * `AdminStore` (ledger reads and corrections) ports: its own module so neither port imports the other
 * for it.
 */

/** One wallet ledger entry: a credit or debit with the balance after it. */
export interface LedgerRow {
  readonly id: string
  readonly wallet_id: string
  readonly iso2: string
  readonly kind: "purchase" | "debit" | "refund" | "adjustment"
  readonly units: number
  readonly balance_after: number
  readonly amount: string | null
  readonly currency: string | null
  readonly message_id: string | null
  readonly campaign_id: string | null
  readonly reference: string | null
  /** A correction's reason (`adjustment` rows written by `correctWallet`); null otherwise. */
  readonly reason: string | null
  /** The id of the row a correction corrects, when it names one. */
  readonly corrects_id: string | null
  readonly created_at: Date
}
