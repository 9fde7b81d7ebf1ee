/**
 * Tuma's typed send refusals mapped to this backend's own error responses. Every member of
 * `SendError` is a `Schema.TaggedError` with a stable `error_code`; the switch is exhaustive, so a
 * new refusal in a later Tuma version is a compile error here, not a 500.
 */
import type { SendError } from "@tuma/core"

export interface ErrorResponse {
  readonly status: number
  readonly body: { readonly error: string; readonly detail: string; readonly [key: string]: unknown }
}

export const fromSendError = (e: SendError): ErrorResponse => {
  switch (e._tag) {
    case "ValidationFailed":
      return { status: 400, body: { error: "invalid_request", detail: e.message, fields: e.errors } }
    case "EmptyMessage":
    case "MessageTooLong":
    case "TagExpressionInvalid":
    case "DuplicateRecipient":
      return { status: 400, body: { error: "invalid_text", detail: e.message } }
    case "InsufficientBalance":
      return {
        status: 402,
        body: { error: "out_of_credit", detail: e.message, needed: e.units_required, available: e.units_available }
      }
    case "RecipientOptedOut":
      return { status: 409, body: { error: "recipient_opted_out", detail: e.message } }
    case "IdempotencyKeyReused":
      return { status: 409, body: { error: "duplicate_request", detail: e.message } }
    case "DuplicateContentRateLimited":
      return { status: 429, body: { error: "too_many_repeats", detail: e.message, retry_after: e.retry_after_seconds } }
    case "SpamPolicyViolation":
      return { status: 422, body: { error: "content_refused", detail: e.message } }
    case "AccountInactive":
    case "SenderIdNotApproved":
    case "CountryNotAvailable":
    case "RouteNotVerified":
    case "NoProviderRoute":
    case "ProviderCreditExhausted":
      // the organisation's set-up, not the user's input: our support team fixes these
      return { status: 503, body: { error: "sms_unavailable", detail: e.message, code: e.error_code } }
  }
}
