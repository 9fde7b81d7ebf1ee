/**
 * The schema pieces the public, admin and portal contracts share: decode options, the success
 * envelope builders, query-string numbers and booleans, the sender-ID multipart form and the
 * webhook views. Free of `node:` imports (the portal's browser bundle includes it through
 * `PortalApi`).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import * as OpenApi from "@effect/platform/OpenApi"
import { IdempotencyKey } from "@tuma/domain/schemas"
import { Context, Schema } from "effect"
import { Conflict, NotFound, successFields, Unprocessable } from "./Envelope.js"

/** Decode every field error at once (decisions §4) and ignore unknown fields (decisions §25). */
export const all = { parseOptions: { errors: "all", onExcessProperty: "ignore" } } as const

/** An optional field that is absent rather than `undefined`. */
export const opt = <A, I, R>(s: Schema.Schema<A, I, R>) => Schema.optionalWith(s, { exact: true })

/** An ISO 8601 timestamp as the views answer it. */
export const Ts = Schema.String.annotations({ description: "ISO 8601 timestamp" })
/** An ISO 8601 timestamp or null. */
export const NullTs = Schema.NullOr(Ts)

/** A number in the query string. */
export const NumberFromQuery = Schema.NumberFromString

/** `true`/`false`/`1`/`0` in the query string. */
export const BooleanFromQuery = Schema.transform(Schema.Literal("true", "false", "1", "0"), Schema.Boolean, {
  strict: true,
  decode: (s) => s === "true" || s === "1",
  encode: (b) => (b ? "true" : "false")
})

/** The success envelope around one `data`. */
export const ok = <S extends Schema.Schema.Any>(data: S, identifier: string) =>
  Schema.Struct({ ...successFields, data }).annotations({ identifier })

/** The success envelope around a list in `data`. */
export const okList = <S extends Schema.Schema.Any>(item: S, identifier: string) =>
  Schema.Struct({ ...successFields, data: Schema.Array(item) }).annotations({ identifier })

/** The success envelope of an action with nothing to answer: `data: { ok: true }`. */
export const done = (identifier: string) => ok(Schema.Struct({ ok: Schema.Literal(true) }), identifier)

/** A sender-ID request as multipart/form-data: file parts `documents[<requirement_uid>]` and
 * `protection_documents[]` (what a browser's FormData sends). */
export const senderIdMultipart = <P extends Schema.Schema.Any>(purpose: P, identifier: string) =>
  HttpApiSchema.Multipart(
    Schema.Struct({
      sender_id: Schema.String,
      country_uid: Schema.optional(Schema.String),
      sample_message: Schema.String,
      purpose,
      protection_requested: Schema.optional(Schema.Literal("true", "false", "1", "0")),
      "documents[<requirement_uid>]": Schema.optional(
        Schema.String.annotations({ format: "binary", description: "One file part per requirement uid" })
      ),
      "protection_documents[]": Schema.optional(
        Schema.String.annotations({ format: "binary", description: "One or more protection documents" })
      )
    }).annotations({ identifier })
  )

// --- webhook views (the admin API answers `account_uid` too; the portal does not) -----------

/** A webhook endpoint (its secret never). */
export const WebhookEndpoint = Schema.Struct({
  uid: Schema.String,
  account_uid: Schema.String,
  api_key_uid: Schema.String,
  url: Schema.String,
  enabled: Schema.Boolean,
  consecutive_failures: Schema.Number,
  disabled_at: NullTs,
  disabled_reason: Schema.NullOr(Schema.String),
  /** The events it gets (default: `sms.delivered`, `sms.failed`). */
  events: Schema.Array(Schema.String),
  created_at: Ts,
  updated_at: Ts
})

/** An endpoint with its signing secret, answered once at creation and regeneration. */
export const withSecret = <S extends Schema.Schema.Any>(endpoint: S, identifier: string) =>
  Schema.Struct({
    endpoint,
    /** Shown once, at creation and regeneration. */
    secret: Schema.String
  }).annotations({ identifier })

/** One webhook delivery: event, status, attempts, next retry. */
export const WebhookDelivery = Schema.Struct({
  uid: Schema.String,
  endpoint_uid: Schema.String,
  event: Schema.String,
  status: Schema.String,
  message_uid: Schema.String,
  recipient: Schema.String,
  attempts: Schema.Number,
  next_attempt_at: NullTs,
  last_status: Schema.NullOr(Schema.Number),
  last_error: Schema.NullOr(Schema.String),
  completed_at: NullTs
})

/** One attempt of a webhook delivery: when, the answer's status or the error, duration. */
export const WebhookAttempt = Schema.Struct({
  attempt: Schema.Number,
  attempted_at: Ts,
  outcome: Schema.Literal("success", "failure"),
  response_status: Schema.NullOr(Schema.Number),
  latency_ms: Schema.Number,
  error: Schema.NullOr(Schema.String)
})

/** Drops `HttpApiDecodeError` from an API's documented errors: the envelope middleware answers
 * decode failures itself (422/400 envelopes), so the builder's own never reach a client. */
const withoutDecodeError = <Api extends object>(api: Api): Api => Object.assign(api, { errorSchema: Schema.Never })

/** An empty `HttpApi` of the public, admin or portal contract (decode failures left out, as above). */
export const makeApi = <const Id extends string>(id: Id) => withoutDecodeError(HttpApi.make(id))

/** A group of the admin or portal API: titled, its endpoints answering 422, 404 and 409 envelopes. */
export const group = <const Name extends string>(name: Name, title: string) =>
  HttpApiGroup.make(name)
    .addError(Unprocessable)
    .addError(NotFound)
    .addError(Conflict)
    .annotate(OpenApi.Title, title)

/** Puts an endpoint behind `middleware` (with `annotations` for it), with its OpenAPI description when it has one. */
export const behind = <I extends HttpApiMiddleware.HttpApiMiddleware.AnyId, S>(
  middleware: Context.Tag<I, S>,
  annotations: Context.Context<never> = Context.empty()
) =>
<Name extends string, Method extends HttpMethod, Path, UrlParams, Payload, Headers, Success, Error, R, RE>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>,
  description?: string
) => {
  const guarded = endpoint.middleware(middleware).annotateContext(annotations)
  return description === undefined ? guarded : guarded.annotate(OpenApi.Description, description)
}

/** `Idempotency-Key` on every send endpoint (spec §8). */
export const IdempotencyHeaders = Schema.Struct({
  "idempotency-key": Schema.optionalWith(IdempotencyKey, { exact: true })
}).annotations(all)

/** `POST <path>` of a send (API or portal): `payload` is the body, with the `Idempotency-Key` header; the
 * answer is 202 with `answer`. */
export const sendEndpoint = <const Name extends string, P extends Schema.Schema.Any, S extends Schema.Schema.Any>(
  name: Name,
  path: HttpApiEndpoint.PathSegment,
  payload: P,
  answer: S
) =>
  HttpApiEndpoint.post(name, path).setPayload(payload).setHeaders(IdempotencyHeaders).addSuccess(answer, {
    status: 202
  })

/** `POST <path>` that creates a record: `input` is the body; the answer is 201 with `answer`. */
export const create = <const Name extends string, I extends Schema.Schema.Any, S extends Schema.Schema.Any>(
  name: Name,
  path: HttpApiEndpoint.PathSegment,
  input: I,
  answer: S
) => HttpApiEndpoint.post(name, path).setPayload(input).addSuccess(answer, { status: 201 })
