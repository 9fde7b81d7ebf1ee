/**
 * Contacts: the account's address book. Groups (add, filter by, delete — deleting is the owner's),
 * a contact form (number as people write it, name, custom fields that become campaign tags, groups),
 * the list with search, opted-out contacts marked, and the CSV import (owner, `ContactImport`).
 */
import type { Contact, ContactGroup } from "@tuma/http/portal/Api"
import { useState } from "react"
import { call } from "../api.js"
import { formatNumber } from "../format.js"
import { useI18n } from "../i18n.js"
import { useIsOwner } from "../session.js"
import type { Loaded } from "../ui.js"
import { ErrorBox, Field, PageTitle, useAction, useLoad } from "../ui.js"
import { Check, LoadedTable, onSubmit, SubmitRow } from "../widgets.js"
import { ContactImport } from "./ContactImport.js"

type Groups = Loaded<{ readonly data: ReadonlyArray<ContactGroup> }>

/** `first_name: Asha` lines → fields (a line without `:` is left out). */
const fieldsFromText = (text: string): Record<string, string> =>
  Object.fromEntries(
    text.split("\n").flatMap((line) => {
      const i = line.indexOf(":")
      return i <= 0 ? [] : [[line.slice(0, i).trim(), line.slice(i + 1).trim()]]
    })
  )

const fieldsToText = (fields: Readonly<Record<string, string>>) =>
  Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join("\n")

function GroupsCard(props: { readonly groups: Groups; readonly onFilter: (uid: string) => void }) {
  const { t, lang } = useI18n()
  const owner = useIsOwner()
  const [name, setName] = useState("")
  const action = useAction()
  const add = onSubmit(action, async () => {
    await call((c) => c.portalContacts.createGroup({ payload: { name } }))
    setName("")
    props.groups.reload()
  })
  const remove = (g: ContactGroup) =>
    action.run(async () => {
      await call((c) => c.portalContacts.deleteGroup({ path: { group_uid: g.uid } }))
      props.groups.reload()
    })
  return (
    <section aria-labelledby="groups" className="card">
      <h2 id="groups">{t("Groups")}</h2>
      <LoadedTable
        loaded={props.groups}
        empty={t("No groups yet.")}
        rowKey={(g) => g.uid}
        columns={[
          [t("Group"), (g) => (
            <button type="button" className="link" onClick={() => props.onFilter(g.uid)}>
              {t("Show {name}", { name: g.name })}
            </button>
          )],
          [t("Contacts"), (g) => formatNumber(g.contacts, lang)],
          [t("Opted out"), (g) => formatNumber(g.opted_out, lang)],
          owner && ["", (g) => (
            <button
              type="button"
              className="danger"
              disabled={action.busy}
              onClick={() => {
                if (window.confirm(t("Delete the group {name}? Its contacts stay.", { name: g.name }))) void remove(g)
              }}
            >
              {t("Delete group {name}", { name: g.name })}
            </button>
          )]
        ]}
      />
      <form onSubmit={add}>
        <Field label={t("New group")}>
          <input required maxLength={80} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        </Field>
        <SubmitRow action={action} label={t("Add group")} />
      </form>
    </section>
  )
}

function ContactForm(props: {
  readonly groups: Groups
  readonly editing: Contact | undefined
  readonly onSaved: () => void
  readonly onCancel: () => void
}) {
  const { t } = useI18n()
  const action = useAction()
  const e = props.editing
  const [phone, setPhone] = useState(e?.phone ?? "")
  const [name, setName] = useState(e?.name ?? "")
  const [fields, setFields] = useState(e === undefined ? "" : fieldsToText(e.fields))
  const [groups, setGroups] = useState<ReadonlyArray<string>>(e?.groups.map((g) => g.uid) ?? [])
  const submit = onSubmit(action, async () => {
    const payload = { phone, name, fields: fieldsFromText(fields), group_uids: [...groups] }
    await call((c) =>
      e === undefined
        ? c.portalContacts.createContact({ payload })
        : c.portalContacts.updateContact({ path: { contact_uid: e.uid }, payload })
    )
    setPhone("")
    setName("")
    setFields("")
    setGroups([])
    props.onSaved()
  })
  return (
    <form onSubmit={submit} className="card">
      <h2>{e === undefined ? t("Add a contact") : t("Edit contact")}</h2>
      <Field label={t("Phone number")} hint={t("e.g. 0712 345 678, or +255712345678 for another country")}>
        <input type="tel" required value={phone} onChange={(x) => setPhone(x.currentTarget.value)} />
      </Field>
      <Field label={t("Name")}>
        <input maxLength={120} value={name} onChange={(x) => setName(x.currentTarget.value)} />
      </Field>
      <Field
        label={t("Custom fields")}
        hint={t("One per line, like first_name: Asha. Each is a tag in campaigns: {first_name}.")}
      >
        <textarea rows={3} value={fields} onChange={(x) => setFields(x.currentTarget.value)} />
      </Field>
      {(props.groups.data?.data ?? []).length > 0 && (
        <fieldset>
          <legend>{t("Groups")}</legend>
          {(props.groups.data?.data ?? []).map((g) => (
            <Check
              key={g.uid}
              checked={groups.includes(g.uid)}
              onChange={(on) => setGroups((gs) => (on ? [...gs, g.uid] : gs.filter((x) => x !== g.uid)))}
            >
              {g.name}
            </Check>
          ))}
        </fieldset>
      )}
      <SubmitRow action={action} label={e === undefined ? t("Add contact") : t("Save changes")} />
      {e !== undefined && <button type="button" onClick={props.onCancel}>{t("Cancel")}</button>}
    </form>
  )
}

export function ContactsPage() {
  const { t } = useI18n()
  const owner = useIsOwner()
  const groups = useLoad(() => call((c) => c.portalContacts.listGroups()), [])
  const [search, setSearch] = useState("")
  const [group, setGroup] = useState("")
  const [editing, setEditing] = useState<Contact>()
  const [version, setVersion] = useState(0)
  const contacts = useLoad(
    () =>
      call((c) =>
        c.portalContacts.listContacts({
          urlParams: {
            ...(search.trim() !== "" ? { q: search.trim() } : {}),
            ...(group !== "" ? { group_uid: group } : {}),
            per_page: 100
          }
        })
      ),
    [search, group, version]
  )
  const remove = useAction()
  const changed = () => {
    setVersion((v) => v + 1)
    groups.reload()
  }
  const del = (c: Contact) =>
    remove.run(async () => {
      await call((x) => x.portalContacts.deleteContact({ path: { contact_uid: c.uid } }))
      changed()
    })
  const total = contacts.data?.meta.total
  return (
    <>
      <PageTitle>{t("Contacts")}</PageTitle>
      <GroupsCard groups={groups} onFilter={setGroup} />
      <ContactForm
        key={editing?.uid ?? `new-${version}`}
        groups={groups}
        editing={editing}
        onSaved={() => {
          setEditing(undefined)
          changed()
        }}
        onCancel={() => setEditing(undefined)}
      />
      {owner ?
        <ContactImport groups={groups} onImported={changed} /> :
        <p className="card">{t("Only owners of the account import contacts and delete them.")}</p>}
      <section aria-labelledby="contact-list">
        <h2 id="contact-list">{t("Contacts")}</h2>
        <div className="filters">
          <Field label={t("Search")} hint={t("Number, name or a field's value.")}>
            <input type="search" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
          </Field>
          <Field label={t("Group")}>
            <select value={group} onChange={(e) => setGroup(e.currentTarget.value)}>
              <option value="">{t("All contacts")}</option>
              {(groups.data?.data ?? []).map((g) => <option key={g.uid} value={g.uid}>{g.name}</option>)}
            </select>
          </Field>
        </div>
        {total !== undefined && (
          <p role="status">{total === 1 ? t("1 contact") : t("{count} contacts", { count: total })}</p>
        )}
        <ErrorBox error={remove.error} />
        <LoadedTable
          loaded={contacts}
          empty={t("No contacts yet.")}
          rowKey={(c) => c.uid}
          columns={[
            [t("Phone number"), (c) => c.phone],
            [t("Name"), (c) => c.name],
            [t("Custom fields"), (c) => <span className="body">{fieldsToText(c.fields)}</span>],
            [t("Groups"), (c) => c.groups.map((g) => g.name).join(", ")],
            [t("Status"), (c) =>
              c.opted_out
                ? <span className="status status-failed">{t("Has opted out")}</span>
                : <span className="status status-active">{t("Can receive")}</span>],
            ["", (c) => (
              <span className="actions">
                <button type="button" onClick={() => setEditing(c)}>
                  {t("Edit {name}", { name: c.name || c.phone })}
                </button>
                {owner && (
                  <button
                    type="button"
                    className="danger"
                    disabled={remove.busy}
                    onClick={() => {
                      if (window.confirm(t("Delete the contact {name}?", { name: c.name || c.phone }))) void del(c)
                    }}
                  >
                    {t("Delete {name}", { name: c.name || c.phone })}
                  </button>
                )}
              </span>
            )]
          ]}
        />
      </section>
    </>
  )
}
