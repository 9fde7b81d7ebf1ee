/**
 * Saved message templates: a name and a text with the campaign's tags (`{name}`, `{= amount - paid }`),
 * checked by the server when saved. Every user of the account can add, change and delete them; the
 * Send SMS and Campaigns forms pick one with `TemplatePicker`.
 */
import type { MessageTemplate } from "@tuma/http/portal/Api"
import { useState } from "react"
import { call } from "../api.js"
import { useI18n } from "../i18n.js"
import { ErrorBox, Field, PageTitle, Time, useAction, useLoad } from "../ui.js"
import { LoadedTable, onSubmit, SubmitRow } from "../widgets.js"

/** The account's saved templates, loaded once per form. */
export const useTemplates = () => useLoad(() => call((c) => c.portalTemplates.listTemplates()), [])

/** A select of the saved templates: choosing one hands its text to `onPick`. */
export function TemplatePicker(props: { readonly onPick: (body: string) => void }) {
  const { t } = useI18n()
  const templates = useTemplates()
  const list = templates.data?.data ?? []
  if (list.length === 0) return null
  return (
    <Field label={t("Saved template")} hint={t("Fills the message; you can still change it.")}>
      <select
        value=""
        onChange={(e) => {
          const picked = list.find((x) => x.uid === e.currentTarget.value)
          if (picked !== undefined) props.onPick(picked.body)
        }}
      >
        <option value="">{t("Choose a template")}</option>
        {list.map((x) => <option key={x.uid} value={x.uid}>{x.name}</option>)}
      </select>
    </Field>
  )
}

function TemplateForm(props: {
  readonly editing: MessageTemplate | undefined
  readonly onSaved: () => void
  readonly onCancel: () => void
}) {
  const { t } = useI18n()
  const action = useAction()
  const [name, setName] = useState(props.editing?.name ?? "")
  const [body, setBody] = useState(props.editing?.body ?? "")
  const submit = onSubmit(action, async () => {
    const payload = { name, body }
    const e = props.editing
    await call((c) =>
      e === undefined
        ? c.portalTemplates.createTemplate({ payload })
        : c.portalTemplates.updateTemplate({ path: { template_uid: e.uid }, payload })
    )
    setName("")
    setBody("")
    props.onSaved()
  })
  return (
    <form onSubmit={submit} className="card">
      <h2>{props.editing === undefined ? t("New template") : t("Edit template")}</h2>
      <Field label={t("Template name")}>
        <input required maxLength={80} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      </Field>
      <Field
        label={t("Message")}
        hint={t("Tags like {name} are filled per recipient; {= amount - paid } computes.")}
      >
        <textarea required rows={4} maxLength={1600} value={body} onChange={(e) => setBody(e.currentTarget.value)} />
      </Field>
      <SubmitRow action={action} label={props.editing === undefined ? t("Save template") : t("Save changes")} />
      {props.editing !== undefined && <button type="button" onClick={props.onCancel}>{t("Cancel")}</button>}
    </form>
  )
}

export function TemplatesPage() {
  const { t } = useI18n()
  const templates = useTemplates()
  const [editing, setEditing] = useState<MessageTemplate>()
  const remove = useAction()
  const del = (x: MessageTemplate) =>
    remove.run(async () => {
      await call((c) => c.portalTemplates.deleteTemplate({ path: { template_uid: x.uid } }))
      templates.reload()
    })
  return (
    <>
      <PageTitle>{t("Templates")}</PageTitle>
      <TemplateForm
        key={editing?.uid ?? "new"}
        editing={editing}
        onSaved={() => {
          setEditing(undefined)
          templates.reload()
        }}
        onCancel={() => setEditing(undefined)}
      />
      <section aria-labelledby="saved-templates">
        <h2 id="saved-templates">{t("Saved templates")}</h2>
        <ErrorBox error={remove.error} />
        <LoadedTable
          loaded={templates}
          empty={t("No templates yet.")}
          rowKey={(x) => x.uid}
          columns={[
            [t("Name"), (x) => x.name],
            [t("Message"), (x) => <span className="body">{x.body}</span>],
            [t("Changed"), (x) => <Time iso={x.updated_at} />],
            ["", (x) => (
              <span className="actions">
                <button type="button" onClick={() => setEditing(x)}>{t("Edit {name}", { name: x.name })}</button>
                <button
                  type="button"
                  className="danger"
                  disabled={remove.busy}
                  onClick={() => {
                    if (window.confirm(t("Delete the template {name}?", { name: x.name }))) void del(x)
                  }}
                >
                  {t("Delete {name}", { name: x.name })}
                </button>
              </span>
            )]
          ]}
        />
      </section>
    </>
  )
}
