/**
 * Differential test against an independent calculator, `sms-segments-calculator` (Twilio's
 * message-segment-calculator), on text already converted by `analyzeBody` (the text we send).
 *
 * Its rules, read from its source (src/libs/SegmentedMessage.ts, Segment.ts, EncodedChar.ts):
 * GSM-7 unless some grapheme is not a single GSM-7 code unit; a message is built from graphemes
 * (grapheme-splitter), 1120 bits a segment, 48 of them taken by the user data header once there is
 * more than one segment (so 160/153 septets, 70/67 UCS-2 units), a grapheme never split across
 * segments. That is our concatenated sizing, with two documented differences:
 *
 * 1. EMPTY: an empty text is one segment there; here it has no parts (decisions.md §10 refuses it).
 * 2. GRAPHEME: it never splits a grapheme cluster (a Devanagari conjunct, Hangul jamo, a letter with
 *    its marks) between parts; we split Unicode text at code point boundaries, which is what the
 *    carrier protocol allows (the handset joins the parts before rendering), so it can count more
 *    parts for Unicode text. Each such case is checked to be exactly that: its own grapheme-greedy
 *    count reproduces its answer and our code-point-greedy count reproduces ours.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { createRequire } from "node:module"
import { SegmentedMessage } from "sms-segments-calculator"
import { analyzeBody, GSM7_BASIC, GSM7_UNITS } from "../src/index.js"

/** Twilio's GSM-7 table (character code -> septets), loaded as the CommonJS module it is. */
const UnicodeToGsm: Record<string, Array<number>> = createRequire(import.meta.url)(
  "sms-segments-calculator/dist/libs/UnicodeToGSM.js"
).default

const greedy = (units: ReadonlyArray<number>, perPart: number): number => {
  let parts = 0
  let fill = perPart
  for (const u of units) {
    if (fill + u > perPart) {
      parts++
      fill = u
    } else fill += u
  }
  return parts
}

const fragments = fc.oneof(
  { arbitrary: fc.constantFrom(...GSM7_BASIC.replace("\u001b", "")), weight: 10 },
  { arbitrary: fc.constantFrom("€", "^", "{", "}", "\\", "[", "~", "]", "|"), weight: 2 },
  { arbitrary: fc.constantFrom("“", "”", "’", "—", "…", "\u00A0", "ő", "ç", "ł", "e\u0301"), weight: 2 },
  { arbitrary: fc.constantFrom("😀", "👍🏽", "👨‍👩‍👧", "🇹🇿", "1️⃣"), weight: 1 },
  {
    arbitrary: fc.constantFrom("Ж", "中", "ع", "क्ष", "ि", "한", "ᄀ", "ᅡ", "𠀀", "ก", "ั", "\r\n"),
    weight: 1
  },
  { arbitrary: fc.string({ unit: "binary", maxLength: 2 }), weight: 1 }
)
const scriptFragments = fc.constantFrom("Ж", "中", "ع", "क्ष", "कि", "한", "각", "𠀀", "กั", "é", "a", " ")
const bodies = fc.oneof(
  fc.array(fragments, { minLength: 1, maxLength: 500 }).map((f) => f.join("")),
  fc.array(scriptFragments, { minLength: 30, maxLength: 200 }).map((f) => f.join(""))
)

describe("differential: sms-segments-calculator", () => {
  it("uses the same GSM-7 table (default alphabet and extension)", () => {
    const theirs = UnicodeToGsm
    const differences: Array<string> = []
    for (let c = 0; c < 0x10000; c++) {
      if (GSM7_UNITS[c] !== (theirs[c]?.length ?? 0)) differences.push(c.toString(16))
    }
    expect(differences).toEqual([])
    expect(Object.keys(theirs).length).toBe(127 + 10)
  })

  it("agrees on classification and part count of converted text, or differs for a documented reason", () => {
    const reasons = { EMPTY: 0, GRAPHEME: 0 }
    let compared = 0
    fc.assert(
      fc.property(bodies, (body) => {
        const { encoding, text } = analyzeBody(body, { partSizing: "concatenated" })
        const theirs = new SegmentedMessage(text)
        compared++
        if (text.length === 0) {
          reasons.EMPTY++
          expect(encoding.segments).toBe(0)
          expect(theirs.segmentsCount).toBe(1)
          return
        }
        expect(theirs.encodingName).toBe(encoding.final === "GSM-7" ? "GSM-7" : "UCS-2")
        if (theirs.segmentsCount === encoding.segments) return
        // GRAPHEME: only Unicode text, and exactly the grapheme-vs-code-point split.
        expect(encoding.final).toBe("Unicode")
        const graphemeUnits = theirs.graphemes.map((g) => g.length)
        const codePointUnits = [...text].map((c) => c.length)
        const total = text.length
        expect(total).toBeGreaterThan(70)
        expect(greedy(graphemeUnits, 67)).toBe(theirs.segmentsCount)
        expect(greedy(codePointUnits, 67)).toBe(encoding.segments)
        expect(theirs.segmentsCount).toBeGreaterThan(encoding.segments)
        reasons.GRAPHEME++
      }),
      { numRuns: Number(process.env.DOMAIN_PROP_RUNS ?? 1000) }
    )
    console.log(`differential: ${compared} texts compared; documented differences`, reasons)
  })

  it("GRAPHEME difference, by example: a conjunct straddling the part boundary", () => {
    const text = "Ж".repeat(66) + "क्ष" + "Ж".repeat(65) // 134 UTF-16 units
    const ours = analyzeBody(text, { partSizing: "concatenated" })
    expect(ours.text).toBe(text)
    expect(ours.encoding.segments).toBe(2) // 66 + क | ्ष + 65
    expect(new SegmentedMessage(text).segmentsCount).toBe(3) // 66 | क्ष + 64 | 1
  })

  it("agrees exactly on GSM-7 texts around the boundaries", () => {
    for (const n of [1, 152, 153, 154, 159, 160, 161, 305, 306, 307, 459, 460, 1600]) {
      for (const text of ["a".repeat(n), "a".repeat(n - 1) + "€", "€".repeat(Math.ceil(n / 2))]) {
        const ours = analyzeBody(text, { partSizing: "concatenated" }).encoding
        const theirs = new SegmentedMessage(text)
        expect(ours.segments, `${n} ${text.slice(-2)}`).toBe(theirs.segmentsCount)
      }
    }
  })
})
