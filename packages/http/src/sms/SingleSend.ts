/**
 * The single send (`POST /v1/sms/messages` and its alias `/v1/sms/quick-message`), written once.
 * Both ways a request reaches it call `make`'s answer: the router's handlers of the two endpoints
 * (sms/Http.ts, raw handlers behind the API key middleware) and the listener in front of the router
 * (sms/FastSend.ts, which skips the platform's request wrapper and middleware chain). What the
 * endpoint is comes from its HttpApi declaration (Api.ts): the paths, the scope of its security
 * middleware (shared/Security.ts `scopeOfMiddleware`), the payload, header and answer schemas.
 * Failures are not answered here: both callers hand them to the envelope's `fromCause`.
 *
 *   paths, scope         — from the declaration of the two endpoints
 *   make                 — (key, request headers, body) → the accepted answer, or the failure
 *   toResponse           — the accepted answer as the router's response
 */
import * as HttpApiError from "@effect/platform/HttpApiError"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Send } from "@tuma/core"
import { Effect, Option, ParseResult, Schema } from "effect"
import type { AuthenticatedKey } from "../shared/Security.js"
import { scopeOfMiddleware } from "../shared/Security.js"
import { SingleSendSchemas, SmsGroup } from "./Api.js"
import { callerOf } from "./caller.js"
import { sendAnswer } from "./sendAnswer.js"

const endpoints = [SmsGroup.endpoints.sendMessage, SmsGroup.endpoints.sendQuickMessage]

/** The paths of the single send's endpoints. */
export const paths: ReadonlySet<string> = new Set(endpoints.map((endpoint) => endpoint.path))

/** The scope the single send's endpoints require (of their security middleware). */
export const scope = Option.getOrThrowWith(
  Option.fromNullable(
    [...endpoints[0].middlewares].map((tag) => scopeOfMiddleware.get(tag.key)).find((s) => s !== undefined)
  ),
  () => new Error("the single send's endpoints declare no API key middleware")
)

const decodeHeaders = Schema.decodeUnknown(SingleSendSchemas.headers)
const decodePayload = Schema.decodeUnknown(SingleSendSchemas.payload)
const encodeAnswer = Schema.encode(SingleSendSchemas.success)

/** An accepted send's answer: status 202 with this JSON body. */
export interface Accepted {
  readonly acceptedJson: string
}

/** The accepted answer as a response of the router. */
export const toResponse = (accepted: Accepted) =>
  HttpServerResponse.text(accepted.acceptedJson, { status: 202, contentType: "application/json" })

/**
 * The single send over `Send`: for an authenticated key, the request's headers and its body (as the
 * caller reads and parses it), the headers and the payload decoded with the endpoint's schemas (in
 * that order, as HttpApi does for a raw handler), the send run and answered as every send is (`sendAnswer`), the answer
 * encoded with the endpoint's success schema. Decode failures are `HttpApiDecodeError`s.
 */
export const make = Effect.map(Send, (send) =>
<E>(
  key: AuthenticatedKey,
  requestHeaders: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  body: Effect.Effect<unknown, E>
) =>
  Effect.gen(function*() {
    const headers = yield* decodeHeaders(requestHeaders)
    const payload = yield* Effect.flatMap(body, decodePayload)
    const answer = yield* sendAnswer(send.single(callerOf(key, headers["idempotency-key"]), payload))
    const accepted: Accepted = { acceptedJson: JSON.stringify(yield* encodeAnswer(answer)) }
    return accepted
  }).pipe(Effect.catchIf(ParseResult.isParseError, HttpApiError.HttpApiDecodeError.refailParseError)))
