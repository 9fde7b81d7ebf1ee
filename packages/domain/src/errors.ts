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

/** `VALIDATION_FAILED`: the request is malformed; `errors` maps each field path to its messages (HTTP 422). */
export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  message: Schema.String,
  errors: FieldErrors
}) {
  readonly error_code = "VALIDATION_FAILED" as const
}

/** `ACCOUNT_INACTIVE`: the account is suspended or closed and may not send. */
export class AccountInactive extends Schema.TaggedError<AccountInactive>()("AccountInactive", {
  message: Schema.String
}) {
  readonly error_code = "ACCOUNT_INACTIVE" as const
}

/** `SENDER_ID_NOT_APPROVED`: the sender ID is not approved for the destination market (nor global). */
export class SenderIdNotApproved extends Schema.TaggedError<SenderIdNotApproved>()("SenderIdNotApproved", {
  message: Schema.String,
  sender_id: Schema.String
}) {
  readonly error_code = "SENDER_ID_NOT_APPROVED" as const
}

/** `COUNTRY_NOT_AVAILABLE`: the recipient's country is unknown to Tuma or its market is closed. */
export class CountryNotAvailable extends Schema.TaggedError<CountryNotAvailable>()("CountryNotAvailable", {
  message: Schema.String,
  country: Schema.String
}) {
  readonly error_code = "COUNTRY_NOT_AVAILABLE" as const
}

/** `ROUTE_NOT_VERIFIED`: the account has no verified route to the recipient's country. */
export class RouteNotVerified extends Schema.TaggedError<RouteNotVerified>()("RouteNotVerified", {
  message: Schema.String,
  country: Schema.String
}) {
  readonly error_code = "ROUTE_NOT_VERIFIED" as const
}

/** `RECIPIENT_OPTED_OUT`: the recipient asked this account to stop sending to them. */
export class RecipientOptedOut extends Schema.TaggedError<RecipientOptedOut>()("RecipientOptedOut", {
  message: Schema.String,
  recipient: Schema.String
}) {
  readonly error_code = "RECIPIENT_OPTED_OUT" as const
}

/** `SPAM_POLICY`: the text breaks a spam rule (blocked phrase or domain, too many links); `rule` names it. */
export class SpamPolicyViolation extends Schema.TaggedError<SpamPolicyViolation>()("SpamPolicyViolation", {
  message: Schema.String,
  rule: Schema.String
}) {
  readonly error_code = "SPAM_POLICY" as const
}

/** `NO_PROVIDER_ROUTE`: no enabled carrier route serves the recipient's country. */
export class NoProviderRoute extends Schema.TaggedError<NoProviderRoute>()("NoProviderRoute", {
  message: Schema.String,
  country: Schema.String
}) {
  readonly error_code = "NO_PROVIDER_ROUTE" as const
}

/** `PROVIDER_CREDIT_EXHAUSTED`: the carriers serving the country have no credit left for the send. */
export class ProviderCreditExhausted extends Schema.TaggedError<ProviderCreditExhausted>()(
  "ProviderCreditExhausted",
  { message: Schema.String, country: Schema.String }
) {
  readonly error_code = "PROVIDER_CREDIT_EXHAUSTED" as const
}

/** One country's missing credit in an `InsufficientBalance` refusal (decisions.md §6). */
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

/** `IDEMPOTENCY_KEY_REUSED`: the `Idempotency-Key` was used before with a different request (HTTP 409). */
export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()("IdempotencyKeyReused", {
  message: Schema.String
}) {
  readonly error_code = "IDEMPOTENCY_KEY_REUSED" as const
}

/** `RATE_LIMITED`: the API key's request rate was exceeded; retry after `retry_after_seconds` (HTTP 429). */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  message: Schema.String,
  retry_after_seconds: Schema.Number
}) {
  readonly error_code = "RATE_LIMITED" as const
}

/** `DUPLICATE_CONTENT_RATE_LIMITED`: the same text went to the same recipient too often; retry later (HTTP 429). */
export class DuplicateContentRateLimited extends Schema.TaggedError<DuplicateContentRateLimited>()(
  "DuplicateContentRateLimited",
  { message: Schema.String, retry_after_seconds: Schema.Number }
) {
  readonly error_code = "DUPLICATE_CONTENT_RATE_LIMITED" as const
}

/** `EMPTY_MESSAGE`: the text is empty, or a template renders to nothing. */
export class EmptyMessage extends Schema.TaggedError<EmptyMessage>()("EmptyMessage", {
  message: Schema.String
}) {
  readonly error_code = "EMPTY_MESSAGE" as const
}

/** `MESSAGE_TOO_LONG`: the (rendered) text exceeds the length limit; `characters` is its length. */
export class MessageTooLong extends Schema.TaggedError<MessageTooLong>()("MessageTooLong", {
  message: Schema.String,
  characters: Schema.Number
}) {
  readonly error_code = "MESSAGE_TOO_LONG" as const
}

/** `TAG_EXPRESSION_INVALID`: a `{= … }` expression of a bulk-v2 template cannot be evaluated. */
export class TagExpressionInvalid extends Schema.TaggedError<TagExpressionInvalid>()("TagExpressionInvalid", {
  message: Schema.String,
  expression: Schema.String
}) {
  readonly error_code = "TAG_EXPRESSION_INVALID" as const
}

/** `INVALID_RECIPIENT`: the phone number cannot be normalised to a valid E.164 number. */
export class InvalidRecipient extends Schema.TaggedError<InvalidRecipient>()("InvalidRecipient", {
  message: Schema.String,
  recipient: Schema.String
}) {
  readonly error_code = "INVALID_RECIPIENT" as const
}

/** `DUPLICATE_RECIPIENT`: the number already appears earlier in the same bulk request (first wins). */
export class DuplicateRecipient extends Schema.TaggedError<DuplicateRecipient>()("DuplicateRecipient", {
  message: Schema.String,
  recipient: Schema.String
}) {
  readonly error_code = "DUPLICATE_RECIPIENT" as const
}

/** `INVALID_SENDER_ID`: the requested sender ID breaks the naming rules (length, characters, reserved names). */
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

/**
 * `sender_id_already_requested`: the account already has the name for the country, or another account holds a
 * protected claim (HTTP 409).
 */
export class SenderIdAlreadyRequested extends Schema.TaggedError<SenderIdAlreadyRequested>()(
  "SenderIdAlreadyRequested",
  { message: Schema.String, sender_id: Schema.String }
) {
  readonly error_code = "sender_id_already_requested" as const
}

/** `NOT_FOUND`: no message with that uid belongs to the caller's account (HTTP 404). */
export class MessageNotFound extends Schema.TaggedError<MessageNotFound>()("MessageNotFound", {
  message: Schema.String
}) {
  readonly error_code = "NOT_FOUND" as const
}

/** `ILLEGAL_TRANSITION`: the event is not allowed from the record's current status in `machine` (HTTP 409). */
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
