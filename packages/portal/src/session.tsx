/** The signed-in user, account and role, for every page. */
import type { SessionView } from "@tuma/http/portal/Api"
import { createContext, useContext } from "react"
import { DEFAULT_TIME_ZONE } from "./format.js"

export interface SessionState {
  readonly session: SessionView
  readonly setSession: (s: SessionView | null) => void
}

export const SessionContext = createContext<SessionState | null>(null)

export const useSession = () => {
  const s = useContext(SessionContext)
  if (s === null) throw new Error("useSession outside the signed-in shell")
  return s
}

export const useIsOwner = () => useSession().session.user.role === "owner"

export const useZone = () => {
  const s = useContext(SessionContext)
  return s?.session.user.time_zone || DEFAULT_TIME_ZONE
}
