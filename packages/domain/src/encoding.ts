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
 *
 * Why one file of ≈490 lines: one concept (GSM-7/UCS-2 conversion and part sizing, spec §2.9);
 * the length is the character tables and their comments.
 */
import { Schema } from "effect"
import * as Classify from "./codePointClass.js"
import * as Gsm7 from "./gsm7.js"

// Module-local copies: hot loops must not read imported bindings (under a CommonJS transform, such
// as tsx's for scripts outside a "type": "module" package, each read is a getter call).
const { GSM7_UNITS } = Gsm7
const {
  BMP_CLASS,
  classOf,
  codePointLabel,
  GSM_EVENT,
  K_EMOJI,
  K_GSM_EXT,
  K_KEPT,
  K_UNSTORABLE,
  K_ZWJ,
  nameOf,
  replacementOf,
  UNICODE_EVENT
} = Classify

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

/** Options of `analyzeBody`. */
export interface AnalyzeOptions {
  /** decisions.md §9; `pricing.partSizing`. Default `single`. */
  readonly partSizing?: PartSizing | undefined
}

/** What `analyzeBody` answers: the text to send and its `encoding` object. */
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
  let septets = n
  let i = 0
  for (; i < n; i++) {
    const c = body.charCodeAt(i)
    if (GSM_EVENT[c] === 0) continue
    if (GSM7_UNITS[c] === 2) septets++
    else break
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
  return convert(body, i, septets - n, concatenated)
}

/**
 * Changes of one call, in order of first occurrence. Counts live in a shared typed array indexed by
 * code point (astral ones included: the pages never touched are never committed) that is zeroed
 * again when the call ends (`finish`), so counting costs an array increment, not a Map lookup.
 */
class Tallies {
  readonly cps: Array<number> = []
  readonly reps: Array<string> = []
  readonly counts = new Uint32Array(0x110000)
  /** Empties the tallies before a call (they are reused: analyzeBody is synchronous). */
  reset(): this {
    this.cps.length = 0
    this.reps.length = 0
    return this
  }
  add(cp: number, rep: string): void {
    if (this.counts[cp]++ === 0) {
      this.cps.push(cp)
      this.reps.push(rep)
    }
  }
  /** The changes, and the shared counts zeroed. */
  finish(keep: boolean): Array<EncodingChange> {
    const changes: Array<EncodingChange> = []
    const counts = this.counts
    for (let j = 0; j < this.cps.length; j++) {
      const cp = this.cps[j]
      if (keep) {
        changes.push({
          character: codePointLabel(cp),
          name: nameOf(cp),
          occurrences: counts[cp],
          replaced_with: this.reps[j]
        })
      }
      counts[cp] = 0
    }
    return changes
  }
}
const G_TALLIES = new Tallies()
const U_TALLIES = new Tallies()
/** [start, end) code-unit ranges removed from both forms (reused between calls). */
const REMOVED: Array<number> = []
/**
 * The GSM-7 text as UTF-16 code units (reused between calls, grown on demand), decoded once at the
 * end: a copy per code unit in the scanning loop is cheaper than slicing and joining pieces.
 */
let G_OUT = new Uint16Array(4096)
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
const UTF16BE = new TextDecoder("utf-16be", { ignoreBOM: true })
const UTF16LE = new TextDecoder("utf-16le", { ignoreBOM: true })
// browsers (the portal bundles this module) and other runtimes have no Buffer
const HAS_BUFFER = typeof Buffer === "function"
/**
 * The text of `units[0, length)` (every unit is a GSM-7 character: no surrogates). Buffer's native
 * UTF-16LE decoding is about 3x faster than TextDecoder's; TextDecoder serves big-endian hosts and
 * hosts without Buffer.
 */
const decodeUnits = (units: Uint16Array, length: number): string =>
  LITTLE_ENDIAN && HAS_BUFFER
    ? Buffer.from(units.buffer, units.byteOffset, 2 * length).toString("utf16le")
    : (LITTLE_ENDIAN ? UTF16LE : UTF16BE).decode(units.subarray(0, length))

/** The body without the removed ranges. */
const withoutRemoved = (body: string, removed: ReadonlyArray<number>): string => {
  if (removed.length === 0) return body
  let out = ""
  let from = 0
  for (let j = 0; j < removed.length; j += 2) {
    if (removed[j] > from) out += body.slice(from, removed[j])
    from = removed[j + 1]
  }
  return from < body.length ? out + body.slice(from) : out
}

const unicodeNotice = (firstKept: number, removals: number): string =>
  `Sent as Unicode (${UCS_PER_SMS} characters per SMS): GSM-7 cannot carry "${String.fromCodePoint(firstKept)}" (${
    nameOf(firstKept)
  }), so the text is sent as written${removals > 0 ? ", except the removals listed in changes" : ""}.`

/**
 * The slow path, from `start`, the first code unit outside GSM-7 (everything before it is GSM-7,
 * with `prefixExt` extension characters). One pass builds both candidate texts: the GSM-7 form
 * (every rule applied) until a character no rule converts shows up, and the Unicode form (only
 * emoji, NUL and lone surrogates removed), which changes only on removals. The loops skip the
 * code units their event table marks 0 (a predictable branch: near the cost of a bare loop).
 */
const convert = (body: string, start: number, prefixExt: number, concatenated: boolean): AnalyzedBody => {
  const n = body.length
  let firstKept = -1 // the first character no rule converts; from there on the text is Unicode
  let removals = 0 // code points removed from both forms
  let removedUnits = 0
  let pairs = 0 // surrogate pairs
  let conversions = 0 // code points the GSM-7 form rewrites or drops beyond the removals
  let gExtra = prefixExt // septets of the GSM-7 form beyond one per code unit
  if (G_OUT.length < n + 64) G_OUT = new Uint16Array(Math.max(2 * n, 4096))
  let gOut = G_OUT
  for (let j = 0; j < start; j++) gOut[j] = body.charCodeAt(j)
  let o = start // code units written to gOut
  let gChanged = false // whether the GSM-7 form differs from the body
  const removed = REMOVED
  removed.length = 0
  const gTallies = G_TALLIES.reset()
  const uTallies = U_TALLIES.reset()
  let emojiEnd = -1 // index just after the last removed emoji (or ZWJ following one)
  let events = GSM_EVENT
  for (let i = start; i < n; i++) {
    let c = body.charCodeAt(i)
    if (events[c] === 0) {
      // A tight inner loop over the code units the tables skip (most of a body), copied to the
      // GSM-7 form while it is still wanted.
      if (firstKept < 0) {
        do {
          gOut[o++] = c
          i++
        } while (i < n && events[c = body.charCodeAt(i)] === 0)
      } else {
        do i++
        while (i < n && events[c = body.charCodeAt(i)] === 0)
      }
      if (i === n) break
    }
    let k = BMP_CLASS[c]
    if (k === 0) k = classOf(c)
    if (k <= K_GSM_EXT) {
      gExtra++ // an extension character (the default alphabet is skipped)
      gOut[o++] = c
      continue
    }
    const at = i
    let cp = c
    let w = 1
    if (k === K_UNSTORABLE && c >= 0xd800 && c <= 0xdbff && i + 1 < n && isLow(body.charCodeAt(i + 1))) {
      cp = ((c - 0xd800) << 10) + (body.charCodeAt(i + 1) - 0xdc00) + 0x10000
      w = 2
      pairs++
      i++
      k = classOf(cp)
    }
    if (k === K_EMOJI || k === K_UNSTORABLE || (k === K_ZWJ && at === emojiEnd)) {
      emojiEnd = k === K_UNSTORABLE ? -1 : i + 1
      removals++
      removedUnits += w
      removed.push(at, i + 1)
      uTallies.add(cp, "")
      if (firstKept < 0) {
        gChanged = true
        gTallies.add(cp, "")
      }
      continue
    }
    if (firstKept >= 0) continue
    if (k === K_KEPT) {
      firstKept = cp
      events = UNICODE_EVENT
      continue
    }
    conversions++
    const rep = replacementOf(cp, k)
    gChanged = true
    gTallies.add(cp, rep)
    if (o + rep.length + (n - i) > gOut.length) {
      // Room for this replacement and a copy of the rest of the body.
      const grown = new Uint16Array(2 * gOut.length + rep.length + n)
      grown.set(gOut)
      G_OUT = gOut = grown
    }
    for (let r = 0; r < rep.length; r++) {
      const u = rep.charCodeAt(r)
      gOut[o++] = u
      gExtra += GSM7_UNITS[u] - 1
    }
  }
  const uUnits = n - removedUnits
  const uChars = n - pairs - removals

  let unicode: boolean
  let text: string
  let segments: number
  let notice: string | undefined
  if (firstKept >= 0) {
    unicode = true
    text = withoutRemoved(body, removed)
    segments = segmentsFor("Unicode", uUnits, text, concatenated)
    notice = unicodeNotice(firstKept, removals)
  } else {
    unicode = false
    text = gChanged ? decodeUnits(gOut, o) : body
    segments = segmentsFor("GSM-7", text.length + gExtra, text, concatenated)
    // Conversion never raises the price (only ellipses can make GSM-7 dearer than Unicode).
    if (conversions > 0 && segments > Math.ceil(uUnits / UCS_PER_SMS)) {
      const uText = withoutRemoved(body, removed)
      const unicodeSegments = segmentsFor("Unicode", uUnits, uText, concatenated)
      if (unicodeSegments < segments) {
        notice = `Sent as Unicode (${UCS_PER_SMS} characters per SMS): converting to GSM-7 would take ${segments} ${
          segments === 1 ? "segment" : "segments"
        } instead of ${unicodeSegments}.`
        unicode = true
        text = uText
        segments = unicodeSegments
      }
    }
  }

  const uChanges = uTallies.finish(unicode)
  const gChanges = gTallies.finish(!unicode)
  const changes = unicode ? uChanges : gChanges
  if (text.length === 0) notice = EMPTY_NOTICE_CONVERTED
  const encoding: Mutable<Encoding> = {
    requested: "Unicode",
    final: unicode ? "Unicode" : "GSM-7",
    converted: changes.length > 0,
    segments,
    characters: unicode ? uChars : text.length,
    characters_per_sms: unicode ? UCS_PER_SMS : GSM_PER_SMS,
    changes
  }
  if (notice !== undefined) encoding.notice = notice
  return { text, encoding }
}

type Mutable<A> = { -readonly [K in keyof A]: A[K] }

/** Segments from known units; walks the text only for concatenated sizing beyond one SMS. */
const segmentsFor = (final: EncodingName, units: number, text: string, concatenated: boolean): number => {
  const perSms = final === "GSM-7" ? GSM_PER_SMS : UCS_PER_SMS
  if (units === 0) return 0
  if (!concatenated) return Math.ceil(units / perSms)
  if (units <= perSms) return 1
  return final === "GSM-7" ? gsmParts(text) : ucsParts(text)
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
