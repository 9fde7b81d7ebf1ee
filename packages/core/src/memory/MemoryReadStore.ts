/**
 * In-memory adapter of the `ReadStore` port, over the shared `MemoryDatabase`: the same filters,
 * order (`created_at DESC, id DESC` for messages, country code for wallets and routes) and joins as
 * `SqlReadStore`. Every read is one critical section and answers copies.
 */
import type { Option } from "effect"
import { Effect, Layer, Option as O } from "effect"
import type { MessageEntryRow } from "../MessageEntry.js"
import type { MessageListFilter, ProfileRow, VerifiedRouteMarketRow, WalletMarketRow } from "../ports/ReadStore.js"
import { ReadStore } from "../ports/ReadStore.js"
import { ascending, jsonCopy, uuid } from "./internal.js"
import type { MarketRecord, MessageRecord, Tables } from "./MemoryDatabase.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

const matches = (f: MessageListFilter, accountId: string) => (m: MessageRecord): boolean =>
  m.account_id === accountId &&
  (f.status === undefined || m.status === f.status) &&
  (f.channel === undefined || m.channel === f.channel) &&
  (f.campaignId === undefined || m.campaign_id === f.campaignId) &&
  (f.createdFrom === undefined || m.created_at.getTime() >= f.createdFrom.getTime()) &&
  (f.createdBefore === undefined || m.created_at.getTime() < f.createdBefore.getTime())

/** `ORDER BY created_at DESC, id DESC`. */
const newestFirst = (a: MessageRecord, b: MessageRecord) =>
  ascending(b.created_at, a.created_at) || ascending(b.id, a.id)

const entryRow = (t: Tables, m: MessageRecord): MessageEntryRow => ({
  id: m.id,
  recipient: m.recipient,
  sender_id: m.sender_id,
  units: m.units,
  channel: m.channel,
  status: m.status,
  provider_message_id: m.provider_message_id,
  queued_at: m.queued_at,
  sent_at: m.sent_at,
  delivered_at: m.delivered_at,
  failure_reason: m.failure_reason,
  campaign_id: m.campaign_id,
  campaign_name: m.campaign_id === null ? null : t.campaigns.get(m.campaign_id)?.name ?? null,
  failure_context: jsonCopy(m.failure_context),
  dr_checked_at: m.dr_checked_at,
  dr_status: m.dr_status,
  dr_delivery_status: m.dr_delivery_status
})

type MarketColumns = "id" | "market_id" | "iso2" | "calling_code" | "market_name"

/**
 * An account's rows of one table (its wallets, its verified routes) with their market's columns and
 * `rest`, by country code (the SQL join's answer).
 */
const withMarkets = <R extends { readonly id: string; readonly account_id: string; readonly market_id: string }, A>(
  t: Tables,
  rows: Iterable<R>,
  accountId: string,
  rest: (row: R, market: MarketRecord) => A
) => {
  const id = uuid(accountId)
  const joined = (r: R, k: MarketRecord) => ({
    id: r.id,
    market_id: r.market_id,
    iso2: k.iso2,
    calling_code: k.calling_code,
    market_name: k.name,
    ...rest(r, k)
  })
  return [...rows].filter((r) => r.account_id === id).map((r) => joined(r, t.markets.get(r.market_id)!))
    .sort((a, b) => ascending(a.iso2, b.iso2))
}

/** The memory `ReadStore` over the context's `MemoryDatabase`. */
export const make = Effect.map(MemoryDatabase, (db) =>
  ReadStore.of({
    listMessages: (r) =>
      db.transact((t) =>
        [...t.messages.values()]
          .filter(matches(r, uuid(r.accountId)))
          .sort(newestFirst)
          .slice(r.offset, r.offset + r.limit)
          .map((m) => entryRow(t, m))
      ),
    countMessages: (f) => db.transact((t) => [...t.messages.values()].filter(matches(f, uuid(f.accountId))).length),
    findMessage: (accountId, messageId) =>
      db.transact((t): Option.Option<MessageEntryRow> => {
        const m = t.messages.get(uuid(messageId))
        return m !== undefined && m.account_id === uuid(accountId) ? O.some(entryRow(t, m)) : O.none()
      }),
    wallets: (accountId) =>
      db.transact((t) =>
        withMarkets(t, t.wallets.values(), accountId, (w): Omit<WalletMarketRow, MarketColumns> => ({
          balance: w.balance,
          enabled: w.enabled
        }))
      ),
    verifiedRoutes: (accountId) =>
      db.transact((t) =>
        withMarkets(t, t.verifiedRoutes.values(), accountId, (r, k): Omit<VerifiedRouteMarketRow, MarketColumns> => ({
          market_open: k.open,
          phone: r.phone,
          verified_at: r.verified_at
        }))
      ),
    profile: (accountId) =>
      db.transact((t): Option.Option<ProfileRow> => {
        const a = t.accounts.get(uuid(accountId))
        if (a === undefined) return O.none()
        const k = a.country_id === null ? undefined : t.markets.get(a.country_id)
        return O.some({
          id: a.id,
          name: a.name,
          email: a.email,
          phone: a.phone,
          phone_verified_at: a.phone_verified_at,
          active: a.active,
          country: k === undefined ? null : { id: k.id, iso2: k.iso2, calling_code: k.calling_code, name: k.name }
        })
      })
  }))

/** `ReadStore` in memory (needs the shared `MemoryDatabase`). */
export const layerMemory: Layer.Layer<ReadStore, never, MemoryDatabase> = Layer.effect(ReadStore, make)
