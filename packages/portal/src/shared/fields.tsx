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
  props: {
    readonly error: ApiError | undefined
    readonly message?: (e: ApiError) => string
    /** The name a person knows a request field by (`sender_id` → "Sender ID"); the field itself if none. */
    readonly label?: (field: string) => string | undefined
  }
) {
  const e = props.error
  if (e === undefined) return null
  const message = props.message === undefined ? e.message : props.message(e)
  // the envelope's message repeats the first field error (decisions §29): each error is said once —
  // the message, then the other fields' errors by their labels
  const fields = (e.errors === undefined ? [] : Object.entries(e.errors))
    .map(([k, msgs]) => [k, [...new Set(msgs)].filter((m) => m !== message)] as const)
    .filter(([, msgs]) => msgs.length > 0)
  return (
    <div role="alert" className="error">
      <p>{message}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map(([k, msgs]) => <li key={k}>{props.label?.(k) ?? k}: {msgs.join(" ")}</li>)}
        </ul>
      )}
    </div>
  )
}
