/**
 * In-memory adapter of the `AdminStore` port (the operator-side reads and writes), over the shared
 * `MemoryDatabase`, answering as `SqlAdminStore` does: the same conflict answers (a duplicate e-mail
 * or provider name is `false`, nothing written), order (accounts newest first, ledger by id
 * descending, providers by name, a market's routes enabled first then by priority) and ledger rows
 * (`id` as text, `amount` as `numeric(14, 2)` text).
 */
import { isCorrectable } from "@tuma/domain/ledger"
import type { Option } from "effect"
import { Effect, Either, Layer, Option as O } from "effect"
import type { CorrectionRefused, CountryRouteRow, LedgerRow, ProviderFullRow } from "../ports/AdminStore.js"
import { AdminStore } from "../ports/AdminStore.js"
import {
  accountRow,
  apiKeyRow,
  ascending,
  check,
  insertAccount,
  insertProvider,
  jsonCopy,
  key,
  ledgerRow,
  marketRow,
  settingsChanged,
  upsertProviderRoute,
  uuid
} from "./internal.js"
import type { ProviderRecord, Tables } from "./MemoryDatabase.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

const providerRow = (t: Tables, p: ProviderRecord): ProviderFullRow => {
  const iso2 = (marketId: string) => t.markets.get(marketId)!.iso2
  return {
    id: p.id,
    name: p.name,
    kind: p.kind,
    config: jsonCopy(p.config),
    enabled: p.enabled,
    created_at: p.created_at,
    credits: [...t.providerCredits.values()]
      .filter((c) => c.provider_id === p.id)
      .map((c) => ({ iso2: iso2(c.market_id), balance: c.balance, updated_at: c.updated_at }))
      .sort((a, b) => ascending(a.iso2, b.iso2)),
    routes: [...t.providerRoutes.values()]
      .filter((r) => r.provider_id === p.id)
      .map((r) => ({ iso2: iso2(r.market_id), priority: r.priority, enabled: r.enabled }))
      .sort((a, b) => ascending(a.iso2, b.iso2) || ascending(a.priority, b.priority))
  }
}

type Store = AdminStore["Type"]

/** An account's own things: accounts, markets, API keys, wallets and the ledger, verified routes. */
type AccountMethod =
  | "insertAccount"
  | "listAccounts"
  | "listMarkets"
  | "findMarketById"
  | "listApiKeys"
  | "findApiKey"
  | "updateApiKey"
  | "revokeApiKey"
  | "ledger"
  | "correctWallet"
  | "setWalletEnabled"
  | "deleteVerifiedRoute"

/** Accounts, keys, wallets and routes. */
const accountMethods = (db: MemoryDatabase["Type"]): Pick<Store, AccountMethod> => ({
  insertAccount: (row) => db.transact((t) => insertAccount(t, row)),
  listAccounts: (f) =>
    db.transact((t) => {
      const search = f.search?.toLowerCase()
      return [...t.accounts.values()]
        .filter((a) =>
          (f.active === undefined || a.active === f.active) &&
          (search === undefined || a.name.toLowerCase().includes(search) || a.email.toLowerCase().includes(search))
        )
        .sort((a, b) => ascending(b.created_at, a.created_at) || ascending(b.id, a.id))
        .slice(f.offset, f.offset + f.limit)
        .map(accountRow)
    }),
  listMarkets: db.transact((t) => [...t.markets.values()].map(marketRow).sort((a, b) => ascending(a.iso2, b.iso2))),
  findMarketById: (id) => db.transact((t) => O.map(O.fromNullable(t.markets.get(uuid(id))), marketRow)),
  listApiKeys: (accountId) =>
    db.transact((t) => {
      const id = uuid(accountId)
      return [...t.apiKeys.values()]
        .filter((k) => k.account_id === id)
        .sort((a, b) => ascending(b.created_at, a.created_at) || ascending(a.id, b.id))
        .map(apiKeyRow)
    }),
  findApiKey: (id) => db.transact((t) => O.map(O.fromNullable(t.apiKeys.get(uuid(id))), apiKeyRow)),
  updateApiKey: (id, patch) =>
    db.transact((t) => {
      const k = t.apiKeys.get(uuid(id))
      if (k === undefined) return O.none()
      if (patch.name !== undefined) k.name = patch.name
      if (patch.scopes !== undefined) k.scopes = [...patch.scopes]
      if (patch.allowed_ips !== undefined) k.allowed_ips = [...patch.allowed_ips]
      if (patch.expires_at !== undefined) k.expires_at = patch.expires_at
      settingsChanged(t)
      return O.some(apiKeyRow(k))
    }),
  revokeApiKey: (id, at) =>
    db.transact((t) => {
      const k = t.apiKeys.get(uuid(id))
      if (k === undefined) return O.none()
      k.revoked_at ??= at
      settingsChanged(t)
      return O.some(apiKeyRow(k))
    }),
  ledger: (accountId, options) =>
    db.transact((t) => {
      const id = uuid(accountId)
      const marketId = options.marketId === undefined ? undefined : uuid(options.marketId)
      const rows: Array<LedgerRow> = []
      for (let i = t.walletLedger.length - 1; i >= 0 && rows.length < options.limit; i--) {
        const l = t.walletLedger[i]
        if (l.account_id !== id) continue
        if (marketId !== undefined && t.wallets.get(l.wallet_id)!.market_id !== marketId) continue
        rows.push(ledgerRow(t, l))
      }
      return rows
    }),
  correctWallet: (row) =>
    db.transact((t): Either.Either<LedgerRow, CorrectionRefused> => {
      const accountId = uuid(row.account_id)
      const marketId = uuid(row.market_id)
      const wallet = [...t.wallets.values()].find((w) => w.account_id === accountId && w.market_id === marketId)
      if (wallet === undefined) return Either.left({ _tag: "NoWallet" })
      const corrects = row.corrects_id === null ? null : Number(row.corrects_id)
      const named = corrects === null
        ? undefined
        : t.walletLedger.find((l) => l.id === corrects && l.wallet_id === wallet.id)
      if (corrects !== null && named === undefined) return Either.left({ _tag: "NotInWallet" })
      if (named !== undefined && !isCorrectable(named.kind)) {
        return Either.left({ _tag: "NotCorrectable", kind: named.kind })
      }
      const balance = wallet.balance + row.units
      if (balance < 0) return Either.left({ _tag: "Negative", balance: wallet.balance })
      wallet.balance = balance
      wallet.updated_at = row.at
      const entry = {
        id: ++t.ledgerSequence,
        wallet_id: wallet.id,
        account_id: accountId,
        kind: "adjustment" as const,
        units: row.units,
        balance_after: balance,
        amount: null,
        currency: null,
        message_id: null,
        campaign_id: null,
        reference: null,
        reason: row.reason,
        corrects_id: corrects,
        created_at: row.at
      }
      t.walletLedger.push(entry)
      return Either.right(ledgerRow(t, entry))
    }),
  setWalletEnabled: (accountId, marketId, enabled, at) =>
    db.transact((t) => {
      const account = uuid(accountId)
      const market = uuid(marketId)
      let found = false
      for (const w of t.wallets.values()) {
        if (w.account_id === account && w.market_id === market) {
          w.enabled = enabled
          w.updated_at = at
          found = true
        }
      }
      return found
    }),
  deleteVerifiedRoute: (accountId, marketId) =>
    db.transact((t) => {
      const account = uuid(accountId)
      const market = uuid(marketId)
      for (const [id, r] of t.verifiedRoutes) {
        if (r.account_id === account && r.market_id === market) return t.verifiedRoutes.delete(id)
      }
      return false
    })
})

/** The platform's: opt-outs, spam rules, providers and the routing order of a country. */
const platformMethods = (db: MemoryDatabase["Type"]): Omit<Store, AccountMethod> => ({
  listOptOuts: (accountId) =>
    db.transact((t) => {
      const id = uuid(accountId)
      return [...t.optOuts.values()]
        .filter((o) => o.account_id === id)
        .sort((a, b) => ascending(b.created_at, a.created_at) || ascending(a.recipient, b.recipient))
        .map((o) => ({ ...o }))
    }),
  findOptOut: (accountId, recipient) =>
    db.transact((t) => O.map(O.fromNullable(t.optOuts.get(key(uuid(accountId), recipient))), (o) => ({ ...o }))),
  deleteOptOut: (accountId, recipient) => db.transact((t) => t.optOuts.delete(key(uuid(accountId), recipient))),
  listSpamRules: (f) =>
    db.transact((t) => {
      const accountId = f.accountId === undefined || f.accountId === null ? f.accountId : uuid(f.accountId)
      return [...t.spamRules.values()]
        .filter((r) => accountId === undefined || r.account_id === accountId)
        .sort((a, b) => ascending(a.created_at, b.created_at) || ascending(a.id, b.id))
        .map((r) => ({ ...r }))
    }),
  findSpamRule: (id) => db.transact((t) => O.map(O.fromNullable(t.spamRules.get(uuid(id))), (r) => ({ ...r }))),
  deleteSpamRule: (id) =>
    db.transact((t) => {
      const deleted = t.spamRules.delete(uuid(id))
      if (deleted) settingsChanged(t)
      return deleted
    }),
  setSpamRuleEnabled: (id, enabled) =>
    db.transact((t) => {
      const r = t.spamRules.get(uuid(id))
      if (r === undefined) return false
      r.enabled = enabled
      settingsChanged(t)
      return true
    }),
  listSpamBuiltinSwitches: db.transact((t) => [...t.spamBuiltinSwitches.values()].map((w) => ({ ...w }))),
  setSpamBuiltinSwitch: (row) =>
    db.transact((t) => {
      t.spamBuiltinSwitches.set(key(row.kind, row.pattern), { ...row })
    }),
  insertProvider: (row) => db.transact((t) => insertProvider(t, row)),
  listProviders: db.transact((t) =>
    [...t.providers.values()].sort((a, b) => ascending(a.name, b.name)).map((p) => providerRow(t, p))
  ),
  findProvider: (id) =>
    db.transact((t): Option.Option<ProviderFullRow> =>
      O.map(O.fromNullable(t.providers.get(uuid(id))), (p) => providerRow(t, p))
    ),
  setProviderEnabled: (id, enabled) =>
    db.transact((t) => {
      const p = t.providers.get(uuid(id))
      if (p === undefined) return false
      p.enabled = enabled
      settingsChanged(t)
      return true
    }),
  addProviderCredit: (providerId, marketId, units, at) =>
    db.transact((t) => {
      const p = uuid(providerId)
      const m = uuid(marketId)
      check(t.providers.has(p), "provider_credits", `provider ${p} does not exist`)
      check(t.markets.has(m), "provider_credits", `market ${m} does not exist`)
      const k = key(p, m)
      const balance = Math.max(0, (t.providerCredits.get(k)?.balance ?? 0) + units)
      t.providerCredits.set(k, { provider_id: p, market_id: m, balance, updated_at: at })
      return balance
    }),
  replaceCountryRoutes: (marketId, routes, at) =>
    db.transact((t) => {
      const m = uuid(marketId)
      // check every route before the first write: the whole replacement or nothing
      check(t.markets.has(m), "provider_routes", `market ${m} does not exist`)
      for (const r of routes) {
        const p = uuid(r.provider_id)
        check(t.providers.has(p), "provider_routes", `provider ${p} does not exist`)
        const existing = [...t.providerRoutes.values()].some((x) => x.market_id === m && x.provider_id === p)
        check(existing || !t.providerRoutes.has(uuid(r.id)), "provider_routes", `duplicate key: route ${r.id}`)
      }
      for (const r of t.providerRoutes.values()) if (r.market_id === m) r.enabled = false
      settingsChanged(t)
      routes.forEach((r, priority) =>
        upsertProviderRoute(t, {
          id: r.id,
          provider_id: r.provider_id,
          market_id: m,
          priority,
          enabled: true,
          created_at: at
        })
      )
    }),
  countryRoutes: (marketId) =>
    db.transact((t) => {
      const m = uuid(marketId)
      return [...t.providerRoutes.values()]
        .filter((r) => r.market_id === m)
        .map((r) => {
          const p = t.providers.get(r.provider_id)!
          return {
            id: r.id,
            provider_id: r.provider_id,
            provider_name: p.name,
            provider_enabled: p.enabled,
            priority: r.priority,
            enabled: r.enabled,
            credit: t.providerCredits.get(key(r.provider_id, m))?.balance ?? 0
          } satisfies CountryRouteRow
        })
        .sort((a, b) =>
          ascending(b.enabled, a.enabled) || ascending(a.priority, b.priority) ||
          ascending(a.provider_name, b.provider_name)
        )
    })
})

/** The memory `AdminStore` over the context's `MemoryDatabase`. */
export const make = Effect.map(MemoryDatabase, (db) => AdminStore.of({ ...accountMethods(db), ...platformMethods(db) }))

/** `AdminStore` in memory (needs the shared `MemoryDatabase`). */
export const layerMemory: Layer.Layer<AdminStore, never, MemoryDatabase> = Layer.effect(AdminStore, make)
