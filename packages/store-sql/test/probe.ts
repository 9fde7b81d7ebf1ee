/**
 * `Probe`: what the contract suites read or write beside the ports under test — the state a send
 * left, seeded rows, a wallet moved by hand — once per kind of store: `Probe.sql` runs the SQL the
 * suites used to run inline, `Probe.memory` reads and writes core's `MemoryDatabase` tables. The
 * suites then run unchanged on every driver.
 */
import { SqlClient } from "@effect/sql"
import { Memory } from "@tuma/core"
import type { MarketRow } from "@tuma/core"
import { Context, Effect, Layer } from "effect"

/** Everything the store holds for an account, to prove what a send did or did not write. */
export interface AccountState {
  /** Wallet balance per country (ISO2). */
  readonly wallets: Record<string, number>
  /** Sum of the account's wallet balances. */
  readonly balance: number
  /** Sum of the account's ledger units (equals `balance` when the ledger is complete). */
  readonly ledger: number
  readonly messages: number
  /** Dispatch-queue rows. */
  readonly queued: number
  readonly campaigns: number
  readonly idempotency: number
  /** Ledger rows with a negative `balance_after` (never any). */
  readonly negative: number
}

/** The columns of a stored message the suites look at. */
export interface MessageColumns {
  readonly recipient: string
  readonly text: string
  readonly country: string
  readonly encoding: string
  readonly parts: number
  readonly units: number
  readonly status: string
  readonly scheduled_at: Date | null
  readonly queued_at: Date | null
}

/** A message row to write directly (the reads are under test, not the sends), in the TZ market. */
export interface SeedMessageRow {
  readonly id: string
  readonly account_id: string
  readonly campaign_id: string | null
  readonly recipient: string
  readonly channel: "api" | "web"
  readonly status: "scheduled" | "queued" | "processing" | "sent" | "delivered" | "failed"
  readonly created_at: Date
}

/** A campaign row to write directly. */
export interface SeedCampaignRow {
  readonly id: string
  readonly account_id: string
  readonly name: string
  readonly created_at: Date
}

/** A debit ledger row with its wallet's country. */
export interface DebitRow {
  readonly iso2: string
  readonly units: number
  readonly campaign_id: string | null
  readonly balance_after: number
}

/** A stored sender-ID document, as the suites check it. */
export interface DocumentColumns {
  readonly kind: string
  readonly content_type: string
  readonly size_bytes: number
  readonly requirement_id: string | null
}

/** The columns of a seeded message (the same on every driver). */
const seedColumns = (m: SeedMessageRow, marketId: string) => ({
  id: m.id,
  account_id: m.account_id,
  campaign_id: m.campaign_id,
  market_id: marketId,
  country: "TZ",
  recipient: m.recipient,
  sender_id: "TUMA",
  text: "Hello",
  encoding: "GSM-7" as const,
  parts: 1,
  units: 1,
  channel: m.channel,
  status: m.status,
  created_at: m.created_at,
  queued_at: m.created_at,
  updated_at: m.created_at
})

export class Probe extends Context.Tag("store-sql/test/Probe")<Probe, {
  readonly stateOf: (accountId: string) => Effect.Effect<AccountState>
  /** The balances of the account's wallets (read while sends run). */
  readonly walletBalances: (accountId: string) => Effect.Effect<ReadonlyArray<number>>
  readonly message: (id: string) => Effect.Effect<MessageColumns>
  /** A campaign's messages, by recipient. */
  readonly campaignMessages: (campaignId: string) => Effect.Effect<ReadonlyArray<MessageColumns>>
  readonly dispatchRow: (messageId: string) => Effect.Effect<{ readonly available_at: Date }>
  /** The account's debit ledger rows, by country. */
  readonly debits: (accountId: string) => Effect.Effect<ReadonlyArray<DebitRow>>
  /** Wallets whose balance differs from the sum of their ledger. */
  readonly ledgerMismatches: (accountId: string) => Effect.Effect<number>
  /** Adds a market (nothing when the ISO2 exists). */
  readonly insertMarket: (market: MarketRow) => Effect.Effect<void>
  readonly seedMessage: (row: SeedMessageRow) => Effect.Effect<void>
  readonly seedCampaign: (row: SeedCampaignRow) => Effect.Effect<void>
  /** Moves the account's wallet for a country by `delta` units, by hand (no ledger row). */
  readonly adjustWallet: (accountId: string, iso2: string, delta: number) => Effect.Effect<void>
  /** Empties every wallet of the account, by hand (no ledger row). */
  readonly emptyWallets: (accountId: string) => Effect.Effect<void>
  readonly senderIdRow: (id: string) => Effect.Effect<{ display_name: string; protection_requested: boolean }>
  /** A sender ID's documents, largest first. */
  readonly senderIdDocuments: (senderIdId: string) => Effect.Effect<ReadonlyArray<DocumentColumns>>
}>() {
  /** The probe over the driver's SQL database. */
  static readonly sql: Layer.Layer<Probe, never, SqlClient.SqlClient> = Layer.effect(
    Probe,
    Effect.map(SqlClient.SqlClient, (sql) => {
      const orDie = <A>(eff: Effect.Effect<A, unknown>) => Effect.orDie(eff)
      return Probe.of({
        stateOf: (accountId) =>
          orDie(Effect.map(
            sql<AccountState & { wallets: Record<string, number> | null }>`SELECT
        (SELECT json_object_agg(m.iso2, w.balance) FROM wallets w JOIN markets m ON m.id = w.market_id
          WHERE w.account_id = ${accountId}) AS wallets,
        (SELECT coalesce(sum(balance), 0)::int FROM wallets WHERE account_id = ${accountId}) AS balance,
        (SELECT coalesce(sum(units), 0)::int FROM wallet_ledger WHERE account_id = ${accountId}) AS ledger,
        (SELECT count(*)::int FROM messages WHERE account_id = ${accountId}) AS messages,
        (SELECT count(*)::int FROM dispatch_queue WHERE account_id = ${accountId}) AS queued,
        (SELECT count(*)::int FROM campaigns WHERE account_id = ${accountId}) AS campaigns,
        (SELECT count(*)::int FROM idempotency_records WHERE account_id = ${accountId}) AS idempotency,
        (SELECT count(*)::int FROM wallet_ledger WHERE account_id = ${accountId} AND balance_after < 0) AS negative`,
            ([row]) => ({ ...row, wallets: row.wallets ?? {} })
          )),
        walletBalances: (accountId) =>
          orDie(Effect.map(
            sql<{ balance: number }>`SELECT balance FROM wallets WHERE account_id = ${accountId}`,
            (rows) => rows.map((r) => r.balance)
          )),
        message: (id) =>
          orDie(Effect.map(
            sql<MessageColumns>`SELECT recipient, text, country, encoding, parts, units, status, scheduled_at,
              queued_at FROM messages WHERE id = ${id}`,
            (rows) => rows[0]
          )),
        campaignMessages: (campaignId) =>
          orDie(sql<MessageColumns>`SELECT recipient, text, country, encoding, parts, units, status, scheduled_at,
            queued_at FROM messages WHERE campaign_id = ${campaignId} ORDER BY recipient`),
        dispatchRow: (messageId) =>
          orDie(Effect.map(
            sql<{ available_at: Date }>`SELECT available_at FROM dispatch_queue WHERE message_id = ${messageId}`,
            (rows) => rows[0]
          )),
        debits: (accountId) =>
          orDie(sql<DebitRow>`SELECT m.iso2, l.units, l.campaign_id, l.balance_after FROM wallet_ledger l
            JOIN wallets w ON w.id = l.wallet_id JOIN markets m ON m.id = w.market_id
            WHERE l.account_id = ${accountId} AND l.kind = 'debit' ORDER BY m.iso2`),
        ledgerMismatches: (accountId) =>
          orDie(Effect.map(
            sql<{ mismatched: string }>`SELECT count(*) AS mismatched FROM wallets w
              WHERE w.account_id = ${accountId}
                AND w.balance <> (SELECT sum(units) FROM wallet_ledger l WHERE l.wallet_id = w.id)`,
            ([row]) => Number(row.mismatched)
          )),
        insertMarket: (m) =>
          orDie(sql`INSERT INTO markets (id, iso2, calling_code, name, open)
            VALUES (${m.id}, ${m.iso2}, ${m.calling_code}, ${m.name}, ${m.open}) ON CONFLICT DO NOTHING`),
        seedMessage: (m) =>
          orDie(Effect.gen(function*() {
            const [market] = yield* sql<{ id: string }>`SELECT id FROM markets WHERE iso2 = 'TZ'`
            yield* sql`INSERT INTO messages ${sql.insert(seedColumns(m, market.id))}`
          })),
        seedCampaign: (c) =>
          orDie(sql`INSERT INTO campaigns ${
            sql.insert({
              id: c.id,
              account_id: c.account_id,
              api_version: "v2",
              name: c.name,
              sender_id: "TUMA",
              status: "queued",
              recipient_count: 1,
              queued_count: 1,
              failed_count: 0,
              units: 1,
              scheduled_at: null,
              created_at: c.created_at,
              updated_at: c.created_at
            })
          }`),
        adjustWallet: (accountId, iso2, delta) =>
          orDie(sql`UPDATE wallets SET balance = balance + ${delta} WHERE account_id = ${accountId}
            AND market_id = (SELECT id FROM markets WHERE iso2 = ${iso2})`),
        emptyWallets: (accountId) => orDie(sql`UPDATE wallets SET balance = 0 WHERE account_id = ${accountId}`),
        senderIdRow: (id) =>
          orDie(Effect.map(
            sql<{ display_name: string; protection_requested: boolean }>`SELECT display_name, protection_requested
              FROM sender_ids WHERE id = ${id}`,
            (rows) => rows[0]
          )),
        senderIdDocuments: (senderIdId) =>
          orDie(sql<DocumentColumns>`SELECT kind, content_type, size_bytes, requirement_id FROM sender_id_documents
            WHERE sender_id_id = ${senderIdId} ORDER BY size_bytes DESC`)
      })
    })
  )

  /** The probe over core's in-memory tables. */
  static readonly memory: Layer.Layer<Probe, never, Memory.MemoryDatabase> = Layer.effect(
    Probe,
    Effect.map(Memory.MemoryDatabase, (db) => {
      const tx = db.transact
      const columns = (m: Memory.MessageRecord): MessageColumns => ({
        recipient: m.recipient,
        text: m.text,
        country: m.country,
        encoding: m.encoding,
        parts: m.parts,
        units: m.units,
        status: m.status,
        scheduled_at: m.scheduled_at,
        queued_at: m.queued_at
      })
      const iso2Of = (t: Memory.Tables, marketId: string) => t.markets.get(marketId)!.iso2
      const marketIdOf = (t: Memory.Tables, iso2: string) => [...t.markets.values()].find((m) => m.iso2 === iso2)!.id
      const walletsOf = (t: Memory.Tables, accountId: string) =>
        [...t.wallets.values()].filter((w) => w.account_id === accountId)
      return Probe.of({
        stateOf: (accountId) =>
          tx((t) => {
            const wallets = walletsOf(t, accountId)
            const ledger = t.walletLedger.filter((l) => l.account_id === accountId)
            const count = <A extends { account_id: string }>(rows: Iterable<A>) =>
              [...rows].filter((r) => r.account_id === accountId).length
            return {
              wallets: Object.fromEntries(wallets.map((w) => [iso2Of(t, w.market_id), w.balance])),
              balance: wallets.reduce((n, w) => n + w.balance, 0),
              ledger: ledger.reduce((n, l) => n + l.units, 0),
              messages: count(t.messages.values()),
              queued: count(t.dispatchQueue.values()),
              campaigns: count(t.campaigns.values()),
              idempotency: count(t.idempotencyRecords.values()),
              negative: ledger.filter((l) => l.balance_after < 0).length
            }
          }),
        walletBalances: (accountId) => tx((t) => walletsOf(t, accountId).map((w) => w.balance)),
        message: (id) => tx((t) => columns(t.messages.get(id)!)),
        campaignMessages: (campaignId) =>
          tx((t) =>
            [...t.messages.values()]
              .filter((m) => m.campaign_id === campaignId)
              .sort((a, b) => a.recipient < b.recipient ? -1 : a.recipient > b.recipient ? 1 : 0)
              .map(columns)
          ),
        dispatchRow: (messageId) => tx((t) => ({ available_at: t.dispatchQueue.get(messageId)!.available_at })),
        debits: (accountId) =>
          tx((t) =>
            t.walletLedger
              .filter((l) => l.account_id === accountId && l.kind === "debit")
              .map((l) => ({
                iso2: iso2Of(t, t.wallets.get(l.wallet_id)!.market_id),
                units: l.units,
                campaign_id: l.campaign_id,
                balance_after: l.balance_after
              }))
              .sort((a, b) => a.iso2 < b.iso2 ? -1 : a.iso2 > b.iso2 ? 1 : 0)
          ),
        ledgerMismatches: (accountId) =>
          tx((t) =>
            walletsOf(t, accountId).filter((w) =>
              w.balance !== t.walletLedger.filter((l) => l.wallet_id === w.id).reduce((n, l) => n + l.units, 0)
            ).length
          ),
        insertMarket: (m) =>
          tx((t) => {
            if (![...t.markets.values()].some((x) => x.iso2 === m.iso2)) t.markets.set(m.id, { ...m })
          }),
        seedMessage: (m) =>
          tx((t) => {
            t.messages.set(
              m.id,
              Memory.messageRecord({
                ...seedColumns(m, marketIdOf(t, "TZ")),
                api_key_id: null,
                idempotency_key: null,
                scheduled_at: null
              })
            )
          }),
        seedCampaign: (c) =>
          tx((t) => {
            t.campaigns.set(c.id, {
              id: c.id,
              account_id: c.account_id,
              api_key_id: null,
              api_version: "v2",
              name: c.name,
              sender_id: "TUMA",
              status: "queued",
              recipient_count: 1,
              queued_count: 1,
              failed_count: 0,
              units: 1,
              failures: [],
              scheduled_at: null,
              created_at: c.created_at,
              updated_at: c.created_at
            })
          }),
        adjustWallet: (accountId, iso2, delta) =>
          tx((t) => {
            for (const w of walletsOf(t, accountId)) if (w.market_id === marketIdOf(t, iso2)) w.balance += delta
          }),
        emptyWallets: (accountId) =>
          tx((t) => {
            for (const w of walletsOf(t, accountId)) w.balance = 0
          }),
        senderIdRow: (id) =>
          tx((t) => {
            const s = t.senderIds.get(id)!
            return { display_name: s.display_name, protection_requested: s.protection_requested }
          }),
        senderIdDocuments: (senderIdId) =>
          tx((t) =>
            [...t.senderIdDocuments.values()]
              .filter((d) => d.sender_id_id === senderIdId)
              .sort((a, b) => b.size_bytes - a.size_bytes)
              .map((d) => ({
                kind: d.kind,
                content_type: d.content_type,
                size_bytes: d.size_bytes,
                requirement_id: d.requirement_id
              }))
          )
      })
    })
  )
}
