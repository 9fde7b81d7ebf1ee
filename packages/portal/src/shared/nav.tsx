/** The main navigation and the page beside it, as the portal's and the console's shells show them. */
import type { ReactNode } from "react"

/** The "Main" navigation (`active` marks the current page's link) and the page in `main`. */
export function NavAndPage(props: {
  readonly label: string
  readonly items: ReadonlyArray<readonly [to: string, name: string]>
  readonly active: (to: string) => boolean
  readonly Link: (
    props: { readonly to: string; readonly children: ReactNode; readonly "aria-current"?: "page" }
  ) => ReactNode
  readonly children: ReactNode
}) {
  const { Link } = props
  return (
    <>
      <nav aria-label={props.label} className="side">
        <ul>
          {props.items.map(([to, name]) => (
            <li key={to}>
              <Link to={to} {...(props.active(to) ? { "aria-current": "page" as const } : {})}>{name}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <main>{props.children}</main>
    </>
  )
}
