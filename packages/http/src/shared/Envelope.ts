/**
 * The response envelope of every answer (spec §2.1, §7; decisions.md §3–5).
 *
 * - Every response carries `request_uid` in the body and the same value in `X-Request-Id`.
 *   The id is made once per request by the envelope middleware and held in a FiberRef, so
 *   handlers read it with `requestUid` without any service in their context.
 * - Failures are `{ success: false, request_uid, message, ... }`. One class per HTTP status;
 *   each carries the optional fields a failure of that status may have (`error_code`,
 *   `acceptance_state`, `error`, `errors`, balance figures). The envelope middleware serialises
 *   them itself (and fills `request_uid`), so handlers construct them without it.
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { AcceptanceState, FieldErrors, Shortfall } from "@tuma/domain/errors"
import { FailureDetails } from "@tuma/domain/messages"
import { Effect, FiberRef, Schema } from "effect"
import { globalValue } from "effect/GlobalValue"

/** The request id of the request being served ("" outside a request). */
export const currentRequestId: FiberRef.FiberRef<string> = globalValue(
  "@tuma/http/currentRequestId",
  () => FiberRef.unsafeMake("")
)

/** `request_uid` of the current request. */
export const requestUid: Effect.Effect<string> = FiberRef.get(currentRequestId)

/** Extra response headers a failure asks for (Retry-After, X-RateLimit-*, Allow); not part of the body. */
export const FailureHeaders: unique symbol = Symbol.for("@tuma/http/FailureHeaders")

const failureFields = {
  success: Schema.Literal(false).pipe(
    Schema.propertySignature,
    Schema.withConstructorDefault(() => false as const)
  ),
  request_uid: Schema.String.pipe(
    Schema.annotations({ description: "Identifier of the request attempt; also sent as X-Request-Id." }),
    Schema.propertySignature,
    Schema.withConstructorDefault(() => "")
  ),
  message: Schema.String.annotations({ description: "Human-readable text." }),
  error_code: Schema.optional(
    Schema.String.annotations({ description: "Stable UPPER_SNAKE code (decisions.md §5)." })
  ),
  acceptance_state: Schema.optional(AcceptanceState),
  error: Schema.optional(
    Schema.String.annotations({
      description: "Spec §7 code field: idempotency_key_reused, sender_id_already_requested, sender_id_not_eligible, …"
    })
  ),
  errors: Schema.optional(FieldErrors.annotations({ description: "Field path (e.g. recipients.0) to messages." })),
  units_required: Schema.optional(Schema.Number),
  units_available: Schema.optional(Schema.Number),
  shortfall: Schema.optional(Schema.Array(Shortfall)),
  details: Schema.optional(FailureDetails)
}

type FailureInput = {
  readonly message: string
  readonly error_code?: string | undefined
  readonly acceptance_state?: AcceptanceState | undefined
  readonly error?: string | undefined
  readonly errors?: FieldErrors | undefined
  readonly units_required?: number | undefined
  readonly units_available?: number | undefined
  readonly shortfall?: ReadonlyArray<Shortfall> | undefined
  readonly details?: FailureDetails | undefined
}

/** Common shape of the failure classes below. */
export interface ApiFailure extends FailureInput {
  readonly success: false
  readonly request_uid: string
  [FailureHeaders]?: Record<string, string>
}

const ann = <A>(status: number, description: string) => HttpApiSchema.annotations<A>({ status, description })

const make =
  <A extends object>(Cls: new(props: FailureInput) => A) =>
  (input: FailureInput, headers?: Record<string, string>): A => {
    const out = new Cls(input)
    if (headers !== undefined) {
      Object.defineProperty(out, FailureHeaders, { value: headers, enumerable: false })
    }
    return out
  }

/** 400 failure envelope. */
export class BadRequest extends Schema.Class<BadRequest>("BadRequest")(
  failureFields,
  ann(400, "The body claims to be JSON but cannot be parsed")
) {
  static of = make<BadRequest>(BadRequest)
}

/** 401 failure envelope. */
export class Unauthorized extends Schema.Class<Unauthorized>("Unauthorized")(
  failureFields,
  ann(401, "Key missing, malformed, expired, revoked, from a disallowed address, or without the endpoint's scope")
) {
  static of = make<Unauthorized>(Unauthorized)
}

/** 403 failure envelope. */
export class Forbidden extends Schema.Class<Forbidden>("Forbidden")(
  failureFields,
  ann(403, "The key lacks the endpoint's scope (only when auth.missingScopeStatus = 403)")
) {
  static of = make<Forbidden>(Forbidden)
}

/** 404 failure envelope. */
export class NotFound extends Schema.Class<NotFound>("NotFound")(
  failureFields,
  ann(404, "Unknown route, or a resource of another account")
) {
  static of = make<NotFound>(NotFound)
}

/** 405 failure envelope. */
export class MethodNotAllowed extends Schema.Class<MethodNotAllowed>("MethodNotAllowed")(
  failureFields,
  ann(405, "The path exists but not with this method (see the Allow header)")
) {
  static of = make<MethodNotAllowed>(MethodNotAllowed)
}

/** 409 failure envelope. */
export class Conflict extends Schema.Class<Conflict>("Conflict")(
  failureFields,
  ann(409, "idempotency_key_reused or sender_id_already_requested")
) {
  static of = make<Conflict>(Conflict)
}

/** 413 failure envelope. */
export class PayloadTooLarge extends Schema.Class<PayloadTooLarge>("PayloadTooLarge")(
  failureFields,
  ann(413, "The body is over the size limit")
) {
  static of = make<PayloadTooLarge>(PayloadTooLarge)
}

/** 415 failure envelope. */
export class UnsupportedMediaType extends Schema.Class<UnsupportedMediaType>("UnsupportedMediaType")(
  failureFields,
  ann(415, "The body is not application/json (or multipart/form-data where accepted)")
) {
  static of = make<UnsupportedMediaType>(UnsupportedMediaType)
}

/** 422 failure envelope: a refusal or validation failure with its `error_code` and field `errors`. */
export class Unprocessable extends Schema.Class<Unprocessable>("Unprocessable")(
  failureFields,
  ann(
    422,
    "Understood but refused: validation (see errors), credit, sender ID, route, spam policy, opt-out, provider credit"
  )
) {
  static of = make<Unprocessable>(Unprocessable)
}

/** 429 failure envelope. */
export class TooManyRequests extends Schema.Class<TooManyRequests>("TooManyRequests")(
  failureFields,
  ann(429, "Rate limited (Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset)")
) {
  static of = make<TooManyRequests>(TooManyRequests)
}

/** 500 failure envelope. */
export class InternalError extends Schema.Class<InternalError>("InternalError")(
  failureFields,
  ann(500, "Internal error; quote request_uid to support")
) {
  static of = make<InternalError>(InternalError)
}

/** 503 failure envelope. */
export class ServiceUnavailable extends Schema.Class<ServiceUnavailable>("ServiceUnavailable")(
  failureFields,
  ann(
    503,
    "Store unavailable: a send answers DEFINITELY_NOT_ACCEPTED (retry after Retry-After) or, when its COMMIT " +
      "was lost, UNKNOWN (retry with the same Idempotency-Key to reconcile); or not ready"
  )
) {
  static of = make<ServiceUnavailable>(ServiceUnavailable)
}

const statusOf = new Map<unknown, number>([
  [BadRequest, 400],
  [Unauthorized, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [MethodNotAllowed, 405],
  [Conflict, 409],
  [PayloadTooLarge, 413],
  [UnsupportedMediaType, 415],
  [Unprocessable, 422],
  [TooManyRequests, 429],
  [InternalError, 500],
  [ServiceUnavailable, 503]
])

/** The HTTP status of an envelope failure, or undefined when `u` is not one. */
export const failureStatus = (u: unknown): number | undefined =>
  typeof u === "object" && u !== null ? statusOf.get(u.constructor) : undefined

/** Whether `u` is one of the envelope failures above. */
export const isApiFailure = (u: unknown): u is ApiFailure => failureStatus(u) !== undefined

/** The body of an envelope failure as sent: every defined field, `request_uid` filled in. */
export const failureBody = (failure: ApiFailure, requestId: string): Record<string, unknown> => {
  const body: Record<string, unknown> = { success: false, request_uid: requestId, message: failure.message }
  for (const [key, v] of Object.entries(failure)) {
    if (key === "success" || key === "request_uid" || key === "message") continue
    if (v !== undefined) body[key] = v
  }
  return body
}

/** Success envelope fields (spec §2.1). */
export const successFields = {
  success: Schema.Literal(true),
  request_uid: Schema.String.annotations({
    description: "Identifier of the request attempt; also sent as X-Request-Id."
  })
}

/** `mode: "sandbox"` on sandbox-key responses only. */
export const sandboxMode = { mode: Schema.optional(Schema.Literal("sandbox")) }
