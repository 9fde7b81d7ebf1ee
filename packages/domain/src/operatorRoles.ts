/**
 * Operator roles of the console (issue 15) and what each may do. One table, read by the server
 * (which refuses with 403 whatever the role lacks) and by the console app (which hides the
 * controls): `admin` everything (only admins read the demo mail outbox: its mails hold invitation
 * and password-reset links); `reviewer` sender IDs and their documents, opt-outs and spam
 * rules; `support` read-only plus webhook redelivery.
 */

/** The roles an operator user can have. */
export const OPERATOR_ROLES = ["admin", "reviewer", "support"] as const

/** An operator user's role. */
export type OperatorRole = typeof OPERATOR_ROLES[number]

/** What an operator can be allowed to do in the console. */
export type OperatorPermission =
  | "read"
  | "operators.manage"
  | "accounts.manage"
  | "credit.manage"
  | "sender_ids.review"
  | "markets.manage"
  | "providers.manage"
  | "spam_rules.manage"
  | "opt_outs.manage"
  | "webhooks.redeliver"
  | "outbox.read"

const PERMISSIONS: Record<OperatorRole, ReadonlySet<OperatorPermission>> = {
  admin: new Set<OperatorPermission>([
    "read",
    "operators.manage",
    "accounts.manage",
    "credit.manage",
    "sender_ids.review",
    "markets.manage",
    "providers.manage",
    "spam_rules.manage",
    "opt_outs.manage",
    "webhooks.redeliver",
    "outbox.read"
  ]),
  reviewer: new Set<OperatorPermission>(["read", "sender_ids.review", "spam_rules.manage", "opt_outs.manage"]),
  support: new Set<OperatorPermission>(["read", "webhooks.redeliver"])
}

/** True when `role` may do `permission`. */
export const operatorMay = (role: OperatorRole, permission: OperatorPermission): boolean =>
  PERMISSIONS[role].has(permission)

/** True for a known role name. */
export const isOperatorRole = (s: string): s is OperatorRole => OPERATOR_ROLES.some((role) => role === s)

/** Roles that must sign in with a second factor (TOTP) and enrol on their first sign-in. */
export const totpRequired = (role: OperatorRole): boolean => role === "admin"
