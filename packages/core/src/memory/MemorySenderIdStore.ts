/**
 * In-memory adapter of the `SenderIdStore` port, over the shared `MemoryDatabase`, answering as
 * `SqlSenderIdStore` does:
 *
 * - a request and its documents are written in one critical section; an existing (account, market,
 *   name) turns it into `None` with nothing written (`ON CONFLICT DO NOTHING`);
 * - a status move is a compare-and-set on the current status;
 * - records list newest request first (`requested_at DESC, id DESC`), requirements and documents
 *   oldest first (`created_at, id`).
 */
import type { Option } from "effect"
import { Effect, Layer, Option as O } from "effect"
import type { RequirementRow, SenderIdDocumentRow, SenderIdRecordRow } from "../ports/SenderIdStore.js"
import { newSenderIdColumns, SenderIdStore } from "../ports/SenderIdStore.js"
import type { MarketRow } from "../ports/SendStore.js"
import { accountAndMarket, ascending, check, marketRow, senderIdRow, uuid, uuidOrNull } from "./internal.js"
import type { DocumentRecord, RequirementRecord, SenderIdRecord, Tables } from "./MemoryDatabase.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

const byCreated = <A extends { readonly created_at: Date; readonly id: string }>(a: A, b: A) =>
  ascending(a.created_at, b.created_at) || ascending(a.id, b.id)

const newestRequestFirst = (a: SenderIdRecord, b: SenderIdRecord) =>
  ascending(b.requested_at, a.requested_at) || ascending(b.id, a.id)

const recordRow = (t: Tables, s: SenderIdRecord): SenderIdRecordRow => {
  const k = t.markets.get(s.market_id)!
  return {
    ...senderIdRow(s),
    iso2: k.iso2,
    calling_code: k.calling_code,
    market_name: k.name,
    protection_requested: s.protection_requested,
    rejection_reason: s.rejection_reason,
    suspension_reason: s.suspension_reason,
    document_ids: [...t.senderIdDocuments.values()]
      .filter((d) => d.sender_id_id === s.id)
      .sort(byCreated)
      .map((d) => d.id)
  }
}

const requirementRow = (r: RequirementRecord): RequirementRow => ({ ...r, accepted_formats: [...r.accepted_formats] })

const documentRow = (d: DocumentRecord): SenderIdDocumentRow => ({
  id: d.id,
  sender_id_id: d.sender_id_id,
  requirement_id: d.requirement_id,
  kind: d.kind,
  filename: d.filename,
  content_type: d.content_type,
  size_bytes: d.size_bytes,
  created_at: d.created_at
})

const findMarket = (t: Tables, found: (m: MarketRow) => boolean): Option.Option<MarketRow> => {
  for (const m of t.markets.values()) if (found(m)) return O.some(marketRow(m))
  return O.none()
}

/** The memory `SenderIdStore` over the context's `MemoryDatabase`. */
export const make = Effect.map(MemoryDatabase, (db) =>
  SenderIdStore.of({
    listForAccount: (accountId) =>
      db.transact((t) => {
        const id = uuid(accountId)
        return [...t.senderIds.values()]
          .filter((s) => s.account_id === id)
          .sort(newestRequestFirst)
          .map((s) => recordRow(t, s))
      }),
    list: (f) =>
      db.transact((t) => {
        const accountId = f.accountId === undefined ? undefined : uuid(f.accountId)
        return [...t.senderIds.values()]
          .filter((s) =>
            (accountId === undefined || s.account_id === accountId) && (f.status === undefined || s.status === f.status)
          )
          .sort(newestRequestFirst)
          .slice(f.offset, f.offset + f.limit)
          .map((s) => recordRow(t, s))
      }),
    find: (id) => db.transact((t) => O.map(O.fromNullable(t.senderIds.get(uuid(id))), (s) => recordRow(t, s))),
    purchasedUnits: (accountId) =>
      db.transact((t) => {
        const id = uuid(accountId)
        return t.walletLedger.reduce((n, l) => l.account_id === id && l.kind === "purchase" ? n + l.units : n, 0)
      }),
    findMarketById: (id) => db.transact((t) => O.map(O.fromNullable(t.markets.get(uuid(id))), marketRow)),
    findMarketByIso2: (iso2) => db.transact((t) => findMarket(t, (m) => m.iso2 === iso2.toUpperCase())),
    verifiedMarkets: (accountId) =>
      db.transact((t) => {
        const id = uuid(accountId)
        return [...t.verifiedRoutes.values()]
          .filter((r) => r.account_id === id)
          .map((r) => marketRow(t.markets.get(r.market_id)!))
          .sort((a, b) => ascending(a.iso2, b.iso2))
      }),
    requirements: (options) =>
      db.transact((t) => {
        const markets = options.marketIds === undefined ? undefined : new Set(options.marketIds.map(uuid))
        return [...t.senderIdRequirements.values()]
          .filter((r) =>
            (options.includeInactive === true || r.active) &&
            (markets === undefined || r.market_id === null || markets.has(r.market_id))
          )
          .sort(byCreated)
          .map(requirementRow)
      }),
    nameTaken: (accountId, marketId, name) =>
      db.transact((t) => {
        const account = uuid(accountId)
        const market = uuid(marketId)
        for (const s of t.senderIds.values()) {
          if (
            s.market_id === market && s.name === name &&
            (s.account_id === account || (s.protection_requested && s.status !== "rejected"))
          ) return true
        }
        return false
      }),
    insert: (row) =>
      db.transact((t): Option.Option<SenderIdRecordRow> => {
        const id = uuid(row.id)
        const { accountId, marketId } = accountAndMarket(t, "sender_ids", row)
        check(row.name === row.name.toUpperCase(), "sender_ids", "name must be uppercase")
        for (const s of t.senderIds.values()) {
          if (s.account_id === accountId && s.market_id === marketId && s.name === row.name) return O.none()
        }
        check(!t.senderIds.has(id), "sender_ids", `duplicate key: sender ID ${id} exists`)
        const documents = row.documents.map((d): DocumentRecord => ({
          id: uuid(d.id),
          sender_id_id: id,
          requirement_id: uuidOrNull(d.requirement_id),
          kind: d.kind,
          filename: d.filename,
          content_type: d.content_type,
          size_bytes: d.bytes.length,
          content: Uint8Array.from(d.bytes),
          created_at: row.at
        }))
        const fresh = new Set<string>()
        for (const d of documents) {
          check(!t.senderIdDocuments.has(d.id) && !fresh.has(d.id), "sender_id_documents", `duplicate key: ${d.id}`)
          check(
            d.requirement_id === null || t.senderIdRequirements.has(d.requirement_id),
            "sender_id_documents",
            `requirement ${d.requirement_id} does not exist`
          )
          fresh.add(d.id)
        }
        const record: SenderIdRecord = {
          ...newSenderIdColumns(row),
          id,
          account_id: accountId,
          market_id: marketId,
          rejection_reason: null,
          suspension_reason: null
        }
        t.senderIds.set(id, record)
        for (const d of documents) t.senderIdDocuments.set(d.id, d)
        return O.some(recordRow(t, record))
      }),
    changeStatus: (c) =>
      db.transact((t): Option.Option<SenderIdRecordRow> => {
        const s = t.senderIds.get(uuid(c.id))
        if (s === undefined || s.status !== c.from) return O.none()
        s.status = c.to
        s.rejection_reason = c.rejection_reason
        s.suspension_reason = c.suspension_reason
        s.updated_at = c.at
        return O.some(recordRow(t, s))
      }),
    documents: (senderIdId) =>
      db.transact((t) => {
        const id = uuid(senderIdId)
        return [...t.senderIdDocuments.values()].filter((d) => d.sender_id_id === id).sort(byCreated).map(documentRow)
      }),
    documentContent: (documentId) =>
      db.transact((t) =>
        O.map(
          O.fromNullable(t.senderIdDocuments.get(uuid(documentId))),
          (d) => ({ ...documentRow(d), content: Uint8Array.from(d.content) })
        )
      ),
    insertRequirement: (row) =>
      db.transact((t) => {
        const id = uuid(row.id)
        const marketId = uuidOrNull(row.market_id)
        check(!t.senderIdRequirements.has(id), "sender_id_requirements", `duplicate key: requirement ${id} exists`)
        check(
          marketId === null || t.markets.has(marketId),
          "sender_id_requirements",
          `market ${marketId} does not exist`
        )
        t.senderIdRequirements.set(id, { ...row, id, market_id: marketId, accepted_formats: [...row.accepted_formats] })
      }),
    deactivateRequirement: (id) =>
      db.transact((t) => {
        const r = t.senderIdRequirements.get(uuid(id))
        if (r === undefined || !r.active) return false
        r.active = false
        return true
      })
  }))

/** `SenderIdStore` in memory (needs the shared `MemoryDatabase`). */
export const layerMemory: Layer.Layer<SenderIdStore, never, MemoryDatabase> = Layer.effect(SenderIdStore, make)
