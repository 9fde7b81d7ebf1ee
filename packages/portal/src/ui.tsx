/** Small shared pieces: loading, errors, times, statuses, form fields. */
import type { ReactElement, ReactNode } from "react"
import { cloneElement, useCallback, useEffect, useId, useState } from "react"
import { ApiError } from "./api.js"
import { formatDateTime } from "./format.js"
import { useI18n } from "./i18n.js"
import { useZone } from "./session.js"

export interface Loaded<A> {
  readonly data: A | undefined
  readonly error: ApiError | undefined
  readonly loading: boolean
  readonly reload: () => void
}

/** Loads `f()` when `deps` change; `reload()` loads again. */
export function useLoad<A>(f: () => Promise<A>, deps: ReadonlyArray<unknown>): Loaded<A> {
  const [state, setState] = useState<{ data: A | undefined; error: ApiError | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true
  })
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let live = true
    setState((s) => ({ ...s, loading: true }))
    f().then(
      (data) => live && setState({ data, error: undefined, loading: false }),
      (error: unknown) =>
        live &&
        setState((s) => ({
          data: s.data,
          error: error instanceof ApiError ? error : new ApiError(String(error), undefined, undefined, undefined),
          loading: false
        }))
    )
    return () => {
      live = false
    }
  }, [...deps, tick])
  const reload = useCallback(() => setTick((n) => n + 1), [])
  return { ...state, reload }
}

/** Runs an action, keeping its error and busy state. */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const run = useCallback(async function<A>(f: () => Promise<A>): Promise<A | undefined> {
    setBusy(true)
    setError(undefined)
    try {
      return await f()
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(String(e), undefined, undefined, undefined))
      return undefined
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, error, run, setError }
}

export function ErrorBox(props: { readonly error: ApiError | undefined }) {
  const { t } = useI18n()
  const e = props.error
  if (e === undefined) return null
  const fields = e.errors === undefined ? [] : Object.entries(e.errors)
  return (
    <div role="alert" className="error">
      <p>
        {e.status === 403 && e.code === "OWNER_REQUIRED" ? t("Only an owner of the account can do this.") : e.message}
      </p>
      {fields.length > 0 && (
        <ul>
          {fields.map(([k, msgs]) => <li key={k}>{k}: {msgs.join(" ")}</li>)}
        </ul>
      )}
    </div>
  )
}

export function Loading(props: { readonly loaded: Loaded<unknown> }) {
  const { t } = useI18n()
  if (props.loaded.error !== undefined) return <ErrorBox error={props.loaded.error} />
  if (props.loaded.data === undefined) return <p aria-live="polite">{t("Loading…")}</p>
  return null
}

export function Time(props: { readonly iso: string | null | undefined }) {
  const { lang } = useI18n()
  const zone = useZone()
  if (props.iso === null || props.iso === undefined) return <span>—</span>
  return <time dateTime={props.iso}>{formatDateTime(props.iso, lang, zone)}</time>
}

const statusNames: Record<string, string> = {
  scheduled: "Scheduled",
  queued: "Queued",
  processing: "Processing",
  sent: "Sent",
  delivered: "Delivered",
  failed: "Failed",
  pending: "Pending",
  approved: "Approved",
  rejected: "Rejected",
  suspended: "Suspended",
  active: "Active",
  revoked: "Revoked",
  expired: "Expired",
  succeeded: "Succeeded",
  success: "Succeeded",
  failure: "Failed",
  enabled: "Enabled",
  disabled: "Disabled"
}

export function Status(props: { readonly status: string }) {
  const { t } = useI18n()
  const name = statusNames[props.status]
  return <span className={`status status-${props.status}`}>{name === undefined ? props.status : t(name)}</span>
}

export const statusLabel = (t: (s: string) => string, status: string) => {
  const name = statusNames[status]
  return name === undefined ? status : t(name)
}

export function PageTitle(props: { readonly children: ReactNode }) {
  return <h1>{props.children}</h1>
}

/** A labelled control: exactly the label text is its accessible name; the hint is its description. */
export function Field(props: { readonly label: string; readonly children: ReactElement<any>; readonly hint?: string }) {
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

/** A secret shown once (API key, webhook secret): a read-only text field with its name. */
export function ShownOnce(props: { readonly label: string; readonly value: string }) {
  const { t } = useI18n()
  return (
    <div className="once" role="group" aria-label={props.label}>
      <Field label={props.label} hint={t("Copy it now: it is shown only once.")}>
        <input type="text" readOnly value={props.value} onFocus={(e) => e.currentTarget.select()} />
      </Field>
    </div>
  )
}
