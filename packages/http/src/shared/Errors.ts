/**
 * Domain failures (Schema.TaggedErrors of @tuma/domain carrying `error_code`) to envelope failures
 * (spec §7, decisions §4–6): the status of each code, `error_code`, `acceptance_state` on sends,
 * the spec's lower-snake `error` field where the spec names one, field errors and balance figures.
 */
import { AcceptanceInDoubt } from "@tuma/core"
import { validationFailed } from "@tuma/domain/validation"
import { Cause, Effect, Schema } from "effect"
import { Conflict, NotFound, ServiceUnavailable, TooManyRequests, Unprocessable } from "./Envelope.js"

/** What every domain failure carries (the TaggedErrors of @tuma/domain and core). */
export interface DomainFailure {
  readonly _tag: string
  readonly error_code: string
  readonly message: string
  readonly errors?: Readonly<Record<string, ReadonlyArray<string>>>
  readonly units_required?: number
  readonly units_available?: number
  readonly shortfall?: ReadonlyArray<{ country: string; units_required: number; units_available: number }>
  readonly retry_after_seconds?: number
}

const exact = <A, I>(s: Schema.Schema<A, I>) => Schema.optionalWith(s, { exact: true })

/** Whether `u` carries what a domain failure carries (checked by Schema, not asserted). */
export const isDomainFailure: (u: unknown) => u is DomainFailure = Schema.is(Schema.Struct({
  _tag: Schema.String,
  error_code: Schema.String,
  message: Schema.String,
  errors: exact(Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })),
  units_required: exact(Schema.Number),
  units_available: exact(Schema.Number),
  shortfall: exact(Schema.Array(Schema.Struct({
    country: Schema.String,
    units_required: Schema.Number,
    units_available: Schema.Number
  }))),
  retry_after_seconds: exact(Schema.Number)
}))

/** The spec's lower-snake `error` values (§4.9, §7 structured cases). */
const specError: Record<string, string> = {
  IDEMPOTENCY_KEY_REUSED: "idempotency_key_reused",
  ROUTE_NOT_VERIFIED: "route_not_verified",
  COUNTRY_NOT_AVAILABLE: "country_not_available",
  route_not_verified: "route_not_verified",
  country_not_available: "country_not_available",
  sender_id_not_eligible: "sender_id_not_eligible",
  sender_id_already_requested: "sender_id_already_requested"
}

export type SendFailure = Unprocessable | Conflict | TooManyRequests | ServiceUnavailable

/** A domain failure as the envelope answers it. `send` adds `acceptance_state` (decisions §5). */
export const toApiFailure = (e: DomainFailure, options: { readonly send?: boolean } = {}) => {
  // decisions §29: a 422 with field errors says the first of them in `message`, whoever built it
  const fieldErrors = e.errors !== undefined && Object.values(e.errors).some((list) => list.length > 0)
  const input = {
    message: fieldErrors ? validationFailed(e.errors).message : e.message,
    error_code: e.error_code,
    ...(options.send ? { acceptance_state: "DEFINITELY_NOT_ACCEPTED" as const } : {}),
    ...(specError[e.error_code] !== undefined ? { error: specError[e.error_code] } : {}),
    ...(e.errors !== undefined ? { errors: e.errors } : {}),
    ...(e.units_required !== undefined ? { units_required: e.units_required } : {}),
    ...(e.units_available !== undefined ? { units_available: e.units_available } : {}),
    ...(e.shortfall !== undefined ? { shortfall: e.shortfall } : {})
  }
  switch (e.error_code) {
    case "IDEMPOTENCY_KEY_REUSED":
    case "sender_id_already_requested":
    case "CONFLICT":
    case "ILLEGAL_TRANSITION":
      return Conflict.of(input)
    case "NOT_FOUND":
    case "WEBHOOK_ENDPOINT_NOT_FOUND":
    case "WEBHOOK_DELIVERY_NOT_FOUND":
      return NotFound.of(input)
    case "DUPLICATE_CONTENT_RATE_LIMITED":
    case "RATE_LIMITED": {
      const retry = String(Math.max(1, Math.ceil(e.retry_after_seconds ?? 1)))
      return TooManyRequests.of(input, { "retry-after": retry })
    }
    default:
      return Unprocessable.of(input)
  }
}

/** Seconds a client should wait before retrying a send refused because the store is unavailable. */
export const STORE_UNAVAILABLE_RETRY_AFTER = 2

/** 503 for a send that certainly was not stored (the store failed before the acceptance transaction). */
export const storeUnavailable = () =>
  ServiceUnavailable.of(
    {
      message: "The service is temporarily unavailable; nothing was stored or charged. Retry shortly.",
      error_code: "INTERNAL",
      acceptance_state: "DEFINITELY_NOT_ACCEPTED"
    },
    { "retry-after": String(STORE_UNAVAILABLE_RETRY_AFTER) }
  )

/**
 * A live send that dies (lost connection, failed COMMIT, …): if the acceptance transaction may have
 * committed (`AcceptanceInDoubt`), 503 with `acceptance_state: UNKNOWN`; the client reconciles by
 * retrying with the same Idempotency-Key (decisions §5). Any other defect (look-ups, the snapshot,
 * a transaction the server refused) stored nothing: 503 `DEFINITELY_NOT_ACCEPTED` with
 * `Retry-After`. The cause is logged.
 */
export const unknownOutcome = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchAllDefect(effect, (defect) =>
    defect instanceof AcceptanceInDoubt
      ? Effect.zipRight(
        Effect.logError("send failed with an unknown outcome", Cause.die(defect.cause)),
        Effect.fail(ServiceUnavailable.of({
          message: "The outcome of this send is unknown. Retry with the same Idempotency-Key to find out " +
            "whether it was accepted; without a key, check the message list before sending again.",
          error_code: "INTERNAL",
          acceptance_state: "UNKNOWN"
        }))
      )
      : Effect.zipRight(
        Effect.logError("send failed before acceptance; nothing stored", Cause.die(defect)),
        Effect.fail(storeUnavailable())
      ))
