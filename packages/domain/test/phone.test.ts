import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import examples from "libphonenumber-js/examples.mobile.json" with { type: "json" }
import { getCountries, getExampleNumber } from "libphonenumber-js/max"
import { callingCodeOf, InvalidRecipient, normalizeRecipient, RECIPIENT_PATTERN } from "../src/index.js"

const ok = (raw: string, options?: Parameters<typeof normalizeRecipient>[1]) =>
  Either.getOrThrow(normalizeRecipient(raw, options))
const refused = (raw: string, options?: Parameters<typeof normalizeRecipient>[1]) => {
  const r = normalizeRecipient(raw, options)
  if (Either.isRight(r)) throw new Error(`${raw} was accepted as ${r.right.e164}`)
  return r.left
}

describe("normalizeRecipient", () => {
  it("removes spaces, brackets, dots and dashes and answers E.164, country and calling code", () => {
    expect(ok("+255 712 345 678")).toEqual({ e164: "+255712345678", country: "TZ", calling_code: "255" })
    expect(ok("+255-712-345-678")).toEqual({ e164: "+255712345678", country: "TZ", calling_code: "255" })
    expect(ok("+1 (415) 555-2671")).toEqual({ e164: "+14155552671", country: "US", calling_code: "1" })
    expect(ok("+254.712.345.678")).toEqual({ e164: "+254712345678", country: "KE", calling_code: "254" })
    expect(ok("  +256 772 123456  ").country).toBe("UG")
    expect(ok("+234 803 123 4567").country).toBe("NG")
    expect(ok("+91 98765 43210").country).toBe("IN")
    expect(ok("+1 613 555 0123").country).toBe("CA")
  })

  it("takes the country from the calling code and number range (libphonenumber-js metadata)", () => {
    expect(ok("+447400123456").country).toBe("GB")
    expect(ok("+8613800138000").country).toBe("CN")
  })

  it("reads digits without + as calling code and number; 00 is the international prefix", () => {
    expect(ok("255712345678").e164).toBe("+255712345678")
    expect(ok("00255712345678").e164).toBe("+255712345678")
    expect(ok("00 1 415 555 2671").e164).toBe("+14155552671")
  })

  it("refuses a national number (single leading 0) unless a default country is given", () => {
    expect(refused("0712345678").message).toContain("international format")
    expect(ok("0712 345 678", { defaultCountry: "TZ" })).toEqual({
      e164: "+255712345678",
      country: "TZ",
      calling_code: "255"
    })
  })

  it("refuses text outside the request pattern", () => {
    for (const raw of ["+255abc712", "++255712345678", "+ 255712345678", "(255)712345678", "+255/712345678", "-255"]) {
      const e = refused(raw)
      expect(e).toBeInstanceOf(InvalidRecipient)
      expect(e.message).toContain("only digits")
    }
  })

  it("refuses more than 32 characters as typed", () => {
    const raw = "+255 712 345 678" + " ".repeat(13) + "9999"
    expect(raw.length).toBeGreaterThan(32)
    expect(refused(raw).message).toBe("The recipient must not be greater than 32 characters.")
  })

  it("refuses numbers valid for no country", () => {
    expect(refused("+255 712").message).toBe("The recipient is not a valid phone number.")
    expect(refused("+999 123 456 789").message).toBe("The recipient is not a valid phone number.")
    expect(refused("+1 555 555").message).toBe("The recipient is not a valid phone number.")
    // a range libphonenumber-js max metadata knows to be unassigned (min metadata would accept it)
    expect(refused("+255 512 345 678").message).toBe("The recipient is not a valid phone number.")
    expect(refused("+65 3955 5555").message).toBe("The recipient is not a valid phone number.")
  })

  it("refuses non-geographic numbers (no country wallet to charge)", () => {
    expect(refused("+800 1234 5678").message).toBe("The recipient is not a phone number of any country.")
  })

  it("refuses empty input and keeps the raw text in the error", () => {
    const e = refused("   ")
    expect(e.error_code).toBe("INVALID_RECIPIENT")
    expect(e.recipient).toBe("   ")
  })

  it("normalises the example mobile number of every country to itself and its country", () => {
    let checked = 0
    let sameCountry = 0
    for (const country of getCountries()) {
      const example = getExampleNumber(country, examples)
      if (example === undefined || !example.isValid()) continue
      const typed = example.formatInternational()
      const r = ok(typed)
      expect(r.e164, country).toBe(example.number)
      // ranges shared by several countries (AX/FI, GG/GB …) answer the main country of the code
      expect(callingCodeOf(r.country), typed).toBe(example.countryCallingCode)
      expect(r.calling_code).toBe(example.countryCallingCode)
      if (r.country === example.country) sameCountry++
      // and the same number written without + or with 00
      expect(ok(example.number.slice(1)).e164).toBe(example.number)
      expect(ok(`00${example.number.slice(1)}`).e164).toBe(example.number)
      checked++
    }
    expect(checked).toBeGreaterThan(200)
    expect(sameCountry).toBeGreaterThan(checked * 0.9)
  })

  it.prop(
    "any separators the pattern allows give the same E.164",
    [fc.array(fc.constantFrom(" ", "-", ".", "(", ")"), { minLength: 11, maxLength: 11 })],
    ([seps]) => {
      const digits = "255712345678"
      const typed = "+" + digits[0] + [...digits.slice(1)].map((d, i) => seps[i]! + d).join("")
      fc.pre(typed.length <= 32)
      expect(RECIPIENT_PATTERN.test(typed)).toBe(true)
      expect(ok(typed).e164).toBe("+255712345678")
    }
  )
})
