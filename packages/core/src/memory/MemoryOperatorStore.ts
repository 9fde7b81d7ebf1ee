/**
 * In-memory adapter of the `OperatorStore` port, over the shared `MemoryDatabase`: the same upserts,
 * conflict answers and constraints as `SqlOperatorStore` (a duplicate e-mail, key hash or provider
 * name, or a missing referenced row, is a defect there and here).
 */
import type { Option } from "effect"
import { Effect, Layer, Option as O } from "effect"
import { OperatorStore } from "../ports/OperatorStore.js"
import type { MarketRow } from "../ports/SendStore.js"
import {
  accountAndMarket,
  accountRow,
  check,
  creditWallet,
  insertAccount,
  insertProvider,
  key,
  ledgerRow,
  marketRow,
  senderIdRow,
  setProviderCredit,
  settingsChanged,
  upsertProviderRoute,
  uuid,
  uuidOrNull
} from "./internal.js"
import type { SenderIdRecord } from "./MemoryDatabase.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

/** The memory `OperatorStore` over the context's `MemoryDatabase`. */
export const make = Effect.map(MemoryDatabase, (db) =>
  OperatorStore.of({
    findMarket: (iso2) =>
      db.transact((t): Option.Option<MarketRow> => {
        for (const m of t.markets.values()) if (m.iso2 === iso2) return O.some(marketRow(m))
        return O.none()
      }),
    setMarketOpen: (iso2, open) =>
      db.transact((t) => {
        let found = false
        for (const m of t.markets.values()) {
          if (m.iso2 === iso2) {
            m.open = open
            found = true
            settingsChanged(t)
          }
        }
        return found
      }),
    insertAccount: (row) =>
      db.transact((t) => {
        check(insertAccount(t, row), "accounts", `duplicate key: an account with e-mail ${row.email} exists`)
      }),
    findAccount: (id) => db.transact((t) => O.map(O.fromNullable(t.accounts.get(uuid(id))), accountRow)),
    setAccountActive: (id, active, at) =>
      db.transact((t) => {
        const account = t.accounts.get(uuid(id))
        if (account === undefined) return false
        account.active = active
        account.updated_at = at
        settingsChanged(t)
        return true
      }),
    insertApiKey: (row) =>
      db.transact((t) => {
        const id = uuid(row.id)
        const accountId = uuid(row.account_id)
        check(!t.apiKeys.has(id), "api_keys", `duplicate key: api key ${id} exists`)
        check(t.accounts.has(accountId), "api_keys", `account ${accountId} does not exist`)
        check(row.mode === "live" || row.mode === "test", "api_keys", `mode ${row.mode} is not live or test`)
        for (const k of t.apiKeys.values()) check(k.key_hash !== row.key_hash, "api_keys", "duplicate key hash")
        t.apiKeys.set(id, {
          ...row,
          id,
          account_id: accountId,
          scopes: [...row.scopes],
          allowed_ips: [...row.allowed_ips]
        })
        settingsChanged(t)
      }),
    purchase: (row) => db.transact((t) => ledgerRow(t, creditWallet(t, row))),
    upsertVerifiedRoute: (row) =>
      db.transact((t) => {
        const { accountId, marketId } = accountAndMarket(t, "verified_routes", row)
        const existing = [...t.verifiedRoutes.values()].find((r) =>
          r.account_id === accountId && r.market_id === marketId
        )
        if (existing !== undefined) {
          existing.phone = row.phone
          existing.verified_at = row.verified_at
          return
        }
        const id = uuid(row.id)
        check(!t.verifiedRoutes.has(id), "verified_routes", `duplicate key: route ${id} exists`)
        t.verifiedRoutes.set(id, { ...row, id, account_id: accountId, market_id: marketId })
      }),
    upsertSenderId: (row) =>
      db.transact((t) => {
        const { accountId, marketId } = accountAndMarket(t, "sender_ids", row)
        check(row.name === row.name.toUpperCase(), "sender_ids", "name must be uppercase")
        const existing = [...t.senderIds.values()].find((s) =>
          s.account_id === accountId && s.market_id === marketId && s.name === row.name
        )
        if (existing !== undefined) {
          existing.status = row.status
          existing.display_name = row.display_name
          existing.is_default = row.is_default
          existing.is_global = row.is_global
          existing.updated_at = row.updated_at
          return senderIdRow(existing)
        }
        const id = uuid(row.id)
        check(!t.senderIds.has(id), "sender_ids", `duplicate key: sender ID ${id} exists`)
        const record: SenderIdRecord = {
          ...row,
          id,
          account_id: accountId,
          market_id: marketId,
          protection_requested: false,
          rejection_reason: null,
          suspension_reason: null
        }
        t.senderIds.set(id, record)
        return senderIdRow(record)
      }),
    insertProvider: (row) =>
      db.transact((t) => {
        check(insertProvider(t, row), "providers", `duplicate key: a provider named ${row.name} exists`)
      }),
    setProviderCredit: (providerId, marketId, balance, at) =>
      db.transact((t) => setProviderCredit(t, providerId, marketId, balance, at)),
    upsertProviderRoute: (row) => db.transact((t) => upsertProviderRoute(t, row)),
    insertOptOut: (accountId, recipient, reason, at) =>
      db.transact((t) => {
        const id = uuid(accountId)
        check(t.accounts.has(id), "opt_outs", `account ${id} does not exist`)
        const k = key(id, recipient)
        if (!t.optOuts.has(k)) t.optOuts.set(k, { account_id: id, recipient, reason, created_at: at })
      }),
    insertSpamRule: (row) =>
      db.transact((t) => {
        const id = uuid(row.id)
        const accountId = uuidOrNull(row.account_id)
        check(!t.spamRules.has(id), "spam_rules", `duplicate key: spam rule ${id} exists`)
        check(accountId === null || t.accounts.has(accountId), "spam_rules", `account ${accountId} does not exist`)
        t.spamRules.set(id, { ...row, id, account_id: accountId, enabled: true })
        settingsChanged(t)
      })
  }))

/** `OperatorStore` in memory (needs the shared `MemoryDatabase`). */
export const layerMemory: Layer.Layer<OperatorStore, never, MemoryDatabase> = Layer.effect(OperatorStore, make)
