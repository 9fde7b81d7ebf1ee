/** The loading and action hooks of the portal and the console. */
import { useCallback, useEffect, useState } from "react"
import type { ApiError } from "./errors.js"
import { asApiError } from "./errors.js"

/** What `useLoad` answers. */
export interface Loaded<A> {
  readonly data: A | undefined
  readonly error: ApiError | undefined
  readonly loading: boolean
  readonly reload: () => void
}

/** Loads `f()` when `deps` change; `reload()` loads again (the last data stays shown meanwhile). */
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
  return { busy, error, run, setError }
}

/** A form's text values by name: `bind(name)` gives an input its value and change handler. */
export function useForm<F extends Record<string, string>>(initial: F) {
  const [values, setValues] = useState(initial)
  const set = useCallback((name: keyof F, value: string) => setValues((s) => ({ ...s, [name]: value })), [])
  const bind = (name: keyof F) => ({
    value: values[name],
    onChange: (e: { readonly currentTarget: { readonly value: string } }) => set(name, e.currentTarget.value)
  })
  /** Back to the initial values of `names`. */
  const reset = (...names: ReadonlyArray<keyof F>) =>
    setValues((s) => ({ ...s, ...Object.fromEntries(names.map((n) => [n, initial[n]])) }))
  return { values, set, bind, reset }
}
