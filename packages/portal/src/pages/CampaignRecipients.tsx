/**
 * Who a campaign goes to: numbers pasted, a CSV (its columns are tags), or contact groups (their
 * contacts once each, opted-out ones left out; name and custom fields are tags). A CSV's numbers are
 * checked by the server as soon as it is chosen (national numbers in the account's country): each
 * unreadable one is listed by its row number, and the campaign waits until the file is fixed or
 * "Skip invalid rows" is ticked, when the other rows are sent.
 */
import type { ContactGroup } from "@tuma/http/portal/Api"
import type { ReactNode } from "react"
import { useEffect, useMemo, useState } from "react"
import { call } from "../api.js"
import { recipientsFromCsv, recipientsFromText } from "../csv.js"
import { formatNumber } from "../format.js"
import { useI18n } from "../i18n.js"
import { ErrorBox, Field, useAction, useLoad } from "../ui.js"
import { Check, Table } from "../widgets.js"

/** A bulk-v2 recipient: a number, or a number with its tag values. */
export type Recipient = string | ({ readonly to: string } & Readonly<Record<string, string>>)

/** The most recipients of one campaign (bulk v2). */
const MAX_RECIPIENTS = 1000

interface CsvSource {
  readonly file: string
  readonly recipients: ReadonlyArray<{ readonly to: string } & Readonly<Record<string, string>>>
  readonly rows: ReadonlyArray<number>
  readonly tags: ReadonlyArray<string>
  readonly problems: ReadonlyArray<{ readonly row: number; readonly to: string; readonly message: string }> | undefined
}

interface FromGroups {
  readonly key: string
  readonly contacts: number
  readonly recipients: ReadonlyArray<Readonly<Record<string, string>>>
  readonly opted_out: number
}

/** The recipients of a campaign as the form builds them, and the fields that choose them. */
export function useCampaignRecipients() {
  const [pasted, setPasted] = useState("")
  const [csv, setCsv] = useState<CsvSource>()
  const [skip, setSkip] = useState(false)
  const [groups, setGroups] = useState<ReadonlyArray<string>>([])
  const [fromGroups, setFromGroups] = useState<FromGroups>()
  const groupKey = groups.join(",")
  useEffect(() => {
    if (groups.length === 0) return
    let live = true
    call((c) => c.portalContacts.groupRecipients({ payload: { group_uids: [...groups] } })).then(
      (r) => live && setFromGroups({ key: groupKey, ...r.data }),
      () => {}
    )
    return () => {
      live = false
    }
  }, [groupKey])
  const invalidRows = useMemo(() => new Set((csv?.problems ?? []).map((p) => p.row)), [csv])
  const recipients: ReadonlyArray<Recipient> = useMemo(() => {
    if (csv !== undefined) return skip ? csv.recipients.filter((_, i) => !invalidRows.has(csv.rows[i])) : csv.recipients
    if (groups.length > 0) {
      return fromGroups?.key === groupKey
        ? fromGroups.recipients.map((r) => ({ ...r, to: r.to ?? "" }))
        : []
    }
    return recipientsFromText(pasted)
  }, [csv, skip, invalidRows, groups, fromGroups, groupKey, pasted])
  const blocked = csv !== undefined && (csv.problems === undefined || (csv.problems.length > 0 && !skip))
  const reset = () => {
    setPasted("")
    setCsv(undefined)
    setSkip(false)
    setGroups([])
  }
  return {
    pasted,
    setPasted,
    csv,
    setCsv,
    skip,
    setSkip,
    groups,
    setGroups,
    fromGroups: fromGroups?.key === groupKey ? fromGroups : undefined,
    recipients,
    blocked,
    reset
  }
}

type Source = ReturnType<typeof useCampaignRecipients>

function GroupChoice(props: { readonly source: Source; readonly groups: ReadonlyArray<ContactGroup> }) {
  const { t, lang } = useI18n()
  const { fromGroups, groups, setGroups } = props.source
  if (props.groups.length === 0) return null
  return (
    <fieldset>
      <legend>{t("Contact groups")}</legend>
      {props.groups.map((g) => (
        <Check
          key={g.uid}
          checked={groups.includes(g.uid)}
          onChange={(on) => setGroups(on ? [...groups, g.uid] : groups.filter((x) => x !== g.uid))}
        >
          {t("{name} ({count} contacts)", { name: g.name, count: formatNumber(g.contacts, lang) })}
        </Check>
      ))}
      {fromGroups !== undefined && (
        <p role="status">
          {t("{sendable} of {contacts} contacts will get the message; {opted_out} opted out are skipped.", {
            sendable: fromGroups.recipients.length,
            contacts: fromGroups.contacts,
            opted_out: fromGroups.opted_out
          })} {tagsOf(fromGroups.recipients).length > 0 &&
            t("Tags: {tags}", { tags: tagsOf(fromGroups.recipients).map((x) => `{${x}}`).join(" ") })}
        </p>
      )}
      {fromGroups !== undefined && fromGroups.recipients.length > MAX_RECIPIENTS && (
        <p className="warn" role="alert">{t("A campaign goes to at most 1,000 recipients.")}</p>
      )}
    </fieldset>
  )
}

const tagsOf = (recipients: ReadonlyArray<Readonly<Record<string, string>>>) =>
  [...new Set(recipients.flatMap((r) => Object.keys(r)))].filter((k) => k !== "to")

function CsvProblems(props: { readonly source: Source; readonly csv: CsvSource }) {
  const { t } = useI18n()
  const problems = props.csv.problems
  if (problems === undefined || problems.length === 0) return null
  return (
    <div className="preview">
      <p className="warn" role="alert">
        {t(
          problems.length === 1
            ? "1 row has a number that cannot be read. Fix it in the file, or skip it and send the rest."
            : "{count} rows have a number that cannot be read. Fix them in the file, or skip them and send the rest.",
          { count: problems.length }
        )}
      </p>
      <Table
        caption={t("Rows with an invalid number")}
        rows={problems}
        rowKey={(p) => p.row}
        columns={[
          [t("Row"), (p) => p.row],
          [t("Number"), (p) => p.to],
          [t("Problem"), (p) => p.message]
        ]}
      />
      <Check checked={props.source.skip} onChange={props.source.setSkip}>{t("Skip invalid rows")}</Check>
    </div>
  )
}

/** The recipient fields of the campaign form: paste, CSV (checked row by row) or groups. */
export function RecipientFields(props: { readonly source: Source }): ReactNode {
  const { t } = useI18n()
  const s = props.source
  const groups = useLoad(() => call((c) => c.portalContacts.listGroups()), [])
  const check = useAction()
  const onFile = async (file: File | undefined) => {
    s.setSkip(false)
    if (file === undefined) return s.setCsv(undefined)
    const parsed = recipientsFromCsv(await file.text())
    const base = { file: file.name, recipients: parsed.recipients, rows: parsed.rows, tags: parsed.tags }
    s.setCsv({ ...base, problems: undefined })
    await check.run(async () => {
      const rows = parsed.recipients.map((r, i) => ({ row: parsed.rows[i], to: r.to }))
      const r = await call((c) => c.portalCampaigns.checkRecipients({ payload: { rows } }))
      s.setCsv({ ...base, problems: r.data.problems })
    })
  }
  return (
    <>
      <Field label={t("Recipients")} hint={t("One number per line (or separated by commas).")}>
        <textarea
          rows={4}
          value={s.pasted}
          disabled={s.csv !== undefined || s.groups.length > 0}
          onChange={(e) => s.setPasted(e.currentTarget.value)}
        />
      </Field>
      <Field
        label={t("Upload CSV")}
        hint={t("The first row names the columns: the phone column (phone, to, number …) and tags.")}
      >
        <input type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e.currentTarget.files?.[0])} />
      </Field>
      <ErrorBox error={check.error} />
      {s.csv !== undefined && (
        <p role="status">
          {t("{count} recipients from {file}.", { count: s.csv.recipients.length, file: s.csv.file })}{" "}
          {s.csv.tags.length > 0 && t("Tags: {tags}", { tags: s.csv.tags.map((x) => `{${x}}`).join(" ") })}{" "}
          <button type="button" onClick={() => s.setCsv(undefined)}>{t("Remove the CSV")}</button>
        </p>
      )}
      {s.csv !== undefined && <CsvProblems source={s} csv={s.csv} />}
      {s.csv === undefined && <GroupChoice source={s} groups={groups.data?.data ?? []} />}
    </>
  )
}
