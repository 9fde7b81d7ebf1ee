import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import {
  analyzeBody,
  countSegments,
  Encoding,
  fromGsm7Octets,
  GSM7_BASIC,
  GSM7_EXTENSION,
  gsm7Length,
  isGsm7,
  splitParts,
  toGsm7Octets
} from "../src/index.js"

const change = (character: string, name: string, occurrences: number, replaced_with: string) => ({
  character,
  name,
  occurrences,
  replaced_with
})

/** Asserts a single-character conversion inside GSM-7 text. */
const converts = (input: string, replaced_with: string, name: string) => {
  const cp = input.codePointAt(0)!
  const label = "U+" + cp.toString(16).toUpperCase().padStart(4, "0")
  const r = analyzeBody(`a${input}b`)
  expect(r.text, name).toBe(`a${replaced_with}b`)
  expect(r.encoding.final).toBe("GSM-7")
  expect(r.encoding.requested).toBe("Unicode")
  expect(r.encoding.converted).toBe(true)
  expect(r.encoding.changes).toEqual([change(label, name, 1, replaced_with)])
}

describe("analyzeBody: the encoding object", () => {
  it("has exactly the fields of spec §2.9, in order, and decodes with the Encoding schema", () => {
    const { encoding, text } = analyzeBody("Hello world")
    expect(text).toBe("Hello world")
    expect(Object.keys(encoding)).toEqual([
      "requested",
      "final",
      "converted",
      "segments",
      "characters",
      "characters_per_sms",
      "changes"
    ])
    expect(encoding).toEqual({
      requested: "GSM-7",
      final: "GSM-7",
      converted: false,
      segments: 1,
      characters: 11,
      characters_per_sms: 160,
      changes: []
    })
    expect(Schema.decodeUnknownSync(Encoding)(encoding)).toEqual(encoding)
    const withNotice = analyzeBody("Привет").encoding
    expect(Object.keys(withNotice).at(-1)).toBe("notice")
    expect(Schema.decodeUnknownSync(Encoding)(withNotice)).toEqual(withNotice)
  })

  it("keeps every GSM-7 character: default alphabet (é ñ ü Ä Ø ß, Greek capitals) and extension table", () => {
    const basic = GSM7_BASIC.replace("\u001b", "")
    const ext = GSM7_EXTENSION.map(([c]) => c).join("")
    for (const body of [basic, ext, "éñüÄØß ΔΦΓΛΩΠΨΣΘΞ £¥§¿¡à Ç"]) {
      const r = analyzeBody(body)
      expect(r.text).toBe(body)
      expect(r.encoding.requested).toBe("GSM-7")
      expect(r.encoding.final).toBe("GSM-7")
      expect(r.encoding.converted).toBe(false)
      expect(r.encoding.changes).toEqual([])
      expect(r.encoding).not.toHaveProperty("notice")
    }
    expect(basic.length).toBe(127)
    expect(ext).toBe("\f^{}\\[~]|€")
  })
})

describe("analyzeBody: conversion rules (spec §2.9)", () => {
  it("curly and typographic quotes become straight quotes", () => {
    converts("\u2018", "'", "LEFT SINGLE QUOTATION MARK")
    converts("\u2019", "'", "RIGHT SINGLE QUOTATION MARK")
    converts("\u201A", "'", "SINGLE LOW-9 QUOTATION MARK")
    converts("\u201B", "'", "SINGLE HIGH-REVERSED-9 QUOTATION MARK")
    converts("\u2039", "'", "SINGLE LEFT-POINTING ANGLE QUOTATION MARK")
    converts("\u203A", "'", "SINGLE RIGHT-POINTING ANGLE QUOTATION MARK")
    converts("\u2032", "'", "PRIME")
    converts("\u02BC", "'", "MODIFIER LETTER APOSTROPHE")
    converts("`", "'", "GRAVE ACCENT")
    converts("\u00B4", "'", "ACUTE ACCENT")
    converts("\uFF07", "'", "FULLWIDTH APOSTROPHE")
    converts("\u201C", "\"", "LEFT DOUBLE QUOTATION MARK")
    converts("\u201D", "\"", "RIGHT DOUBLE QUOTATION MARK")
    converts("\u201E", "\"", "DOUBLE LOW-9 QUOTATION MARK")
    converts("\u201F", "\"", "DOUBLE HIGH-REVERSED-9 QUOTATION MARK")
    converts("\u00AB", "\"", "LEFT-POINTING DOUBLE ANGLE QUOTATION MARK")
    converts("\u00BB", "\"", "RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK")
    converts("\u2033", "\"", "DOUBLE PRIME")
    converts("\uFF02", "\"", "FULLWIDTH QUOTATION MARK")
  })

  it("long dashes, hyphens and minus signs become a hyphen-minus", () => {
    converts("\u2013", "-", "EN DASH")
    converts("\u2014", "-", "EM DASH")
    converts("\u2012", "-", "FIGURE DASH")
    converts("\u2015", "-", "HORIZONTAL BAR")
    converts("\u2212", "-", "MINUS SIGN")
    converts("\u2010", "-", "HYPHEN")
    converts("\u2011", "-", "NON-BREAKING HYPHEN")
    converts("\u2E3A", "-", "TWO-EM DASH")
    converts("\uFE58", "-", "SMALL EM DASH")
    converts("\uFF0D", "-", "FULLWIDTH HYPHEN-MINUS")
  })

  it("an ellipsis becomes three dots", () => {
    converts("\u2026", "...", "HORIZONTAL ELLIPSIS")
    expect(analyzeBody("Wait…").encoding.characters).toBe(7)
  })

  it("non-breaking and zero-width characters are removed", () => {
    converts("\u00A0", "", "NO-BREAK SPACE")
    converts("\u202F", "", "NARROW NO-BREAK SPACE")
    converts("\u2007", "", "FIGURE SPACE")
    converts("\u200B", "", "ZERO WIDTH SPACE")
    converts("\u200C", "", "ZERO WIDTH NON-JOINER")
    converts("\u200D", "", "ZERO WIDTH JOINER")
    converts("\u2060", "", "WORD JOINER")
    converts("\uFEFF", "", "ZERO WIDTH NO-BREAK SPACE")
    converts("\u00AD", "", "SOFT HYPHEN")
    converts("\u200E", "", "LEFT-TO-RIGHT MARK")
    converts("\u200F", "", "RIGHT-TO-LEFT MARK")
  })

  it("accented letters outside GSM-7 are folded to the plain letter", () => {
    converts("ő", "o", "LATIN SMALL LETTER O WITH DOUBLE ACUTE")
    converts("ê", "e", "LATIN SMALL LETTER E WITH CIRCUMFLEX")
    converts("â", "a", "LATIN SMALL LETTER A WITH CIRCUMFLEX")
    converts("ç", "c", "LATIN SMALL LETTER C WITH CEDILLA")
    converts("Ș", "S", "LATIN CAPITAL LETTER S WITH COMMA BELOW")
    converts("ğ", "g", "LATIN SMALL LETTER G WITH BREVE")
    converts("Á", "A", "LATIN CAPITAL LETTER A WITH ACUTE")
    converts("ũ", "u", "LATIN SMALL LETTER U WITH TILDE")
    // No canonical decomposition: the base letter comes from the Unicode name.
    converts("ł", "l", "LATIN SMALL LETTER L WITH STROKE")
    converts("Ł", "L", "LATIN CAPITAL LETTER L WITH STROKE")
    converts("đ", "d", "LATIN SMALL LETTER D WITH STROKE")
    converts("ı", "i", "LATIN SMALL LETTER DOTLESS I")
    // Canonical equivalents that are GSM-7 characters.
    converts("\u212B", "Å", "ANGSTROM SIGN")
    converts("\u2126", "Ω", "OHM SIGN")
    // A stray combining mark is removed.
    converts("\u0301", "", "COMBINING ACUTE ACCENT")
    expect(analyzeBody("Łódź, São Paulo, Kraków").text).toBe("Lodz, Sao Paulo, Krakow")
  })

  it("emoji are removed as whole sequences: ZWJ sequences, skin tones, flags, tags, presentation selectors", () => {
    const r = analyzeBody("Hi 👨‍👩‍👧‍👦👍🏽🇹🇿🏴󠁧󠁢󠁳󠁣󠁴󠁿❤️!")
    expect(r.text).toBe("Hi !")
    expect(r.encoding.final).toBe("GSM-7")
    expect(r.encoding.requested).toBe("Unicode")
    const byChar = Object.fromEntries(r.encoding.changes.map((c) => [c.character, c]))
    expect(byChar["U+1F468"]).toEqual(change("U+1F468", "MAN", 1, ""))
    expect(byChar["U+200D"]).toEqual(change("U+200D", "ZERO WIDTH JOINER", 3, ""))
    expect(byChar["U+1F3FD"]).toEqual(change("U+1F3FD", "EMOJI MODIFIER FITZPATRICK TYPE-4", 1, ""))
    expect(byChar["U+1F1F9"].name).toBe("REGIONAL INDICATOR SYMBOL LETTER T")
    expect(byChar["U+E0067"]).toEqual(change("U+E0067", "TAG LATIN SMALL LETTER G", 1, ""))
    expect(byChar["U+E007F"].name).toBe("CANCEL TAG")
    expect(byChar["U+2764"].name).toBe("HEAVY BLACK HEART")
    expect(byChar["U+FE0F"]).toEqual(change("U+FE0F", "VARIATION SELECTOR-16", 1, ""))
    expect(r.encoding.changes.every((c) => c.replaced_with === "")).toBe(true)
    // Every removed code point is listed once.
    expect(new Set(r.encoding.changes.map((c) => c.character)).size).toBe(r.encoding.changes.length)
  })

  it("text-style emoji characters (© ® ™ ‼) are emoji too and are removed", () => {
    expect(analyzeBody("Acme™ ©2025 ®‼").text).toBe("Acme 2025 ")
  })

  it("a keycap keeps its base character: the keycap marks are removed", () => {
    const r = analyzeBody("Press 1️⃣ or #️⃣")
    expect(r.text).toBe("Press 1 or #")
    expect(r.encoding.changes).toEqual([
      change("U+FE0F", "VARIATION SELECTOR-16", 2, ""),
      change("U+20E3", "COMBINING ENCLOSING KEYCAP", 2, "")
    ])
  })

  it("a ZERO WIDTH JOINER after an emoji belongs to it; elsewhere it is an invisible character", () => {
    // Unicode message: the ZWJ inside Persian text is kept, the one after the emoji is removed.
    const persian = "می\u200Cخواهم \u200D😀\u200D"
    const r = analyzeBody(persian)
    expect(r.encoding.final).toBe("Unicode")
    expect(r.text).toBe("می\u200Cخواهم \u200D")
    expect(r.encoding.changes).toEqual([
      change("U+1F600", "GRINNING FACE", 1, ""),
      change("U+200D", "ZERO WIDTH JOINER", 1, "")
    ])
  })

  it("lists each altered character once, in order of first occurrence, with U+XXXX and occurrences", () => {
    const r = analyzeBody("“A” “B” — 😀 x😀")
    expect(r.text).toBe("\"A\" \"B\" -  x")
    expect(r.encoding.changes).toEqual([
      change("U+201C", "LEFT DOUBLE QUOTATION MARK", 2, "\""),
      change("U+201D", "RIGHT DOUBLE QUOTATION MARK", 2, "\""),
      change("U+2014", "EM DASH", 1, "-"),
      change("U+1F600", "GRINNING FACE", 2, "")
    ])
  })

  it("NUL and lone surrogates (not storable, not sendable) are removed in every message", () => {
    const r = analyzeBody("a\u0000b\uD800c\uDC00")
    expect(r.text).toBe("abc")
    expect(r.encoding.final).toBe("GSM-7")
    expect(r.encoding.changes).toEqual([
      change("U+0000", "NULL", 1, ""),
      change("U+D800", "<surrogate-D800>", 1, ""),
      change("U+DC00", "<surrogate-DC00>", 1, "")
    ])
    expect(analyzeBody("Ж\u0000").text).toBe("Ж")
    // NUL before a lone low surrogate is not a surrogate pair.
    const nul = analyzeBody("\u0000\uDC00Ж")
    expect(nul.text).toBe("Ж")
    expect(nul.encoding.characters).toBe(1)
    expect(nul.encoding.changes.map((c) => c.character)).toEqual(["U+0000", "U+DC00"])
    expect(analyzeBody("a\u0000\uDC00b").text).toBe("ab")
  })
})

describe("analyzeBody: scripts GSM-7 cannot carry", () => {
  it.each([
    ["Cyrillic", "Привет, мир"],
    ["Arabic", "مرحبا بالعالم"],
    ["Chinese", "你好，世界"],
    ["Devanagari", "नमस्ते दुनिया"],
    ["Hebrew", "שלום עולם"],
    ["Greek lowercase", "Καλημέρα κόσμε"],
    ["Thai", "สวัสดีชาวโลก"],
    ["astral CJK", "𠀀𠀁"]
  ])("%s is left untouched and makes the message Unicode", (_script, body) => {
    const r = analyzeBody(body)
    expect(r.text).toBe(body)
    expect(r.encoding.requested).toBe("Unicode")
    expect(r.encoding.final).toBe("Unicode")
    expect(r.encoding.converted).toBe(false)
    expect(r.encoding.characters_per_sms).toBe(70)
    expect(r.encoding.characters).toBe([...body].length)
    expect(r.encoding.notice).toMatch(/^Sent as Unicode \(70 characters per SMS\): GSM-7 cannot carry "/)
  })

  it("the notice names the first character GSM-7 cannot carry", () => {
    expect(analyzeBody("Hi Иван").encoding.notice).toBe(
      "Sent as Unicode (70 characters per SMS): GSM-7 cannot carry \"И\" (CYRILLIC CAPITAL LETTER I)," +
        " so the text is sent as written."
    )
    expect(analyzeBody("“Hi” 😀 中").encoding.notice).toBe(
      "Sent as Unicode (70 characters per SMS): GSM-7 cannot carry \"中\" (CJK UNIFIED IDEOGRAPH-4E2D)," +
        " so the text is sent as written, except the removals listed in changes."
    )
  })

  it("in a message that is Unicode anyway, only emoji are removed: quotes, dashes, accents and spaces stay", () => {
    const body = "Привет “друг” — ő… é\u00A0ok 😀"
    const r = analyzeBody(body)
    expect(r.text).toBe("Привет “друг” — ő… é\u00A0ok ")
    expect(r.encoding.final).toBe("Unicode")
    expect(r.encoding.converted).toBe(true)
    expect(r.encoding.changes).toEqual([change("U+1F600", "GRINNING FACE", 1, "")])
    expect(r.encoding.notice).toContain("except the removals listed in changes")
  })

  it("a message that is Unicode only because of emoji becomes GSM-7", () => {
    const r = analyzeBody("Happy birthday 🎂🎉")
    expect(r.text).toBe("Happy birthday ")
    expect(r.encoding.requested).toBe("Unicode")
    expect(r.encoding.final).toBe("GSM-7")
    expect(r.encoding.segments).toBe(1)
  })

  it("conversion never raises the price: ellipses that would cost more as GSM-7 stay Unicode", () => {
    const body = "…".repeat(60) // GSM-7: 180 septets = 2 segments; Unicode: 60 units = 1 segment
    const r = analyzeBody(body)
    expect(r.text).toBe(body)
    expect(r.encoding.final).toBe("Unicode")
    expect(r.encoding.segments).toBe(1)
    expect(r.encoding.converted).toBe(false)
    expect(r.encoding.notice).toBe(
      "Sent as Unicode (70 characters per SMS): converting to GSM-7 would take 2 segments instead of 1."
    )
    // At equal price the conversion rules apply.
    const even = analyzeBody("…".repeat(53)) // 159 septets: 1 segment either way
    expect(even.encoding.final).toBe("GSM-7")
    expect(even.text).toBe(".".repeat(159))
  })
})

describe("analyzeBody: counting and segments (decisions.md §9)", () => {
  const seg = (body: string, partSizing?: "single" | "concatenated") =>
    analyzeBody(body, partSizing === undefined ? undefined : { partSizing }).encoding

  it("GSM-7: 160 septets are one segment, 161 are two", () => {
    expect(seg("a".repeat(160))).toMatchObject({ segments: 1, characters: 160, characters_per_sms: 160 })
    expect(seg("a".repeat(161))).toMatchObject({ segments: 2, characters: 161 })
    expect(seg("a".repeat(320)).segments).toBe(2)
    expect(seg("a".repeat(321)).segments).toBe(3)
  })

  it("GSM-7 extension characters take two septets but count as one character", () => {
    for (const ext of ["€", "^", "{", "}", "\\", "[", "~", "]", "|", "\f"]) {
      expect(seg("a".repeat(158) + ext), ext).toMatchObject({ segments: 1, characters: 159, final: "GSM-7" })
      expect(seg("a".repeat(159) + ext), ext).toMatchObject({ segments: 2, characters: 160, final: "GSM-7" })
    }
    expect(seg("€".repeat(80)).segments).toBe(1)
    expect(seg("€".repeat(81)).segments).toBe(2)
  })

  it("Unicode: 70 UTF-16 units are one segment, 71 are two; astral characters take two units", () => {
    expect(seg("Ж".repeat(70))).toMatchObject({ segments: 1, characters: 70, characters_per_sms: 70 })
    expect(seg("Ж".repeat(71))).toMatchObject({ segments: 2, characters: 71 })
    expect(seg("Ж".repeat(140)).segments).toBe(2)
    expect(seg("Ж".repeat(141)).segments).toBe(3)
    expect(seg("Ж".repeat(68) + "𠀀")).toMatchObject({ segments: 1, characters: 69 })
    expect(seg("Ж".repeat(69) + "𠀀")).toMatchObject({ segments: 2, characters: 70 })
    // GSM-7 characters in a Unicode message take one unit each, extension characters included.
    expect(seg("Ж" + "€".repeat(69))).toMatchObject({ segments: 1, characters: 70 })
  })

  it("characters counts code points of the final text", () => {
    expect(seg("Wait… “ok”").characters).toBe("Wait... \"ok\"".length)
    expect(seg("𠀀a").characters).toBe(2)
  })

  it("an empty body, or one that is empty after conversion, has 0 segments and a notice", () => {
    expect(seg("")).toEqual({
      requested: "GSM-7",
      final: "GSM-7",
      converted: false,
      segments: 0,
      characters: 0,
      characters_per_sms: 160,
      changes: [],
      notice: "The body is empty: there is nothing to send."
    })
    const r = analyzeBody("😀\u200B👍")
    expect(r.text).toBe("")
    expect(r.encoding).toMatchObject({ segments: 0, characters: 0, converted: true })
    expect(r.encoding.notice).toBe(
      "Nothing is left to send after conversion: the body held only emoji or invisible characters."
    )
  })

  it("concatenated sizing: 153 septets / 67 units a part when more than one part; characters_per_sms unchanged", () => {
    expect(seg("a".repeat(160), "concatenated")).toMatchObject({ segments: 1, characters_per_sms: 160 })
    expect(seg("a".repeat(161), "concatenated").segments).toBe(2)
    expect(seg("a".repeat(306), "concatenated").segments).toBe(2)
    expect(seg("a".repeat(307), "concatenated").segments).toBe(3)
    expect(seg("a".repeat(307)).segments).toBe(2) // single sizing: ceil(307 / 160)
    expect(seg("Ж".repeat(70), "concatenated")).toMatchObject({ segments: 1, characters_per_sms: 70 })
    expect(seg("Ж".repeat(71), "concatenated").segments).toBe(2)
    expect(seg("Ж".repeat(134), "concatenated").segments).toBe(2)
    expect(seg("Ж".repeat(135), "concatenated").segments).toBe(3)
  })

  it("concatenated sizing counts the real parts: an escape pair or surrogate pair is never split", () => {
    // 152 + 2 + 152 = 306 septets, but the € cannot straddle parts: 152 | € + 151 | 1.
    const gsm = "a".repeat(152) + "€" + "a".repeat(152)
    expect(seg(gsm, "concatenated").segments).toBe(3)
    expect(seg(gsm).segments).toBe(2)
    const ucs = "Ж".repeat(66) + "𠀀" + "Ж".repeat(66) // 134 units; the pair cannot straddle: 66 | 𠀀 + 65 | 1
    expect(seg(ucs, "concatenated").segments).toBe(3)
    expect(seg(ucs).segments).toBe(2)
  })
})

describe("splitParts", () => {
  it("one part when the text fits one SMS, none when empty", () => {
    expect(splitParts("", "GSM-7")).toEqual([])
    expect(splitParts("a".repeat(160), "GSM-7")).toEqual(["a".repeat(160)])
    expect(splitParts("Ж".repeat(70), "Unicode")).toEqual(["Ж".repeat(70)])
  })

  it("splits GSM-7 into 153-septet parts without splitting an escape pair", () => {
    const text = "a".repeat(152) + "€" + "a".repeat(152)
    const parts = splitParts(text, "GSM-7")
    expect(parts).toEqual(["a".repeat(152), "€" + "a".repeat(151), "a"])
    expect(parts.join("")).toBe(text)
    expect(parts.map(gsm7Length)).toEqual([152, 153, 1])
    expect(splitParts("a".repeat(161), "GSM-7").map((p) => p.length)).toEqual([153, 8])
  })

  it("splits Unicode into 67-unit parts without splitting a surrogate pair", () => {
    const text = "Ж".repeat(66) + "𠀀" + "Ж".repeat(66)
    const parts = splitParts(text, "Unicode")
    expect(parts).toEqual(["Ж".repeat(66), "𠀀" + "Ж".repeat(65), "Ж"])
    expect(splitParts("Ж".repeat(71), "Unicode").map((p) => p.length)).toEqual([67, 4])
  })

  it("refuses text that is not GSM-7 when asked for GSM-7 parts", () => {
    expect(() => splitParts("Ж", "GSM-7")).toThrow(RangeError)
  })

  it("agrees with analyzeBody and countSegments under concatenated sizing", () => {
    for (const body of ["a".repeat(400), "€".repeat(200), "Ж".repeat(300), "“x” ".repeat(90), "Ж😀".repeat(50)]) {
      const r = analyzeBody(body, { partSizing: "concatenated" })
      expect(splitParts(r.text, r.encoding.final).length).toBe(r.encoding.segments)
      expect(countSegments(r.text, r.encoding.final, "concatenated")).toBe(r.encoding.segments)
      expect(countSegments(r.text, r.encoding.final)).toBe(analyzeBody(body).encoding.segments)
    }
  })
})

describe("GSM-7 octets (SMPP data_coding 0)", () => {
  it("encodes the default alphabet as its septet and extension characters after an escape", () => {
    expect(Array.from(toGsm7Octets("@£$¥"))).toEqual([0x00, 0x01, 0x02, 0x03])
    expect(Array.from(toGsm7Octets("A€a"))).toEqual([0x41, 0x1b, 0x65, 0x61])
    expect(Array.from(toGsm7Octets("{}[]~|^\\\f"))).toEqual([
      0x1b,
      0x28,
      0x1b,
      0x29,
      0x1b,
      0x3c,
      0x1b,
      0x3e,
      0x1b,
      0x3d,
      0x1b,
      0x40,
      0x1b,
      0x14,
      0x1b,
      0x2f,
      0x1b,
      0x0a
    ])
    expect(Array.from(toGsm7Octets("ΔÄà\n"))).toEqual([0x10, 0x5b, 0x7f, 0x0a])
  })

  it("round-trips every GSM-7 character and refuses others", () => {
    const all = GSM7_BASIC.replace("\u001b", "") + GSM7_EXTENSION.map(([c]) => c).join("")
    expect(isGsm7(all)).toBe(true)
    expect(fromGsm7Octets(toGsm7Octets(all))).toBe(all)
    expect(gsm7Length(all)).toBe(127 + 20)
    expect(() => toGsm7Octets("Ж")).toThrow(RangeError)
    expect(isGsm7("`")).toBe(false)
    // An escape before an undefined extension septet decodes as the default character.
    expect(fromGsm7Octets(Uint8Array.from([0x1b, 0x41]))).toBe("A")
  })
})
