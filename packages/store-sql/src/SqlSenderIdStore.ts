/**
 * SQL adapter of the `SenderIdStore` port (PostgreSQL and PGlite).
 *
 * - A request and its documents are inserted in one transaction; `ON CONFLICT (account_id,
 *   market_id, name) DO NOTHING` turns a concurrent duplicate into `None` with nothing written.
 * - A status move is `UPDATE … WHERE id = $id AND status = $from` (compare-and-set).
 */
import { SqlClient } from "@effect/sql"
import type { RequirementRow, SenderIdDocumentRow, SenderIdRecordRow } from "@tuma/core/ports/SenderIdStore"
import { newSenderIdColumns, SenderIdStore } from "@tuma/core/ports/SenderIdStore"
import { Effect, Layer, Option, Schema } from "effect"
import { Count, findOne, Ids, Markets, NullableString, rowsOf, SenderIdRowSchema, single } from "./rows.js"
import { notInList, SenderId } from "./statusConditions.js"

/** A protection request still open (not closed by a final decision). */
const openRequest = notInList("status", SenderId.final)

const RECORD = `s.id, s.account_id, s.market_id, k.iso2, k.calling_code, k.name AS market_name, s.name,
  s.display_name, s.status, s.is_default, s.is_global, s.sample_message, s.purpose, s.protection_requested,
  s.rejection_reason, s.suspension_reason, s.requested_at, s.updated_at,
  coalesce((SELECT array_agg(d.id ORDER BY d.created_at, d.id) FROM sender_id_documents d
    WHERE d.sender_id_id = s.id), '{}') AS document_ids
  FROM sender_ids s JOIN markets k ON k.id = s.market_id`

const REQUIREMENT = `id, market_id, name, is_required, accepted_formats, max_size_kb, active, created_at
  FROM sender_id_requirements`

const DOCUMENT = `id, sender_id_id, requirement_id, kind, filename, content_type, size_bytes, created_at
  FROM sender_id_documents`

/** `sender_ids` with its market and review fields: the operator's row and more. */
const SenderIds = rowsOf<SenderIdRecordRow>()(Schema.Struct({
  ...SenderIdRowSchema.fields,
  iso2: Schema.String,
  calling_code: Schema.String,
  market_name: Schema.String,
  protection_requested: Schema.Boolean,
  rejection_reason: NullableString,
  suspension_reason: NullableString,
  document_ids: Schema.Array(Schema.String)
}))

const Requirements = rowsOf<RequirementRow>()(Schema.Struct({
  id: Schema.String,
  market_id: NullableString,
  name: Schema.String,
  is_required: Schema.Boolean,
  accepted_formats: Schema.Array(Schema.String),
  max_size_kb: Schema.Number,
  active: Schema.Boolean,
  created_at: Schema.DateFromSelf
}))

const Documents = rowsOf<SenderIdDocumentRow>()(Schema.Struct({
  id: Schema.String,
  sender_id_id: Schema.String,
  requirement_id: NullableString,
  kind: Schema.Literal("requirement", "protection"),
  filename: Schema.String,
  content_type: Schema.String,
  size_bytes: Schema.Number,
  created_at: Schema.DateFromSelf
}))

const documentWithContent = findOne(
  Schema.extend(Documents.schema, Schema.Struct({ content: Schema.Uint8ArrayFromSelf }))
)
const sum = single(Schema.Struct({ n: Schema.NullOr(Count) }))
const taken = single(Schema.Struct({ taken: Schema.Boolean }))

/** The SQL `SenderIdStore` over the context's `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const recordColumns = sql.literal(RECORD)
  const requirement = sql.literal(REQUIREMENT)
  const document = sql.literal(DOCUMENT)

  const find = (id: string) => SenderIds.one(sql`SELECT ${recordColumns} WHERE s.id = ${id}`)

  return SenderIdStore.of({
    listForAccount: (accountId) =>
      SenderIds.all(sql`SELECT ${recordColumns} WHERE s.account_id = ${accountId}
        ORDER BY s.requested_at DESC, s.id DESC`).pipe(Effect.orDie),
    list: (f) => {
      const clauses = [sql`true`]
      if (f.accountId !== undefined) clauses.push(sql`s.account_id = ${f.accountId}`)
      if (f.status !== undefined) clauses.push(sql`s.status = ${f.status}`)
      return SenderIds.all(sql`SELECT ${recordColumns} WHERE ${sql.and(clauses)}
        ORDER BY s.requested_at DESC, s.id DESC LIMIT ${f.limit} OFFSET ${f.offset}`).pipe(Effect.orDie)
    },
    find: (id) => find(id).pipe(Effect.orDie),
    purchasedUnits: (accountId) =>
      sum(sql`SELECT sum(units) AS n FROM wallet_ledger
        WHERE account_id = ${accountId} AND kind = 'purchase'`).pipe(
        Effect.map((row) => row.n ?? 0),
        Effect.orDie
      ),
    findMarketById: (id) =>
      Markets.one(sql`SELECT id, iso2, calling_code, name, open FROM markets WHERE id = ${id}`).pipe(Effect.orDie),
    findMarketByIso2: (iso2) =>
      Markets.one(sql`SELECT id, iso2, calling_code, name, open FROM markets WHERE iso2 = ${iso2.toUpperCase()}`).pipe(
        Effect.orDie
      ),
    verifiedMarkets: (accountId) =>
      Markets.all(sql`SELECT k.id, k.iso2, k.calling_code, k.name, k.open
        FROM verified_routes r JOIN markets k ON k.id = r.market_id
        WHERE r.account_id = ${accountId} ORDER BY k.iso2`).pipe(Effect.orDie),
    requirements: (options) => {
      const clauses = [options.includeInactive === true ? sql`true` : sql`active`]
      if (options.marketIds !== undefined) {
        clauses.push(
          options.marketIds.length === 0
            ? sql`market_id IS NULL`
            : sql`(market_id IS NULL OR market_id = ANY(${[...options.marketIds]}::uuid[]))`
        )
      }
      return Requirements.all(sql`SELECT ${requirement} WHERE ${sql.and(clauses)} ORDER BY created_at, id`).pipe(
        Effect.orDie
      )
    },
    nameTaken: (accountId, marketId, name) =>
      taken(sql`SELECT EXISTS (
          SELECT 1 FROM sender_ids WHERE market_id = ${marketId} AND name = ${name}
            AND (account_id = ${accountId} OR (protection_requested AND ${sql.literal(openRequest)}))
        ) AS taken`).pipe(Effect.map((row) => row.taken), Effect.orDie),
    insert: (row) =>
      sql.withTransaction(Effect.gen(function*() {
        const inserted = yield* Ids.all(
          sql`INSERT INTO sender_ids ${
            sql.insert(newSenderIdColumns(row))
          } ON CONFLICT (account_id, market_id, name) DO NOTHING RETURNING id`
        )
        if (inserted.length === 0) return Option.none()
        if (row.documents.length > 0) {
          yield* sql`INSERT INTO sender_id_documents ${
            sql.insert(row.documents.map((d) => ({
              id: d.id,
              sender_id_id: row.id,
              requirement_id: d.requirement_id,
              kind: d.kind,
              filename: d.filename,
              content_type: d.content_type,
              size_bytes: d.bytes.length,
              content: d.bytes,
              created_at: row.at
            })))
          }`
        }
        return yield* find(row.id)
      })).pipe(Effect.orDie),
    changeStatus: (c) =>
      sql`UPDATE sender_ids SET status = ${c.to}, rejection_reason = ${c.rejection_reason},
          suspension_reason = ${c.suspension_reason}, updated_at = ${c.at}
        WHERE id = ${c.id} AND status = ${c.from} RETURNING id`.pipe(
        Effect.flatMap((rows) => (rows.length === 0 ? Effect.succeedNone : find(c.id))),
        Effect.orDie
      ),
    documents: (senderIdId) =>
      Documents.all(sql`SELECT ${document} WHERE sender_id_id = ${senderIdId} ORDER BY created_at, id`).pipe(
        Effect.orDie
      ),
    documentContent: (documentId) =>
      documentWithContent(
        sql`SELECT ${sql.literal(DOCUMENT.replace("created_at", "created_at, content"))} WHERE id = ${documentId}`
      ).pipe(Effect.orDie),
    insertRequirement: (row) =>
      sql`INSERT INTO sender_id_requirements ${sql.insert({ ...row, accepted_formats: [...row.accepted_formats] })}`
        .pipe(Effect.asVoid, Effect.orDie),
    deactivateRequirement: (id) =>
      sql`UPDATE sender_id_requirements SET active = false WHERE id = ${id} AND active RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )
  })
})

/** `SenderIdStore` on SQL. */
export const layer: Layer.Layer<SenderIdStore, never, SqlClient.SqlClient> = Layer.effect(SenderIdStore, make)
