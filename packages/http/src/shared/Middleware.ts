/**
 * The envelope middleware: wraps every request of the API (including `/openapi.json`, `/docs`
 * and unknown routes) so that
 *
 * - a request id is made (`request_uid` / `X-Request-Id`, decisions §3) and held in a FiberRef;
 * - bodies of the wrong type answer 415 and bodies over the limit 413 before any parsing;
 * - everything that goes wrong answers the envelope: envelope failures with their status (and
 *   headers such as Retry-After), the builder's decode errors as 422 with `errors` by field path,
 *   unparseable JSON as 400, unknown routes as 404, a known path with the wrong method as 405
 *   (with Allow), and anything else as 500 (the cause is logged with the request id).
 *
 * The success path costs one id, one FiberRef scope and one header.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiError from "@effect/platform/HttpApiError"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Multipart from "@effect/platform/Multipart"
import { currentLogUids } from "@tuma/core/observability/LogContext"
import { TraceSettings } from "@tuma/core/observability/Tracing"
import { describeFieldErrors, describeMessage, fieldErrorsFromIssues, validationFailed } from "@tuma/domain"
import { Cause, Context, Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { observeRequest, routeResolver } from "../observability/Observability.js"
import type { ServerOptions } from "../runtime/Config.js"
import { ServerConfig } from "../runtime/Config.js"
import type { ApiFailure } from "./Envelope.js"
import { currentRequestId, failureBody, FailureHeaders, failureStatus, isApiFailure } from "./Envelope.js"
import { storeUnavailable } from "./Errors.js"
import { guardJsonDepth, JsonTooDeep, MalformedBody } from "./JsonDepth.js"
import type { RouteEntry } from "./Routes.js"
import { pathsWhere, routeTable } from "./Routes.js"

const json = (status: number, body: unknown, headers?: Record<string, string>) =>
  HttpServerResponse.unsafeJson(body, headers === undefined ? { status } : { status, headers })

/** Paths whose failures carry `details` (the portal's and the console's own APIs; the REST API's body is unchanged). */
const DETAILED = /^\/(?:portal|console)\/api\//

/**
 * `details`: the failure's message and field errors as catalogue codes and parameters (domain `messages.ts`),
 * so the portal and the console word them in the reader's language (null where the text is not the catalogue's).
 */
export const withDetails = (path: string, body: Record<string, unknown>): Record<string, unknown> => {
  if (!DETAILED.test(path) || typeof body.message !== "string") return body
  const errors = body.errors
  const fieldErrors = typeof errors === "object" && errors !== null && !Array.isArray(errors)
    ? Object.fromEntries(
      Object.entries(errors).map(([k, v]) => [k, Array.isArray(v) ? v.filter((m) => typeof m === "string") : []])
    )
    : undefined
  return {
    ...body,
    details: {
      message: describeMessage(body.message) ?? null,
      ...(fieldErrors === undefined ? {} : { errors: describeFieldErrors(fieldErrors) })
    }
  }
}

const envelope = (requestId: string, status: number, message: string, extra?: Record<string, unknown>) =>
  json(status, { success: false, request_uid: requestId, message, ...extra })

/** 400 `MALFORMED_JSON` for a body that is not JSON, or is nested too deep (`JsonTooDeep`). */
const malformedJsonAnswer = (requestId: string, send: boolean, cause: unknown) =>
  envelope(
    requestId,
    400,
    cause instanceof JsonTooDeep
      ? `${cause.message} Nothing was read or sent.`
      : "The request body is not valid JSON; nothing was read or sent.",
    {
      error_code: "MALFORMED_JSON",
      ...(send ? { acceptance_state: "DEFINITELY_NOT_ACCEPTED" } : {})
    }
  )

/** What the envelope reads of a request to answer a failure. */
export interface RequestLine {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
}

const isTooLarge = (u: unknown, depth = 0): boolean => {
  if (u instanceof Error && u.message === "maxBytes exceeded") return true
  if (u instanceof Multipart.MultipartError) {
    if (
      u.reason === "BodyTooLarge" || u.reason === "FileTooLarge" || u.reason === "FieldTooLarge" ||
      u.reason === "TooManyParts"
    ) return true
    // a limit reached while a file part is written to disk arrives wrapped (InternalError → … → ReachedLimit)
    return depth < 4 && isTooLarge(u.cause, depth + 1)
  }
  return typeof u === "object" && u !== null && "_tag" in u && u._tag === "ReachedLimit"
}

/** A boundary parameter of 1–70 characters (RFC 2046), quoted or not. */
const hasBoundary = (contentType: string): boolean => {
  const m = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/.exec(contentType)
  if (m === null) return false
  const boundary = m[1] ?? m[2]
  return boundary.length >= 1 && boundary.length <= 70
}

/**
 * Requests being served right now, across the process (graceful shutdown waits for zero), and how many
 * have started since it began (idle compaction looks for none in an interval, `IdleCompaction.ts`).
 */
export const InFlight = { count: 0, started: 0 }

/**
 * A feature's check of a request to a path that no endpoint matches, before the envelope answers
 * 404/405: the message of a 401, or null to let 404/405 answer (e.g. the operator token under
 * `/admin/v1`, so unknown operator paths reveal nothing to the unauthenticated). The envelope knows
 * no feature's paths; the server hands it the features' guards.
 */
export type UnroutedGuard = (
  options: ServerOptions,
  path: string,
  headers: RequestLine["headers"]
) => string | null

/**
 * The envelope's answer to whatever a request's handling failed with (`fromCause`): shared by the
 * middleware and the paths served beside the router (`FastSend.ts`).
 */
export const makeFailureAnswers = (
  options: ServerOptions,
  routes: ReadonlyArray<RouteEntry>,
  unroutedGuards: ReadonlyArray<UnroutedGuard> = []
) => {
  const sendPaths = pathsWhere(routes, (route) => route.send && route.method === "POST")
  /** Whether a request is a POST to a send endpoint (its failures carry `acceptance_state`). */
  const isSend = (request: RequestLine) => request.method === "POST" && sendPaths.has(request.url.split("?", 1)[0])
  /** 400 `MALFORMED_JSON` for the request's body (`cause`: a `JsonTooDeep`, or what the parse threw). */
  const malformedJson = (requestId: string, request: RequestLine, cause: unknown) =>
    malformedJsonAnswer(requestId, isSend(request), cause)
  const notFound = (requestId: string, request: RequestLine) => {
    const path = request.url.split("?")[0]
    // the features' guards first (e.g. the operator token), so unknown paths reveal nothing
    for (const guard of unroutedGuards) {
      const problem = guard(options, path, request.headers)
      if (problem !== null) return envelope(requestId, 401, problem)
    }
    const allowed = new Set<string>()
    for (const route of routes) if (route.regex.test(path)) allowed.add(route.method)
    if (allowed.size > 0) {
      const allow = [...allowed].join(", ")
      return json(405, {
        success: false,
        request_uid: requestId,
        message: `The ${request.method} method is not supported for this route. Supported methods: ${allow}.`
      }, { allow })
    }
    return envelope(requestId, 404, `The route ${path} could not be found.`)
  }

  const fromCause = (
    requestId: string,
    request: RequestLine,
    cause: Cause.Cause<unknown>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
    const path = request.url.split("?", 1)[0]
    const answer = (requestId: string, status: number, message: string, extra?: Record<string, unknown>) =>
      json(status, withDetails(path, { success: false, request_uid: requestId, message, ...extra }))
    const decodeErrorResponse = (requestId: string, send: boolean, error: HttpApiError.HttpApiDecodeError) => {
      const failure = validationFailed(fieldErrorsFromIssues(error.issues))
      return answer(requestId, 422, failure.message, {
        error_code: "VALIDATION_FAILED",
        ...(send ? { acceptance_state: "DEFINITELY_NOT_ACCEPTED" } : {}),
        errors: failure.errors
      })
    }
    const failureJson = (status: number, f: ApiFailure) =>
      json(status, withDetails(path, failureBody(f, requestId)), f[FailureHeaders])
    const failure = Cause.failureOption(cause)
    const error = Option.isSome(failure) ? failure.value : Option.getOrUndefined(Cause.dieOption(cause))
    if (error !== undefined) {
      const status = failureStatus(error)
      if (status !== undefined && isApiFailure(error)) {
        return Effect.succeed(failureJson(status, error))
      }
      if (error instanceof HttpApiError.HttpApiDecodeError) {
        return Effect.succeed(decodeErrorResponse(requestId, isSend(request), error))
      }
      if (HttpServerError.isServerError(error)) {
        if (error._tag === "RouteNotFound") return Effect.succeed(notFound(requestId, request))
        if (error._tag === "RequestError" && error.reason === "Decode") {
          if (isTooLarge(error.cause)) {
            return Effect.succeed(answer(requestId, 413, "The request body is too large."))
          }
          return Effect.succeed(malformedJson(requestId, request, error.cause))
        }
      }
      if (error instanceof MalformedBody) return Effect.succeed(malformedJson(requestId, request, error.cause))
      if (error instanceof Multipart.MultipartError) {
        return Effect.succeed(
          isTooLarge(error)
            ? answer(requestId, 413, "The request body is too large.")
            : answer(requestId, 400, "The multipart body cannot be parsed.")
        )
      }
    }
    if (Cause.isInterruptedOnly(cause)) {
      // client went away; nobody reads this answer
      return Effect.succeed(answer(requestId, 503, "The request was interrupted."))
    }
    const logged = Effect.logError("unhandled failure", cause).pipe(
      Effect.annotateLogs({ request_uid: requestId, method: request.method, url: request.url })
    )
    if (isSend(request)) {
      // a send that failed outside the use case (authentication, look-ups) was certainly not stored
      const unavailable: ApiFailure = storeUnavailable()
      return Effect.as(logged, failureJson(503, unavailable))
    }
    return Effect.as(
      logged,
      answer(requestId, 500, "Internal server error. Quote request_uid to support.", {
        error_code: "INTERNAL"
      })
    )
  }

  return { fromCause, malformedJson }
}

/** Make the envelope middleware for the given route table. */
export const makeEnvelope = (
  options: ServerOptions,
  routes: ReadonlyArray<RouteEntry>,
  tracing = false,
  unroutedGuards: ReadonlyArray<UnroutedGuard> = []
) => {
  const accessLog = options.accessLog
  const routeOf = routeResolver(routes)
  const maxBody = Option.some(FileSystem.Size(options.maxBodyBytes))
  const maxUpload = Option.some(FileSystem.Size(options.maxUploadBytes))
  const { fromCause } = makeFailureAnswers(options, routes, unroutedGuards)
  const multipartPaths = pathsWhere(routes, (route) => route.upload && route.method === "POST")

  return (app: HttpApp.Default): HttpApp.Default =>
    Effect.withFiberRuntime((fiber) => {
      const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
      const requestId = randomUUID()
      const started = performance.now()
      const path = request.url.split("?", 1)[0]
      const route = routeOf(path)
      let limit = maxBody
      let limitBytes = options.maxBodyBytes
      const method = request.method
      if (method === "POST" || method === "PUT" || method === "PATCH") {
        const headers = request.headers
        const contentType = headers["content-type"]
        const upload = multipartPaths.has(path)
        if (upload) {
          limit = maxUpload
          limitBytes = options.maxUploadBytes
        }
        if (contentType !== undefined) {
          const ct = contentType.toLowerCase()
          if (!(ct.startsWith("application/json") || (upload && ct.startsWith("multipart/form-data")))) {
            observeRequest(method, route, 415, started)
            return Effect.succeed(HttpServerResponse.setHeader(
              envelope(
                requestId,
                415,
                upload
                  ? "Send the body as application/json or multipart/form-data."
                  : "Send the body as JSON with the header Content-Type: application/json."
              ),
              "x-request-id",
              requestId
            ))
          }
          if (ct.startsWith("multipart/form-data") && !hasBoundary(ct)) {
            return Effect.succeed(HttpServerResponse.setHeader(
              envelope(
                requestId,
                400,
                "The multipart/form-data body needs a boundary: Content-Type: multipart/form-data; boundary=…"
              ),
              "x-request-id",
              requestId
            ))
          }
        }
        const length = headers["content-length"]
        if (length !== undefined && Number(length) > limitBytes) {
          observeRequest(method, route, 413, started)
          return Effect.succeed(HttpServerResponse.setHeader(
            envelope(requestId, 413, `The request body is too large (limit ${limitBytes} bytes).`),
            "x-request-id",
            requestId
          ))
        }
      }
      InFlight.count++
      InFlight.started++
      return app.pipe(
        Effect.catchAllCause((cause) => fromCause(requestId, request, cause)),
        Effect.map((response) => {
          observeRequest(method, route, response.status, started)
          return HttpServerResponse.setHeader(response, "x-request-id", requestId)
        }),
        accessLog
          ? Effect.tap((response) =>
            // the route template and path only: a query string may carry what must not be logged
            Effect.logInfo(`${method} ${path} ${response.status}`).pipe(Effect.annotateLogs({
              route,
              status: response.status,
              duration_ms: Math.round((performance.now() - started) * 10) / 10
            }))
          )
          : (x) => x,
        tracing
          ? Effect.tap((response) =>
            Effect.annotateCurrentSpan({ request_uid: requestId, "http.route": route, "http.status": response.status })
          )
          : (x) => x,
        Effect.provideService(HttpIncomingMessage.MaxBodySize, limit),
        // JSON bodies are parsed only after a depth scan (400 beyond maxJsonDepth levels)
        Effect.provideService(HttpServerRequest.HttpServerRequest, guardJsonDepth(request)),
        Effect.locally(currentRequestId, requestId),
        Effect.locally(currentLogUids, {}),
        Effect.ensuring(Effect.sync(() => InFlight.count--))
      )
    })
}

/**
 * The envelope as an `HttpApiBuilder.middleware` layer (innermost, sees raw errors), with the
 * features' guards of unrouted paths.
 */
export const layerEnvelope = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  extraRoutes: ReadonlyArray<readonly [string, string]>,
  unroutedGuards: ReadonlyArray<UnroutedGuard> = []
) =>
  HttpApiBuilder.middleware(
    Effect.zipWith(
      ServerConfig,
      TraceSettings,
      (options, trace) => makeEnvelope(options, routeTable(api, extraRoutes), trace.linkMessages, unroutedGuards)
    )
  )
