/**
 * Helpers shared by the memory adapters (not part of the public API): the checks the SQL schema
 * makes (uuid syntax, keys, foreign keys, `numeric(14, 2)`), JSON copies, sort order, and the
 * writes several ports share (a credit purchase, provider credit and routes).
 */
import type { LedgerRow } from "../ports/AdminStore.js"
import type { AccountRow, ApiKeyRow, PurchaseRow, SenderIdRow } from "../ports/OperatorStore.js"
import type { MarketRow } from "../ports/SendStore.js"
import type {
  AccountRecord,
  ApiKeyRecord,
  LedgerRecord,
  MarketRecord,
  SenderIdRecord,
  Tables
} from "./MemoryDatabase.js"
import { MemoryConstraintViolation } from "./MemoryDatabase.js"

/** Throws a `MemoryConstraintViolation` (call it before the first write of an operation). */
export const violation = (table: string, message: string): never => {
  throw new MemoryConstraintViolation({ table, message })
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A `uuid` value as PostgreSQL stores it (lowercase); a malformed one is a violation. */
export const uuid = (value: string): string =>
  UUID.test(value) ? value.toLowerCase() : violation("uuid", `invalid input syntax for type uuid: "${value}"`)

/** `uuid` for a nullable column. */
export const uuidOrNull = (value: string | null): string | null => value === null ? null : uuid(value)

/** The key of a composite primary key. */
export const key = (...parts: ReadonlyArray<string>): string => parts.join("\u0000")

/** A JSON copy (what a `json`/`jsonb` column gives back): no reference into the caller's value. */
export const jsonCopy = (value: unknown): unknown => value === undefined ? null : JSON.parse(JSON.stringify(value))

/**
 * A decimal string as a `numeric(14, 2)` column stores and answers it (`"20000"` → `"20000.00"`,
 * `"1.005"` → `"1.01"`, half away from zero); anything PostgreSQL would refuse is a violation.
 */
export const numeric14_2 = (value: string): string => {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?\s*$/.exec(value)
  if (m === null || (m[2] === "" && (m[3] ?? "") === "")) {
    return violation("numeric", `invalid input syntax for type numeric: "${value}"`)
  }
  const fraction = (m[3] ?? "").padEnd(3, "0")
  let cents = BigInt((m[2] === "" ? "0" : m[2]) + fraction.slice(0, 2))
  if (fraction.charCodeAt(2) >= 53) cents += 1n // third decimal ≥ 5: round half away from zero
  if (cents >= 10n ** 14n) return violation("numeric", "numeric field overflow")
  const digits = cents.toString().padStart(3, "0")
  const negative = m[1] === "-" && cents !== 0n
  return `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`
}

/** Compares for a sort: ascending, `null` last (PostgreSQL's default for ASC). */
export const ascending = <A extends string | number | boolean | Date | null>(a: A, b: A): number => {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  const x = a instanceof Date ? a.getTime() : a
  const y = b instanceof Date ? b.getTime() : b
  return x < y ? -1 : x > y ? 1 : 0
}

/** Fails the operation (before any write) unless `exists`: a foreign key or CHECK the schema enforces. */
export const check = (exists: boolean, table: string, message: string): void => {
  if (!exists) violation(table, message)
}

/** A copy of a stored market. */
export const marketRow = (m: MarketRecord): MarketRow => ({
  id: m.id,
  iso2: m.iso2,
  calling_code: m.calling_code,
  name: m.name,
  open: m.open
})

/** A copy of a stored account. */
export const accountRow = (a: AccountRecord): AccountRow => ({ ...a })

/** A copy of a stored API key (its arrays copied too). */
export const apiKeyRow = (k: ApiKeyRecord): ApiKeyRow => ({
  ...k,
  scopes: [...k.scopes],
  allowed_ips: [...k.allowed_ips]
})

/** The checked record of a new account (unique e-mail, case-insensitively, is left to the caller). */
export const accountRecord = (t: Tables, row: AccountRow): AccountRecord => {
  const id = uuid(row.id)
  const countryId = uuidOrNull(row.country_id)
  check(!t.accounts.has(id), "accounts", `duplicate key: account ${id} exists`)
  check(countryId === null || t.markets.has(countryId), "accounts", `market ${countryId} does not exist`)
  return { ...row, id, country_id: countryId }
}

/** Whether an account with this e-mail exists (the unique index on `lower(email)`). */
export const emailTaken = (t: Tables, email: string): boolean => {
  const lower = email.toLowerCase()
  for (const a of t.accounts.values()) if (a.email.toLowerCase() === lower) return true
  return false
}

/**
 * `row`'s account and market ids, normalised, each checked to exist: the two foreign keys of an
 * account-in-a-country row of `table` (a wallet, a verified route, a sender ID).
 */
export const accountAndMarket = (
  t: Tables,
  table: string,
  row: { readonly account_id: string; readonly market_id: string }
): { readonly accountId: string; readonly marketId: string } => {
  const accountId = uuid(row.account_id)
  const marketId = uuid(row.market_id)
  check(t.accounts.has(accountId), table, `account ${accountId} does not exist`)
  check(t.markets.has(marketId), table, `market ${marketId} does not exist`)
  return { accountId, marketId }
}

/**
 * A credit purchase (`WalletCredit.creditWallet` of the SQL store): creates the wallet when
 * needed, adds the units and writes the `purchase` ledger row. Checks first, then writes.
 */
export const creditWallet = (t: Tables, row: PurchaseRow): LedgerRecord => {
  const { accountId, marketId } = accountAndMarket(t, "wallets", row)
  const amount = row.amount === null ? null : numeric14_2(row.amount)
  let wallet = [...t.wallets.values()].find((w) => w.account_id === accountId && w.market_id === marketId)
  const balance = (wallet?.balance ?? 0) + row.units
  check(balance >= 0, "wallets", "wallet balance must not be negative")
  if (wallet === undefined) {
    const id = uuid(row.new_wallet_id)
    check(!t.wallets.has(id), "wallets", `duplicate key: wallet ${id} exists`)
    wallet = {
      id,
      account_id: accountId,
      market_id: marketId,
      balance,
      enabled: true,
      created_at: row.at,
      updated_at: row.at
    }
    t.wallets.set(id, wallet)
  } else {
    wallet.balance = balance
    wallet.updated_at = row.at
  }
  const entry: LedgerRecord = {
    id: ++t.ledgerSequence,
    wallet_id: wallet.id,
    account_id: accountId,
    kind: "purchase",
    units: row.units,
    balance_after: balance,
    amount,
    currency: row.currency,
    message_id: null,
    campaign_id: null,
    reference: row.reference,
    reason: null,
    corrects_id: null,
    created_at: row.at
  }
  t.walletLedger.push(entry)
  return entry
}

/** The checked record of a new provider (unique name is left to the caller). */
export const providerRecord = (
  t: Tables,
  row: { id: string; name: string; kind: string; config: unknown; enabled: boolean; created_at: Date }
) => {
  const id = uuid(row.id)
  check(!t.providers.has(id), "providers", `duplicate key: provider ${id} exists`)
  return {
    id,
    name: row.name,
    kind: row.kind,
    config: jsonCopy(row.config ?? {}),
    enabled: row.enabled,
    created_at: row.created_at
  }
}

/** Whether a provider with this name exists (the unique constraint on `providers.name`). */
export const providerNameTaken = (t: Tables, name: string): boolean => {
  for (const p of t.providers.values()) if (p.name === name) return true
  return false
}

/**
 * Stores a new account (`accountRecord`'s checks) unless its e-mail is taken: `false` then, and
 * nothing written. A setting: the settings version moves.
 */
export const insertAccount = (t: Tables, row: AccountRow): boolean =>
  insertSetting(t, t.accounts, accountRecord(t, row), emailTaken(t, row.email))

/** Stores a new provider (`providerRecord`'s checks) unless its name is taken, as `insertAccount`. */
export const insertProvider = (t: Tables, row: Parameters<typeof providerRecord>[1]): boolean =>
  insertSetting(t, t.providers, providerRecord(t, row), providerNameTaken(t, row.name))

const insertSetting = <R extends { readonly id: string }>(
  t: Tables,
  table: Map<string, R>,
  record: R,
  taken: boolean
): boolean => {
  if (taken) return false
  table.set(record.id, record)
  settingsChanged(t)
  return true
}

/** Sets a provider's credit for a market (insert or overwrite). */
export const setProviderCredit = (t: Tables, providerId: string, marketId: string, balance: number, at: Date) => {
  const p = uuid(providerId)
  const m = uuid(marketId)
  check(t.providers.has(p), "provider_credits", `provider ${p} does not exist`)
  check(t.markets.has(m), "provider_credits", `market ${m} does not exist`)
  check(Number.isInteger(balance) && balance >= 0, "provider_credits", "provider credit must not be negative")
  t.providerCredits.set(key(p, m), { provider_id: p, market_id: m, balance, updated_at: at })
}

/** Moves `settings_version`: a cached setting changed (the memory twin of migration 0060's triggers). */
export const settingsChanged = (t: Tables): void => {
  t.settingsVersion++
}

/** Inserts a provider route, or moves the existing (market, provider) one to this priority/enabled. */
export const upsertProviderRoute = (
  t: Tables,
  row: { id: string; provider_id: string; market_id: string; priority: number; enabled: boolean; created_at: Date }
) => {
  const p = uuid(row.provider_id)
  const m = uuid(row.market_id)
  check(t.providers.has(p), "provider_routes", `provider ${p} does not exist`)
  check(t.markets.has(m), "provider_routes", `market ${m} does not exist`)
  const existing = [...t.providerRoutes.values()].find((r) => r.market_id === m && r.provider_id === p)
  if (existing !== undefined) {
    existing.priority = row.priority
    existing.enabled = row.enabled
    settingsChanged(t)
    return
  }
  const id = uuid(row.id)
  check(!t.providerRoutes.has(id), "provider_routes", `duplicate key: route ${id} exists`)
  t.providerRoutes.set(id, { ...row, id, provider_id: p, market_id: m })
  settingsChanged(t)
}

/** The `OperatorStore` view of a stored sender-ID record. */
export const senderIdRow = (s: SenderIdRecord): SenderIdRow => ({
  id: s.id,
  account_id: s.account_id,
  market_id: s.market_id,
  name: s.name,
  display_name: s.display_name,
  status: s.status,
  is_default: s.is_default,
  is_global: s.is_global,
  sample_message: s.sample_message,
  purpose: s.purpose,
  requested_at: s.requested_at,
  updated_at: s.updated_at
})

/** The `LedgerRow` of a ledger record (the market read through its wallet). */
export const ledgerRow = (t: Tables, l: LedgerRecord): LedgerRow => ({
  id: String(l.id),
  wallet_id: l.wallet_id,
  iso2: t.markets.get(t.wallets.get(l.wallet_id)!.market_id)!.iso2,
  kind: l.kind,
  units: l.units,
  balance_after: l.balance_after,
  amount: l.amount,
  currency: l.currency,
  message_id: l.message_id,
  campaign_id: l.campaign_id,
  reference: l.reference,
  reason: l.reason,
  corrects_id: l.corrects_id === null ? null : String(l.corrects_id),
  created_at: l.created_at
})
