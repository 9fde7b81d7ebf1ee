/** The console's forms: fields, one-action forms and on/off buttons (fields and hooks shared with the portal). */
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react"
import { useState } from "react"
import { Field } from "../shared/fields.js"
import { useAction } from "../shared/hooks.js"
import { api } from "./api.js"
import { ErrorBox, Say } from "./ui.js"

export { Field } from "../shared/fields.js"
export { useAction, useForm } from "../shared/hooks.js"

/**
 * A form of one action: its fields, the submit button, the action's error and, once done, the
 * status line `run` answers (nothing when it answers nothing).
 */
export function ActionForm(props: {
  readonly submit: string
  readonly run: () => Promise<string | void>
  readonly children: ReactNode
}) {
  const action = useAction()
  const [done, setDone] = useState<string | null>(null)
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        setDone(null)
        void action.run(async () => {
          const status = await props.run()
          if (typeof status === "string") setDone(status)
        })
      }}
    >
      {props.children}
      <button type="submit" disabled={action.busy}>{props.submit}</button>
      <ErrorBox error={action.error} />
      {done !== null && <p role="status">{done}</p>}
    </form>
  )
}

/** The button texts of the verbs of `Toggle` (English keys of sw.ts). */
const VERB_TEXTS: Readonly<Record<string, string>> = {
  disable: "Disable {name}",
  enable: "Enable {name}",
  suspend: "Suspend {name}",
  activate: "Activate {name}",
  close: "Close {name}",
  open: "Open {name}"
}

/**
 * A button that switches something on or off with one call: `POST <path>/<verb>` ("Disable x" when
 * on, "Enable x" when off, or the given verbs), then `then` (e.g. a reload).
 */
export function Toggle(props: {
  readonly action: ReturnType<typeof useAction>
  readonly on: boolean
  readonly path: string
  readonly name: string
  readonly then: () => void
  readonly verbs?: readonly [whenOn: string, whenOff: string]
  readonly className?: string
}) {
  const [whenOn, whenOff] = props.verbs ?? ["disable", "enable"]
  const verb = props.on ? whenOn : whenOff
  const text = VERB_TEXTS[verb]
  return (
    <button
      type="button"
      {...(props.className !== undefined ? { className: props.className } : {})}
      disabled={props.action.busy}
      onClick={() => void props.action.run(() => api("POST", `${props.path}/${verb}`)).then(props.then)}
    >
      {text === undefined ? `${verb} ${props.name}` : <Say text={text} vars={{ name: props.name }} />}
    </button>
  )
}

/**
 * A labelled input (text unless `type` says otherwise): the label is its accessible name; `errors`
 * (in the operator's language) are said under it.
 */
export function Input(
  props: {
    readonly label: string
    readonly hint?: string
    readonly errors?: ReadonlyArray<string>
  } & InputHTMLAttributes<HTMLInputElement>
) {
  const { errors, hint, label, ...input } = props
  return (
    <Field label={label} {...(hint !== undefined ? { hint } : {})} {...(errors !== undefined ? { errors } : {})}>
      <input type="text" {...input} />
    </Field>
  )
}

/** A labelled select of `options` (a value, or a value and its label). */
export function Select(
  props: {
    readonly label: string
    readonly options: ReadonlyArray<string | readonly [value: string, label: string]>
  } & SelectHTMLAttributes<HTMLSelectElement>
) {
  const { label, options, ...select } = props
  return (
    <Field label={label}>
      <select {...select}>
        {options.map((o) => {
          const [value, text] = typeof o === "string" ? [o, o] : o
          return <option key={value} value={value}>{text}</option>
        })}
      </select>
    </Field>
  )
}
