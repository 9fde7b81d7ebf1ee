import { describe, expect, it } from "@effect/vitest"
import { unicodeName } from "unicode-name"
import * as Classify from "../src/codePointClass.js"
import * as Gsm7 from "../src/gsm7.js"

/**
 * The letter fold as it was while the classifier read the Unicode names at start-up: NFC, then NFD
 * without marks, then for a Latin letter the base letter its name gives. `LATIN_BASE_LETTERS` in
 * codePointClass.ts replaced the name look-up; this is the reference it must equal.
 */
const MARKS = /\p{M}/gu
const LATIN = /^\p{Script=Latin}$/u
const LATIN_LETTER_NAME = /^LATIN (CAPITAL|SMALL) LETTER (?:DOTLESS )?([A-Z])(?: WITH .+)?$/
const isGsmText = (s: string) => s.length > 0 && [...s].every((c) => Gsm7.GSM7_UNITS[c.charCodeAt(0)] !== 0)
const foldByName = (cp: number): string | undefined => {
  const char = String.fromCodePoint(cp)
  // a canonical equivalent, else the canonical decomposition without its marks
  for (const candidate of [char.normalize("NFC"), char.normalize("NFD").replace(MARKS, "")]) {
    if (candidate !== char && isGsmText(candidate)) return candidate
  }
  if (LATIN.test(char)) {
    const m = LATIN_LETTER_NAME.exec(unicodeName(cp) ?? "")
    if (m !== null) {
      const letter = m[1] === "SMALL" ? m[2].toLowerCase() : m[2]
      if (isGsmText(letter)) return letter
    }
  }
  return undefined
}

describe("codePointClass", () => {
  it("folds every code point as the Unicode names did (the whole range, U+0000–U+10FFFF)", () => {
    let folded = 0
    let byName = 0
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const k = Classify.classOf(cp)
      // the fold is the last rule before K_KEPT: every code point that reaches it ends in one of the two
      if (k !== Classify.K_FOLD && k !== Classify.K_KEPT) continue
      const expected = foldByName(cp)
      const actual = k === Classify.K_FOLD ? Classify.foldOf(cp) : undefined
      if (actual !== expected) {
        expect({ cp: cp.toString(16), actual }).toEqual({ cp: cp.toString(16), actual: expected })
      }
      if (actual !== undefined) {
        folded++
        if (String.fromCodePoint(cp).normalize("NFD") === String.fromCodePoint(cp)) byName++
      }
    }
    // Node 20's Unicode data: hundreds of folds, of them the letters only a name explains (ł, đ, ħ, ı …)
    expect(folded).toBeGreaterThan(500)
    expect(byName).toBeGreaterThan(150)
    expect([0x142, 0x111, 0x127, 0x131].map(Classify.foldOf)).toEqual(["l", "d", "h", "i"])
  })

  it("names code points from the Unicode name table, loaded on first use", () => {
    expect(Classify.nameOf(0x142)).toBe("LATIN SMALL LETTER L WITH STROKE")
    expect(Classify.nameOf(0x2019)).toBe("RIGHT SINGLE QUOTATION MARK")
    expect(Classify.nameOf(0)).toBe("NULL")
  })
})
