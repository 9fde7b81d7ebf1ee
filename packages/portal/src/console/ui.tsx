/**
 * The console's small pieces: routing under /console, loading, errors, tables (shared with the
 * portal: `../shared/`), and the console's own times (UTC), statuses and sections. Forms: `forms.tsx`.
 */
import type { ReactNode } from "react"
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

/** An error of a call, with its field errors. */
export function ErrorBox(props: { readonly error: ApiError | undefined }) {
  return <ErrorAlert error={props.error} />
}

/** A loading line or the load's error. */
export function Loading(props: { readonly loaded: Loaded<unknown> }) {
  if (props.loaded.error !== undefined) return <ErrorBox error={props.loaded.error} />
  return props.loaded.loading && props.loaded.data === undefined ? <p aria-live="polite">Loading…</p> : null
}

/** A time in UTC (operators work across zones). */
export function Time(props: { readonly iso: string | null | undefined }) {
  if (props.iso === null || props.iso === undefined) return <>—</>
  return <time dateTime={props.iso}>{props.iso.replace("T", " ").slice(0, 19)} UTC</time>
}

/** A status chip. */
export function Status(props: { readonly status: string }) {
  return <span className={`status status-${props.status}`}>{props.status}</span>
}

/** A titled section. */
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
  return (
    <CopyField
      label="Invitation link"
      value={props.link}
      copy="Copy link"
      done="Copied."
      failed="Select the text and copy it."
    />
  )
}
