/**
 * What the conversion rules do with one code point (spec §2.9). Classes are computed from Unicode
 * properties (regular-expression property escapes) and the GSM-7 table on first sight of a code
 * point and cached, so the hot path is a typed-array lookup.
 * @internal
 */
import { unicodeName } from "unicode-name"
import * as Gsm7 from "./gsm7.js"

const GSM7_UNITS = Gsm7.GSM7_UNITS

/** In the default alphabet (1 septet). */
export const K_GSM = 1
/** In the extension table (2 septets). */
export const K_GSM_EXT = 2
/** Quote mark -> `'`. */
export const K_SINGLE_QUOTE = 3
/** Quote mark -> `"`. */
export const K_DOUBLE_QUOTE = 4
/** Dash, hyphen or minus sign -> `-`. */
export const K_DASH = 5
/** Horizontal ellipsis -> `...`. */
export const K_ELLIPSIS = 6
/** Non-breaking space, default-ignorable (zero-width, bidi, soft hyphen …) or generic combining mark -> removed. */
export const K_INVISIBLE = 7
/** Letter folded to a GSM-7 letter (canonical equivalent, or diacritics stripped). */
export const K_FOLD = 8
/** Emoji character or emoji component: always removed. */
export const K_EMOJI = 9
/** ZERO WIDTH JOINER: part of an emoji sequence after an emoji, else invisible. */
export const K_ZWJ = 10
/** NUL or a lone surrogate: cannot be stored or sent, always removed. */
export const K_UNSTORABLE = 11
/** A character GSM-7 cannot carry and no rule converts (a script such as Cyrillic): forces Unicode. */
export const K_KEPT = 12

const EMOJI =
  /^[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\uFE0E\uFE0F\u20E3\u{E0020}-\u{E007F}]$/u
const DASH = /^\p{Dash}$/u
const INVISIBLE = /^[\u00A0\u2007\u202F\p{Default_Ignorable_Code_Point}]$/u
/** Combining marks that belong to no particular script (or to Latin); a script's own marks (Devanagari vowel signs, virama …) are script text. */
const GENERIC_MARK = /^(?=\p{M})[\p{Script=Inherited}\p{Script=Common}\p{Script=Latin}]$/u
const MARKS = /\p{M}/gu
const LATIN = /^\p{Script=Latin}$/u
const LATIN_LETTER_NAME = /^LATIN (CAPITAL|SMALL) LETTER (?:DOTLESS )?([A-Z])(?: WITH .+)?$/

/** Curly and other typographic quote marks (and the spacing accents used as apostrophes). */
const SINGLE_QUOTES = new Set([
  0x2018, // LEFT SINGLE QUOTATION MARK
  0x2019, // RIGHT SINGLE QUOTATION MARK
  0x201a, // SINGLE LOW-9 QUOTATION MARK
  0x201b, // SINGLE HIGH-REVERSED-9 QUOTATION MARK
  0x2032, // PRIME
  0x2035, // REVERSED PRIME
  0x2039, // SINGLE LEFT-POINTING ANGLE QUOTATION MARK
  0x203a, // SINGLE RIGHT-POINTING ANGLE QUOTATION MARK
  0x02bc, // MODIFIER LETTER APOSTROPHE
  0x00b4, // ACUTE ACCENT
  0x0060, // GRAVE ACCENT
  0xff07 // FULLWIDTH APOSTROPHE
])
const DOUBLE_QUOTES = new Set([
  0x201c, // LEFT DOUBLE QUOTATION MARK
  0x201d, // RIGHT DOUBLE QUOTATION MARK
  0x201e, // DOUBLE LOW-9 QUOTATION MARK
  0x201f, // DOUBLE HIGH-REVERSED-9 QUOTATION MARK
  0x2033, // DOUBLE PRIME
  0x2036, // REVERSED DOUBLE PRIME
  0x00ab, // LEFT-POINTING DOUBLE ANGLE QUOTATION MARK
  0x00bb, // RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK
  0xff02 // FULLWIDTH QUOTATION MARK
])

const isGsmText = (s: string): boolean => {
  if (s.length === 0) return false
  for (let i = 0; i < s.length; i++) if (GSM7_UNITS[s.charCodeAt(i)] === 0) return false
  return true
}

const folds = new Map<number, string>()

/**
 * The GSM-7 text a letter folds to, or undefined. In order: a canonical equivalent that is GSM-7
 * (ANGSTROM SIGN -> Å, OHM SIGN -> Ω); the canonical decomposition without its combining marks
 * (ő -> o, ç -> c, Ș -> S); for Latin letters whose diacritic is not a combining mark (ł, đ, ħ, ı),
 * the base letter named by the Unicode name (LATIN SMALL LETTER L WITH STROKE -> l).
 */
const computeFold = (cp: number, char: string): string | undefined => {
  const nfc = char.normalize("NFC")
  if (nfc !== char && isGsmText(nfc)) return nfc
  const nfd = char.normalize("NFD")
  if (nfd !== char) {
    const stripped = nfd.replace(MARKS, "")
    if (isGsmText(stripped)) return stripped
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

const classifyUncached = (cp: number): number => {
  if (cp === 0 || (cp >= 0xd800 && cp <= 0xdfff)) return K_UNSTORABLE
  if (cp < 0x10000) {
    const units = GSM7_UNITS[cp]
    if (units === 1) return K_GSM
    if (units === 2) return K_GSM_EXT
  }
  const char = String.fromCodePoint(cp)
  if (EMOJI.test(char)) return K_EMOJI
  if (cp === 0x200d) return K_ZWJ
  if (SINGLE_QUOTES.has(cp)) return K_SINGLE_QUOTE
  if (DOUBLE_QUOTES.has(cp)) return K_DOUBLE_QUOTE
  if (DASH.test(char)) return K_DASH
  if (cp === 0x2026) return K_ELLIPSIS
  if (INVISIBLE.test(char) || GENERIC_MARK.test(char)) return K_INVISIBLE
  const fold = computeFold(cp, char)
  if (fold !== undefined) {
    folds.set(cp, fold)
    return K_FOLD
  }
  return K_KEPT
}

/** Class of each BMP code unit, 0 until first seen (read it directly in hot loops, else `classOf`). */
export const BMP_CLASS = new Uint8Array(0x10000)
const BMP = BMP_CLASS
/** Class of each astral code point, 0 until first seen (1 MiB). */
const ASTRAL = new Uint8Array(0x100000)

/** The class of a code point (lone surrogates are K_UNSTORABLE). */
export const classOf = (cp: number): number => {
  if (cp < 0x10000) {
    const k = BMP[cp]
    if (k !== 0) return k
    return (BMP[cp] = classifyUncached(cp))
  }
  const k = ASTRAL[cp - 0x10000]
  if (k !== 0) return k
  return (ASTRAL[cp - 0x10000] = classifyUncached(cp))
}

/** What a K_FOLD code point becomes. */
export const foldOf = (cp: number): string => folds.get(cp)!

/** Replacement of a code point in GSM-7-bound text, for every class but K_KEPT and K_GSM*. */
export const replacementOf = (cp: number, k: number): string => {
  switch (k) {
    case K_SINGLE_QUOTE:
      return "'"
    case K_DOUBLE_QUOTE:
      return "\""
    case K_DASH:
      return "-"
    case K_ELLIPSIS:
      return "..."
    case K_FOLD:
      return folds.get(cp)!
    default:
      return ""
  }
}

const names = new Map<number, string>()

/** Unicode name (or label, e.g. `<surrogate-D800>`, or alias for controls, e.g. NULL) of a code point. */
export const nameOf = (cp: number): string => {
  let name = names.get(cp)
  if (name === undefined) {
    name = unicodeName(cp) ?? `<unnamed-${cp.toString(16).toUpperCase().padStart(4, "0")}>`
    names.set(cp, name)
  }
  return name
}

/**
 * Event tables for the scanning loops (1 = look closer). `GSM_EVENT`: every code unit outside the
 * default alphabet (extension characters included, for their second septet). `UNICODE_EVENT`: what
 * can still change, or be counted, once a text is Unicode: NUL, surrogates, ZWJ and emoji characters.
 */
export const GSM_EVENT = new Uint8Array(0x10000).map((_, c) => (GSM7_UNITS[c] === 1 ? 0 : 1))
export const UNICODE_EVENT = new Uint8Array(0x10000)
{
  const bmpEmoji = /[\p{Extended_Pictographic}\uFE0E\uFE0F\u20E3]/u
  for (let c = 0; c < 0x10000; c++) {
    if (c === 0 || c === 0x200d || (c >= 0xd800 && c <= 0xdfff) || bmpEmoji.test(String.fromCharCode(c))) {
      UNICODE_EVENT[c] = 1
    }
  }
}

const labels = new Map<number, string>()

/** `U+XXXX`: uppercase hexadecimal, at least four digits. */
export const codePointLabel = (cp: number): string => {
  let label = labels.get(cp)
  if (label === undefined) {
    label = "U+" + cp.toString(16).toUpperCase().padStart(4, "0")
    labels.set(cp, label)
  }
  return label
}
