/**
 * Request bodies and queries of spec §4 as the HTTP contract reads them (limits of §8).
 *
 * Every schema decodes with `errors: "all"` (every invalid field is reported, decisions §4) and
 * ignores unknown fields (decisions §25). The business rules behind them (E.164 normalisation,
 * sender-ID rules, tags, pricing) live in @tuma/domain and @tuma/core; these schemas only check
 * the shape so a malformed request is a 422 before any work.
 */
import { Schema } from "effect"

const parseAll = { parseOptions: { errors: "all", onExcessProperty: "ignore" } } as const

const required = (field: string) => ({ missingMessage: () => `The ${field} field is required.` })

const str = (field: string, max: number) =>
  Schema.String.annotations({ message: () => `The ${field} field must be a string.` }).pipe(
    Schema.maxLength(max, { message: () => `The ${field} field must not be greater than ${max} characters.` })
  )

export const PhonePattern = /^\+?[0-9][0-9 ().-]*$/

const Phone = (field: string) =>
  str(field, 32).pipe(
    Schema.pattern(PhonePattern, { message: () => `The ${field} field format is invalid.` })
  )

/** §4.2 */
export const SendSingleRequest = Schema.Struct({
  recipient: Schema.propertySignature(Phone("recipient")).annotations(required("recipient")),
  sender_id: Schema.propertySignature(str("sender id", 32)).annotations(required("sender id")),
  body: Schema.propertySignature(str("body", 1600)).annotations(required("body"))
}).annotations({ identifier: "SendSingleRequest", ...parseAll })
export type SendSingleRequest = typeof SendSingleRequest.Type

const DateTime = Schema.String.annotations({
  description: "ISO 8601 date-time in the future",
  message: () => "The scheduled at field must be a valid date."
})

/** §4.5 */
export const SendBulkV1Request = Schema.Struct({
  recipients: Schema.propertySignature(
    Schema.Array(Phone("recipient")).pipe(
      Schema.minItems(1, { message: () => "The recipients field must have at least 1 items." }),
      Schema.maxItems(1000, { message: () => "The recipients field must not have more than 1000 items." })
    )
  ).annotations(required("recipients")),
  sender_id: Schema.propertySignature(str("sender id", 32)).annotations(required("sender id")),
  message: Schema.optional(Schema.NullOr(str("message", 1600))),
  body: Schema.optional(Schema.NullOr(str("body", 1600))),
  campaign_name: Schema.optional(Schema.NullOr(str("campaign name", 120))),
  name: Schema.optional(Schema.NullOr(str("name", 120))),
  scheduled_at: Schema.optional(Schema.NullOr(DateTime))
}).annotations({ identifier: "SendBulkV1Request", ...parseAll })
export type SendBulkV1Request = typeof SendBulkV1Request.Type

/** §4.6: a recipient is a number, or `{ to, ...tags }`. */
export const BulkV2Recipient = Schema.Union(
  Phone("recipient"),
  Schema.Struct(
    { to: Schema.propertySignature(Phone("to")).annotations(required("to")) },
    Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number) })
  )
).annotations({ message: () => "Each recipient must be a phone number or an object with a to field." })

export const SendBulkV2Request = Schema.Struct({
  recipients: Schema.propertySignature(
    Schema.Array(BulkV2Recipient).pipe(
      Schema.minItems(1, { message: () => "The recipients field must have at least 1 items." }),
      Schema.maxItems(1000, { message: () => "The recipients field must not have more than 1000 items." })
    )
  ).annotations(required("recipients")),
  message: Schema.propertySignature(str("message", 1600)).annotations(required("message")),
  sender_id: Schema.propertySignature(str("sender id", 32)).annotations(required("sender id")),
  campaign_name: Schema.optional(Schema.NullOr(str("campaign name", 120))),
  scheduled_at: Schema.optional(Schema.NullOr(DateTime))
}).annotations({ identifier: "SendBulkV2Request", ...parseAll })
export type SendBulkV2Request = typeof SendBulkV2Request.Type

const DateOnly = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/, { message: () => "Must be a date in the format YYYY-MM-DD." })
)

const PositiveIntFromString = (field: string) =>
  Schema.NumberFromString.pipe(
    Schema.int({ message: () => `The ${field} field must be an integer.` }),
    Schema.greaterThanOrEqualTo(1, { message: () => `The ${field} field must be at least 1.` })
  ).annotations({ message: () => `The ${field} field must be an integer.` })

/** §4.3 */
export const ListMessagesQuery = Schema.Struct({
  status: Schema.optional(
    Schema.Literal("queued", "sent", "delivered", "failed").annotations({
      message: () => "The selected status is invalid."
    })
  ),
  channel: Schema.optional(
    Schema.Literal("api", "web").annotations({
      message: () => "The selected channel is invalid."
    })
  ),
  from: Schema.optional(DateOnly),
  to: Schema.optional(DateOnly),
  per_page: Schema.optional(PositiveIntFromString("per page")),
  page: Schema.optional(PositiveIntFromString("page"))
}).annotations({ identifier: "ListMessagesQuery", ...parseAll })
export type ListMessagesQuery = typeof ListMessagesQuery.Type

export const Purpose = Schema.Literal(
  "Notification",
  "Transactional",
  "OTP / Verification",
  "Promotional",
  "Marketing",
  "Alerts & Reminders",
  "Other"
)

const Base64Document = Schema.Struct({
  requirement_uid: Schema.String,
  filename: str("filename", 180),
  content_base64: Schema.String
})

/** §4.9 as JSON (documents as base64); multipart bodies are read into the same shape. */
export const SenderIdRequestJson = Schema.Struct({
  sender_id: Schema.propertySignature(Schema.String).annotations(required("sender id")),
  country_uid: Schema.optional(Schema.NullOr(Schema.String)),
  sample_message: Schema.propertySignature(Schema.String).annotations(required("sample message")),
  purpose: Schema.propertySignature(Purpose).annotations(required("purpose")),
  documents_base64: Schema.optional(Schema.NullOr(Schema.Array(Base64Document))),
  protection_requested: Schema.optional(Schema.Boolean),
  protection_documents_base64: Schema.optional(Schema.NullOr(Schema.Array(Schema.Struct({
    filename: str("filename", 180),
    content_base64: Schema.String
  }))))
}).annotations({ identifier: "SenderIdRequest", ...parseAll })
