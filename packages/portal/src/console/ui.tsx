/**
 * The console's small pieces: routing under /console, loading, errors, tables (shared with the
 * portal: `../shared/`), and the console's own times (UTC), statuses and sections. Forms: `forms.tsx`.
 */
import type { ReactNode } from "react"
import { useI18n } from "../i18n.js"
import type { ApiError } from "../shared/errors.js"
import { ErrorAlert } from "../shared/fields.js"
import type { Loaded } from "../shared/hooks.js"
import { makeRouter } from "../shared/router.js"
import { CopyField } from "../shared/secrets.js"
import type { Column } from "../shared/table.js"
import { Table } from "../shared/table.js"

export { type Loaded, useLoad } from "../shared/hooks.js"
export { type Column, Facts, Table } from "../shared/table.js"

export const { BASE, currentPath, Link, navigate, usePath } = makeRouter("/console")

/** The request fields the console's forms send, by the name the operator knows them by (English keys of sw.ts). */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  name: "Name",
  email: "Email",
  password: "Password",
  code: "Authentication code",
  country: "Country",
  units: "Units",
  reference: "Reference",
  amount: "Amount paid",
  currency: "Currency",
  reason: "Reason",
  corrects: "Corrects entry",
  recipient: "Recipient",
  pattern: "Pattern",
  kind: "Kind",
  role: "Role",
  phone: "Verified phone",
  account_uid: "Account",
  credit: "Initial credit",
  "config.host": "Host",
  "config.port": "Port",
  "config.systemId": "System ID",
  "config.password": "SMPP password"
}

/** An error of a call, with its field errors, in the operator's language (rendered from the catalogue's codes). */
export function ErrorBox(props: { readonly error: ApiError | undefined }) {
  const { t } = useI18n()
  return (
    <ErrorAlert
      error={props.error}
      t={t}
      label={(field) => (FIELD_LABELS[field] === undefined ? undefined : t(FIELD_LABELS[field]))}
    />
  )
}

/** A loading line or the load's error. */
export function Loading(props: { readonly loaded: Loaded<unknown> }) {
  const { t } = useI18n()
  if (props.loaded.error !== undefined) return <ErrorBox error={props.loaded.error} />
  return props.loaded.loading && props.loaded.data === undefined ? <p aria-live="polite">{t("Loading…")}</p> : null
}

/** A time in UTC (operators work across zones). */
export function Time(props: { readonly iso: string | null | undefined }) {
  if (props.iso === null || props.iso === undefined) return <>—</>
  return <time dateTime={props.iso}>{props.iso.replace("T", " ").slice(0, 19)} UTC</time>
}

/** A status chip, its name in the operator's language ("Enabled", "Imewashwa"). */
export function Status(props: { readonly status: string }) {
  const { t } = useI18n()
  const name = props.status.charAt(0).toUpperCase() + props.status.slice(1)
  return <span className={`status status-${props.status}`}>{t(name)}</span>
}

/** A titled section (the title given in the operator's language). */
export function Section(props: { readonly title: string; readonly children: ReactNode }) {
  return (
    <section aria-label={props.title} className="card">
      <h2>{props.title}</h2>
      {props.children}
    </section>
  )
}

/**
 * A page's heading, then its list: loading or the load's error, the error of the page's last
 * action, and the rows as a table of the `children` columns.
 */
export function Listing<A>(props: {
  readonly title: string
  readonly loaded: Loaded<ReadonlyArray<A>>
  readonly error: ApiError | undefined
  readonly rowKey: (row: A) => string | number
  readonly children: ReadonlyArray<Column<A> | false>
}) {
  return (
    <>
      <h1>{props.title}</h1>
      <Loading loaded={props.loaded} />
      <ErrorBox error={props.error} />
      <Table rows={props.loaded.data ?? []} rowKey={props.rowKey} columns={props.children} />
    </>
  )
}

/** An invitation link that was not e-mailed, to copy and pass on. */
export function InvitationLink(props: { readonly link: string }) {
  const { t } = useI18n()
  return (
    <CopyField
      label={t("Invitation link")}
      value={props.link}
      copy={t("Copy link")}
      done={t("Copied.")}
      failed={t("Select the text and copy it.")}
    />
  )
}

/** The console's translator (`t(english, vars)`, i18n.tsx). */
export const useT = () => useI18n().t

/**
 * A translated template whose parameters are shown as written, marked `translate="no"`: names people
 * gave (a carrier's, a rule's pattern) inside a sentence or a button ("Zima {name}").
 */
export function Say(props: { readonly text: string; readonly vars: Readonly<Record<string, ReactNode>> }) {
  const t = useT()
  return (
    <>
      {t(props.text).split(/(\{\w+\})/).map((part, i) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1]
        return name !== undefined && name in props.vars
          ? <span key={i} translate="no">{props.vars[name]}</span>
          : part
      })}
    </>
  )
}

/** A name a person gave (an account's, a carrier's), shown as written (`translate="no"`). */
export function Name(props: { readonly children: ReactNode }) {
  return <span translate="no">{props.children}</span>
}
