/** Sender IDs: the account's list (status, rejection reason), the requirements, and a request with documents. */
import type { SenderIdRequest } from "@tuma/domain/schemas"
import { useState } from "react"
import { call } from "../api.js"
import { requirementDocuments, uploadOf } from "../files.js"
import { formatNumber } from "../format.js"
import { useI18n } from "../i18n.js"
import { useIsOwner } from "../session.js"
import { Field, Loading, PageTitle, Status, Time, useAction, useLoad, useServerText } from "../ui.js"
import { Check, LoadedTable, onSubmit, SubmitRow } from "../widgets.js"

export function SenderIdsPage() {
  const { t, lang } = useI18n()
  const say = useServerText()
  const owner = useIsOwner()
  const [version, setVersion] = useState(0)
  const list = useLoad(() => call((c) => c.portalSenderIds.listSenderIds()), [version])
  const reqs = useLoad(() => call((c) => c.portalSenderIds.requirements()), [])
  const r = reqs.data?.data
  const [name, setName] = useState("")
  const [purpose, setPurpose] = useState("")
  const [sample, setSample] = useState("")
  const [files, setFiles] = useState<Record<string, File | undefined>>({})
  const [protect, setProtect] = useState(false)
  const [protection, setProtection] = useState<File | undefined>()
  const [created, setCreated] = useState<string>()
  const action = useAction()
  const chosenPurpose = purpose !== "" ? purpose : r?.purposes[0] ?? ""
  const submit = onSubmit(action, async () => {
    const documents = await requirementDocuments(files)
    const protectionDocs = protect && protection !== undefined ? [await uploadOf(protection)] : []
    await call((c) =>
      c.portalSenderIds.requestSenderId({
        payload: {
          sender_id: name,
          sample_message: sample,
          purpose: chosenPurpose as SenderIdRequest["purpose"],
          ...(documents.length > 0 ? { documents_base64: documents } : {}),
          ...(protect ? { protection_requested: true, protection_documents_base64: protectionDocs } : {})
        }
      })
    )
    setCreated(t("Your request was sent. An operator reviews it; its status shows in the list above."))
    setName("")
    setSample("")
    setFiles({})
    setProtect(false)
    setProtection(undefined)
    // a new form (its file fields emptied too)
    setVersion((v) => v + 1)
  })
  return (
    <>
      <PageTitle>{t("Sender IDs")}</PageTitle>
      <section aria-labelledby="list">
        <h2 id="list">{t("Your sender IDs")}</h2>
        <LoadedTable
          loaded={list}
          rowKey={(s) => s.uid}
          columns={[
            [t("Sender ID"), (s) => s.sender_id],
            [t("Country"), (s) => `${s.country_name} (${s.country_code})`],
            [t("Status"), (s) => <Status status={s.status} />],
            [t("Usable"), (s) => s.is_usable ? t("Yes") : t("No")],
            [t("Rejection reason"), (s) => s.rejection_reason ?? ""],
            [t("Requested"), (s) => <Time iso={s.requested_at} />]
          ]}
        />
      </section>
      <section aria-labelledby="reqs">
        <h2 id="reqs">{t("Requirements")}</h2>
        <Loading loaded={reqs} />
        {r !== undefined && (
          <div className="card">
            <p>{say(r.sender_id_rules.description)}</p>
            <p>{say(r.sample_message_rules.description)}</p>
            <p>
              {r.eligibility.can_request
                ? t("You can request a sender ID.")
                : t("Not yet eligible: {purchased} of {required} units purchased.", {
                  purchased: formatNumber(r.eligibility.purchased_units, lang),
                  required: formatNumber(r.eligibility.required_units, lang)
                })} {say(r.eligibility.reason)}
            </p>
            {r.documents.length > 0 && (
              <ul>
                {r.documents.map((d) => (
                  <li key={d.uid}>
                    {d.name} — {d.is_required ? t("required") : t("optional")}, {d.accepted_formats.join(", ")},{" "}
                    {t("at most {kb} KB", { kb: d.max_size_kb })}
                  </li>
                ))}
              </ul>
            )}
            {r.sender_id_rules.reserved_names.length > 0 && (
              <p>{t("Reserved names")}: {r.sender_id_rules.reserved_names.join(", ")}</p>
            )}
          </div>
        )}
      </section>
      {owner && r !== undefined && (
        <form key={version} onSubmit={submit} className="card">
          <h2>{t("Request a sender ID")}</h2>
          <Field label={t("Sender ID")} hint={t("3 to 11 letters, digits and single spaces.")}>
            <input
              required
              value={name}
              maxLength={r.sender_id_rules.max_length}
              onChange={(e) => setName(e.currentTarget.value)}
            />
          </Field>
          <Field label={t("Purpose")}>
            <select value={chosenPurpose} onChange={(e) => setPurpose(e.currentTarget.value)}>
              {r.purposes.map((p) => <option key={p} value={p}>{t(p)}</option>)}
            </select>
          </Field>
          <Field
            label={t("Sample message")}
            hint={t("{min} to {max} characters.", {
              min: r.sample_message_rules.min_length,
              max: r.sample_message_rules.max_length
            })}
          >
            <textarea required rows={3} value={sample} onChange={(e) => setSample(e.currentTarget.value)} />
          </Field>
          {r.documents.map((d) => (
            <Field key={d.uid} label={d.name} hint={d.is_required ? t("required") : t("optional")}>
              <input
                type="file"
                accept={d.accepted_formats.map((f) =>
                  `.${f}`
                ).join(",")}
                required={d.is_required}
                onChange={(e) =>
                  setFiles({ ...files, [d.uid]: e.currentTarget.files?.[0] })}
              />
            </Field>
          ))}
          <Check checked={protect} onChange={setProtect}>{t("Protect the name (nobody else may register it)")}</Check>
          {protect && (
            <Field label={t("Protection document")}>
              <input
                type="file"
                accept=".pdf,.jpg,.jpeg,.png"
                required
                onChange={(e) => setProtection(e.currentTarget.files?.[0])}
              />
            </Field>
          )}
          <SubmitRow
            action={action}
            label={t("Request sender ID")}
            status={created !== undefined && <p role="status">{created}</p>}
          />
        </form>
      )}
    </>
  )
}
