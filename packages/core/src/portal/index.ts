/**
 * The customer portal's access (users, sessions, lockout, invitations, resets), its settings and
 * passwords.
 *
 * @module @tuma/core/portal
 */
export * from "./Passwords.js"
export * from "./PortalAccess.js"
export * from "./PortalConfig.js"
