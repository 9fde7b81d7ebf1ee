/** Form pieces of the portal and the console: a labelled field, and an error with its field errors. */
import type { ReactElement } from "react"
import { cloneElement, useId } from "react"
import type { ApiError } from "./errors.js"

/** A labelled control: exactly the label text is its accessible name; the hint is its description. */
export function Field(
  props: {
    readonly label: string
    readonly children: ReactElement<{ readonly id?: string; readonly "aria-describedby"?: string }>
    readonly hint?: string
  }
) {
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <div className="field">
      <label className="label" htmlFor={id}>{props.label}</label>
      {cloneElement(props.children, {
        id,
        ...(props.hint !== undefined ? { "aria-describedby": hintId } : {})
      })}
      {props.hint !== undefined && <small className="hint" id={hintId}>{props.hint}</small>}
    </div>
  )
}

/** An error of a call (an alert), with its field errors; `message` words it (default: the server's). */
export function ErrorAlert(
  props: { readonly error: ApiError | undefined; readonly message?: (e: ApiError) => string }
) {
  const e = props.error
  if (e === undefined) return null
  const fields = e.errors === undefined ? [] : Object.entries(e.errors)
  return (
    <div role="alert" className="error">
      <p>{props.message === undefined ? e.message : props.message(e)}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map(([k, msgs]) => <li key={k}>{k}: {msgs.join(" ")}</li>)}
        </ul>
      )}
    </div>
  )
}
