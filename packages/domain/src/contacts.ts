/**
 * Contacts, groups and saved templates of an account (issue 26): the rules of what a contact is, how
 * a CSV import is read (column mapping, per-row errors with 1-based row numbers, duplicates merged),
 * how a contact becomes a campaign recipient (its name and custom fields are the template's tags) and
 * what a saved template may hold. Pure: the store applies the plan, the portal shows it.
 *
 * - A contact is one phone number of an account, kept in E.164 (national numbers are read in the
 *   account's country), with a name and custom fields (key → text). One contact per number: an
 *   import or an edit that names a known number merges into it.
 * - A custom field's key is a tag name (`{first_name}`): a letter or `_`, then letters, digits, `_`,
 *   `.` or `-`, at most 64 characters, kept lower-case (tags are matched case-insensitively). `to`,
 *   `phone` and `name` are the contact's own and cannot be custom fields.
 * - An opted-out contact is kept and marked; it is never a campaign recipient.
 */
import { Either } from "effect"
import type { CountryCode } from "./phone.js"
import { normalizeRecipient } from "./phone.js"
import { compileTemplate } from "./template.js"

/** Longest contact name. */
export const CONTACT_NAME_MAX = 120
/** Longest custom field value. */
export const CONTACT_FIELD_VALUE_MAX = 500
/** Most custom fields on one contact. */
export const CONTACT_FIELDS_MAX = 20
/** Longest group or template name. */
export const CONTACT_LIST_NAME_MAX = 80
/** Most data rows in one CSV import. */
export const CONTACT_IMPORT_ROWS_MAX = 5000
/** Longest saved template body (the longest message text). */
export const TEMPLATE_BODY_MAX = 1600

/** Keys that are the contact's own, not custom fields. */
export const RESERVED_CONTACT_KEYS: ReadonlySet<string> = new Set(["to", "phone", "name"])

const FIELD_KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/

/** A contact's custom fields: lower-case tag name → text. */
export type ContactFields = Readonly<Record<string, string>>

/** Why `key` cannot be a custom field's key, or undefined when it can (see the module comment). */
export const contactFieldKeyProblem = (key: string): string | undefined => {
  const k = key.trim()
  if (!FIELD_KEY.test(k)) {
    return `The field name "${key}" must start with a letter or _ and hold only letters, digits, _, . or - (at most 64).`
  }
  if (RESERVED_CONTACT_KEYS.has(k.toLowerCase())) return `The field name "${key}" is reserved.`
  return undefined
}

/** The phone number of a contact in E.164, read in `localCountry` when it is written nationally. */
export const contactPhoneOf = (
  raw: string,
  localCountry: CountryCode | undefined
): Either.Either<string, string> =>
  Either.mapBoth(normalizeRecipient(raw, { defaultCountry: localCountry }), {
    onLeft: (e) => e.message,
    onRight: (r) => r.e164
  })

/** A contact as typed (a form, one CSV row), before it is checked. */
export interface ContactInput {
  readonly phone: string
  readonly name?: string | undefined
  readonly fields?: Readonly<Record<string, string>> | undefined
}

/** A checked contact: E.164 phone, trimmed name, custom fields with lower-case keys (empty values dropped). */
export interface CheckedContact {
  readonly phone: string
  readonly name: string
  readonly fields: ContactFields
}

/**
 * Checks a contact as typed: its phone (national numbers in `localCountry`), name and fields.
 * Answers the checked contact or the problems by field (`phone`, `name`, `fields.<key>`).
 */
export const checkContact = (
  input: ContactInput,
  localCountry: CountryCode | undefined
): Either.Either<CheckedContact, Readonly<Record<string, ReadonlyArray<string>>>> => {
  const problems: Record<string, Array<string>> = {}
  const phone = contactPhoneOf(input.phone, localCountry)
  if (Either.isLeft(phone)) problems.phone = [phone.left]
  const name = (input.name ?? "").trim()
  if (name.length > CONTACT_NAME_MAX) {
    problems.name = [`The name must not be longer than ${CONTACT_NAME_MAX} characters.`]
  }
  const fields: Record<string, string> = {}
  for (const [rawKey, rawValue] of Object.entries(input.fields ?? {})) {
    const problem = contactFieldKeyProblem(rawKey)
    const value = rawValue.trim()
    if (problem !== undefined) {
      problems[`fields.${rawKey}`] = [problem]
    } else if (value.length > CONTACT_FIELD_VALUE_MAX) {
      problems[`fields.${rawKey}`] = [`The value must not be longer than ${CONTACT_FIELD_VALUE_MAX} characters.`]
    } else if (value !== "") {
      fields[rawKey.trim().toLowerCase()] = value
    }
  }
  if (Object.keys(fields).length > CONTACT_FIELDS_MAX) {
    problems.fields = [`A contact has at most ${CONTACT_FIELDS_MAX} custom fields.`]
  }
  return Either.isLeft(phone) || Object.keys(problems).length > 0
    ? Either.left(problems)
    : Either.right({ phone: phone.right, name, fields })
}

/**
 * A known contact merged with what is given for it again: a non-empty name replaces the name, given
 * fields replace those keys, the other fields stay.
 */
export const mergeContact = (known: CheckedContact, given: CheckedContact): CheckedContact => ({
  phone: known.phone,
  name: given.name !== "" ? given.name : known.name,
  fields: { ...known.fields, ...given.fields }
})

/** Which CSV column is what: 0-based column indexes; `fields` maps a column to a custom field key. */
export interface ImportMapping {
  readonly phone: number
  readonly name?: number | undefined
  readonly fields?: ReadonlyArray<{ readonly column: number; readonly key: string }> | undefined
}

/** One CSV data row and its 1-based row number in the file (the header is row 1). */
export interface ImportRow {
  readonly row: number
  readonly cells: ReadonlyArray<string>
}

/** What an import does with one row. */
export type ImportRowPlan =
  | { readonly _tag: "Valid"; readonly row: number; readonly contact: CheckedContact }
  | { readonly _tag: "Invalid"; readonly row: number; readonly errors: ReadonlyArray<string> }
  /** The number of an earlier row of the same file: merged into it. */
  | { readonly _tag: "Duplicate"; readonly row: number; readonly phone: string; readonly first_row: number }

/** The problems of a mapping itself (the import is refused as a whole), by field. */
export const importMappingProblems = (
  mapping: ImportMapping,
  columns: number
): Readonly<Record<string, ReadonlyArray<string>>> => {
  const problems: Record<string, Array<string>> = {}
  const inRange = (c: number) => Number.isInteger(c) && c >= 0 && c < columns
  if (!inRange(mapping.phone)) problems["mapping.phone"] = ["Choose the column that holds the phone number."]
  if (mapping.name !== undefined && !inRange(mapping.name)) problems["mapping.name"] = ["No such column."]
  const keys = new Set<string>()
  for (const f of mapping.fields ?? []) {
    const problem = contactFieldKeyProblem(f.key)
    const key = f.key.trim().toLowerCase()
    if (!inRange(f.column)) problems[`mapping.fields.${f.key}`] = ["No such column."]
    else if (problem !== undefined) problems[`mapping.fields.${f.key}`] = [problem]
    else if (keys.has(key)) problems[`mapping.fields.${f.key}`] = [`The field name "${f.key}" is given twice.`]
    keys.add(key)
  }
  if (keys.size > CONTACT_FIELDS_MAX) problems["mapping.fields"] = [`At most ${CONTACT_FIELDS_MAX} custom fields.`]
  return problems
}

/**
 * The plan of a CSV import: each row checked (its phone read in `localCountry`), a number met again
 * in the same file merged into its first row (`mergeContact`, counted as a duplicate).
 */
export const planImport = (
  rows: ReadonlyArray<ImportRow>,
  mapping: ImportMapping,
  localCountry: CountryCode | undefined
): ReadonlyArray<ImportRowPlan> => {
  const plans: Array<ImportRowPlan> = []
  const first = new Map<string, number>()
  for (const { cells, row } of rows) {
    const fields: Record<string, string> = {}
    for (const f of mapping.fields ?? []) fields[f.key] = cells[f.column] ?? ""
    const checked = checkContact({
      phone: cells[mapping.phone] ?? "",
      name: mapping.name === undefined ? "" : cells[mapping.name] ?? "",
      fields
    }, localCountry)
    if (Either.isLeft(checked)) {
      plans.push({ _tag: "Invalid", row, errors: Object.values(checked.left).flat() })
      continue
    }
    const at = first.get(checked.right.phone)
    if (at === undefined) {
      first.set(checked.right.phone, plans.length)
      plans.push({ _tag: "Valid", row, contact: checked.right })
      continue
    }
    const earlier = plans[at]
    if (earlier._tag === "Valid") {
      plans[at] = { ...earlier, contact: mergeContact(earlier.contact, checked.right) }
      plans.push({ _tag: "Duplicate", row, phone: checked.right.phone, first_row: earlier.row })
    }
  }
  return plans
}

/** A contact as a campaign reads it. */
export interface RecipientContact {
  readonly id: string
  readonly phone: string
  readonly name: string
  readonly fields: ContactFields
  readonly opted_out: boolean
}

/** A bulk-v2 recipient made from a contact: `{ to, name, …fields }`. */
export type ContactRecipient = { readonly to: string } & Readonly<Record<string, string>>

/**
 * The recipients of a campaign sent to contacts: each contact once (by id, then by number), opted-out
 * ones left out and counted; the contact's name and custom fields are its tag values.
 */
export const recipientsOfContacts = (contacts: ReadonlyArray<RecipientContact>): {
  readonly recipients: ReadonlyArray<ContactRecipient>
  readonly opted_out: number
  readonly duplicates: number
} => {
  const seen = new Set<string>()
  const recipients: Array<ContactRecipient> = []
  let optedOut = 0
  let duplicates = 0
  const optedPhones = new Set<string>()
  for (const c of contacts) {
    if (seen.has(c.id) || seen.has(c.phone) || optedPhones.has(c.phone)) {
      duplicates++
      continue
    }
    if (c.opted_out) {
      optedOut++
      optedPhones.add(c.phone)
      continue
    }
    seen.add(c.id)
    seen.add(c.phone)
    recipients.push({ ...c.fields, ...(c.name !== "" ? { name: c.name } : {}), to: c.phone })
  }
  return { recipients, opted_out: optedOut, duplicates }
}

/** A saved template as typed. */
export interface TemplateInput {
  readonly name: string
  readonly body: string
}

/**
 * Checks a saved template: a name (1 to 80 characters) and a body of 1 to 1600 characters whose tags
 * and `{= … }` arithmetic compile (the campaign's template rules, domain/template.ts).
 */
export const checkTemplate = (
  input: TemplateInput
): Either.Either<TemplateInput, Readonly<Record<string, ReadonlyArray<string>>>> => {
  const problems: Record<string, Array<string>> = {}
  const name = input.name.trim()
  if (name === "") problems.name = ["The name is required."]
  else if (name.length > CONTACT_LIST_NAME_MAX) {
    problems.name = [`The name must not be longer than ${CONTACT_LIST_NAME_MAX} characters.`]
  }
  if (input.body.trim() === "") problems.body = ["The message is required."]
  else if (input.body.length > TEMPLATE_BODY_MAX) {
    problems.body = [`The message must not be longer than ${TEMPLATE_BODY_MAX} characters.`]
  } else {
    const compiled = compileTemplate(input.body)
    if (Either.isLeft(compiled)) problems.body = [compiled.left.message]
  }
  return Object.keys(problems).length > 0 ? Either.left(problems) : Either.right({ name, body: input.body })
}

/** Checks a group's name: 1 to 80 characters after trimming. */
export const checkGroupName = (name: string): Either.Either<string, string> => {
  const n = name.trim()
  if (n === "") return Either.left("The name is required.")
  if (n.length > CONTACT_LIST_NAME_MAX) {
    return Either.left(`The name must not be longer than ${CONTACT_LIST_NAME_MAX} characters.`)
  }
  return Either.right(n)
}
