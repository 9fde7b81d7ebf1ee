/**
 * Request schemas of spec §4 with the limits of §8 and decisions.md §13–15, §17, §25. Plain
 * `effect/Schema` structs (HttpApi payloads, url params and paths); unknown fields are ignored.
 *
 * Messages are written without the field name ("The field must be a string."): decode with
 * `{ errors: "all" }` and turn the failure into field errors with `toFieldErrors` /
 * `fieldErrorsFromIssues` (validation.ts), which put the path in. Lengths count characters (code
 * points), like `characters` of the encoding object.
 *
 * Why one file of ≈480 lines: the request schemas of spec §4 in one module, as the spec lists
 * them, so a limit is found in one place.
 */
import { Schema } from "effect"
import { RECIPIENT_MAX_LENGTH, RECIPIENT_PATTERN } from "./phone.js"
import {
  normalizeSenderId,
  SAMPLE_MESSAGE_MAX_LENGTH,
  SAMPLE_MESSAGE_MIN_LENGTH,
  SENDER_ID_MAX_LENGTH,
  SENDER_ID_MIN_LENGTH,
  SENDER_ID_PATTERN,
  SENDER_ID_PURPOSES
} from "./senderId.js"
import { hasNul, NUL_MESSAGE } from "./storedText.js"
import { isIsoDate, parseIsoDateTime, SUPPRESSED_ISSUE } from "./validation.js"

// ---------------------------------------------------------------------------------------------
// Limits (spec §8)
// ---------------------------------------------------------------------------------------------

/** Most characters (code points) a message text may have (spec §4.2). */
export const BODY_MAX_LENGTH = 1600
/** Most characters of the `sender_id` field of a send request. */
export const SENDER_ID_FIELD_MAX_LENGTH = 32
/** Most characters of a bulk request's `campaign_name`. */
export const CAMPAIGN_NAME_MAX_LENGTH = 120
/** Most recipients of one bulk request (v1 and v2). */
export const BULK_MAX_RECIPIENTS = 1000
/** Page size of the message list when `per_page` is omitted. */
export const PER_PAGE_DEFAULT = 50
/** Largest `per_page` of the message list; larger values are capped to it. */
export const PER_PAGE_MAX = 100
/** Most characters of an uploaded document's file name. */
export const DOCUMENT_FILENAME_MAX_LENGTH = 180
/** Most characters of an `Idempotency-Key` header. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

/** Characters as a person counts them (code points). */
export const characterCount = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
  }
  return n
}

const Str = Schema.String.annotations({ message: () => "The field must be a string." })

/** `null` as a silent union member: when the value is not null, the other member explains why. */
const NullMember = Schema.Null.annotations({ message: () => SUPPRESSED_ISSUE })

/** `X | null` whose failures read as X's. */
export const nullable = <A, I, R>(self: Schema.Schema<A, I, R>) => Schema.Union(self, NullMember)

/** An optional JSON field: absent, never `undefined` (JSON has none), so failures read as the schema's. */
const optional = <A, I, R>(self: Schema.Schema<A, I, R>) => Schema.optionalWith(self, { exact: true })

interface TextRules {
  /** Blank (empty or whitespace only) reads "The field is required." and no other rule is reported. */
  readonly required?: boolean
  readonly min?: number
  readonly max?: number
  readonly pattern?: RegExp
  readonly patternMessage?: string
}

/**
 * A string field whose failing rules are all reported (one filter, several messages), lengths in
 * characters. `base` decides the message for a non-string.
 */
const text = (rules: TextRules, base: Schema.Schema<string> = Str) =>
  base.pipe(
    Schema.filter((s) => {
      if (rules.required === true && s.trim() === "") return "The field is required."
      const failures: Array<string> = hasNul(s) ? [NUL_MESSAGE] : []
      const n = rules.min !== undefined || (rules.max !== undefined && s.length > rules.max) ? characterCount(s) : 0
      if (rules.min !== undefined && n < rules.min) failures.push(`The field must be at least ${rules.min} characters.`)
      if (rules.max !== undefined && n > rules.max) {
        failures.push(`The field must not be greater than ${rules.max} characters.`)
      }
      if (rules.pattern !== undefined && !rules.pattern.test(s)) {
        failures.push(rules.patternMessage ?? "The field format is invalid.")
      }
      return failures.length === 0 ? true : failures
    }, {
      jsonSchema: {
        ...(rules.min !== undefined ? { minLength: rules.min } : rules.required === true ? { minLength: 1 } : {}),
        ...(rules.max !== undefined ? { maxLength: rules.max } : {}),
        ...(rules.pattern !== undefined ? { pattern: rules.pattern.source } : {})
      }
    })
  )

const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

/** A UUID in its 8-4-4-4-12 hexadecimal form (any version, either case). */
export const Uuid = Str.pipe(
  Schema.filter((s) => UUID_PATTERN.test(s), {
    message: () => "The field must be a valid UUID.",
    jsonSchema: { format: "uuid" }
  })
)

/** A recipient as typed (spec §4.2): pattern and length only; `normalizeRecipient` does the rest. */
export const RecipientInput = text({ required: true, max: RECIPIENT_MAX_LENGTH, pattern: RECIPIENT_PATTERN })
  .annotations({
    description: "Phone number in international format, e.g. +255712345678. Spaces, brackets, dots and " +
      "dashes are allowed and removed. Pattern ^\\+?[0-9][0-9 ()\\.\\-]*$, at most 32 characters.",
    examples: ["+255712345678"]
  })

/** Sender ID name used to send (must be one of the caller's approved names). */
export const SenderIdField = text({ required: true, max: SENDER_ID_FIELD_MAX_LENGTH }).annotations({
  description: "One of your approved sender ID names (at most 32 characters).",
  examples: ["TUMA"]
})

/** A message text (spec §4.2, §4.5, §4.6): required, at most 1600 characters. */
export const MessageText = text({ required: true, max: BODY_MAX_LENGTH })

/** ISO 8601 date-time (see `parseIsoDateTime`); "in the future" is `checkScheduledAt`'s job. */
export const IsoDateTimeString = Str.pipe(
  Schema.filter((s) => parseIsoDateTime(s) !== undefined, {
    message: () => "The field must be a valid ISO 8601 date-time.",
    jsonSchema: { format: "date-time" }
  })
)

/** A calendar date `YYYY-MM-DD`. */
export const IsoDateString = Str.pipe(
  Schema.filter((s) => isIsoDate(s), {
    message: () => "The field must be a valid date in the format YYYY-MM-DD.",
    jsonSchema: { format: "date" }
  })
)

const ScheduledAt = nullable(IsoDateTimeString).annotations({
  description: "Future ISO 8601 date-time (e.g. 2030-01-31T09:00:00+03:00; without an offset it is UTC). " +
    "Omit or null to send now."
})

const CampaignName = nullable(text({ max: CAMPAIGN_NAME_MAX_LENGTH }))

// ---------------------------------------------------------------------------------------------
// Send a single SMS (spec §4.2)
// ---------------------------------------------------------------------------------------------

/** The body of a single send (`POST /v1/sms/messages`, spec §4.2): recipient, sender ID, text, optional schedule. */
export const SendMessageRequest = Schema.Struct({
  recipient: RecipientInput,
  sender_id: SenderIdField,
  body: MessageText.annotations({
    description: "Message text, at most 1600 characters. Characters GSM-7 cannot carry are converted " +
      "(see the encoding object of the response)."
  })
}).annotations({ identifier: "SendMessageRequest", description: "Send one SMS." })
export type SendMessageRequest = typeof SendMessageRequest.Type

/** The `Idempotency-Key` header: 1 to 255 visible ASCII characters (a UUID per send is advised). */
export const IdempotencyKey = Str.pipe(
  Schema.filter((s) => /^[\x21-\x7e]{1,255}$/.test(s), {
    message: () => "The field must be 1 to 255 visible ASCII characters.",
    jsonSchema: { minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH }
  })
).annotations({ description: "Unique per message (or per campaign); a UUID is advised." })

// ---------------------------------------------------------------------------------------------
// Bulk v1 (spec §4.5, decisions.md §13)
// ---------------------------------------------------------------------------------------------

const recipientsOf = <A, I, R>(item: Schema.Schema<A, I, R>, description: string) =>
  Schema.Array(item).annotations({ message: () => "The field must be an array." }).pipe(
    Schema.filter((a) => a.length >= 1, {
      message: () => "The field must have at least 1 item.",
      jsonSchema: { minItems: 1 }
    }),
    Schema.filter((a) => a.length <= BULK_MAX_RECIPIENTS, {
      message: () => `The field must not have more than ${BULK_MAX_RECIPIENTS} items.`,
      jsonSchema: { maxItems: BULK_MAX_RECIPIENTS }
    })
  ).annotations({ description })

const blank = (v: string | null | undefined): v is null | undefined => v == null || v.trim() === ""

/** Messages of the synonym rules of decisions.md §13. */
const synonyms = (
  a: string | null | undefined,
  b: string | null | undefined,
  aName: string,
  bName: string,
  required: boolean
): Array<Schema.FilterIssue> => {
  if (blank(a) && blank(b)) {
    return required ? [{ path: [aName], message: `The ${aName} field is required when ${bName} is not present.` }] : []
  }
  if (!blank(a) && !blank(b) && a !== b) {
    const message = `The ${aName} and ${bName} fields must be equal when both are given.`
    return [{ path: [aName], message }, { path: [bName], message }]
  }
  return []
}

/** The body of a bulk-v1 send (`POST /v1/sms/send-bulk`): one text to up to 1,000 recipients. */
export const BulkSendV1Request = Schema.Struct({
  recipients: recipientsOf(RecipientInput, "1 to 1000 phone numbers; a number listed twice is sent once."),
  sender_id: SenderIdField,
  message: optional(
    nullable(MessageText).annotations({
      description: "The text sent to every recipient (at most 1600 characters). `body` is a synonym; " +
        "give one of them, or both with the same text."
    })
  ),
  body: optional(nullable(MessageText).annotations({ description: "Synonym of `message`." })),
  campaign_name: optional(CampaignName.annotations({ description: "Campaign name, at most 120 characters." })),
  name: optional(CampaignName.annotations({ description: "Synonym of `campaign_name`." })),
  scheduled_at: optional(ScheduledAt)
}).pipe(
  Schema.filter((r) => [
    ...synonyms(r.message, r.body, "message", "body", true),
    ...synonyms(r.campaign_name, r.name, "campaign_name", "name", false)
  ])
).annotations({
  identifier: "BulkSendV1Request",
  description: "Send one text to up to 1000 recipients (kept for existing integrations; prefer v2)."
})
export type BulkSendV1Request = typeof BulkSendV1Request.Type

/** The text and campaign name of a decoded v1 request, synonyms resolved. */
export const resolveBulkV1 = (
  request: BulkSendV1Request
): { readonly text: string; readonly campaign_name: string | null } => ({
  text: (blank(request.message) ? request.body : request.message) ?? "",
  campaign_name: (blank(request.campaign_name) ? request.name : request.campaign_name) ?? null
})

// ---------------------------------------------------------------------------------------------
// Bulk v2 (spec §4.6)
// ---------------------------------------------------------------------------------------------

/** A tag value: string, number or null (null means no value, like a missing key). */
export const TagValue = Schema.Union(Schema.String, Schema.Number, Schema.Null).annotations({
  message: () => ({ message: "The field must be a string or a number.", override: true })
}).pipe(
  Schema.filter((v) => typeof v !== "string" || !hasNul(v) || NUL_MESSAGE),
  Schema.annotations({ description: "Value of the tag with this name (names are not case-sensitive)." })
)

/** In the union below, the string member stays silent for non-strings (the object member speaks). */
const RecipientStringMember = text(
  { required: true, max: RECIPIENT_MAX_LENGTH, pattern: RECIPIENT_PATTERN },
  Schema.String.annotations({ message: () => SUPPRESSED_ISSUE })
).annotations({ description: "A phone number (its message has no tag values: every tag is removed)." })

/** A bulk-v2 recipient with its tag values: `{ to, name: "Asha", amount: 12000, … }`. */
export const RecipientWithValues = Schema.Struct(
  { to: RecipientInput },
  Schema.Record({ key: Schema.String, value: TagValue })
).annotations({
  identifier: "RecipientWithValues",
  description: "A phone number in `to` plus the values of that person's tags, e.g. " +
    "{ \"to\": \"+255712345678\", \"name\": \"Asha\", \"amount\": 12000 }.",
  message: (issue) =>
    issue._tag === "Type" && typeof issue.actual === "string"
      ? SUPPRESSED_ISSUE
      : "The field must be a phone number or an object with a to field."
})

/** A bulk-v2 recipient: a plain phone number or a `RecipientWithValues`. */
export const BulkRecipient = Schema.Union(RecipientStringMember, RecipientWithValues)
export type BulkRecipient = typeof BulkRecipient.Type

/**
 * The body of a bulk-v2 send (`POST /v2/sms/send-bulk`): a template with tags and arithmetic, personalised
 * per recipient.
 */
export const BulkSendV2Request = Schema.Struct({
  recipients: recipientsOf(
    BulkRecipient,
    "1 to 1000 recipients: phone numbers, or objects with `to` and tag values. A number listed twice " +
      "is sent once, to its first entry."
  ),
  message: MessageText.annotations({
    description: "Template, at most 1600 characters: {name} tags (not case-sensitive) and {= amount - paid } " +
      "arithmetic are filled per recipient; a tag without a value is removed with one adjacent space."
  }),
  sender_id: SenderIdField,
  campaign_name: optional(CampaignName.annotations({ description: "Campaign name, at most 120 characters." })),
  scheduled_at: optional(ScheduledAt)
}).annotations({
  identifier: "BulkSendV2Request",
  description: "Send a personalised campaign to up to 1000 recipients, priced before anything is sent."
})
export type BulkSendV2Request = typeof BulkSendV2Request.Type

/** A v2 recipient as `{ to, values }` (a bare number has no values). */
export const splitBulkRecipient = (
  recipient: BulkRecipient
): { readonly to: string; readonly values: Readonly<Record<string, string | number | null>> } => {
  if (typeof recipient === "string") return { to: recipient, values: {} }
  const { to, ...values } = recipient
  return { to, values }
}

// ---------------------------------------------------------------------------------------------
// List messages (spec §4.3) and read one (§4.4)
// ---------------------------------------------------------------------------------------------

const positiveIntFromString = Schema.transform(
  Str.pipe(
    Schema.filter((s) => /^\s*\+?\d+\s*$/.test(s), {
      message: () => "The field must be an integer.",
      jsonSchema: { pattern: "^[0-9]+$" }
    })
  ),
  Schema.Number,
  { strict: true, decode: (s) => Number(s.trim()), encode: (n) => String(n) }
).pipe(
  Schema.filter((n) => n >= 1, { message: () => "The field must be at least 1." }),
  Schema.filter((n) => Number.isSafeInteger(n), { message: () => "The field is too large." })
)

/** `per_page`: default 50, values above 100 are capped at 100 (spec §4.3 "capped"); below 1 is a 422. */
export const PerPage = Schema.transform(positiveIntFromString, Schema.Number, {
  strict: true,
  decode: (n) => Math.min(n, PER_PAGE_MAX),
  encode: (n) => n
}).annotations({ description: "Items per page: default 50; values above 100 are capped at 100." })

/** `page`: from 1 (below 1 is a 422). */
export const PageNumber = Schema.transform(positiveIntFromString, Schema.Number, {
  strict: true,
  decode: (n) => n,
  encode: (n) => n
}).annotations({ description: "Page number, from 1 (default 1)." })

/** The `status` filter of the message list. */
export const MessageStatusFilter = Schema.Literal("queued", "sent", "delivered", "failed").annotations({
  message: () => ({ message: "The selected value is invalid.", override: true }),
  description: "Only messages in this status."
})

/** The `channel` filter of the message list: `api`, `web` or `smpp`. */
export const ChannelFilter = Schema.Literal("api", "web", "smpp").annotations({
  message: () => ({ message: "The selected value is invalid.", override: true }),
  description: "api, web for messages staff sent in the portal, or smpp for messages submitted over SMPP."
})

const listMessagesFields = {
  status: optional(MessageStatusFilter),
  channel: optional(ChannelFilter),
  from: optional(IsoDateString.annotations({ description: "YYYY-MM-DD: messages created on or after." })),
  to: optional(IsoDateString.annotations({ description: "YYYY-MM-DD: messages created on or before." })),
  per_page: Schema.optionalWith(PerPage, { exact: true, default: () => PER_PAGE_DEFAULT }),
  page: Schema.optionalWith(PageNumber, { exact: true, default: () => 1 })
}

const toNotBeforeFrom = <A extends { readonly from?: string | undefined; readonly to?: string | undefined }, I, R>(
  self: Schema.Schema<A, I, R>
) =>
  self.pipe(Schema.filter((q) =>
    q.from !== undefined && q.to !== undefined && q.to < q.from
      ? { path: ["to"], message: "The to field must be a date after or equal to from." }
      : undefined
  ))

/** Query of `GET /v1/sms/messages` (no identifier: HttpApi lists its properties as query parameters). */
export const ListMessagesQuery = toNotBeforeFrom(Schema.Struct(listMessagesFields))
  .annotations({ description: "Filters and page of the message list, newest first." })
export type ListMessagesQuery = typeof ListMessagesQuery.Type

/** The portal's message list: the API's filters, and one campaign's messages (`campaign_uid`). */
export const CampaignMessagesQuery = toNotBeforeFrom(Schema.Struct({
  ...listMessagesFields,
  campaign_uid: optional(
    Schema.String.pipe(Schema.filter((s) => UUID_PATTERN.test(s), {
      message: () => "The campaign_uid field must be a valid UUID."
    })).annotations({ description: "Only the messages of this campaign." })
  )
})).annotations({ description: "Filters and page of the portal's message list, newest first." })
export type CampaignMessagesQuery = typeof CampaignMessagesQuery.Type

/** Path `uid` of `GET /v1/sms/messages/{uid}`, with the exact text of spec §4.4. */
export const MessageUid = Schema.String.annotations({ message: () => "Message UID must be a valid UUID." }).pipe(
  Schema.filter((s) => UUID_PATTERN.test(s), {
    message: () => "Message UID must be a valid UUID.",
    jsonSchema: { format: "uuid" }
  })
).annotations({ description: "Message identifier (UUID)." })

/** Path parameters of the one-message read: the message's `uid`. */
export const MessageUidParams = Schema.Struct({ uid: MessageUid })

// ---------------------------------------------------------------------------------------------
// Request a sender ID (spec §4.9, decisions.md §17)
// ---------------------------------------------------------------------------------------------

const BASE64 = /^(?:data:[\w.+-]+\/[\w.+-]+;base64,)?[A-Za-z0-9+/_\s-]*={0,2}\s*$/

/** Base64 (standard or URL-safe alphabet; padding optional; a `data:…;base64,` prefix is allowed). */
export const Base64Content = text({
  required: true,
  pattern: BASE64,
  patternMessage: "The field must be valid base64."
})
  .annotations({ description: "File content in base64 (a data: URL prefix is accepted)." })

const Filename = text({ required: true, max: DOCUMENT_FILENAME_MAX_LENGTH }).annotations({
  description: "File name with its extension: pdf, jpg, jpeg or png."
})

/** Proof that a protected sender-ID name is the requester's (JSON form: base64 content). */
export const ProtectionDocumentUpload = Schema.Struct({
  filename: Filename,
  content_base64: Base64Content
}).annotations({ identifier: "ProtectionDocumentUpload" })
export type ProtectionDocumentUpload = typeof ProtectionDocumentUpload.Type

/** A requirement document attached to a sender-ID request (JSON form: base64 content). */
export const DocumentUpload = Schema.Struct({
  requirement_uid: Uuid.annotations({ description: "The `uid` of the document requirement it satisfies." }),
  ...ProtectionDocumentUpload.fields
}).annotations({ identifier: "DocumentUpload" })
export type DocumentUpload = typeof DocumentUpload.Type

/** Requested sender ID: trimmed, spaces collapsed and uppercased before the §2.7 rules are checked. */
export const RequestedSenderId = Str.pipe(
  Schema.filter((s) => {
    const r = normalizeSenderId(s)
    return r._tag === "Right" || r.left.message
  }, {
    jsonSchema: { minLength: SENDER_ID_MIN_LENGTH, maxLength: SENDER_ID_MAX_LENGTH, pattern: SENDER_ID_PATTERN.source }
  })
).annotations({
  description: "3 to 11 characters: letters, digits and single spaces; stored in uppercase; reserved names " +
    "are refused (see the requirements endpoint).",
  examples: ["TUMA SHOP"]
})

const Purpose = Schema.Literal(...SENDER_ID_PURPOSES).annotations({
  message: () => ({ message: "The selected value is invalid.", override: true }),
  description: "What the sender ID is for."
})

const documentsArray = <A, I, R>(item: Schema.Schema<A, I, R>) =>
  nullable(Schema.Array(item).annotations({ message: () => "The field must be an array." }))

/** The body of a sender-ID request (`POST /v1/sender-ids`, spec §4.9). */
export const SenderIdRequest = Schema.Struct({
  sender_id: RequestedSenderId,
  country_uid: optional(
    nullable(Uuid).annotations({ description: "Country to register for; omitted: the default market." })
  ),
  sample_message: text({ required: true, min: SAMPLE_MESSAGE_MIN_LENGTH, max: SAMPLE_MESSAGE_MAX_LENGTH })
    .annotations({ description: "50 to 500 characters: a real message you will send with this sender ID." }),
  purpose: Purpose,
  documents_base64: optional(
    documentsArray(DocumentUpload).annotations({
      description: "Documents for the requirements marked is_required (pdf, jpg, jpeg, png)."
    })
  ),
  protection_requested: optional(
    nullable(Schema.Boolean.annotations({ message: () => "The field must be true or false." })).annotations({
      description: "Reserve the name so nobody else may register it; needs a protection document."
    })
  ),
  protection_documents_base64: optional(
    documentsArray(ProtectionDocumentUpload).annotations({
      description: "Proof that the name is yours; required when protection_requested is true."
    })
  )
}).pipe(
  Schema.filter((r) =>
    r.protection_requested === true && (r.protection_documents_base64 ?? []).length === 0
      ? {
        path: ["protection_documents_base64"],
        message: "The protection_documents_base64 field is required when protection_requested is true."
      }
      : undefined
  )
).annotations({ identifier: "SenderIdRequest", description: "Request a sender ID (JSON with base64 documents)." })
export type SenderIdRequest = typeof SenderIdRequest.Type
