/**
 * The frame of the signed-in portal and console: the top bar, the main navigation and the page.
 * Wide screens show the navigation as a sidebar; below 720 px (styles.css) the top bar keeps the
 * brand, the language and a menu button that opens the navigation and the account's controls.
 */
import type { ReactNode } from "react"
import { useEffect, useRef, useState } from "react"

/** Whether the link to `to` is the current page's: `path` is `to` or continues it with `/`. */
export const isCurrent = (to: string, path: string) => path === to || path.startsWith(to.endsWith("/") ? to : `${to}/`)

const NAV_ID = "main-navigation"

/**
 * The top bar (`brand`, then `top`: the account, the language (`.lang`), sign out), the "Main"
 * navigation (`active` marks the current page's link) and the page in `main`. `menu` names the
 * menu button of narrow screens; a click in the menu or Escape closes it.
 */
export function AppFrame(props: {
  readonly brand: string
  readonly menu: string
  readonly top: ReactNode
  readonly path: string
  readonly label: string
  readonly items: ReadonlyArray<readonly [to: string, name: string]>
  readonly active: (to: string) => boolean
  readonly Link: (
    props: { readonly to: string; readonly children: ReactNode; readonly "aria-current"?: "page" }
  ) => ReactNode
  readonly children: ReactNode
}) {
  const { Link } = props
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  // a page opened another way (back, a link in the page) closes the menu too
  useEffect(() => setOpen(false), [props.path])
  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return
      setOpen(false)
      button.current?.focus()
    }
    document.addEventListener("keydown", onKey)
    return () => document.removeEventListener("keydown", onKey)
  }, [open])
  return (
    <div className={open ? "shell menu-open" : "shell"}>
      <header className="top">
        <span className="brand">{props.brand}</span>
        {props.top}
        <button
          ref={button}
          type="button"
          className="menu"
          aria-expanded={open}
          aria-controls={NAV_ID}
          onClick={() => setOpen(!open)}
        >
          <span aria-hidden="true" className="menu-icon" />
          {props.menu}
        </button>
      </header>
      <nav
        id={NAV_ID}
        aria-label={props.label}
        className="side"
        onClick={(e) => {
          if ((e.target as Element).closest("a") !== null) setOpen(false)
        }}
      >
        <ul>
          {props.items.map(([to, name]) => (
            <li key={to}>
              <Link to={to} {...(props.active(to) ? { "aria-current": "page" as const } : {})}>{name}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <main>{props.children}</main>
    </div>
  )
}
