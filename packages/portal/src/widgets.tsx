/**
 * The pieces several pages are built from: a table from a list of columns, a list of facts, a
 * loaded list with its empty text, a form's submit row, password fields, the frame of the pages
 * without a session, wallet tiles, refused recipients, webhook attempts and the sender-ID choice.
 */
import type { ReactNode } from "react"
import { useState } from "react"
import type { ApiError } from "./api.js"
import { call } from "./api.js"
import { formatNumber } from "./format.js"
import { useI18n } from "./i18n.js"
import { Link } from "./router.js"
import type { Column } from "./shared/table.js"
import { Table } from "./shared/table.js"
import type { Loaded } from "./ui.js"
import { ErrorBox, Field, Loading, PageTitle, Status, Time, useLoad, useServerText } from "./ui.js"

export { Check, type Column, Facts, onSubmit, Table } from "./shared/table.js"

/** What a list endpoint answers: the envelope with its rows in `data`. */
export interface Listed<A> {
  readonly data: ReadonlyArray<A>
}

/** Loading or the error, then `empty` when the list is empty, else `children` of the rows. */
export function LoadedList<A>(props: {
  readonly loaded: Loaded<Listed<A>>
  readonly empty?: string
  readonly children: (rows: ReadonlyArray<A>) => ReactNode
}) {
  const rows = props.loaded.data?.data
  return (
    <>
      <Loading loaded={props.loaded} />
      {rows !== undefined &&
        (rows.length === 0 && props.empty !== undefined ? <p>{props.empty}</p> : props.children(rows))}
    </>
  )
}

/** `LoadedList` of a `Table`: loading or the error, `empty` for no rows, else the table. */
export function LoadedTable<A>(props: {
  readonly loaded: Loaded<Listed<A>>
  readonly empty?: string
  readonly caption?: string
  readonly columns: ReadonlyArray<Column<A> | false>
  readonly rowKey: (row: A) => string | number
}) {
  const { loaded, empty, ...table } = props
  return (
    <LoadedList loaded={loaded} {...(empty !== undefined ? { empty } : {})}>
      {(rows) => <Table {...table} rows={rows} />}
    </LoadedList>
  )
}

/** A page showing one loaded thing: its title, a link back to the list, then `children` once loaded. */
export function DetailPage<A>(props: {
  readonly title: string
  readonly back: readonly [to: string, label: string]
  readonly loaded: Loaded<{ readonly data: A }>
  readonly children: (a: A) => ReactNode
}) {
  const a = props.loaded.data?.data
  return (
    <>
      <PageTitle>{props.title}</PageTitle>
      <p>
        <Link to={props.back[0]}>{props.back[1]}</Link>
      </p>
      <Loading loaded={props.loaded} />
      {a !== undefined && props.children(a)}
    </>
  )
}

/** The end of a form: the action's error, an optional status line, the submit button. */
export function SubmitRow(props: {
  readonly action: { readonly busy: boolean; readonly error: ApiError | undefined }
  readonly label: string
  readonly disabled?: boolean
  readonly status?: ReactNode
}) {
  return (
    <>
      <ErrorBox error={props.action.error} />
      {props.status}
      <button type="submit" disabled={props.action.busy || props.disabled === true}>{props.label}</button>
    </>
  )
}

/** A text input in a labelled field, bound to a string (email, name…). */
export function TextField(props: {
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly type?: "email"
  readonly autoComplete?: string
  readonly required?: boolean
}) {
  return (
    <Field label={props.label}>
      <input
        type={props.type}
        autoComplete={props.autoComplete}
        required={props.required}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </Field>
  )
}

/** A required password input in a labelled field; a new password says its length rule. */
export function PasswordField(props: {
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly isNew?: boolean
}) {
  const { t } = useI18n()
  const isNew = props.isNew === true
  return (
    <Field label={props.label} {...(isNew ? { hint: t("10 to 200 characters.") } : {})}>
      <input
        type="password"
        autoComplete={isNew ? "new-password" : "current-password"}
        required
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </Field>
  )
}

/** The frame of the pages without a session: brand, language switch, the page's heading. */
export function AnonymousFrame(
  props: { readonly title: string; readonly switcher: ReactNode; readonly children: ReactNode }
) {
  return (
    <div className="signin">
      <header className="top">
        <span className="brand">Tuma</span>
        {props.switcher}
      </header>
      <main>
        <PageTitle>{props.title}</PageTitle>
        {props.children}
      </main>
    </div>
  )
}

/** Balance tiles: the number big, then what it is. */
export function Tiles<A>(props: {
  readonly items: ReadonlyArray<A>
  readonly itemKey: (a: A) => string
  readonly balance: (a: A) => number
  readonly label: (a: A) => ReactNode
  readonly empty?: ReactNode
}) {
  const { lang } = useI18n()
  return (
    <ul className="tiles">
      {props.items.map((a) => (
        <li key={props.itemKey(a)} className="tile">
          <span className="big">{formatNumber(props.balance(a), lang)}</span>
          <span>{props.label(a)}</span>
        </li>
      ))}
      {props.items.length === 0 && props.empty}
    </ul>
  )
}

/** The recipients a campaign refused, with the reason. */
export function RefusedRecipients(
  props: {
    readonly failures: ReadonlyArray<{ readonly index: number; readonly recipient: string; readonly reason: string }>
  }
) {
  const { t } = useI18n()
  const say = useServerText()
  if (props.failures.length === 0) return null
  return (
    <div className="table-wrap">
      <table>
        <caption>{t("Refused recipients")}</caption>
        <tbody>
          {props.failures.map((f) => (
            <tr key={f.index}>
              <td>{f.recipient}</td>
              <td>{say(f.reason)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** One webhook attempt: when, the outcome, the receiver's status, latency and error. */
export interface Attempt {
  readonly attempt: number
  readonly attempted_at: string
  readonly outcome: string
  readonly response_status: number | null
  readonly latency_ms: number
  readonly error: string | null
}

/** The attempts of one webhook delivery, oldest first. */
export function AttemptLog(props: { readonly attempts: ReadonlyArray<Attempt>; readonly numbered?: boolean }) {
  return (
    <ol>
      {props.attempts.map((a) => (
        <li key={a.attempt}>
          {props.numbered === true && `#${a.attempt} `}
          <Time iso={a.attempted_at} /> <Status status={a.outcome} /> {a.response_status ?? ""} {a.latency_ms} ms{" "}
          {a.error ?? ""}
        </li>
      ))}
    </ol>
  )
}

/** The account's usable sender IDs and the chosen one (the first until the user picks). */
export function useSenderIdChoice() {
  const senderIds = useLoad(() => call((c) => c.portalSenderIds.listSenderIds()), [])
  const usable = (senderIds.data?.data ?? []).filter((s) => s.is_usable)
  const [senderId, setSenderId] = useState("")
  // the account's default sender ID (set by the operator) first, else the first usable one
  const chosen = senderId !== "" ? senderId : (usable.find((s) => s.is_default) ?? usable[0])?.sender_id ?? ""
  return { loaded: senderIds.data !== undefined, usable, chosen, setSenderId }
}

/** The sender-ID select of the send and campaign forms. */
export function SenderIdField(props: { readonly choice: ReturnType<typeof useSenderIdChoice> }) {
  const { t } = useI18n()
  const { chosen, setSenderId, usable } = props.choice
  return (
    <Field label={t("Sender ID")}>
      <select value={chosen} onChange={(e) => setSenderId(e.currentTarget.value)} required>
        {usable.map((s) => <option key={s.uid} value={s.sender_id}>{s.sender_id} ({s.country_code})</option>)}
      </select>
    </Field>
  )
}
