/** Building blocks of pages in the portal and the console: tables from columns, facts, checkboxes, form submits. */
import type { FormEvent, ReactNode } from "react"
import type { Translate } from "./messages.js"

/** One column of a `Table`: its header (empty for an actions column) and how a row fills its cell. */
export type Column<A> = readonly [header: string, cell: (row: A) => ReactNode]

/**
 * A table with one header row; a column given as `false` is left out (e.g. owner-only actions).
 * On a narrow screen each row is a stack of "header: value" lines (`data-label`, styles.css).
 */
export function Table<A>(props: {
  readonly caption?: string
  readonly columns: ReadonlyArray<Column<A> | false>
  readonly rows: ReadonlyArray<A>
  readonly rowKey: (row: A) => string | number
  /** Attributes of a row (e.g. `aria-current` of the open one). */
  readonly rowProps?: (row: A) => { readonly "aria-current"?: "true" | undefined }
}) {
  const columns = props.columns.filter((c): c is Column<A> => c !== false)
  return (
    <div className="table-wrap">
      <table className="stack">
        {props.caption !== undefined && <caption>{props.caption}</caption>}
        <thead>
          <tr>
            {columns.map(([header], i) => <th key={`${i}-${header}`} scope="col">{header}</th>)}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} {...props.rowProps?.(row)}>
              {columns.map(([header, cell], i) => (
                <td key={`${i}-${header}`} {...(header === "" ? {} : { "data-label": header })}>
                  <span className="cell">{cell(row)}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** A checkbox with its label text. */
export function Check(
  props: { readonly checked: boolean; readonly onChange: (checked: boolean) => void; readonly children: ReactNode }
) {
  return (
    <label className="check">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.currentTarget.checked)} />
      {props.children}
    </label>
  )
}

/** A list of facts (`<dl>`): label and value; `false` entries are left out. */
export function Facts(props: {
  readonly className?: string
  readonly facts: ReadonlyArray<readonly [label: string, value: ReactNode] | false>
}) {
  return (
    <dl className={props.className ?? "facts"}>
      {props.facts.map((f) =>
        f === false ? null : (
          <div key={f[0]}>
            <dt>{f[0]}</dt>
            <dd>{f[1]}</dd>
          </div>
        )
      )}
    </dl>
  )
}

/** A form's submit handler: no page load, `f` run as the action. */
export const onSubmit = (
  action: { readonly run: (f: () => Promise<void>) => Promise<unknown> },
  f: () => Promise<void>
) =>
(e: FormEvent) => {
  e.preventDefault()
  void action.run(f)
}

/** "Previous page", "Page n of m", "Next page" under a list; nothing when there is one page. */
export function Pager(props: {
  readonly page: number
  readonly last: number
  readonly onPage: (page: number) => void
  readonly t: Translate
}) {
  const { last, page, t } = props
  if (last <= 1) return null
  return (
    <nav aria-label={t("Pages")} className="pager">
      <button type="button" disabled={page <= 1} onClick={() => props.onPage(page - 1)}>{t("Previous page")}</button>
      <span>{t("Page {page} of {last}", { page, last })}</span>
      <button type="button" disabled={page >= last} onClick={() => props.onPage(page + 1)}>{t("Next page")}</button>
    </nav>
  )
}
