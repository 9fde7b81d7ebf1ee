import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import {
  analyzeBody,
  checkScheduledAt,
  checkSpam,
  decodeRequest,
  defaultSpamPolicy,
  describeFieldErrors,
  describeMessage,
  MESSAGE_TEMPLATES,
  messageTemplate,
  normalizeRecipient,
  sampleMessageRules,
  say,
  senderIdRules,
  SendMessageRequest,
  validationFailed
} from "../src/index.js"

const leftMessage = <E extends { readonly message: string }>(e: Either.Either<unknown, E>): string =>
  Either.match(e, { onLeft: (l) => l.message, onRight: () => "no failure" })

describe("the message catalogue", () => {
  it("gives a recipient refusal its code and no English to parse", () => {
    const local = leftMessage(normalizeRecipient("0712 345 678"))
    expect(describeMessage(local)).toEqual({ code: "phone.international_format", params: {} })
    expect(describeMessage(leftMessage(normalizeRecipient("+1 abc")))?.code).toBe("phone.characters")
    expect(describeMessage(leftMessage(normalizeRecipient("")))?.code).toBe("phone.required")
    expect(describeMessage(leftMessage(normalizeRecipient("1".repeat(40)))))
      .toEqual({ code: "phone.too_long", params: { max: "32" } })
  })

  it("describes the field errors of a request, with the field as a parameter", () => {
    const failed = decodeRequest(SendMessageRequest)({ recipient: 5, message: "" })
    expect(Either.isLeft(failed)).toBe(true)
    if (Either.isRight(failed)) return
    const described = describeFieldErrors(failed.left.errors)
    expect(described.sender_id).toEqual([{ code: "field.required", params: { field: "sender_id" } }])
    for (const list of Object.values(described)) for (const d of list) expect(d).not.toBeNull()
    // the summary message is its first error plus how many more
    const summary = describeMessage(failed.left.message)
    expect(summary?.params.more).toBe(String(Object.values(failed.left.errors).flat().length - 1))
  })

  it("describes dates, the summary of one error and spam refusals", () => {
    const past = checkScheduledAt("2020-01-01T00:00:00Z", new Date())
    expect(describeMessage(leftMessage(past))).toEqual({ code: "field.future", params: { field: "scheduled_at" } })
    expect(describeMessage(validationFailed({}).message)?.code).toBe("validation.invalid")
    const spam = checkSpam(
      { ...defaultSpamPolicy, links: { ...defaultSpamPolicy.links, maxLinks: 0 } },
      "see https://a.tz"
    )
    expect(describeMessage(leftMessage(spam))?.code).toBe("spam.no_links")
  })

  it("describes an encoding notice with the character and its name as parameters", () => {
    const notice = analyzeBody("Привет").encoding.notice ?? ""
    expect(describeMessage(notice)).toEqual({
      code: "encoding.unicode_kept",
      params: { per: "70", character: "П", character_name: "CYRILLIC CAPITAL LETTER PE" }
    })
  })

  it("describes the sender-ID rule texts of the requirements answer", () => {
    expect(describeMessage(senderIdRules.description)?.code).toBe("sender_id.rules")
    expect(describeMessage(sampleMessageRules.description)?.code).toBe("sender_id.sample_rules")
  })

  it("round-trips every template: say(code, params) is described as that code with those params", () => {
    for (const code of Object.keys(MESSAGE_TEMPLATES)) {
      const template = messageTemplate(code) ?? ""
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      const params = Object.fromEntries(names.map((n, i) => [n, `v${i}x`]))
      const text = template.replace(/\{(\w+)\}/g, (_, n: string) => params[n])
      expect(describeMessage(text), code).toEqual({ code, params })
    }
    expect(say("send.too_long", { characters: 1700, max: 1600 }))
      .toBe("The message is 1700 characters long; at most 1600 are allowed.")
  })

  it("answers undefined for words that are not its own (a carrier's text)", () => {
    expect(describeMessage("Subscriber absent")).toBeUndefined()
    expect(messageTemplate("no.such.code")).toBeUndefined()
  })
})
