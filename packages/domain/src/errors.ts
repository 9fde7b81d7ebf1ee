/**
 * Every domain failure of Tuma as a `Schema.TaggedError` carrying its stable `error_code`
 * (decisions.md §5). HTTP status is attached by the http package, never here.
 *
 * Owners: add new errors here (keep one class per code); never rename an `error_code`.
 */
import { Schema } from "effect"

/** acceptance_state of a refused send (spec §7, decisions.md §5). */
export const AcceptanceState = Schema.Literal("DEFINITELY_NOT_ACCEPTED", "UNKNOWN")
export type AcceptanceState = typeof AcceptanceState.Type

/** One field-path -> messages map, paths like `recipients.0` (decisions.md §4). */
export const FieldErrors = Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })
export type FieldErrors = typeof FieldErrors.Type

export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  message: Schema.String,
  errors: FieldErrors
}) {
  readonly error_code = "VALIDATION_FAILED" as const
}

export class AccountInactive extends Schema.TaggedError<AccountInactive>()("AccountInactive", {
  message: Schema.String
}) {
  readonly error_code = "ACCOUNT_INACTIVE" as const
}

export class SenderIdNotApproved extends Schema.TaggedError<SenderIdNotApproved>()("SenderIdNotApproved", {
  message: Schema.String,
  sender_id: Schema.String
}) {
  readonly error_code = "SENDER_ID_NOT_APPROVED" as const
}

export class CountryNotAvailable extends Schema.TaggedError<CountryNotAvailable>()("CountryNotAvailable", {
  message: Schema.String,
  country: Schema.String
}) {
  readonly error_code = "COUNTRY_NOT_AVAILABLE" as const
}

export class RouteNotVerified extends Schema.TaggedError<RouteNotVerified>()("RouteNotVerified", {
  message: Schema.String,
  country: Schema.String
}) {
  readonly error_code = "ROUTE_NOT_VERIFIED" as const
}

export class RecipientOptedOut extends Schema.TaggedError<RecipientOptedOut>()("RecipientOptedOut", {
  message: Schema.String,
  recipient: Schema.String
}) {
  readonly error_code = "RECIPIENT_OPTED_OUT" as const
}

export class SpamPolicyViolation extends Schema.TaggedError<SpamPolicyViolation>()("SpamPolicyViolation", {
  message: Schema.String,
  rule: Schema.String
}) {
  readonly error_code = "SPAM_POLICY" as const
}

export class NoProviderRoute extends Schema.TaggedError<NoProviderRoute>()("NoProviderRoute", {
  message: Schema.String,
  country: Schema.String
}) {
  readonly error_code = "NO_PROVIDER_ROUTE" as const
}

export class ProviderCreditExhausted extends Schema.TaggedError<ProviderCreditExhausted>()(
  "ProviderCreditExhausted",
  { message: Schema.String, country: Schema.String }
) {
  readonly error_code = "PROVIDER_CREDIT_EXHAUSTED" as const
}

export const Shortfall = Schema.Struct({
  country: Schema.String,
  units_required: Schema.Number,
  units_available: Schema.Number
})
export type Shortfall = typeof Shortfall.Type

/** decisions.md §6: totals plus a per-country `shortfall` list. */
export class InsufficientBalance extends Schema.TaggedError<InsufficientBalance>()("InsufficientBalance", {
  message: Schema.String,
  units_required: Schema.Number,
  units_available: Schema.Number,
  shortfall: Schema.Array(Shortfall)
}) {
  readonly error_code = "INSUFFICIENT_BALANCE" as const
}

export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()("IdempotencyKeyReused", {
  message: Schema.String
}) {
  readonly error_code = "IDEMPOTENCY_KEY_REUSED" as const
}

export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  message: Schema.String,
  retry_after_seconds: Schema.Number
}) {
  readonly error_code = "RATE_LIMITED" as const
}

export class DuplicateContentRateLimited extends Schema.TaggedError<DuplicateContentRateLimited>()(
  "DuplicateContentRateLimited",
  { message: Schema.String, retry_after_seconds: Schema.Number }
) {
  readonly error_code = "DUPLICATE_CONTENT_RATE_LIMITED" as const
}

export class EmptyMessage extends Schema.TaggedError<EmptyMessage>()("EmptyMessage", {
  message: Schema.String
}) {
  readonly error_code = "EMPTY_MESSAGE" as const
}

export class MessageTooLong extends Schema.TaggedError<MessageTooLong>()("MessageTooLong", {
  message: Schema.String,
  characters: Schema.Number
}) {
  readonly error_code = "MESSAGE_TOO_LONG" as const
}

export class TagExpressionInvalid extends Schema.TaggedError<TagExpressionInvalid>()("TagExpressionInvalid", {
  message: Schema.String,
  expression: Schema.String
}) {
  readonly error_code = "TAG_EXPRESSION_INVALID" as const
}

export class InvalidRecipient extends Schema.TaggedError<InvalidRecipient>()("InvalidRecipient", {
  message: Schema.String,
  recipient: Schema.String
}) {
  readonly error_code = "INVALID_RECIPIENT" as const
}

export class DuplicateRecipient extends Schema.TaggedError<DuplicateRecipient>()("DuplicateRecipient", {
  message: Schema.String,
  recipient: Schema.String
}) {
  readonly error_code = "DUPLICATE_RECIPIENT" as const
}

export class InvalidSenderId extends Schema.TaggedError<InvalidSenderId>()("InvalidSenderId", {
  message: Schema.String,
  sender_id: Schema.String
}) {
  readonly error_code = "INVALID_SENDER_ID" as const
}

/** Sender-ID request codes are lower_snake in the spec (§4.9, §7). */
export class SenderIdNotEligible extends Schema.TaggedError<SenderIdNotEligible>()("SenderIdNotEligible", {
  message: Schema.String
}) {
  readonly error_code = "sender_id_not_eligible" as const
}

export class SenderIdAlreadyRequested extends Schema.TaggedError<SenderIdAlreadyRequested>()(
  "SenderIdAlreadyRequested",
  { message: Schema.String, sender_id: Schema.String }
) {
  readonly error_code = "sender_id_already_requested" as const
}

export class MessageNotFound extends Schema.TaggedError<MessageNotFound>()("MessageNotFound", {
  message: Schema.String
}) {
  readonly error_code = "NOT_FOUND" as const
}

export class IllegalTransition extends Schema.TaggedError<IllegalTransition>()("IllegalTransition", {
  message: Schema.String,
  machine: Schema.String,
  from: Schema.String,
  event: Schema.String
}) {
  readonly error_code = "ILLEGAL_TRANSITION" as const
}

/** Webhooks (operator surface): an endpoint id that does not exist. */
export class WebhookEndpointNotFound extends Schema.TaggedError<WebhookEndpointNotFound>()("WebhookEndpointNotFound", {
  message: Schema.String,
  endpoint_id: Schema.String
}) {
  readonly error_code = "WEBHOOK_ENDPOINT_NOT_FOUND" as const
}

/** Webhooks (operator surface): a delivery id that does not exist (or not on that endpoint). */
export class WebhookDeliveryNotFound extends Schema.TaggedError<WebhookDeliveryNotFound>()("WebhookDeliveryNotFound", {
  message: Schema.String,
  delivery_id: Schema.String
}) {
  readonly error_code = "WEBHOOK_DELIVERY_NOT_FOUND" as const
}

/** Webhooks: an endpoint URL that is not an absolute http(s) URL. */
export class InvalidWebhookUrl extends Schema.TaggedError<InvalidWebhookUrl>()("InvalidWebhookUrl", {
  message: Schema.String,
  url: Schema.String
}) {
  readonly error_code = "INVALID_WEBHOOK_URL" as const
}

/** Sender-ID request (spec §4.9, §7): no verified SMS route for the requested country (422). */
export class SenderIdRouteNotVerified extends Schema.TaggedError<SenderIdRouteNotVerified>()(
  "SenderIdRouteNotVerified",
  { message: Schema.String, country: Schema.String }
) {
  readonly error_code = "route_not_verified" as const
}

/** Sender-ID request (spec §4.9, §7): the requested country is unknown or not open (422). */
export class SenderIdCountryNotAvailable extends Schema.TaggedError<SenderIdCountryNotAvailable>()(
  "SenderIdCountryNotAvailable",
  { message: Schema.String, country: Schema.String }
) {
  readonly error_code = "country_not_available" as const
}

/** Operator surface: the addressed record (account, API key, sender ID, provider, …) does not exist (404). */
export class ResourceNotFound extends Schema.TaggedError<ResourceNotFound>()("ResourceNotFound", {
  message: Schema.String,
  resource: Schema.String,
  id: Schema.String
}) {
  readonly error_code = "NOT_FOUND" as const
}

/** Operator surface: the record would duplicate an existing one (e-mail, provider name, …) (409). */
export class ResourceConflict extends Schema.TaggedError<ResourceConflict>()("ResourceConflict", {
  message: Schema.String,
  resource: Schema.String
}) {
  readonly error_code = "CONFLICT" as const
}
