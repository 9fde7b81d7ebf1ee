/**
 * The console's calls to `/console/api/…` (declared in packages/http/src/console/Api.ts) over `fetch`: JSON
 * in, the envelope's `data` out; the session's CSRF token rides as `X-CSRF-Token` on every change,
 * before sign-in the pre-session token of `GET /console/api/session/csrf`. A 401 on a signed-in
 * call returns to the sign-in page.
 */

import { ApiError, detailsOf } from "../shared/errors.js"

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

/** A JSON object (not an array). */
const isRecord = (u: unknown): u is { readonly [key: string]: unknown } =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** The envelope's `errors`: messages by field. */
const fieldErrors = (errors: unknown): Readonly<Record<string, ReadonlyArray<string>>> | undefined => {
  if (!isRecord(errors)) return undefined
  const out: Record<string, ReadonlyArray<string>> = {}
  for (const [field, messages] of Object.entries(errors)) {
    if (Array.isArray(messages)) out[field] = messages.filter((m): m is string => typeof m === "string")
  }
  return out
}

/** One call; answers `data` (typed by the caller: the console API's answers are not schemas). */
export const api = async <A = unknown>(method: string, path: string, body?: unknown): Promise<A> => {
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
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = { message: text }
  }
  const envelope: { readonly [key: string]: unknown } = isRecord(json) ? json : {}
  if (!r.ok || envelope.success !== true) {
    if (r.status === 401 && envelope.error_code === "SESSION_REQUIRED") { for (const f of signedOut) f() }
    throw new ApiError(
      typeof envelope.message === "string" ? envelope.message : `HTTP ${r.status}`,
      r.status,
      typeof envelope.error_code === "string" ? envelope.error_code : undefined,
      fieldErrors(envelope.errors),
      detailsOf(envelope.details)
    )
  }
  return envelope.data as A
}
