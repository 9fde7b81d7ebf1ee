import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, ParseResult, Schema } from "effect"
import {
  checkScheduledAt,
  decodeRequest,
  fieldErrorsFromIssues,
  formatPath,
  isIsoDate,
  mergeFieldErrors,
  parseIsoDateTime,
  SendMessageRequest,
  SUPPRESSED_ISSUE,
  toFieldErrors,
  ValidationFailed,
  validationFailed
} from "../src/index.js"

describe("fieldErrorsFromIssues / toFieldErrors", () => {
  it("joins paths with dots and words missing keys as required", () => {
    expect(formatPath(["recipients", 3, "to"])).toBe("recipients.3.to")
    expect(fieldErrorsFromIssues([
      { _tag: "Missing", path: ["recipients", 3, "to"], message: "is missing" },
      { _tag: "Type", path: ["body"], message: "The field must be a string." },
      { _tag: "Type", path: ["status"], message: "The selected value is invalid." },
      { _tag: "Type", path: ["uid"], message: "Message UID must be a valid UUID." }
    ])).toEqual({
      "recipients.3.to": ["The recipients.3.to field is required."],
      body: ["The body field must be a string."],
      status: ["The selected status is invalid."],
      uid: ["Message UID must be a valid UUID."]
    })
  })

  it("drops suppressed union members, null/undefined members that another member explained, duplicates", () => {
    expect(fieldErrorsFromIssues([
      { _tag: "Type", path: ["a"], message: SUPPRESSED_ISSUE },
      { _tag: "Type", path: ["a"], message: "The field format is invalid." },
      { _tag: "Type", path: ["a"], message: "Expected null, actual \"x\"" },
      { _tag: "Type", path: ["a"], message: "The field format is invalid." },
      { _tag: "Type", path: ["b"], message: "Expected null, actual 1" }
    ])).toEqual({ a: ["The a field format is invalid."], b: ["Expected null, actual 1"] })
  })

  it("toFieldErrors reads a ParseError decoded with errors: all", () => {
    const r = Schema.decodeUnknownEither(SendMessageRequest)({ body: 5 }, { errors: "all" })
    expect(Either.isLeft(r)).toBe(true)
    if (Either.isLeft(r)) {
      expect(r.left).toBeInstanceOf(ParseResult.ParseError)
      expect(toFieldErrors(r.left)).toEqual({
        recipient: ["The recipient field is required."],
        sender_id: ["The sender_id field is required."],
        body: ["The body field must be a string."]
      })
    }
  })

  it("validationFailed words the first message and counts the rest", () => {
    const one = validationFailed({ a: ["A is wrong."] })
    expect(one).toBeInstanceOf(ValidationFailed)
    expect(one.message).toBe("A is wrong.")
    expect(validationFailed({ a: ["A is wrong.", "A again."], b: ["B."] }).message).toBe(
      "A is wrong. (and 2 more errors)"
    )
    expect(validationFailed({ a: ["x"], b: ["y"] }).message).toBe("x (and 1 more error)")
    expect(mergeFieldErrors({ a: ["x"] }, { a: ["x", "y"], b: ["z"] })).toEqual({ a: ["x", "y"], b: ["z"] })
  })

  it("decodeRequest answers the typed value or ValidationFailed", () => {
    const decode = decodeRequest(SendMessageRequest)
    expect(Either.isRight(decode({ recipient: "+255712345678", sender_id: "T", body: "b" }))).toBe(true)
    const bad = decode({ recipient: "+255712345678", sender_id: "T" })
    expect(Either.isLeft(bad) && bad.left.error_code).toBe("VALIDATION_FAILED")
    expect(Either.isLeft(bad) && bad.left.errors).toEqual({ body: ["The body field is required."] })
  })
})

describe("dates", () => {
  it("parses ISO 8601 date-times with Z, offsets, no offset (UTC), fractions and a space separator", () => {
    expect(parseIsoDateTime("2030-01-31T09:00:00Z")?.toISOString()).toBe("2030-01-31T09:00:00.000Z")
    expect(parseIsoDateTime("2030-01-31T09:00:00+03:00")?.toISOString()).toBe("2030-01-31T06:00:00.000Z")
    expect(parseIsoDateTime("2030-01-31T09:00-0130")?.toISOString()).toBe("2030-01-31T10:30:00.000Z")
    expect(parseIsoDateTime("2030-01-31 09:00:00")?.toISOString()).toBe("2030-01-31T09:00:00.000Z")
    expect(parseIsoDateTime("2030-01-31T09:00:00.123456Z")?.toISOString()).toBe("2030-01-31T09:00:00.123Z")
    expect(parseIsoDateTime("2028-02-29T00:00:00Z")?.toISOString()).toBe("2028-02-29T00:00:00.000Z")
  })

  it("refuses impossible dates and other formats", () => {
    for (
      const bad of [
        "2030-02-30T00:00:00Z",
        "2029-02-29T00:00:00Z",
        "2030-01-31T24:00:00Z",
        "2030-01-31T09:60Z",
        "2030-01-31",
        "31/01/2030 09:00",
        "tomorrow",
        "2030-01-31T09:00:00+19:00",
        "1767225600"
      ]
    ) {
      expect(parseIsoDateTime(bad), bad).toBeUndefined()
    }
  })

  it("isIsoDate checks YYYY-MM-DD calendar dates", () => {
    expect(isIsoDate("2030-12-31")).toBe(true)
    expect(isIsoDate("2030-13-01")).toBe(false)
    expect(isIsoDate("2030-1-01")).toBe(false)
  })

  it.prop(
    "round-trips every instant written with any offset",
    [
      fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }),
      fc.integer({ min: -720, max: 840 })
    ],
    ([d, offset]) => {
      const local = new Date(d.getTime() + offset * 60_000)
      const sign = offset < 0 ? "-" : "+"
      const abs = Math.abs(offset)
      const text = local.toISOString().slice(0, 23) + sign + String(Math.floor(abs / 60)).padStart(2, "0") + ":" +
        String(abs % 60).padStart(2, "0")
      expect(parseIsoDateTime(text)?.getTime()).toBe(d.getTime())
    }
  )
})

describe("checkScheduledAt (decisions.md §14)", () => {
  const now = new Date("2030-01-01T12:00:00Z")

  it("absent or null means send now", () => {
    expect(checkScheduledAt(undefined, now)).toEqual(Either.right(null))
    expect(checkScheduledAt(null, now)).toEqual(Either.right(null))
  })

  it("a future date-time is the schedule", () => {
    expect(checkScheduledAt("2030-01-01T15:00:01+03:00", now)).toEqual(Either.right(new Date("2030-01-01T12:00:01Z")))
  })

  it("now or the past is a 422 on scheduled_at", () => {
    for (const past of ["2030-01-01T12:00:00Z", "2030-01-01T15:00:00+03:00", "2029-12-31T23:59:59Z"]) {
      const r = checkScheduledAt(past, now)
      expect(Either.isLeft(r) && r.left.errors).toEqual({
        scheduled_at: ["The scheduled_at field must be a date-time in the future."]
      })
    }
    const bad = checkScheduledAt("soon", now)
    expect(Either.isLeft(bad) && bad.left.errors).toEqual({
      scheduled_at: ["The scheduled_at field must be a valid ISO 8601 date-time."]
    })
  })
})
