/** Form pieces of the portal and the console: a labelled field, and an error with its field errors. */
import type { DescribedMessage } from "@tuma/domain/messages"
import { fillTemplate } from "@tuma/domain/messages"
import type { ReactElement } from "react"
import { cloneElement, useId } from "react"
import type { ApiError } from "./errors.js"
import type { FieldLabel, Translate } from "./messages.js"
import { renderDescribed } from "./messages.js"

/**
 * A labelled control: exactly the label text is its accessible name; the hint is its description, and
 * the field's errors (`errors`, already in the reader's language) are said right under the control,
 * which is then marked invalid and described by them first.
 */
export function Field(
  props: {
    readonly label: string
    readonly children: ReactElement<
      { readonly id?: string; readonly "aria-describedby"?: string; readonly "aria-invalid"?: boolean }
    >
    readonly hint?: string
    readonly errors?: ReadonlyArray<string>
  }
) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const errors = props.errors ?? []
  const describedBy = [errors.length > 0 ? errorId : "", props.hint !== undefined ? hintId : ""]
    .filter((s) => s !== "").join(" ")
  return (
    <div className={errors.length > 0 ? "field invalid" : "field"}>
      <label className="label" htmlFor={id}>{props.label}</label>
      {cloneElement(props.children, {
        id,
        ...(describedBy !== "" ? { "aria-describedby": describedBy } : {}),
        ...(errors.length > 0 ? { "aria-invalid": true } : {})
      })}
      {errors.length > 0 && <p className="field-error" id={errorId}>{errors.join(" ")}</p>}
      {props.hint !== undefined && <small className="hint" id={hintId}>{props.hint}</small>}
    </div>
  )
}

/**
 * The errors of a failed call that belong to a form's field: those at `field` or under it
 * (`allowed_ips` takes `allowed_ips.2`), each in the reader's language by its catalogue code when the
 * server sent one, else as written.
 */
export const fieldErrors = (
  e: ApiError | undefined,
  field: string,
  t: Translate
): ReadonlyArray<string> =>
  Object.entries(e?.errors ?? {})
    .filter(([path]) => path === field || path.startsWith(`${field}.`))
    .flatMap(([path, msgs]) =>
      msgs.map((m, i) => {
        const d = e?.details?.errors?.[path]?.[i]
        return d === null || d === undefined ? m : renderDescribed(t, d)
      })
    )

const MORE = / \(and \d+ more errors?\)$/

const identity: Translate = (s, vars) => vars === undefined ? s : fillTemplate(s, vars)

/**
 * An error of a call (an alert), with its field errors, in the reader's language (`t`): each text by its
 * catalogue code when the server sent one (`details`), else as the server wrote it. `message` may word
 * the main line itself (undefined: the server's).
 */
export function ErrorAlert(
  props: {
    readonly error: ApiError | undefined
    readonly message?: (e: ApiError) => string | undefined
    /** The name a person knows a request field by (`sender_id` → "Sender ID"); the field itself if none. */
    readonly label?: FieldLabel
    readonly t?: Translate
  }
) {
  const e = props.error
  if (e === undefined) return null
  const t = props.t ?? identity
  const say = (english: string, d: DescribedMessage | null | undefined) =>
    d === null || d === undefined ? english : renderDescribed(t, d, { label: props.label })
  const first = e.details?.message
  // the envelope's message repeats the first field error (decisions §29) and counts the others, which
  // are listed below: each error is said once — the message, then the other fields' errors by their labels
  const firstEnglish = e.message.replace(MORE, "")
  // the first error's field, by its label, when the sentence does not name it ("Recipient 2: …")
  const firstPath = Object.entries(e.errors ?? {}).find(([, msgs]) => msgs[0] === firstEnglish)?.[0]
  const firstLabel = firstPath === undefined ? undefined : props.label?.(firstPath)
  const firstSaid = say(firstEnglish, first)
  const message = props.message?.(e) ??
    (firstLabel === undefined || firstSaid.toLowerCase().includes(firstLabel.toLowerCase())
      ? firstSaid
      : `${firstLabel}: ${firstSaid}`)
  const fields = (e.errors === undefined ? [] : Object.entries(e.errors))
    .map(([k, msgs]) => {
      const described = e.details?.errors?.[k] ?? []
      const said = msgs.flatMap((m, i) => m === firstEnglish ? [] : [say(m, described[i])])
      return [k, [...new Set(said)]] as const
    })
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
