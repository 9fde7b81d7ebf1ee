/**
 * An account's address book as use cases (issue 26): contacts (checked and merged by the domain's
 * `contacts.ts`, national numbers read in the account's country), CSV imports planned row by row
 * (a dry run answers the same report without writing), groups, saved templates, and the recipients
 * of a campaign sent to groups (opted-out contacts left out and counted). Who may call what is the
 * channel's (the portal: deleting and importing are the owner's, docs/decisions.md "Contacts").
 *
 * @module @tuma/core/contacts/Contacts
 */
import type { CheckedContact, ContactInput, ContactRecipient, ImportMapping, ImportRow } from "@tuma/domain/contacts"
import {
  checkContact,
  checkGroupName,
  checkTemplate,
  CONTACT_IMPORT_ROWS_MAX,
  contactPhoneOf,
  importMappingProblems,
  mergeContact,
  planImport,
  recipientsOfContacts
} from "@tuma/domain/contacts"
import { ResourceConflict, ResourceNotFound } from "@tuma/domain/errors"
import type { ValidationFailed } from "@tuma/domain/errors"
import type { CountryCode } from "@tuma/domain/phone"
import { validationFailed } from "@tuma/domain/validation"
import { Clock, Effect, Either } from "effect"
import type { ContactQuery, ContactRow, GroupRow, RowChange, TemplateRow } from "../ports/ContactStore.js"
import { ContactStore } from "../ports/ContactStore.js"
import { Ids } from "../ports/Ids.js"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const notFound = (resource: string, id: string) =>
  new ResourceNotFound({ message: `The ${resource} was not found.`, resource, id })

const changed = (
  change: RowChange,
  resource: string,
  id: string,
  taken: string
): Effect.Effect<void, ResourceNotFound | ResourceConflict> =>
  change === "Done"
    ? Effect.void
    : change === "NotFound"
    ? Effect.fail(notFound(resource, id))
    : Effect.fail(new ResourceConflict({ message: taken, resource }))

const checked = <A>(
  e: Either.Either<A, Readonly<Record<string, ReadonlyArray<string>>>>
): Effect.Effect<A, ValidationFailed> =>
  Either.isLeft(e) ? Effect.fail(validationFailed(e.left)) : Effect.succeed(e.right)

/** Every id in `groupIds` must be a group of the account (404 otherwise). */
const knownGroups = (accountId: string, groupIds: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const store = yield* ContactStore
    const unique = [...new Set(groupIds)]
    const known = new Set(yield* store.knownGroups(accountId, unique))
    const missing = unique.find((g) => !known.has(g))
    if (missing !== undefined) return yield* notFound("group", missing)
    return unique
  })

/** A page of the account's contacts. */
export const listContacts = (accountId: string, query: ContactQuery) =>
  Effect.flatMap(ContactStore, (s) => s.list(accountId, query))

/** One contact of the account (404 when it has none of that id). */
export const contactOf = (accountId: string, id: string): Effect.Effect<ContactRow, ResourceNotFound, ContactStore> =>
  Effect.flatMap(ContactStore, (s) => s.contact(accountId, id)).pipe(
    Effect.flatMap((c) => c === undefined ? Effect.fail(notFound("contact", id)) : Effect.succeed(c))
  )

/** A contact as a form gives it: its fields and, when given, the whole set of its groups. */
export type ContactForm = ContactInput & { readonly groups?: ReadonlyArray<string> | undefined }

/** A new contact (422 when invalid, 409 when the number is already a contact, 404 for an unknown group). */
export const createContact = (accountId: string, input: ContactForm, localCountry: CountryCode | undefined) =>
  Effect.gen(function*() {
    const contact = yield* checked(checkContact(input, localCountry))
    const groups = yield* knownGroups(accountId, input.groups ?? [])
    const id = yield* Effect.flatMap(Ids, (ids) => ids.uuidV7)
    const store = yield* ContactStore
    const change = yield* store.create(accountId, id, contact, groups, yield* now)
    yield* changed(change, "contact", id, "This number is already a contact: edit it instead.")
    return yield* contactOf(accountId, id)
  })

/** Replaces a contact's number, name and fields (and its groups when given). */
export const updateContact = (
  accountId: string,
  id: string,
  input: ContactForm,
  localCountry: CountryCode | undefined
) =>
  Effect.gen(function*() {
    const contact = yield* checked(checkContact(input, localCountry))
    const groups = input.groups === undefined ? undefined : yield* knownGroups(accountId, input.groups)
    const store = yield* ContactStore
    const change = yield* store.update(accountId, id, contact, groups, yield* now)
    yield* changed(change, "contact", id, "Another contact has this number.")
    return yield* contactOf(accountId, id)
  })

/** Deletes a contact (404 when the account has none of that id). */
export const deleteContact = (accountId: string, id: string) =>
  Effect.flatMap(ContactStore, (s) => s.deleteContact(accountId, id)).pipe(
    Effect.flatMap((done) => done ? Effect.void : Effect.fail(notFound("contact", id)))
  )

/** The report of an import: counts, and each row that was not imported as given (1-based CSV row numbers). */
export interface ImportReport {
  readonly dry_run: boolean
  readonly rows: number
  readonly added: number
  readonly updated: number
  readonly duplicates: number
  readonly invalid: number
  readonly opted_out: number
  readonly problems: ReadonlyArray<{
    readonly row: number
    readonly kind: "invalid" | "duplicate"
    readonly messages: ReadonlyArray<string>
    /** A duplicate's first row (the row it was merged into). */
    readonly first_row: number | null
  }>
  /** The first contacts as they will be (or were) written. */
  readonly preview: ReadonlyArray<CheckedContact>
}

/**
 * A CSV import: the mapping checked (422 for the whole import), each row planned (invalid rows and
 * repeats reported with their row numbers), the good rows merged into the account's contacts and
 * added to `groupId` — unless `dryRun`, which answers the same figures and writes nothing.
 */
export const importContacts = (
  accountId: string,
  input: {
    readonly rows: ReadonlyArray<ImportRow>
    readonly mapping: ImportMapping
    readonly groupId?: string | undefined
    readonly dryRun: boolean
  },
  localCountry: CountryCode | undefined
) =>
  Effect.gen(function*() {
    const store = yield* ContactStore
    if (input.rows.length > CONTACT_IMPORT_ROWS_MAX) {
      return yield* validationFailed({ rows: [`At most ${CONTACT_IMPORT_ROWS_MAX} rows per import.`] })
    }
    const columns = Math.max(0, ...input.rows.map((r) => r.cells.length))
    const mappingProblems = importMappingProblems(input.mapping, columns)
    if (Object.keys(mappingProblems).length > 0) return yield* validationFailed(mappingProblems)
    const groups = yield* knownGroups(accountId, input.groupId === undefined ? [] : [input.groupId])
    const plan = planImport(input.rows, input.mapping, localCountry)
    const good = plan.flatMap((p) => p._tag === "Valid" ? [p.contact] : [])
    const known = yield* store.byPhones(accountId, good.map((c) => c.phone))
    const knownBy = new Map(known.map((k) => [k.phone, k]))
    const problems = plan.flatMap((p): ImportReport["problems"] =>
      p._tag === "Invalid"
        ? [{ row: p.row, kind: "invalid" as const, messages: p.errors, first_row: null }]
        : p._tag === "Duplicate"
        ? [{
          row: p.row,
          kind: "duplicate" as const,
          messages: [`The same number as row ${p.first_row}: merged into it.`],
          first_row: p.first_row
        }]
        : []
    )
    const report = {
      rows: input.rows.length,
      duplicates: plan.filter((p) => p._tag === "Duplicate").length,
      invalid: plan.filter((p) => p._tag === "Invalid").length,
      problems,
      preview: good.slice(0, 5).map((c) => {
        const k = knownBy.get(c.phone)
        return k === undefined ? c : mergeContact(k, c)
      })
    }
    if (input.dryRun) {
      const opted = yield* store.optedOut(accountId, good.map((c) => c.phone))
      return {
        ...report,
        dry_run: true,
        added: good.filter((c) => !knownBy.has(c.phone)).length,
        updated: good.filter((c) => knownBy.has(c.phone)).length,
        opted_out: opted
      } satisfies ImportReport
    }
    const ids = yield* Ids
    const written = yield* store.upsert({
      accountId,
      contacts: good,
      merge: mergeContact,
      groupIds: groups,
      newId: () => ids.uuidV7,
      now: yield* now
    })
    return { ...report, dry_run: false, ...written } satisfies ImportReport
  })

/** The account's groups with their sizes. */
export const groupsOf = (accountId: string): Effect.Effect<ReadonlyArray<GroupRow>, never, ContactStore> =>
  Effect.flatMap(ContactStore, (s) => s.groups(accountId))

const groupOf = (accountId: string, id: string) =>
  Effect.flatMap(groupsOf(accountId), (all) => {
    const g = all.find((x) => x.id === id)
    return g === undefined ? Effect.fail(notFound("group", id)) : Effect.succeed(g)
  })

/** A new group (422 for a bad name, 409 when the name is taken). */
export const createGroup = (accountId: string, name: string) =>
  Effect.gen(function*() {
    const n = yield* checked(Either.mapLeft(checkGroupName(name), (m) => ({ name: [m] })))
    const id = yield* Effect.flatMap(Ids, (ids) => ids.uuidV7)
    const change = yield* Effect.flatMap(ContactStore, (s) =>
      Effect.flatMap(now, (t) => s.createGroup(accountId, id, n, t)))
    yield* changed(change, "group", id, "A group of this name exists.")
    return yield* groupOf(accountId, id)
  })

/** Renames a group. */
export const renameGroup = (accountId: string, id: string, name: string) =>
  Effect.gen(function*() {
    const n = yield* checked(Either.mapLeft(checkGroupName(name), (m) => ({ name: [m] })))
    const change = yield* Effect.flatMap(ContactStore, (s) =>
      Effect.flatMap(now, (t) => s.renameGroup(accountId, id, n, t)))
    yield* changed(change, "group", id, "A group of this name exists.")
    return yield* groupOf(accountId, id)
  })

/** Deletes a group; its contacts stay. */
export const deleteGroup = (accountId: string, id: string) =>
  Effect.flatMap(ContactStore, (s) => s.deleteGroup(accountId, id)).pipe(
    Effect.flatMap((done) => done ? Effect.void : Effect.fail(notFound("group", id)))
  )

/** The recipients of a campaign sent to `groupIds`: their contacts once each, opted-out ones left out and counted. */
export const groupRecipients = (accountId: string, groupIds: ReadonlyArray<string>): Effect.Effect<
  {
    readonly contacts: number
    readonly recipients: ReadonlyArray<ContactRecipient>
    readonly opted_out: number
    readonly duplicates: number
  },
  ResourceNotFound,
  ContactStore
> =>
  Effect.gen(function*() {
    const groups = yield* knownGroups(accountId, groupIds)
    const contacts = yield* Effect.flatMap(ContactStore, (s) => s.groupContacts(accountId, groups))
    return { contacts: contacts.length, ...recipientsOfContacts(contacts) }
  })

/** The account's saved templates. */
export const templatesOf = (accountId: string): Effect.Effect<ReadonlyArray<TemplateRow>, never, ContactStore> =>
  Effect.flatMap(ContactStore, (s) => s.templates(accountId))

const templateOf = (accountId: string, id: string) =>
  Effect.flatMap(templatesOf(accountId), (all) => {
    const x = all.find((t) => t.id === id)
    return x === undefined ? Effect.fail(notFound("template", id)) : Effect.succeed(x)
  })

/** A new saved template (422 when its tags do not compile, 409 when the name is taken). */
export const createTemplate = (accountId: string, input: { readonly name: string; readonly body: string }) =>
  Effect.gen(function*() {
    const t = yield* checked(checkTemplate(input))
    const id = yield* Effect.flatMap(Ids, (ids) => ids.uuidV7)
    const change = yield* Effect.flatMap(
      ContactStore,
      (s) => Effect.flatMap(now, (at) => s.createTemplate(accountId, id, t, at))
    )
    yield* changed(change, "template", id, "A template of this name exists.")
    return yield* templateOf(accountId, id)
  })

/** Changes a saved template. */
export const updateTemplate = (
  accountId: string,
  id: string,
  input: { readonly name: string; readonly body: string }
) =>
  Effect.gen(function*() {
    const t = yield* checked(checkTemplate(input))
    const change = yield* Effect.flatMap(ContactStore, (s) =>
      Effect.flatMap(now, (at) => s.updateTemplate(accountId, id, t, at)))
    yield* changed(change, "template", id, "A template of this name exists.")
    return yield* templateOf(accountId, id)
  })

/** Deletes a saved template. */
export const deleteTemplate = (accountId: string, id: string) =>
  Effect.flatMap(ContactStore, (s) => s.deleteTemplate(accountId, id)).pipe(
    Effect.flatMap((done) => done ? Effect.void : Effect.fail(notFound("template", id)))
  )

/**
 * The rows of a campaign's recipient list whose number cannot be read (national numbers in
 * `localCountry`): each with its 1-based row number and why, so the sender can fix or skip them.
 */
export const recipientRowProblems = (
  rows: ReadonlyArray<{ readonly row: number; readonly to: string }>,
  localCountry: CountryCode | undefined
): ReadonlyArray<{ readonly row: number; readonly to: string; readonly message: string }> =>
  rows.flatMap((r) => {
    const phone = contactPhoneOf(r.to, localCountry)
    return Either.isLeft(phone) ? [{ row: r.row, to: r.to, message: phone.left }] : []
  })
