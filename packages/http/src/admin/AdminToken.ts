/**
 * The operator token of `/admin/v1` (bearer `TUMA_ADMIN_TOKEN`, compared in constant time; every
 * request refused when no token is configured). One check used by the `RequireAdmin` middleware
 * of the admin endpoints and, as `unroutedAdminProblem` (which the server hands to the envelope), for
 * paths under `/admin/v1` that match no endpoint, so an unknown admin path answers 401 before
 * 404/405 and does not reveal which paths exist.
 */
import type { Redacted } from "effect"
import { Redacted as R } from "effect"
import { timingSafeEqual } from "node:crypto"

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** True for `/admin/v1` and every path under it. */
export const isAdminPath = (path: string): boolean => path === "/admin/v1" || path.startsWith("/admin/v1/")

/** Null when `authorization` carries the operator token, otherwise the 401 message. */
export const adminTokenProblem = (
  token: Redacted.Redacted<string> | undefined,
  authorization: string | undefined
): string | null => {
  if (token === undefined) return "The admin API is disabled: start the server with TUMA_ADMIN_TOKEN set."
  const match = /^bearer\s+(.+)$/i.exec((authorization ?? "").trim())
  if (match === null || !sameSecret(match[1].trim(), R.value(token))) return "Invalid or missing admin token."
  return null
}

/**
 * The envelope's guard of paths no endpoint matches (`UnroutedGuard` of shared/Middleware.ts): for a
 * path under `/admin/v1`, the 401 message when the request does not carry the operator token.
 */
export const unroutedAdminProblem = (
  options: { readonly adminToken: Redacted.Redacted<string> | undefined },
  path: string,
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
): string | null => {
  if (!isAdminPath(path)) return null
  const authorization = headers["authorization"]
  return adminTokenProblem(options.adminToken, typeof authorization === "string" ? authorization : undefined)
}
