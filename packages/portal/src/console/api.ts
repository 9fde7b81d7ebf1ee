/**
 * The console's calls to `/console/api/…` (packages/http/src/console/Routes.ts) over `fetch`: JSON
 * in, the envelope's `data` out; the session's CSRF token rides as `X-CSRF-Token` on every change,
 * before sign-in the pre-session token of `GET /console/api/session/csrf`. A 401 on a signed-in
 * call returns to the sign-in page.
 */

import { ApiError } from "../shared/errors.js"

export { ApiError } from "../shared/errors.js"

let csrf: string | null = null
const signedOut = new Set<() => void>()

/** The session's CSRF token (null signed out). */
export const setCsrfToken = (token: string | null) => void (csrf = token)
/** Called when a call answers 401 SESSION_REQUIRED. */
export const onSignedOut = (f: () => void) => {
  signedOut.add(f)
  return () => void signedOut.delete(f)
}

const preSessionToken = async () => {
  const r = await fetch("/console/api/session/csrf", { credentials: "same-origin" })
  return ((await r.json()) as { data: { csrf_token: string } }).data.csrf_token
}

/** One call; answers `data`. */
export const api = async <A = any>(method: string, path: string, body?: unknown): Promise<A> => {
  const headers: Record<string, string> = {}
  if (method !== "GET") headers["x-csrf-token"] = csrf ?? await preSessionToken()
  if (body !== undefined) headers["content-type"] = "application/json"
  const r = await fetch(`/console/api${path}`, {
    method,
    headers,
    credentials: "same-origin",
    ...(body !== undefined ? { body: JSON.stringify(body) } : {})
  })
  const text = await r.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = { message: text }
  }
  if (!r.ok || json.success !== true) {
    if (r.status === 401 && json.error_code === "SESSION_REQUIRED") { for (const f of signedOut) f() }
    throw new ApiError(json.message ?? `HTTP ${r.status}`, r.status, json.error_code, json.errors)
  }
  return json.data as A
}
