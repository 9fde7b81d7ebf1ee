/**
 * The portal's address book (issue 26): contacts, contact groups, CSV imports, saved templates, and
 * the recipients of a campaign sent to groups. Members list, add and edit contacts and groups, use
 * and edit templates and send; deleting a contact or a group and importing a CSV are the owner's
 * (docs/decisions.md "Contacts").
 */
import { del, get, patch, post } from "@effect/platform/HttpApiEndpoint"
import { CONTACT_IMPORT_ROWS_MAX } from "@tuma/domain/contacts"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import { all, create, group, NumberFromQuery, ok, okList, opt, Ts } from "../../shared/apiSchemas.js"
import { successFields } from "../../shared/Envelope.js"
import * as Res from "../../shared/Responses.js"
import { forMember, forOwner, PortalDone } from "./shared.js"

export const ContactGroupRef = Schema.Struct({ uid: Schema.String, name: Schema.String }).annotations({
  identifier: "PortalContactGroupRef"
})

export const Contact = Schema.Struct({
  uid: Schema.String,
  /** E.164. */
  phone: Schema.String,
  name: Schema.String,
  /** Custom fields: lower-case tag names (`{first_name}`) to text. */
  fields: Schema.Record({ key: Schema.String, value: Schema.String }),
  /** The number is on the account's opt-out list: it is never sent to. */
  opted_out: Schema.Boolean,
  groups: Schema.Array(ContactGroupRef),
  created_at: Ts,
  updated_at: Ts
}).annotations({ identifier: "PortalContact" })
export type Contact = typeof Contact.Type

export const ContactInput = Schema.Struct({
  /** International, or national in the account's country (`0712 345 678`). */
  phone: StoredString,
  name: opt(StoredString),
  /** The whole set of custom fields (an edit replaces them). */
  fields: opt(Schema.Record({ key: StoredString, value: StoredString })),
  /** The whole set of groups (an edit replaces them; absent keeps them). */
  group_uids: opt(Schema.Array(StoredString))
}).annotations({ identifier: "PortalContactInput", ...all })

export const ContactsQuery = Schema.Struct({
  /** Found in the number, the name or a field's value. */
  q: opt(StoredString),
  group_uid: opt(StoredString),
  page: opt(NumberFromQuery),
  per_page: opt(NumberFromQuery)
}).annotations(all)

export const ContactList = Schema.Struct({
  ...successFields,
  data: Schema.Array(Contact),
  meta: Res.PageMeta
}).annotations({ identifier: "PortalContactList" })

export const ImportInput = Schema.Struct({
  /** The data rows, each with its 1-based row number in the file (the header is row 1). */
  rows: Schema.Array(Schema.Struct({ row: Schema.Number, cells: Schema.Array(StoredString) })).pipe(
    Schema.maxItems(CONTACT_IMPORT_ROWS_MAX)
  ),
  /** 0-based columns: the phone number, the name, and the columns kept as custom fields (key = tag name). */
  mapping: Schema.Struct({
    phone: Schema.Number,
    name: opt(Schema.Number),
    fields: opt(Schema.Array(Schema.Struct({ column: Schema.Number, key: StoredString })))
  }),
  /** The group every imported contact joins. */
  group_uid: opt(StoredString),
  /** Check and count only: nothing is written. */
  dry_run: opt(Schema.Boolean)
}).annotations({ identifier: "PortalContactImport", ...all })

export const ImportedContact = Schema.Struct({
  phone: Schema.String,
  name: Schema.String,
  fields: Schema.Record({ key: Schema.String, value: Schema.String })
})

export const ImportReport = Schema.Struct({
  dry_run: Schema.Boolean,
  rows: Schema.Number,
  added: Schema.Number,
  updated: Schema.Number,
  /** Rows repeating an earlier row's number (merged into it). */
  duplicates: Schema.Number,
  invalid: Schema.Number,
  /** Imported contacts whose number is opted out (kept, marked, never sent to). */
  opted_out: Schema.Number,
  problems: Schema.Array(Schema.Struct({
    row: Schema.Number,
    kind: Schema.Literal("invalid", "duplicate"),
    messages: Schema.Array(Schema.String),
    /** A duplicate's first row (the row it was merged into); null for an invalid row. */
    first_row: Schema.NullOr(Schema.Number)
  })),
  preview: Schema.Array(ImportedContact)
}).annotations({ identifier: "PortalContactImportReport" })
export type ImportReport = typeof ImportReport.Type

export const ContactGroup = Schema.Struct({
  uid: Schema.String,
  name: Schema.String,
  contacts: Schema.Number,
  opted_out: Schema.Number,
  created_at: Ts
}).annotations({ identifier: "PortalContactGroup" })
export type ContactGroup = typeof ContactGroup.Type

export const GroupInput = Schema.Struct({ name: StoredString }).annotations({
  identifier: "PortalContactGroupInput",
  ...all
})

export const GroupRecipientsInput = Schema.Struct({ group_uids: Schema.Array(StoredString) }).annotations({
  identifier: "PortalGroupRecipientsInput",
  ...all
})

export const GroupRecipients = Schema.Struct({
  /** Contacts in the groups (each once). */
  contacts: Schema.Number,
  /** Bulk-v2 recipients: `{ to, name, …fields }`, opted-out contacts left out. */
  recipients: Schema.Array(Schema.Record({ key: Schema.String, value: Schema.String })),
  opted_out: Schema.Number,
  duplicates: Schema.Number
}).annotations({ identifier: "PortalGroupRecipients" })

export const MessageTemplate = Schema.Struct({
  uid: Schema.String,
  name: Schema.String,
  body: Schema.String,
  created_at: Ts,
  updated_at: Ts
}).annotations({ identifier: "PortalMessageTemplate" })
export type MessageTemplate = typeof MessageTemplate.Type

export const TemplateInput = Schema.Struct({ name: StoredString, body: StoredString }).annotations({
  identifier: "PortalMessageTemplateInput",
  ...all
})

const ContactPath = Schema.Struct({ contact_uid: Schema.String })
const GroupPath = Schema.Struct({ group_uid: Schema.String })
const TemplatePath = Schema.Struct({ template_uid: Schema.String })
const ContactResponse = ok(Contact, "PortalContactResponse")
const GroupResponse = ok(ContactGroup, "PortalContactGroupResponse")
const TemplateResponse = ok(MessageTemplate, "PortalMessageTemplateResponse")

export class PortalContactsGroup extends group("portalContacts", "Portal: contacts and groups")
  .add(forMember(get("listContacts", "/contacts").setUrlParams(ContactsQuery).addSuccess(ContactList)))
  .add(forMember(
    create("createContact", "/contacts", ContactInput, ContactResponse),
    "409 when the number is already a contact."
  ))
  .add(forOwner(
    post("importContacts", "/contacts/import").setPayload(ImportInput)
      .addSuccess(ok(ImportReport, "PortalContactImportResponse")),
    "A CSV's rows with a column mapping: bad rows reported by row number, numbers met again merged."
  ))
  .add(forMember(get("getContact", "/contacts/:contact_uid").setPath(ContactPath).addSuccess(ContactResponse)))
  .add(forMember(
    patch("updateContact", "/contacts/:contact_uid").setPath(ContactPath).setPayload(ContactInput)
      .addSuccess(ContactResponse)
  ))
  .add(forOwner(del("deleteContact", "/contacts/:contact_uid").setPath(ContactPath).addSuccess(PortalDone)))
  .add(forMember(get("listGroups", "/contact-groups").addSuccess(okList(ContactGroup, "PortalContactGroupList"))))
  .add(forMember(create("createGroup", "/contact-groups", GroupInput, GroupResponse)))
  .add(forMember(
    post("groupRecipients", "/contact-groups/recipients").setPayload(GroupRecipientsInput)
      .addSuccess(ok(GroupRecipients, "PortalGroupRecipientsResponse")),
    "The campaign recipients of these groups: each contact once, opted-out ones left out and counted."
  ))
  .add(forMember(
    patch("renameGroup", "/contact-groups/:group_uid").setPath(GroupPath).setPayload(GroupInput)
      .addSuccess(GroupResponse)
  ))
  .add(forOwner(
    del("deleteGroup", "/contact-groups/:group_uid").setPath(GroupPath).addSuccess(PortalDone),
    "Its contacts stay."
  ))
{}

export class PortalTemplatesGroup extends group("portalTemplates", "Portal: saved message templates")
  .add(forMember(get("listTemplates", "/templates").addSuccess(okList(MessageTemplate, "PortalMessageTemplateList"))))
  .add(forMember(create("createTemplate", "/templates", TemplateInput, TemplateResponse)))
  .add(forMember(
    patch("updateTemplate", "/templates/:template_uid").setPath(TemplatePath).setPayload(TemplateInput)
      .addSuccess(TemplateResponse)
  ))
  .add(forMember(del("deleteTemplate", "/templates/:template_uid").setPath(TemplatePath).addSuccess(PortalDone)))
{}
