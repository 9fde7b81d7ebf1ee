/**
 * A small client-side router over the History API: every page of the portal lives under
 * `/portal/…` (the server answers index.html for each, see PortalAssets.ts).
 */
import type { AnchorHTMLAttributes, ReactNode } from "react"
import { useEffect, useState } from "react"

export const BASE = "/portal"

const listeners = new Set<() => void>()

/** The path inside the portal: "/" for the dashboard, "/send", "/messages/abc", … */
export const currentPath = () => {
  const p = window.location.pathname
  const rest = p.startsWith(BASE) ? p.slice(BASE.length) : p
  return rest === "" ? "/" : rest
}

export const navigate = (to: string, options?: { replace?: boolean }) => {
  const url = BASE + (to === "/" ? "/" : to)
  if (options?.replace === true) window.history.replaceState(null, "", url)
  else window.history.pushState(null, "", url)
  window.scrollTo(0, 0)
  for (const f of listeners) f()
}

export const usePath = () => {
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

export const useQuery = () => {
  usePath()
  return new URLSearchParams(window.location.search)
}

export function Link(
  props: { readonly to: string; readonly children: ReactNode } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">
) {
  const { to, children, ...rest } = props
  return (
    <a
      {...rest}
      href={BASE + (to === "/" ? "/" : to)}
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
