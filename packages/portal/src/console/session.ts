/** The signed-in operator, shared by the console's pages. */
import type { OperatorPermission, OperatorRole } from "@tuma/domain/operatorRoles"
import { operatorMay } from "@tuma/domain/operatorRoles"
import { createContext, useContext } from "react"

/** What `GET /console/api/session` answers. */
export interface ConsoleSession {
  readonly operator: {
    readonly uid: string
    readonly email: string
    readonly name: string
    readonly role: OperatorRole
    readonly totp_enrolled: boolean
  }
  readonly csrf_token: string
  readonly idle_expires_at: string
}

/** The session (set by the App). */
export const SessionContext = createContext<ConsoleSession | null>(null)

/** True when the signed-in operator's role allows `permission` (the server checks it again). */
export const useMay = () => {
  const session = useContext(SessionContext)
  return (permission: OperatorPermission) => session !== null && operatorMay(session.operator.role, permission)
}
