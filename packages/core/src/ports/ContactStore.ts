/**
 * Port of an account's address book: contacts, contact groups and saved message templates (issue 26).
 * Adapter: `@tuma/store-sql/SqlContactStore` (SQL only, like `CampaignStore`). Every operation takes
 * the account id, so another account's row is not told apart from an unknown one. The rules (what a
 * contact is, how an import merges) are the domain's (`contacts.ts`); the store applies them.
 */
import type { CheckedContact, RecipientContact } from "@tuma/domain/contacts"
import type { Effect } from "effect"
import { Context } from "effect"

/** A contact as the portal lists it: opted out when its number is on the account's opt-out list. */
export interface ContactRow {
  readonly id: string
  readonly phone: string
  readonly name: string
  readonly fields: Readonly<Record<string, string>>
  readonly opted_out: boolean
  readonly groups: ReadonlyArray<{ readonly id: string; readonly name: string }>
  readonly created_at: Date
  readonly updated_at: Date
}

/** A contact group with how many contacts it holds (and how many of them are opted out). */
export interface GroupRow {
  readonly id: string
  readonly name: string
  readonly contacts: number
  readonly opted_out: number
  readonly created_at: Date
}

/** A saved message template. */
export interface TemplateRow {
  readonly id: string
  readonly name: string
  readonly body: string
  readonly created_at: Date
  readonly updated_at: Date
}

/** Which contacts a list shows: a text found in the number, name or field values; one group. */
export interface ContactQuery {
  readonly search?: string | undefined
  readonly groupId?: string | undefined
  readonly page: number
  readonly perPage: number
}

/** What an import wrote. */
export interface UpsertOutcome {
  readonly added: number
  readonly updated: number
  /** Of the contacts written, those whose number is opted out. */
  readonly opted_out: number
}

/** The outcome of a change to one row. */
export type RowChange = "Done" | "NotFound" | "Taken"

/** Port: an account's contacts, groups and templates (SQL adapter only). */
export class ContactStore extends Context.Tag("@tuma/core/ContactStore")<ContactStore, {
  readonly list: (
    accountId: string,
    query: ContactQuery
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<ContactRow>; readonly total: number }>
  readonly contact: (accountId: string, id: string) => Effect.Effect<ContactRow | undefined>
  /** The account's contacts with these numbers (E.164). */
  readonly byPhones: (accountId: string, phones: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<CheckedContact>>
  /** How many of these numbers (E.164) are on the account's opt-out list. */
  readonly optedOut: (accountId: string, phones: ReadonlyArray<string>) => Effect.Effect<number>
  /**
   * In one transaction: each contact is written, merged into the known contact of its number with
   * `merge` (the known rows locked first); every written contact joins `groupIds`.
   */
  readonly upsert: (input: {
    readonly accountId: string
    readonly contacts: ReadonlyArray<CheckedContact>
    readonly merge: (known: CheckedContact, given: CheckedContact) => CheckedContact
    readonly groupIds: ReadonlyArray<string>
    readonly newId: () => Effect.Effect<string>
    readonly now: Date
  }) => Effect.Effect<UpsertOutcome>
  /** A new contact; `Taken` when the number is already a contact of the account. */
  readonly create: (
    accountId: string,
    id: string,
    contact: CheckedContact,
    groupIds: ReadonlyArray<string>,
    now: Date
  ) => Effect.Effect<RowChange>
  /** Replaces a contact's number, name and fields (and its groups when given); `Taken` when the number is another's. */
  readonly update: (
    accountId: string,
    id: string,
    contact: CheckedContact,
    groupIds: ReadonlyArray<string> | undefined,
    now: Date
  ) => Effect.Effect<RowChange>
  readonly deleteContact: (accountId: string, id: string) => Effect.Effect<boolean>
  /** Which of `ids` are groups of the account. */
  readonly knownGroups: (accountId: string, ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  readonly groups: (accountId: string) => Effect.Effect<ReadonlyArray<GroupRow>>
  /** A new group; `Taken` when the account has a group of that name (any case). */
  readonly createGroup: (accountId: string, id: string, name: string, now: Date) => Effect.Effect<RowChange>
  readonly renameGroup: (accountId: string, id: string, name: string, now: Date) => Effect.Effect<RowChange>
  /** Deletes the group (its contacts stay). */
  readonly deleteGroup: (accountId: string, id: string) => Effect.Effect<boolean>
  /** The contacts of these groups (each once), oldest first, with their opt-out mark. */
  readonly groupContacts: (
    accountId: string,
    groupIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<RecipientContact>>
  readonly templates: (accountId: string) => Effect.Effect<ReadonlyArray<TemplateRow>>
  /** A new template; `Taken` when the account has a template of that name (any case). */
  readonly createTemplate: (
    accountId: string,
    id: string,
    input: { readonly name: string; readonly body: string },
    now: Date
  ) => Effect.Effect<RowChange>
  readonly updateTemplate: (
    accountId: string,
    id: string,
    input: { readonly name: string; readonly body: string },
    now: Date
  ) => Effect.Effect<RowChange>
  readonly deleteTemplate: (accountId: string, id: string) => Effect.Effect<boolean>
}>() {}
