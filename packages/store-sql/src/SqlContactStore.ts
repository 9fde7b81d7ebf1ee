/**
 * SQL adapter of `ContactStore` (core/src/ports/ContactStore.ts), PostgreSQL and PGlite: an
 * account's contacts, groups and saved templates (migrations 0800, 0801). Every statement is bounded
 * by `account_id`; an id that is not a uuid matches nothing. A contact's opt-out mark is read from
 * `opt_outs` on every read. An import is one transaction: the known contacts of its numbers are
 * locked, merged with the domain's rule (passed in), and written with one upsert statement.
 */
import { SqlClient } from "@effect/sql"
import type { ContactRow, GroupRow, TemplateRow } from "@tuma/core/ports/ContactStore"
import { ContactStore } from "@tuma/core/ports/ContactStore"
import type { CheckedContact } from "@tuma/domain/contacts"
import { Effect, Layer, Schema } from "effect"
import { Count, decoders, isUuid, rowsOf } from "./rows.js"
import { sqlState, transaction } from "./SqlRetry.js"

const Fields = Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String }))
const GroupRefs = Schema.parseJson(Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String })))

const contactFields = {
  id: Schema.String,
  phone: Schema.String,
  name: Schema.String,
  fields: Fields,
  opted_out: Schema.Boolean,
  groups: GroupRefs,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
}
const Contacts = rowsOf<ContactRow>()(Schema.Struct(contactFields))
const Listed = decoders(Schema.Struct({ ...contactFields, total: Count }))
const Known = decoders(Schema.Struct({ id: Schema.String, phone: Schema.String, name: Schema.String, fields: Fields }))
const Recipients = decoders(Schema.Struct({
  id: Schema.String,
  phone: Schema.String,
  name: Schema.String,
  fields: Fields,
  opted_out: Schema.Boolean
}))
const Groups = rowsOf<GroupRow>()(Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  contacts: Count,
  opted_out: Count,
  created_at: Schema.DateFromSelf
}))
const Templates = rowsOf<TemplateRow>()(Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  body: Schema.String,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
}))
const Written = decoders(Schema.Struct({ id: Schema.String, inserted: Schema.Boolean }))
const Counted = decoders(Schema.Struct({ n: Count }))
const IdOnly = decoders(Schema.Struct({ id: Schema.String }))

/** A unique violation (SQLSTATE 23505): a number or a name already taken. */
const isUniqueViolation = (e: unknown) => sqlState(e) === "23505"

const uuids = (ids: ReadonlyArray<string>) => ids.filter(isUuid)

/** `%text%` for ILIKE with the text's own `%`, `_` and `\` taken literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** `orTaken`'s rule: a unique violation is `Taken`, any other failure dies. */
const takenOrDie = <A, E>(self: Effect.Effect<A, E>) =>
  self.pipe(Effect.catchAll((e) => isUniqueViolation(e) ? Effect.succeed("Taken" as const) : Effect.die(e)))

/** The groups and templates part of the store. */
const groupsAndTemplates = (sql: SqlClient.SqlClient): Pick<
  ContactStore["Type"],
  | "knownGroups"
  | "groups"
  | "createGroup"
  | "renameGroup"
  | "deleteGroup"
  | "groupContacts"
  | "templates"
  | "createTemplate"
  | "updateTemplate"
  | "deleteTemplate"
> => {
  const orTaken = takenOrDie
  return {
    knownGroups: (accountId, ids) =>
      IdOnly.all(sql`SELECT id FROM contact_groups WHERE account_id = ${accountId}
        AND id = ANY(${uuids(ids)}::uuid[])`).pipe(Effect.map((rows) => rows.map((r) => r.id)), Effect.orDie),

    groups: (accountId) =>
      Groups.all(sql`SELECT g.id, g.name, g.created_at,
          (SELECT count(*) FROM contact_group_members m WHERE m.group_id = g.id) AS contacts,
          (SELECT count(*) FROM contact_group_members m JOIN contacts c ON c.id = m.contact_id
            JOIN opt_outs o ON o.account_id = c.account_id AND o.recipient = c.phone
            WHERE m.group_id = g.id) AS opted_out
        FROM contact_groups g WHERE g.account_id = ${accountId} ORDER BY lower(g.name)`).pipe(Effect.orDie),

    createGroup: (accountId, id, name, now) =>
      orTaken(sql`INSERT INTO contact_groups (id, account_id, name, created_at, updated_at)
        VALUES (${id}, ${accountId}, ${name}, ${now}, ${now})`.pipe(Effect.as("Done" as const))),

    renameGroup: (accountId, id, name, now) =>
      !isUuid(id) ? Effect.succeed("NotFound" as const) : orTaken(
        IdOnly.all(sql`UPDATE contact_groups SET name = ${name}, updated_at = ${now}
          WHERE id = ${id} AND account_id = ${accountId} RETURNING id`).pipe(
          Effect.map((rows) => rows.length > 0 ? "Done" as const : "NotFound" as const)
        )
      ),

    deleteGroup: (accountId, id) =>
      !isUuid(id) ? Effect.succeed(false) : IdOnly.all(sql`DELETE FROM contact_groups
        WHERE id = ${id} AND account_id = ${accountId} RETURNING id`).pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),

    groupContacts: (accountId, groupIds) =>
      Recipients.all(sql`SELECT c.id, c.phone, c.name, c.fields::text AS fields,
          EXISTS (SELECT 1 FROM opt_outs o WHERE o.account_id = c.account_id AND o.recipient = c.phone) AS opted_out
        FROM contacts c
        WHERE c.account_id = ${accountId} AND EXISTS (SELECT 1 FROM contact_group_members m
          WHERE m.contact_id = c.id AND m.group_id = ANY(${uuids(groupIds)}::uuid[]))
        ORDER BY c.created_at, c.id`).pipe(Effect.orDie),

    templates: (accountId) =>
      Templates.all(sql`SELECT id, name, body, created_at, updated_at FROM message_templates
        WHERE account_id = ${accountId} ORDER BY lower(name)`).pipe(Effect.orDie),

    createTemplate: (accountId, id, t, now) =>
      orTaken(sql`INSERT INTO message_templates (id, account_id, name, body, created_at, updated_at)
        VALUES (${id}, ${accountId}, ${t.name}, ${t.body}, ${now}, ${now})`.pipe(Effect.as("Done" as const))),

    updateTemplate: (accountId, id, t, now) =>
      !isUuid(id) ? Effect.succeed("NotFound" as const) : orTaken(
        IdOnly.all(sql`UPDATE message_templates SET name = ${t.name}, body = ${t.body}, updated_at = ${now}
          WHERE id = ${id} AND account_id = ${accountId} RETURNING id`).pipe(
          Effect.map((rows) => rows.length > 0 ? "Done" as const : "NotFound" as const)
        )
      ),

    deleteTemplate: (accountId, id) =>
      !isUuid(id) ? Effect.succeed(false) : IdOnly.all(sql`DELETE FROM message_templates
        WHERE id = ${id} AND account_id = ${accountId} RETURNING id`).pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )
  }
}

/** The SQL `ContactStore` over the context's `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const contactColumns = (accountId: string) =>
    sql`c.id, c.phone, c.name, c.fields::text AS fields,
      EXISTS (SELECT 1 FROM opt_outs o WHERE o.account_id = ${accountId} AND o.recipient = c.phone) AS opted_out,
      COALESCE((SELECT json_agg(json_build_object('id', g.id, 'name', g.name) ORDER BY lower(g.name))
        FROM contact_group_members m JOIN contact_groups g ON g.id = m.group_id
        WHERE m.contact_id = c.id), '[]'::json)::text AS groups,
      c.created_at, c.updated_at`

  const setGroups = (contactIds: ReadonlyArray<string>, groupIds: ReadonlyArray<string>) =>
    groupIds.length === 0 || contactIds.length === 0 ?
      Effect.void :
      sql`INSERT INTO contact_group_members (group_id, contact_id)
      SELECT g, c FROM unnest(${groupIds}::uuid[]) AS g, unnest(${contactIds}::uuid[]) AS c
      ON CONFLICT DO NOTHING`.pipe(Effect.asVoid)

  const orTaken = takenOrDie

  const contact = (accountId: string, id: string) =>
    !isUuid(id) ? Effect.succeed(undefined) : Contacts.first(sql`SELECT ${contactColumns(accountId)}
      FROM contacts c WHERE c.id = ${id} AND c.account_id = ${accountId}`).pipe(Effect.orDie)

  const upsertAll = (input: Parameters<ContactStore["Type"]["upsert"]>[0]) =>
    Effect.gen(function*() {
      const { accountId, contacts, groupIds, merge, now } = input
      const phones = contacts.map((c) => c.phone)
      const known = yield* Known.all(sql`SELECT id, phone, name, fields::text AS fields FROM contacts
        WHERE account_id = ${accountId} AND phone = ANY(${phones}::text[]) ORDER BY id FOR UPDATE`)
      const knownBy = new Map(known.map((k) => [k.phone, k]))
      const rows: Array<{ id: string } & CheckedContact> = []
      for (const c of contacts) {
        const k = knownBy.get(c.phone)
        rows.push({ id: k?.id ?? (yield* input.newId()), ...(k === undefined ? c : merge(k, c)) })
      }
      const written = rows.length === 0 ? [] : yield* Written.all(sql`INSERT INTO contacts
          (id, account_id, phone, name, fields, created_at, updated_at)
        SELECT t.id, ${accountId}, t.phone, t.name, t.fields::jsonb, ${now}, ${now}
        FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.phone)}::text[],
          ${rows.map((r) => r.name)}::text[], ${rows.map((r) => JSON.stringify(r.fields))}::text[])
          AS t(id, phone, name, fields)
        ON CONFLICT (account_id, phone) DO UPDATE SET name = EXCLUDED.name, fields = EXCLUDED.fields,
          updated_at = EXCLUDED.updated_at
        RETURNING id, NOT (id = ANY(${known.map((k) => k.id)}::uuid[])) AS inserted`)
      yield* setGroups(written.map((w) => w.id), groupIds)
      const opted = yield* Counted.single(sql`SELECT count(*) AS n FROM opt_outs
        WHERE account_id = ${accountId} AND recipient = ANY(${phones}::text[])`)
      const added = written.filter((w) => w.inserted).length
      return { added, updated: written.length - added, opted_out: opted.n }
    })

  const store: Omit<ContactStore["Type"], keyof ReturnType<typeof groupsAndTemplates>> = {
    list: (accountId, query) =>
      Effect.gen(function*() {
        const search = (query.search ?? "").trim()
        const group = query.groupId !== undefined && isUuid(query.groupId) ? query.groupId : null
        if (query.groupId !== undefined && group === null) return { rows: [], total: 0 }
        const rows = yield* Listed.all(sql`SELECT ${contactColumns(accountId)}, count(*) OVER () AS total
          FROM contacts c
          WHERE c.account_id = ${accountId}
            AND (${search} = '' OR c.phone ILIKE ${likePattern(search)} OR c.name ILIKE ${likePattern(search)}
              OR c.fields::text ILIKE ${likePattern(search)})
            AND (${group}::uuid IS NULL OR EXISTS (SELECT 1 FROM contact_group_members m
              WHERE m.contact_id = c.id AND m.group_id = ${group}::uuid))
          ORDER BY c.name = '', lower(c.name), c.phone
          LIMIT ${query.perPage} OFFSET ${(query.page - 1) * query.perPage}`)
        const total = rows.length > 0 ? rows[0].total : 0
        return { rows: rows.map(({ total: _, ...r }) => r), total }
      }).pipe(Effect.orDie),

    contact,

    byPhones: (accountId, phones) =>
      Known.all(sql`SELECT id, phone, name, fields::text AS fields FROM contacts
        WHERE account_id = ${accountId} AND phone = ANY(${phones}::text[])`).pipe(
        Effect.map((rows) => rows.map(({ fields, name, phone }) => ({ phone, name, fields }))),
        Effect.orDie
      ),

    optedOut: (accountId, phones) =>
      Counted.single(sql`SELECT count(DISTINCT recipient) AS n FROM opt_outs
        WHERE account_id = ${accountId} AND recipient = ANY(${phones}::text[])`).pipe(
        Effect.map((r) => r.n),
        Effect.orDie
      ),

    upsert: (input) =>
      transaction(5)(upsertAll(input)).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.orDie),

    create: (accountId, id, c, groupIds, now) =>
      orTaken(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO contacts (id, account_id, phone, name, fields, created_at, updated_at)
          VALUES (${id}, ${accountId}, ${c.phone}, ${c.name}, ${JSON.stringify(c.fields)}::jsonb, ${now}, ${now})`
        yield* setGroups([id], uuids(groupIds))
        return "Done" as const
      }))),

    update: (accountId, id, c, groupIds, now) =>
      !isUuid(id) ? Effect.succeed("NotFound" as const) : orTaken(sql.withTransaction(Effect.gen(function*() {
        const found = yield* IdOnly.all(sql`UPDATE contacts SET phone = ${c.phone}, name = ${c.name},
            fields = ${JSON.stringify(c.fields)}::jsonb, updated_at = ${now}
          WHERE id = ${id} AND account_id = ${accountId} RETURNING id`)
        if (found.length === 0) return "NotFound" as const
        if (groupIds !== undefined) {
          yield* sql`DELETE FROM contact_group_members WHERE contact_id = ${id}`
          yield* setGroups([id], uuids(groupIds))
        }
        return "Done" as const
      }))),

    deleteContact: (accountId, id) =>
      !isUuid(id) ? Effect.succeed(false) : IdOnly.all(sql`DELETE FROM contacts
        WHERE id = ${id} AND account_id = ${accountId} RETURNING id`).pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )
  }
  return ContactStore.of({ ...store, ...groupsAndTemplates(sql) })
})

/** `ContactStore` on SQL. */
export const layer: Layer.Layer<ContactStore, never, SqlClient.SqlClient> = Layer.effect(ContactStore, make)
