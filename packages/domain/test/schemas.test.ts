import { describe, expect, it } from "@effect/vitest"
import { Either, JSONSchema, Schema } from "effect"
import {
  BulkSendV1Request,
  BulkSendV2Request,
  decodeRequest,
  IdempotencyKey,
  ListMessagesQuery,
  MessageUidParams,
  resolveBulkV1,
  SenderIdRequest,
  SendMessageRequest,
  splitBulkRecipient
} from "../src/index.js"

/** Decodes and answers the value, or the `errors` map of the 422. */
const decode = <A, I>(schema: Schema.Schema<A, I, never>, input: unknown) => decodeRequest(schema)(input)
const errorsOf = <A, I>(schema: Schema.Schema<A, I, never>, input: unknown) => {
  const r = decode(schema, input)
  if (Either.isRight(r)) throw new Error(`accepted: ${JSON.stringify(r.right)}`)
  expect(r.left.error_code).toBe("VALIDATION_FAILED")
  return r.left.errors
}
const valueOf = <A, I>(schema: Schema.Schema<A, I, never>, input: unknown) => Either.getOrThrow(decode(schema, input))

const UID = "3f2b8c1e-9d4a-4b7e-8f6a-1c2d3e4f5a6b"

describe("SendMessageRequest (spec §4.2)", () => {
  it("accepts a valid body and ignores unknown fields (decisions.md §25)", () => {
    expect(valueOf(SendMessageRequest, {
      recipient: "+255 712-345.678",
      sender_id: "TUMA",
      body: "Hello",
      reference: "abc-1",
      callback: { url: "x" }
    })).toEqual({ recipient: "+255 712-345.678", sender_id: "TUMA", body: "Hello" })
  })

  it("reports every missing field as required, also a misspelt one", () => {
    expect(errorsOf(SendMessageRequest, { recipent: "+255712345678", sender_id: "TUMA", body: "x" })).toEqual({
      recipient: ["The recipient field is required."]
    })
    expect(errorsOf(SendMessageRequest, {})).toEqual({
      recipient: ["The recipient field is required."],
      sender_id: ["The sender_id field is required."],
      body: ["The body field is required."]
    })
  })

  it("blank strings are missing; wrong types, lengths and patterns are named", () => {
    expect(errorsOf(SendMessageRequest, {
      recipient: 255712345678,
      sender_id: "   ",
      body: "x".repeat(1601)
    })).toEqual({
      recipient: ["The recipient field must be a string."],
      sender_id: ["The sender_id field is required."],
      body: ["The body field must not be greater than 1600 characters."]
    })
    expect(errorsOf(SendMessageRequest, {
      recipient: "+255 712 345 678 / 679 / 680 / 681",
      sender_id: "S".repeat(33),
      body: "ok"
    })).toEqual({
      recipient: [
        "The recipient field must not be greater than 32 characters.",
        "The recipient field format is invalid."
      ],
      sender_id: ["The sender_id field must not be greater than 32 characters."]
    })
  })

  it("counts characters, not UTF-16 units: 1600 emoji are fine", () => {
    expect(valueOf(SendMessageRequest, { recipient: "+255712345678", sender_id: "T", body: "😀".repeat(1600) }).body)
      .toHaveLength(3200)
    expect(errorsOf(SendMessageRequest, { recipient: "+255712345678", sender_id: "T", body: "😀".repeat(1601) }))
      .toEqual({ body: ["The body field must not be greater than 1600 characters."] })
  })

  it("a non-object body is one error on the request body", () => {
    expect(Object.keys(errorsOf(SendMessageRequest, "text"))).toEqual([""])
  })
})

describe("BulkSendV1Request (spec §4.5, decisions.md §13)", () => {
  const base = { recipients: ["+255712345678"], sender_id: "TUMA" }

  it("accepts message or body, campaign_name or name, and resolves the synonyms", () => {
    const a = valueOf(BulkSendV1Request, { ...base, message: "Hi", name: "Promo" })
    expect(resolveBulkV1(a)).toEqual({ text: "Hi", campaign_name: "Promo" })
    const b = valueOf(BulkSendV1Request, { ...base, body: "Hi", message: null, campaign_name: "C", name: "C" })
    expect(resolveBulkV1(b)).toEqual({ text: "Hi", campaign_name: "C" })
    expect(resolveBulkV1(valueOf(BulkSendV1Request, { ...base, message: "Hi", body: "Hi" })).campaign_name).toBeNull()
  })

  it("requires one of message and body", () => {
    expect(errorsOf(BulkSendV1Request, base)).toEqual({
      message: ["The message field is required when body is not present."]
    })
    expect(errorsOf(BulkSendV1Request, { ...base, message: null, body: " " })).toEqual({
      body: ["The body field is required."]
    })
  })

  it("both present but different: 422 on both fields; same for campaign_name/name", () => {
    expect(errorsOf(BulkSendV1Request, { ...base, message: "A", body: "B", campaign_name: "X", name: "Y" })).toEqual({
      message: ["The message and body fields must be equal when both are given."],
      body: ["The message and body fields must be equal when both are given."],
      campaign_name: ["The campaign_name and name fields must be equal when both are given."],
      name: ["The campaign_name and name fields must be equal when both are given."]
    })
  })

  it("checks recipients: an array of 1 to 1000 numbers with paths per item", () => {
    expect(errorsOf(BulkSendV1Request, { ...base, message: "m", recipients: [] })).toEqual({
      recipients: ["The recipients field must have at least 1 item."]
    })
    expect(errorsOf(BulkSendV1Request, { ...base, message: "m", recipients: Array(1001).fill("+255712345678") }))
      .toEqual({ recipients: ["The recipients field must not have more than 1000 items."] })
    expect(errorsOf(BulkSendV1Request, { ...base, message: "m", recipients: "+255712345678" })).toEqual({
      recipients: ["The recipients field must be an array."]
    })
    expect(errorsOf(BulkSendV1Request, { ...base, message: "m", recipients: ["+255712345678", "abc", 7, ""] }))
      .toEqual({
        "recipients.1": ["The recipients.1 field format is invalid."],
        "recipients.2": ["The recipients.2 field must be a string."],
        "recipients.3": ["The recipients.3 field is required."]
      })
  })

  it("checks campaign name length and scheduled_at format (null allowed)", () => {
    expect(errorsOf(BulkSendV1Request, {
      ...base,
      message: "m",
      campaign_name: "n".repeat(121),
      scheduled_at: "tomorrow"
    })).toEqual({
      campaign_name: ["The campaign_name field must not be greater than 120 characters."],
      scheduled_at: ["The scheduled_at field must be a valid ISO 8601 date-time."]
    })
    expect(valueOf(BulkSendV1Request, { ...base, message: "m", scheduled_at: null }).scheduled_at).toBeNull()
  })
})

describe("BulkSendV2Request (spec §4.6)", () => {
  it("accepts numbers and objects with `to` plus tag values; keeps the tag values", () => {
    const v = valueOf(BulkSendV2Request, {
      recipients: ["+255712345678", { to: "+255712345679", Name: "Asha", amount: 12000, paid: null }],
      message: "Hi {name}",
      sender_id: "TUMA",
      campaign_name: "March",
      scheduled_at: "2030-01-31T09:00:00+03:00",
      extra: true
    })
    expect(v.recipients.map(splitBulkRecipient)).toEqual([
      { to: "+255712345678", values: {} },
      { to: "+255712345679", values: { Name: "Asha", amount: 12000, paid: null } }
    ])
    expect("extra" in v).toBe(false)
  })

  it("reports one clear message per bad recipient, with paths such as recipients.3.to", () => {
    expect(errorsOf(BulkSendV2Request, {
      recipients: ["+255712345678", "abc", 7, null, {}, { to: "x" }, { to: "+1", name: true }, [1], { to: 5 }],
      message: "m",
      sender_id: "S"
    })).toEqual({
      "recipients.1": ["The recipients.1 field format is invalid."],
      "recipients.2": ["The recipients.2 field must be a phone number or an object with a to field."],
      "recipients.3": ["The recipients.3 field must be a phone number or an object with a to field."],
      "recipients.4.to": ["The recipients.4.to field is required."],
      "recipients.5.to": ["The recipients.5.to field format is invalid."],
      "recipients.6.name": ["The recipients.6.name field must be a string or a number."],
      "recipients.7": ["The recipients.7 field must be a phone number or an object with a to field."],
      "recipients.8.to": ["The recipients.8.to field must be a string."]
    })
  })

  it("requires message and sender_id, limits the message to 1600 characters", () => {
    expect(errorsOf(BulkSendV2Request, { recipients: ["+255712345678"] })).toEqual({
      message: ["The message field is required."],
      sender_id: ["The sender_id field is required."]
    })
    expect(errorsOf(BulkSendV2Request, { recipients: ["+255712345678"], sender_id: "S", message: "x".repeat(1601) }))
      .toEqual({ message: ["The message field must not be greater than 1600 characters."] })
  })
})

describe("ListMessagesQuery (spec §4.3)", () => {
  it("defaults per_page to 50 and page to 1", () => {
    expect(valueOf(ListMessagesQuery, {})).toEqual({ per_page: 50, page: 1 })
  })

  it("caps per_page at 100; below 1 or not an integer is a 422", () => {
    expect(valueOf(ListMessagesQuery, { per_page: "500", page: "3" })).toEqual({ per_page: 100, page: 3 })
    expect(valueOf(ListMessagesQuery, { per_page: "100" }).per_page).toBe(100)
    expect(valueOf(ListMessagesQuery, { per_page: "1" }).per_page).toBe(1)
    expect(errorsOf(ListMessagesQuery, { per_page: "0", page: "-1" })).toEqual({
      per_page: ["The per_page field must be at least 1."],
      page: ["The page field must be an integer."]
    })
    expect(errorsOf(ListMessagesQuery, { per_page: "ten", page: "1.5" })).toEqual({
      per_page: ["The per_page field must be an integer."],
      page: ["The page field must be an integer."]
    })
    expect(errorsOf(ListMessagesQuery, { page: "99999999999999999999" })).toEqual({
      page: ["The page field is too large."]
    })
  })

  it("filters by status, channel and an inclusive date range", () => {
    expect(valueOf(ListMessagesQuery, { status: "delivered", channel: "web", from: "2030-01-01", to: "2030-01-01" }))
      .toEqual({ status: "delivered", channel: "web", from: "2030-01-01", to: "2030-01-01", per_page: 50, page: 1 })
    expect(errorsOf(ListMessagesQuery, { status: "processing", channel: "sms", from: "2030-02-30", to: "01/02/2030" }))
      .toEqual({
        status: ["The selected status is invalid."],
        channel: ["The selected channel is invalid."],
        from: ["The from field must be a valid date in the format YYYY-MM-DD."],
        to: ["The to field must be a valid date in the format YYYY-MM-DD."]
      })
    expect(errorsOf(ListMessagesQuery, { from: "2030-01-02", to: "2030-01-01" })).toEqual({
      to: ["The to field must be a date after or equal to from."]
    })
  })
})

describe("MessageUidParams (spec §4.4)", () => {
  it("accepts a UUID, refuses anything else with the exact text", () => {
    expect(valueOf(MessageUidParams, { uid: UID })).toEqual({ uid: UID })
    expect(valueOf(MessageUidParams, { uid: UID.toUpperCase() }).uid).toBe(UID.toUpperCase())
    for (const bad of ["123", `${UID}x`, "not-a-uuid", ""]) {
      expect(errorsOf(MessageUidParams, { uid: bad })).toEqual({ uid: ["Message UID must be a valid UUID."] })
    }
  })
})

describe("SenderIdRequest (spec §4.9)", () => {
  const sample = "Dear customer, your order 1234 is ready for pickup at our Mlimani branch."
  const base = { sender_id: "Tuma  Shop", sample_message: sample, purpose: "Transactional" }

  it("accepts a minimal request, documents optional", () => {
    expect(valueOf(SenderIdRequest, { ...base, country_uid: null, documents_base64: null })).toEqual({
      ...base,
      country_uid: null,
      documents_base64: null
    })
  })

  it("checks the name by the §2.7 rules (after normalisation), sample length and purpose", () => {
    expect(errorsOf(SenderIdRequest, { sender_id: "admin", sample_message: "too short", purpose: "Spam" })).toEqual({
      sender_id: ["The sender ID ADMIN is reserved and cannot be requested."],
      sample_message: ["The sample_message field must be at least 50 characters."],
      purpose: ["The selected purpose is invalid."]
    })
    expect(errorsOf(SenderIdRequest, { ...base, sender_id: "tuma-shop!", sample_message: "x".repeat(501) })).toEqual({
      sender_id: ["The sender ID may contain only letters A-Z, digits and single spaces between words."],
      sample_message: ["The sample_message field must not be greater than 500 characters."]
    })
  })

  it("checks country_uid, document entries and protection", () => {
    expect(errorsOf(SenderIdRequest, {
      ...base,
      country_uid: "tz",
      documents_base64: [{ requirement_uid: UID, filename: "a.pdf", content_base64: "%%%" }, { filename: "" }],
      protection_requested: "yes"
    })).toEqual({
      country_uid: ["The country_uid field must be a valid UUID."],
      "documents_base64.0.content_base64": ["The documents_base64.0.content_base64 field must be valid base64."],
      "documents_base64.1.requirement_uid": ["The documents_base64.1.requirement_uid field is required."],
      "documents_base64.1.filename": ["The documents_base64.1.filename field is required."],
      "documents_base64.1.content_base64": ["The documents_base64.1.content_base64 field is required."],
      protection_requested: ["The protection_requested field must be true or false."]
    })
    expect(errorsOf(SenderIdRequest, { ...base, protection_requested: true })).toEqual({
      protection_documents_base64: [
        "The protection_documents_base64 field is required when protection_requested is true."
      ]
    })
    expect(
      valueOf(SenderIdRequest, {
        ...base,
        protection_requested: true,
        protection_documents_base64: [{ filename: "tm.pdf", content_base64: "JVBERi0=" }]
      }).protection_requested
    ).toBe(true)
  })
})

describe("IdempotencyKey", () => {
  it("1 to 255 visible ASCII characters", () => {
    expect(Schema.is(IdempotencyKey)(UID)).toBe(true)
    expect(Schema.is(IdempotencyKey)("")).toBe(false)
    expect(Schema.is(IdempotencyKey)("a b")).toBe(false)
    expect(Schema.is(IdempotencyKey)("k".repeat(256))).toBe(false)
  })
})

describe("JSON Schema / OpenAPI", () => {
  it("every request schema has a JSON Schema with the documented limits", () => {
    const send = JSONSchema.make(SendMessageRequest) as any
    const def = send.$defs.SendMessageRequest
    expect(def.required).toEqual(["recipient", "sender_id", "body"])
    expect(def.properties.body.maxLength).toBe(1600)
    expect(def.properties.recipient).toMatchObject({ maxLength: 32, pattern: "^\\+?[0-9][0-9 ().-]*$" })
    expect(typeof def.properties.recipient.description).toBe("string")

    const v2 = (JSONSchema.make(BulkSendV2Request) as any).$defs.BulkSendV2Request
    expect(v2.properties.recipients).toMatchObject({ type: "array", minItems: 1, maxItems: 1000 })
    expect(v2.properties.scheduled_at.anyOf).toEqual([{ type: "string", format: "date-time" }, { type: "null" }])

    const sid = (JSONSchema.make(SenderIdRequest) as any).$defs.SenderIdRequest
    expect(sid.properties.sender_id).toMatchObject({ minLength: 3, maxLength: 11 })
    expect(sid.properties.purpose.enum).toHaveLength(7)

    const query = JSONSchema.make(Schema.encodedSchema(ListMessagesQuery)) as any
    expect(Object.keys(query.properties)).toEqual(["status", "channel", "from", "to", "per_page", "page"])
    expect(JSONSchema.make(BulkSendV1Request)).toBeDefined()
    expect(JSONSchema.make(MessageUidParams)).toBeDefined()
  })
})
