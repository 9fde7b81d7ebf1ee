/**
 * The CSV import of contacts (owner): the file's first row names the columns; each column is mapped
 * to the phone number, the name, a custom field (its tag name) or left out; "Check the file" asks the
 * server for a dry run (counts, and each bad or repeated row by its row number), "Import contacts"
 * writes the good rows (into a group, if chosen) and reports what it did.
 */
import type { ContactGroup, ImportReport } from "@tuma/http/portal/Api"
import { useState } from "react"
import { call } from "../api.js"
import type { CsvRecord } from "../csv.js"
import { parseCsvRecords } from "../csv.js"
import { useI18n } from "../i18n.js"
import type { Loaded } from "../ui.js"
import { Field, useAction } from "../ui.js"
import { onSubmit, SubmitRow, Table } from "../widgets.js"

type Use = "phone" | "name" | "field" | "skip"
const USES: ReadonlyArray<Use> = ["phone", "name", "field", "skip"]

const PHONE_NAMES = ["phone", "to", "recipient", "number", "msisdn", "mobile", "phone_number", "simu", "namba"]
const NAME_NAMES = ["name", "jina", "full_name"]

/** A header as a tag name: lower-case, spaces and other characters as `_`. */
const keyOf = (header: string) => header.trim().toLowerCase().replace(/[^a-z0-9_.-]+/g, "_").replace(/^[^a-z_]+/, "")

const guess = (header: ReadonlyArray<string>): Array<Use> => {
  const lower = header.map((h) => h.trim().toLowerCase())
  let phone = lower.findIndex((h) => PHONE_NAMES.includes(h))
  if (phone < 0) phone = 0
  const name = lower.findIndex((h, i) => i !== phone && NAME_NAMES.includes(h))
  return lower.map((h, i) => (i === phone ? "phone" : i === name ? "name" : keyOf(h) === "" ? "skip" : "field"))
}

function Report(props: { readonly report: ImportReport }) {
  const { t } = useI18n()
  const r = props.report
  return (
    <div role="status" className="preview">
      <p>
        {t(
          r.dry_run
            ? "Check of {rows} rows: {added} new, {updated} to update, {duplicates} repeated, {invalid} invalid, {opted_out} opted out."
            : "Imported {rows} rows: {added} added, {updated} updated, {duplicates} repeated, {invalid} invalid, {opted_out} opted out.",
          {
            rows: r.rows,
            added: r.added,
            updated: r.updated,
            duplicates: r.duplicates,
            invalid: r.invalid,
            opted_out: r.opted_out
          }
        )}
      </p>
      {r.opted_out > 0 && <p className="hint">{t("Opted-out contacts are kept and marked; they are never sent to.")}
      </p>}
      {r.problems.length > 0 && (
        <Table
          caption={r.dry_run ? t("Rows that will not be imported as they are") : t("Rows not imported as they were")}
          rows={r.problems}
          rowKey={(p) => p.row}
          columns={[
            [t("Row"), (p) => p.row],
            [t("Problem"), (p) => (p.kind === "duplicate" ? t("Repeated number") : t("Invalid"))],
            [t("Details"), (p) =>
              p.first_row === null
                ? p.messages.join(" ")
                : t("The same number as row {row}: merged into it.", { row: p.first_row })]
          ]}
        />
      )}
    </div>
  )
}

export function ContactImport(props: {
  readonly groups: Loaded<{ readonly data: ReadonlyArray<ContactGroup> }>
  readonly onImported: () => void
}) {
  const { t } = useI18n()
  const action = useAction()
  const [file, setFile] = useState<{ name: string; header: Array<string>; rows: Array<CsvRecord> }>()
  const [uses, setUses] = useState<Array<Use>>([])
  const [keys, setKeys] = useState<Array<string>>([])
  const [group, setGroup] = useState("")
  const [report, setReport] = useState<{ key: string; report: ImportReport }>()
  const onFile = async (f: File | undefined) => {
    setReport(undefined)
    if (f === undefined) return setFile(undefined)
    const records = parseCsvRecords(await f.text())
    const header = (records[0]?.cells ?? []).map((h) => h.trim())
    setFile({ name: f.name, header, rows: records.slice(1) })
    setUses(guess(header))
    setKeys(header.map(keyOf))
  }
  const payload = (dryRun: boolean) => ({
    rows: (file?.rows ?? []).map((r) => ({ row: r.row, cells: r.cells })),
    mapping: {
      phone: Math.max(0, uses.indexOf("phone")),
      ...(uses.includes("name") ? { name: uses.indexOf("name") } : {}),
      fields: uses.flatMap((u, i) => (u === "field" ? [{ column: i, key: keys[i] }] : []))
    },
    ...(group !== "" ? { group_uid: group } : {}),
    dry_run: dryRun
  })
  const key = JSON.stringify(payload(true))
  const checked = report !== undefined && report.key === key && report.report.dry_run
  const check = () =>
    action.run(async () => {
      const k = key
      const r = await call((c) => c.portalContacts.importContacts({ payload: payload(true) }))
      setReport({ key: k, report: r.data })
    })
  const submit = onSubmit(action, async () => {
    const r = await call((c) => c.portalContacts.importContacts({ payload: payload(false) }))
    setReport({ key: "", report: r.data })
    setFile(undefined)
    props.onImported()
  })
  const setUse = (i: number, u: Use) =>
    setUses((all) => all.map((x, j) => (j === i ? u : u === "phone" && x === "phone" ? "skip" : x)))
  return (
    <form onSubmit={submit} className="card">
      <h2>{t("Import contacts from a CSV")}</h2>
      <Field label={t("CSV file")} hint={t("The first row names the columns. Up to 5,000 rows.")}>
        <input type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e.currentTarget.files?.[0])} />
      </Field>
      {file !== undefined && (
        <>
          <p>{t("{count} rows in {file}.", { count: file.rows.length, file: file.name })}</p>
          <fieldset>
            <legend>{t("Columns")}</legend>
            {file.header.map((h, i) => (
              <div key={i} className="mapping">
                <Field label={t("Column {name}", { name: h === "" ? String(i + 1) : h })}>
                  <select
                    value={uses[i]}
                    onChange={(e) => {
                      const v = e.currentTarget.value
                      const u = USES.find((x) => x === v)
                      if (u !== undefined) setUse(i, u)
                    }}
                  >
                    <option value="phone">{t("Phone number")}</option>
                    <option value="name">{t("Name")}</option>
                    <option value="field">{t("Custom field")}</option>
                    <option value="skip">{t("Leave out")}</option>
                  </select>
                </Field>
                {uses[i] === "field" && (
                  <Field label={t("Tag name of {name}", { name: h === "" ? String(i + 1) : h })}>
                    <input
                      value={keys[i]}
                      onChange={(e) => {
                        const v = e.currentTarget.value
                        setKeys((all) => all.map((k, j) => (j === i ? v : k)))
                      }}
                    />
                  </Field>
                )}
              </div>
            ))}
          </fieldset>
          <Field label={t("Add to group")}>
            <select value={group} onChange={(e) => setGroup(e.currentTarget.value)}>
              <option value="">{t("No group")}</option>
              {(props.groups.data?.data ?? []).map((g) => <option key={g.uid} value={g.uid}>{g.name}</option>)}
            </select>
          </Field>
          <button type="button" disabled={action.busy || !uses.includes("phone")} onClick={() => void check()}>
            {t("Check the file")}
          </button>
        </>
      )}
      {report !== undefined && <Report report={report.report} />}
      {file !== undefined && <SubmitRow action={action} disabled={!checked} label={t("Import contacts")} />}
      {file !== undefined && !checked && <p className="hint">{t("Check the file first.")}</p>}
    </form>
  )
}
