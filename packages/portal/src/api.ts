/**
 * The typed client of the portal API: `HttpApiClient` built from the server's contract
 * (`@tuma/http/portal/Api`), over the browser's fetch (same origin, so the HttpOnly session cookie
 * travels by itself). Every state change carries the session's CSRF token as `X-CSRF-Token`.
 *
 * `call(f)` runs one request and answers a Promise for React; failures become `ApiError` with the
 * envelope's message, status and field errors. A 401 anywhere means the session ended: listeners
 * of `onSignedOut` send the user back to the sign-in page.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { describeFieldErrors, describeMessage } from "@tuma/domain/messages"
import { toFieldErrors, validationFailed } from "@tuma/domain/validation"
import { CSRF_HEADER, PortalApi } from "@tuma/http/portal/Api"
import { Cause, Effect, Exit, Option, ParseResult } from "effect"
import { ApiError, detailsOf } from "./shared/errors.js"

let csrfToken: string | null = null
export const setCsrfToken = (token: string | null) => {
  csrfToken = token
}

const makeClient = HttpApiClient.make(PortalApi, {
  baseUrl: window.location.origin,
  transformClient: HttpClient.mapRequest((request) =>
    csrfToken === null || request.method === "GET"
      ? request
      : HttpClientRequest.setHeader(request, CSRF_HEADER, csrfToken)
  )
})

export type Client = Effect.Effect.Success<typeof makeClient>

let client: Promise<Client> | undefined
const getClient = () => (client ??= Effect.runPromise(Effect.provide(makeClient, FetchHttpClient.layer)))

export { ApiError } from "./shared/errors.js"

const statusOf: Record<string, number> = {
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Unprocessable: 422,
  TooManyRequests: 429,
  ServiceUnavailable: 503
}

const signedOutListeners = new Set<() => void>()
export const onSignedOut = (f: () => void) => {
  signedOutListeners.add(f)
  return () => void signedOutListeners.delete(f)
}

const toApiError = (error: unknown): ApiError => {
  if (ParseResult.isParseError(error)) {
    // the request did not pass the contract's schema before it left (the server would answer the same 422)
    const failed = validationFailed(toFieldErrors(error))
    return new ApiError(failed.message, 422, "VALIDATION_FAILED", failed.errors, {
      message: describeMessage(failed.message) ?? null,
      errors: describeFieldErrors(failed.errors)
    })
  }
  if (error !== null && typeof error === "object") {
    const e = error as Record<string, unknown>
    const name = (error as { constructor?: { name?: string } }).constructor?.name ?? ""
    if (typeof e.message === "string" && e.success === false) {
      const status = typeof e._tag === "string" ? statusOf[e._tag] : statusOf[name]
      return new ApiError(
        e.message,
        status,
        typeof e.error_code === "string" ? e.error_code : undefined,
        e.errors as Record<string, ReadonlyArray<string>> | undefined,
        detailsOf(e.details)
      )
    }
    if (e._tag === "ResponseError") {
      const response = e.response as { status?: number } | undefined
      return new ApiError(
        `The server answered ${response?.status ?? "an error"}.`,
        response?.status,
        undefined,
        undefined
      )
    }
    if (e._tag === "RequestError") {
      return new ApiError("The server cannot be reached.", undefined, undefined, undefined, {
        message: { code: "server.unreachable", params: {} }
      })
    }
    if (typeof e.message === "string") return new ApiError(e.message, undefined, undefined, undefined)
  }
  return new ApiError(String(error), undefined, undefined, undefined)
}

/** Runs one request of the typed client. */
export const call = async <A, E>(f: (client: Client) => Effect.Effect<A, E>): Promise<A> => {
  const c = await getClient()
  const exit = await Effect.runPromiseExit(f(c))
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOption(exit.cause)
  const error = toApiError(Option.isSome(failure) ? failure.value : Cause.squash(exit.cause))
  if (error.status === 401) { for (const f of signedOutListeners) f() }
  throw error
}

/** `Idempotency-Key` for one user action (a retry of the same action reuses it). */
export const idempotencyKey = () => crypto.randomUUID()
