/**
 * Which wallet-ledger entries an operator's correction may name as the entry it corrects: a
 * `purchase` (a top-up recorded wrong) or an earlier `adjustment`. A `debit` (what a message cost)
 * and a `refund` (units given back for a message) are the platform's own bookkeeping of messages:
 * a correction does not name them (the console offers only the entries it may name).
 */

/** The kinds of ledger entries. */
export type LedgerKind = "purchase" | "debit" | "refund" | "adjustment"

/** The kinds a correction may name as the entry it corrects. */
export const CORRECTABLE_KINDS: ReadonlyArray<LedgerKind> = ["purchase", "adjustment"]

/** Whether a correction may name an entry of this kind. */
export const isCorrectable = (kind: string): boolean => CORRECTABLE_KINDS.some((k) => k === kind)
