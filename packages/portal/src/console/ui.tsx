/** The console's small pieces: routing under /console, loading, actions, errors, fields, times. */
import type { AnchorHTMLAttributes, ReactElement, ReactNode } from "react"
import { cloneElement, useCallback, useEffect, useId, useState } from "react"
import { ApiError } from "./api.js"

/** The console's base path. */
export const BASE = "/console"

/** The path below /console ("/" at the root). */
export const currentPath = () => {
  const p = window.location.pathname
  const rel = p.startsWith(BASE) ? p.slice(BASE.length) : p
  return rel === "" ? "/" : rel
}

const listeners = new Set<() => void>()
/** Goes to a console path (History API). */
export const navigate = (to: string, options: { readonly replace?: boolean } = {}) => {
  const url = `${BASE}${to === "/" ? "/" : to}`
  if (options.replace === true) window.history.replaceState(null, "", url)
  else window.history.pushState(null, "", url)
  for (const f of listeners) f()
}

/** The current path, re-rendered on navigation. */
export const usePath = () => {
  const [path, setPath] = useState(currentPath())
  useEffect(() => {
    const update = () => setPath(currentPath())
    listeners.add(update)
    window.addEventListener("popstate", update)
    return () => {
      listeners.delete(update)
      window.removeEventListener("popstate", update)
    }
  }, [])
  return path
}

/** A link inside the console. */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { readonly to: string }) {
  const { to, ...rest } = props
  return (
    <a
      {...rest}
      href={`${BASE}${to}`}
      onClick={(e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return
        e.preventDefault()
        navigate(to)
      }}
    />
  )
}

/** What `useLoad` answers. */
export interface Loaded<A> {
  readonly data: A | undefined
  readonly error: ApiError | undefined
  readonly loading: boolean
  readonly reload: () => void
}

const asApiError = (e: unknown) => e instanceof ApiError ? e : new ApiError(String(e), undefined, undefined, undefined)

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
    f().then(
      (data) => live && setState({ data, error: undefined, loading: false }),
      (error: unknown) => live && setState((s) => ({ data: s.data, error: asApiError(error), loading: false }))
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
      setError(asApiError(e))
      return undefined
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, error, run }
}

/** An error of a call, with its field errors. */
export function ErrorBox(props: { readonly error: ApiError | undefined }) {
  const e = props.error
  if (e === undefined) return null
  const fields = e.errors === undefined ? [] : Object.entries(e.errors)
  return (
    <div role="alert" className="error">
      <p>{e.message}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map(([field, messages]) => <li key={field}>{field}: {messages.join(" ")}</li>)}
        </ul>
      )}
    </div>
  )
}

/** A loading line or the load's error. */
export function Loading(props: { readonly loaded: Loaded<unknown> }) {
  if (props.loaded.error !== undefined) return <ErrorBox error={props.loaded.error} />
  return props.loaded.loading && props.loaded.data === undefined ? <p aria-live="polite">Loading…</p> : null
}

/** A labelled control: exactly the label text is its accessible name. */
export function Field(props: { readonly label: string; readonly children: ReactElement<any>; readonly hint?: string }) {
  const id = useId()
  return (
    <div className="field">
      <label className="label" htmlFor={id}>{props.label}</label>
      {cloneElement(props.children, { id, ...(props.hint !== undefined ? { "aria-describedby": `${id}-hint` } : {}) })}
      {props.hint !== undefined && <small className="hint" id={`${id}-hint`}>{props.hint}</small>}
    </div>
  )
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

/** A table's header row (the empty name is an actions column). */
export function Head(props: { readonly cols: ReadonlyArray<string> }) {
  return (
    <thead>
      <tr>
        {props.cols.map((c, i) => <th key={`${i}-${c}`}>{c}</th>)}
      </tr>
    </thead>
  )
}
