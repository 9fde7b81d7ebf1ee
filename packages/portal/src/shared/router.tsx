/**
 * A small client-side router over the History API, for an app served under one base path (the
 * portal's `/portal`, the console's `/console`; the server answers the app's HTML for each path).
 */
import type { AnchorHTMLAttributes, ReactNode } from "react"
import { useEffect, useState } from "react"

/** The router of the app under `base`. */
export const makeRouter = (base: string) => {
  const listeners = new Set<() => void>()
  const href = (to: string) => base + (to === "/" ? "/" : to)

  /** The path inside the app: "/" at its root, "/send", "/messages/abc", … */
  const currentPath = () => {
    const p = window.location.pathname
    const rest = p.startsWith(base) ? p.slice(base.length) : p
    return rest === "" ? "/" : rest
  }

  const navigate = (to: string, options?: { readonly replace?: boolean }) => {
    if (options?.replace === true) window.history.replaceState(null, "", href(to))
    else window.history.pushState(null, "", href(to))
    window.scrollTo(0, 0)
    for (const f of listeners) f()
  }

  /** The current path, re-rendered on navigation. */
  const usePath = () => {
    const [path, setPath] = useState(currentPath)
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

  /** A link inside the app (a plain click navigates without a page load). */
  function Link(
    props: { readonly to: string; readonly children: ReactNode } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">
  ) {
    const { children, to, ...rest } = props
    return (
      <a
        {...rest}
        href={href(to)}
        onClick={(e) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
          e.preventDefault()
          navigate(to)
        }}
      >
        {children}
      </a>
    )
  }

  return { BASE: base, currentPath, navigate, usePath, Link }
}
