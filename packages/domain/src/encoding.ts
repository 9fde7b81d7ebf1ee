/**
 * Encoding conversion, character counting and SMS part sizing (spec §2.9, decisions.md §9–10).
 *
 * `analyzeBody` turns a body into the text that is sent and the `encoding` object every send response
 * carries. Rulings (see the README section "Encoding" for the full list and examples):
 *
 * - GSM-7-bound text (everything left is GSM-7 or convertible): curly quotes -> straight, dashes and
 *   minus signs -> `-`, ellipsis -> `...`, non-breaking spaces / zero-width / default-ignorable
 *   characters / stray combining marks removed, letters outside GSM-7 folded to a GSM-7 letter.
 * - Emoji are removed in every message (they are not a script; each one costs 2–14 UTF-16 units):
 *   every Extended_Pictographic character, regional indicator, skin-tone modifier, variation selector
 *   15/16, combining keycap and tag character, plus a ZERO WIDTH JOINER that follows one of those.
 *   A keycap keeps its base: `1️⃣` -> `1` (so appending text never removes what was already there).
 * - A body that holds a character no rule converts (Cyrillic, Arabic, Chinese, a tab …) is Unicode
 *   whatever else happens: only emoji (and NUL / lone surrogates, which cannot be stored) are removed,
 *   everything else is sent exactly as written — converting quotes, dashes or accents would save
 *   nothing and would alter the script text.
 * - Conversion never raises the price: if the converted GSM-7 text would need more segments than the
 *   Unicode text (only possible when ellipses dominate: `…` is 1 UTF-16 unit but 3 septets), the
 *   Unicode text is sent, with a notice.
 */
import { Schema } from "effect"
import {
  classOf,
  codePointLabel,
  K_EMOJI,
  K_GSM,
  K_GSM_EXT,
  K_KEPT,
  K_UNSTORABLE,
  K_ZWJ,
  nameOf,
  replacementOf
} from "./encoding/classify.js"
import { GSM7_UNITS } from "./gsm7.js"

/** `GSM-7` or `Unicode` (UCS-2 / UTF-16 on the wire). */
export const EncodingName = Schema.Literal("GSM-7", "Unicode")
export type EncodingName = typeof EncodingName.Type

/** How parts are sized (decisions.md §9): `single` = 160/70 per segment (the default), `concatenated` = 153/67 per part when more than one. */
export const PartSizing = Schema.Literal("single", "concatenated")
export type PartSizing = typeof PartSizing.Type

/** One altered character of the body (spec §2.9). */
export const EncodingChange = Schema.Struct({
  /** Code point, `U+XXXX` (uppercase hex, at least four digits). */
  character: Schema.String,
  /** Unicode name (from the `unicode-name` package), or its label/alias for unnamed code points. */
  name: Schema.String,
  occurrences: Schema.Int,
  /** What each occurrence became; `""` when removed. */
  replaced_with: Schema.String
})
export interface EncodingChange extends Schema.Schema.Type<typeof EncodingChange> {}

/** The `encoding` object of every send response (spec §2.9). */
export const Encoding = Schema.Struct({
  requested: EncodingName,
  final: EncodingName,
  converted: Schema.Boolean,
  segments: Schema.Int,
  characters: Schema.Int,
  characters_per_sms: Schema.Int,
  changes: Schema.Array(EncodingChange),
  notice: Schema.optional(Schema.String)
})
export interface Encoding extends Schema.Schema.Type<typeof Encoding> {}

export interface AnalyzeOptions {
  /** decisions.md §9; `pricing.partSizing`. Default `single`. */
  readonly partSizing?: PartSizing | undefined
}

export interface AnalyzedBody {
  /** The text that is sent (and stored). */
  readonly text: string
  readonly encoding: Encoding
}

const GSM_PER_SMS = 160
const GSM_PER_PART = 153
const UCS_PER_SMS = 70
const UCS_PER_PART = 67
const NO_CHANGES: ReadonlyArray<EncodingChange> = Object.freeze([])

const segmentsOf = (units: number, perSms: number, concatenated: boolean, greedyParts: number): number =>
  units === 0 ? 0 : concatenated ? (units <= perSms ? 1 : greedyParts) : Math.ceil(units / perSms)

/** Greedy part count of GSM-7 text (153 septets a part, an escape pair never split). */
const gsmParts = (text: string): number => {
  let parts = 0
  let fill = GSM_PER_PART
  for (let i = 0; i < text.length; i++) {
    const u = GSM7_UNITS[text.charCodeAt(i)]
    if (fill + u > GSM_PER_PART) {
      parts++
      fill = u
    } else fill += u
  }
  return parts
}

/** Greedy part count of UTF-16 text (67 units a part, a surrogate pair never split). */
const ucsParts = (text: string): number => {
  let parts = 0
  let fill = UCS_PER_PART
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const w = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && isLow(text.charCodeAt(i + 1)) ? 2 : 1
    if (fill + w > UCS_PER_PART) {
      parts++
      fill = w
    } else fill += w
    i += w - 1
  }
  return parts
}

const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff

const EMPTY_NOTICE_BODY = "The body is empty: there is nothing to send."
const EMPTY_NOTICE_CONVERTED =
  "Nothing is left to send after conversion: the body held only emoji or invisible characters."

const gsmEncoding = (
  requested: EncodingName,
  septets: number,
  characters: number,
  concatenated: boolean,
  parts: () => number,
  changes: ReadonlyArray<EncodingChange>,
  notice: string | undefined
): Encoding => {
  const segments = septets === 0
    ? 0
    : concatenated
    ? (septets <= GSM_PER_SMS ? 1 : parts())
    : Math.ceil(septets / GSM_PER_SMS)
  const base = {
    requested,
    final: "GSM-7" as const,
    converted: changes.length > 0,
    segments,
    characters,
    characters_per_sms: GSM_PER_SMS,
    changes
  }
  return notice === undefined ? base : { ...base, notice }
}

/**
 * The text to send and its `encoding` object (spec §2.9, decisions.md §9–10). Pure and total:
 * nothing is refused here; an empty result has 0 segments and callers refuse it (`EmptyMessage`).
 */
export const analyzeBody = (body: string, options?: AnalyzeOptions): AnalyzedBody => {
  const concatenated = options?.partSizing === "concatenated"
  const n = body.length
  let septets = 0
  let i = 0
  for (; i < n; i++) {
    const u = GSM7_UNITS[body.charCodeAt(i)]
    if (u === 0) break
    septets += u
  }
  if (i === n) {
    return {
      text: body,
      encoding: gsmEncoding(
        "GSM-7",
        septets,
        n,
        concatenated,
        () => gsmParts(body),
        NO_CHANGES,
        n === 0 ? EMPTY_NOTICE_BODY : undefined
      )
    }
  }
  return convert(body, concatenated)
}

interface Tally {
  readonly cp: number
  readonly replaced_with: string
  occurrences: number
}

const convert = (body: string, concatenated: boolean): AnalyzedBody => {
  const n = body.length
  // Pass 1: classify every code point; measure the GSM-7 form and the Unicode form.
  let forced = false
  let firstKept = -1
  let removals = 0 // code points removed in both forms (emoji, NUL, lone surrogates)
  let conversions = 0 // code points the GSM-7 form alters beyond removals
  let gSeptets = 0
  let gChars = 0
  let gParts = 0
  let gFill = GSM_PER_PART
  let uUnits = 0
  let uChars = 0
  let uParts = 0
  let uFill = UCS_PER_PART
  let afterEmoji = false
  for (let i = 0; i < n; i++) {
    let cp = body.charCodeAt(i)
    let w = 1
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n && isLow(body.charCodeAt(i + 1))) {
      cp = ((cp - 0xd800) << 10) + (body.charCodeAt(i + 1) - 0xdc00) + 0x10000
      w = 2
      i++
    }
    const k = classOf(cp)
    if (k === K_EMOJI || (k === K_ZWJ && afterEmoji)) {
      removals++
      afterEmoji = true
      continue
    }
    afterEmoji = false
    if (k === K_UNSTORABLE) {
      removals++
      continue
    }
    // The Unicode form keeps this code point.
    uUnits += w
    uChars++
    if (concatenated) {
      if (uFill + w > UCS_PER_PART) {
        uParts++
        uFill = w
      } else uFill += w
    }
    if (forced) continue
    if (k === K_KEPT) {
      forced = true
      firstKept = cp
      continue
    }
    // The GSM-7 form.
    let rep: string | undefined
    let s: number
    if (k === K_GSM || k === K_GSM_EXT) {
      s = k
    } else {
      conversions++
      rep = replacementOf(cp, k)
      s = rep.length
    }
    if (rep === undefined) {
      gSeptets += s
      gChars++
      if (concatenated) {
        if (gFill + s > GSM_PER_PART) {
          gParts++
          gFill = s
        } else gFill += s
      }
    } else {
      for (let r = 0; r < rep.length; r++) {
        const u = GSM7_UNITS[rep.charCodeAt(r)]
        gSeptets += u
        gChars++
        if (concatenated) {
          if (gFill + u > GSM_PER_PART) {
            gParts++
            gFill = u
          } else gFill += u
        }
      }
    }
  }
  let notice: string | undefined
  let unicode = forced
  if (forced) {
    // Count the distinct characters GSM-7 cannot carry, for the notice (second look, rare path).
    const kept = new Set<number>()
    for (const ch of body) {
      const cp = ch.codePointAt(0)!
      if (classOf(cp) === K_KEPT) kept.add(cp)
    }
    const others = kept.size - 1
    notice = `Sent as Unicode (${UCS_PER_SMS} characters per SMS): GSM-7 cannot carry ${
      JSON.stringify(String.fromCodePoint(firstKept))
    } (${nameOf(firstKept)})${
      others > 0 ? ` and ${others} other character${others === 1 ? "" : "s"}` : ""
    }, so the text is sent as written${removals > 0 ? " (emoji removed)" : ""}.`
  } else if (conversions > 0) {
    const gSegments = segmentsOf(gSeptets, GSM_PER_SMS, concatenated, gParts)
    const uSegments = segmentsOf(uUnits, UCS_PER_SMS, concatenated, uParts)
    if (gSegments > uSegments) {
      unicode = true
      notice = `Sent as Unicode (${UCS_PER_SMS} characters per SMS): converting to GSM-7 would take ${gSegments} ${
        gSegments === 1 ? "segment" : "segments"
      } instead of ${uSegments}.`
    }
  }

  // Pass 2: build the text and tally the changes (insertion order = order of first occurrence).
  const tallies = new Map<number, Tally>()
  const note = (cp: number, replaced_with: string) => {
    const t = tallies.get(cp)
    if (t === undefined) tallies.set(cp, { cp, replaced_with, occurrences: 1 })
    else t.occurrences++
  }
  let text: string
  if (removals === 0 && (unicode || conversions === 0)) {
    text = body
  } else {
    const chunks: Array<string> = []
    let from = 0
    let afterEmoji = false
    for (let i = 0; i < n; i++) {
      const start = i
      let cp = body.charCodeAt(i)
      if (cp < 0x80 && GSM7_UNITS[cp] !== 0) {
        afterEmoji = false
        continue
      }
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n && isLow(body.charCodeAt(i + 1))) {
        cp = ((cp - 0xd800) << 10) + (body.charCodeAt(i + 1) - 0xdc00) + 0x10000
        i++
      }
      const k = classOf(cp)
      let rep: string
      if (k === K_EMOJI || (k === K_ZWJ && afterEmoji)) {
        afterEmoji = true
        rep = ""
      } else {
        afterEmoji = false
        if (k === K_UNSTORABLE) rep = ""
        else if (unicode || k === K_GSM || k === K_GSM_EXT) continue
        else rep = replacementOf(cp, k)
      }
      if (start > from) chunks.push(body.slice(from, start))
      if (rep.length > 0) chunks.push(rep)
      from = i + 1
      note(cp, rep)
    }
    if (from < n) chunks.push(body.slice(from))
    text = chunks.join("")
  }

  const changes: Array<EncodingChange> = []
  for (const t of tallies.values()) {
    changes.push({
      character: codePointLabel(t.cp),
      name: nameOf(t.cp),
      occurrences: t.occurrences,
      replaced_with: t.replaced_with
    })
  }
  if (text.length === 0) notice = EMPTY_NOTICE_CONVERTED

  if (!unicode) {
    return {
      text,
      encoding: gsmEncoding("Unicode", gSeptets, gChars, concatenated, () => gParts, changes, notice)
    }
  }
  const encoding: Encoding = {
    requested: "Unicode",
    final: "Unicode",
    converted: changes.length > 0,
    segments: segmentsOf(uUnits, UCS_PER_SMS, concatenated, uParts),
    characters: uChars,
    characters_per_sms: UCS_PER_SMS,
    changes
  }
  return { text, encoding: notice === undefined ? encoding : { ...encoding, notice } }
}

/**
 * The parts a carrier needs for `text` already in `final` encoding (the `text` of `analyzeBody`):
 * one part when it fits a single SMS (160 septets / 70 UTF-16 units), otherwise parts of at most
 * 153 septets / 67 units, filled greedily, never splitting an escape pair or a surrogate pair.
 * Empty text has no parts. Throws a RangeError when `final` is GSM-7 and `text` is not GSM-7 text.
 */
export const splitParts = (text: string, final: EncodingName): Array<string> => {
  if (text.length === 0) return []
  if (final === "GSM-7") {
    let septets = 0
    for (let i = 0; i < text.length; i++) {
      const u = GSM7_UNITS[text.charCodeAt(i)]
      if (u === 0) throw new RangeError(`splitParts: ${codePointLabel(text.codePointAt(i)!)} is not GSM-7`)
      septets += u
    }
    if (septets <= GSM_PER_SMS) return [text]
    const parts: Array<string> = []
    let start = 0
    let fill = 0
    for (let i = 0; i < text.length; i++) {
      const u = GSM7_UNITS[text.charCodeAt(i)]
      if (fill + u > GSM_PER_PART) {
        parts.push(text.slice(start, i))
        start = i
        fill = 0
      }
      fill += u
    }
    parts.push(text.slice(start))
    return parts
  }
  if (text.length <= UCS_PER_SMS) return [text]
  const parts: Array<string> = []
  let start = 0
  let fill = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const w = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && isLow(text.charCodeAt(i + 1)) ? 2 : 1
    if (fill + w > UCS_PER_PART) {
      parts.push(text.slice(start, i))
      start = i
      fill = 0
    }
    fill += w
    i += w - 1
  }
  parts.push(text.slice(start))
  return parts
}

/**
 * Segments `text` takes in `final` encoding under `partSizing` (decisions.md §9), without conversion:
 * `analyzeBody(body).encoding.segments === countSegments(text, final)` for its own `text` and `final`.
 */
export const countSegments = (text: string, final: EncodingName, partSizing: PartSizing = "single"): number => {
  const concatenated = partSizing === "concatenated"
  if (final === "GSM-7") {
    let septets = 0
    for (let i = 0; i < text.length; i++) septets += GSM7_UNITS[text.charCodeAt(i)]
    return segmentsOf(septets, GSM_PER_SMS, concatenated, concatenated && septets > GSM_PER_SMS ? gsmParts(text) : 0)
  }
  return segmentsOf(
    text.length,
    UCS_PER_SMS,
    concatenated,
    concatenated && text.length > UCS_PER_SMS ? ucsParts(text) : 0
  )
}
