import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { createRequire } from "node:module"
import { analyzeBody, GSM7_BASIC, type PartSizing, splitParts } from "../src/index.js"

/** Twilio's GSM-7 table (character code -> septets), loaded as the CommonJS module it is. */
const UnicodeToGsm: Record<string, Array<number>> = createRequire(import.meta.url)(
  "sms-segments-calculator/dist/libs/UnicodeToGSM.js"
).default

// An independent GSM-7 oracle: Twilio's table (sms-segments-calculator), septets per character.
const oracle = new Map<number, number>(
  Object.entries(UnicodeToGsm).map(([k, v]) => [Number(k), v.length])
)
const oracleSeptets = (text: string): number => {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const s = oracle.get(text.charCodeAt(i))
    if (s === undefined) return -1
    n += s
  }
  return n
}

const gsmBasic = fc.constantFrom(...GSM7_BASIC.replace("\u001b", ""))
const gsmExt = fc.constantFrom("€", "^", "{", "}", "\\", "[", "~", "]", "|", "\f")
const convertible = fc.constantFrom(
  "‘",
  "’",
  "“",
  "”",
  "„",
  "«",
  "»",
  "`",
  "–",
  "—",
  "−",
  "―",
  "…",
  "\u00A0",
  "\u202F",
  "\u200B",
  "\u200C",
  "\u2060",
  "\uFEFF",
  "\u00AD",
  "ő",
  "ç",
  "ł",
  "ê",
  "Ș",
  "ı",
  "\u0301",
  "\u212B"
)
const emoji = fc.constantFrom(
  "😀",
  "👍🏽",
  "👨‍👩‍👧‍👦",
  "🇹🇿",
  "🇺",
  "1️⃣",
  "#⃣",
  "❤️",
  "©",
  "™",
  "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
  "\u200D",
  "\uFE0F",
  "\u20E3",
  "🏻"
)
const SCRIPT =
  /[\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Han}\p{Script=Devanagari}\p{Script=Hebrew}\p{Script=Thai}]/u
const scriptText = fc.constantFrom("Ж", "д", "ع", "ب", "中", "文", "क", "्", "ष", "ש", "ก", "𠀀", "ی\u200Cی")
const oddities = fc.constantFrom("\u0000", "\uD800", "\uDC00", "\t", "\u2003", "→")
const anyCodePoints = fc.string({ unit: "binary", maxLength: 3 })

/** Bodies mixing every class of character, weighted towards text that matters. */
const body = (maxFragments = 60) =>
  fc.array(
    fc.oneof(
      { arbitrary: gsmBasic, weight: 12 },
      { arbitrary: gsmExt, weight: 2 },
      { arbitrary: convertible, weight: 3 },
      { arbitrary: emoji, weight: 2 },
      { arbitrary: oddities, weight: 1 },
      { arbitrary: anyCodePoints, weight: 1 }
    ),
    { maxLength: maxFragments }
  ).map((parts) => parts.join(""))

const withScript = fc.tuple(body(30), fc.array(scriptText, { minLength: 1, maxLength: 30 }), body(30)).map(
  ([a, s, b]) => a + s.join("") + b
)
const anyBody = fc.oneof({ arbitrary: body(), weight: 3 }, { arbitrary: withScript, weight: 1 })
/** Long bodies, to cross part boundaries. */
const longBody = fc.oneof(body(400), fc.tuple(body(100), withScript).map(([a, b]) => a + b))
const sizing = fc.constantFrom<PartSizing>("single", "concatenated")

/** `DOMAIN_PROP_RUNS=20000 pnpm vitest run …` for a deeper search. */
const RUNS = { fastCheck: { numRuns: Number(process.env.DOMAIN_PROP_RUNS ?? 400) } }

describe("analyzeBody properties", () => {
  it.prop("is idempotent on its own output", { x: anyBody, s: sizing }, ({ s, x }) => {
    const a = analyzeBody(x, { partSizing: s })
    const b = analyzeBody(a.text, { partSizing: s })
    expect(b.text).toBe(a.text)
    expect(b.encoding.converted).toBe(false)
    expect(b.encoding.changes).toEqual([])
    expect(b.encoding.final).toBe(a.encoding.final)
    expect(b.encoding.segments).toBe(a.encoding.segments)
    expect(b.encoding.characters).toBe(a.encoding.characters)
  }, RUNS)

  it.prop("a GSM-7 result holds only GSM-7 default-alphabet and extension characters", { x: anyBody }, ({ x }) => {
    const r = analyzeBody(x)
    if (r.encoding.final === "GSM-7") expect(oracleSeptets(r.text)).toBeGreaterThanOrEqual(0)
    else expect(oracleSeptets(r.text)).toBe(-1)
  }, RUNS)

  it.prop("counts characters as code points and segments from septets or UTF-16 units", { x: longBody }, ({ x }) => {
    const { encoding, text } = analyzeBody(x)
    expect(encoding.characters).toBe([...text].length)
    const units = encoding.final === "GSM-7" ? oracleSeptets(text) : text.length
    const perSms = encoding.final === "GSM-7" ? 160 : 70
    expect(encoding.characters_per_sms).toBe(perSms)
    expect(encoding.segments).toBe(Math.ceil(units / perSms))
  }, RUNS)

  it.prop("segments never decrease when text is appended", { x: longBody, y: anyBody, s: sizing }, ({ s, x, y }) => {
    const before = analyzeBody(x, { partSizing: s }).encoding.segments
    const after = analyzeBody(x + y, { partSizing: s }).encoding.segments
    expect(after).toBeGreaterThanOrEqual(before)
  }, RUNS)

  it.prop(
    "segments never decrease when text is appended (ellipsis-heavy text near the GSM-7/Unicode price line)",
    {
      n: fc.integer({ min: 0, max: 200 }),
      k: fc.integer({ min: 0, max: 200 }),
      y: fc.constantFrom("", "Ж", "…", "a", "😀", "€"),
      s: sizing
    },
    ({ k, n, s, y }) => {
      const x = "…".repeat(n) + "a".repeat(k)
      expect(analyzeBody(x + y, { partSizing: s }).encoding.segments).toBeGreaterThanOrEqual(
        analyzeBody(x, { partSizing: s }).encoding.segments
      )
    },
    RUNS
  )

  it.prop("Unicode scripts are never altered", { x: withScript }, ({ x }) => {
    const { encoding, text } = analyzeBody(x)
    expect(encoding.final).toBe("Unicode")
    const scriptOf = (s: string) => [...s].filter((c) => SCRIPT.test(c) || /\p{M}/u.test(c)).join("")
    // Script letters and their marks all survive, in order.
    expect(scriptOf(text)).toBe(scriptOf(x.replace(/[\u{1F3FB}-\u{1F3FF}\uFE0E\uFE0F\u20E3]/gu, "")))
    // Only emoji (and NUL / lone surrogates) may be removed from a Unicode message; nothing is rewritten.
    for (const c of encoding.changes) {
      expect(c.replaced_with).toBe("")
      const cp = String.fromCodePoint(parseInt(c.character.slice(2), 16))
      expect(cp).toMatch(/^(?:[\p{Extended_Pictographic}\p{Emoji_Component}\u0000]|\p{Cs})$/u)
    }
    const kept = [...text]
    let j = 0
    for (const c of x) if (j < kept.length && kept[j] === c) j++
    expect(j).toBe(kept.length) // the text is a subsequence of the body
  }, RUNS)

  it.prop("no emoji survive", { x: anyBody }, ({ x }) => {
    const { text } = analyzeBody(x)
    expect(new RegExp("\\p{RGI_Emoji}", "v").test(text)).toBe(false)
    expect(/[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}]/u.test(text)).toBe(false)
  }, RUNS)

  it.prop("changes tell the truth: applying them to the body gives the text", { x: anyBody }, ({ x }) => {
    const { encoding, text } = analyzeBody(x)
    expect(encoding.converted).toBe(text !== x)
    expect(encoding.converted).toBe(encoding.changes.length > 0)
    const table = new Map(encoding.changes.map((c) => [parseInt(c.character.slice(2), 16), c]))
    expect(table.size).toBe(encoding.changes.length) // each altered character once
    for (const c of encoding.changes) expect(c.character).toMatch(/^U\+[0-9A-F]{4,6}$/)
    // Occurrences: every occurrence in the body, except a ZWJ kept in a Unicode message.
    const counts = new Map<number, number>()
    const cps: Array<number> = []
    for (let i = 0; i < x.length; i++) {
      const cp = x.codePointAt(i)!
      if (cp > 0xffff) i++
      cps.push(cp)
      counts.set(cp, (counts.get(cp) ?? 0) + 1)
    }
    for (const [cp, c] of table) {
      if (cp === 0x200d && encoding.final === "Unicode") expect(c.occurrences).toBeLessThanOrEqual(counts.get(cp)!)
      else expect(c.occurrences).toBe(counts.get(cp))
    }
    if (encoding.final === "GSM-7" || !x.includes("\u200D")) {
      const rebuilt = cps.map((cp) => table.get(cp)?.replaced_with ?? String.fromCodePoint(cp)).join("")
      expect(rebuilt).toBe(text)
    }
  }, RUNS)

  it.prop("concatenated segments are the real parts of splitParts", { x: longBody }, ({ x }) => {
    const { encoding, text } = analyzeBody(x, { partSizing: "concatenated" })
    const parts = splitParts(text, encoding.final)
    expect(parts.length).toBe(encoding.segments)
    expect(parts.join("")).toBe(text)
    const unitsOf = (p: string) => (encoding.final === "GSM-7" ? oracleSeptets(p) : p.length)
    if (parts.length > 1) {
      for (const p of parts) {
        expect(unitsOf(p)).toBeLessThanOrEqual(encoding.final === "GSM-7" ? 153 : 67)
        expect(/\p{Cs}/u.test(p)).toBe(false) // no surrogate pair split
      }
    } else if (parts.length === 1) {
      expect(unitsOf(parts[0])).toBeLessThanOrEqual(encoding.final === "GSM-7" ? 160 : 70)
    }
  }, RUNS)

  it.prop("the 160/161 and 70/71 boundaries hold for any GSM-7 or Unicode filler", {
    g: fc.array(gsmBasic, { minLength: 161, maxLength: 161 }),
    u: fc.array(fc.constantFrom("Ж", "中", "ع", "a", "€"), { minLength: 71, maxLength: 71 })
  }, ({ g, u }) => {
    expect(analyzeBody(g.slice(0, 160).join("")).encoding.segments).toBe(1)
    expect(analyzeBody(g.join("")).encoding.segments).toBe(2)
    expect(analyzeBody(g.slice(0, 159).join("") + "€").encoding.segments).toBe(2)
    expect(analyzeBody(g.slice(0, 158).join("") + "€").encoding.segments).toBe(1)
    const ucs = ["Ж", ...u.slice(1)]
    expect(analyzeBody(ucs.slice(0, 70).join("")).encoding.segments).toBe(1)
    expect(analyzeBody(ucs.join("")).encoding.segments).toBe(2)
  }, RUNS)
})
