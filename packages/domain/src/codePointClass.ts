/**
 * What the conversion rules do with one code point (spec §2.9). Classes are computed from Unicode
 * properties (regular-expression property escapes) and the GSM-7 table on first sight of a code
 * point and cached, so the hot path is a typed-array lookup.
 * @internal
 */
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

/**
 * The Latin letters whose diacritic is not a combining mark (ł, đ, ħ, ı, ŧ …), so that no
 * normalisation folds them, by the base letter their Unicode name gives (`LATIN SMALL LETTER L WITH
 * STROKE` -> l): every code point whose name matches `LATIN (CAPITAL|SMALL) LETTER (DOTLESS )?X( WITH
 * …)?` and that NFC and NFD do not fold, in hexadecimal (`a-b`: a range). Written out from
 * `unicode-name` (Unicode 18) so that classifying a code point does not load the 5 MB name table;
 * test/codePointClass.test.ts checks it against the names over every code point.
 */
const LATIN_BASE_LETTERS: Readonly<Record<string, string>> = {
  A: "23a",
  B: "181-182 243 a796",
  C: "187 23b a792 a7c4",
  D: "110 18a-18b 1c5 1f2 a7c7",
  E: "246",
  F: "191 a798",
  G: "193 1e4 a7a0",
  H: "126 2c67 a7aa",
  I: "197",
  J: "248 a7b2",
  K: "198 2c69 a740 a742 a744 a7a2",
  L: "13f 141 1c8 23d 2c60 2c62 a748 a7ad",
  M: "2c6e",
  N: "19d 1cb 220 a790 a7a4",
  O: "d8 19f 1fe a74a a74c",
  P: "1a4 2c63 a750 a752 a754",
  Q: "a756 a758",
  R: "24c 2c64 a7a6",
  S: "2c7e a7a8 a7c5 a7c9 a7cc",
  T: "166 1ac 1ae 23e",
  U: "a7b8",
  V: "1b2 a75e",
  W: "2c72",
  Y: "1b3 24e 1efe",
  Z: "1b5 224 2c6b 2c7f a7c6",
  a: "1d8f 1e9a 2c65",
  b: "180 183 253 1d6c 1d80 a797",
  c: "188 23c 255 a793-a794 1df1d",
  d: "111 18c 221 256-257 1d6d 1d81 1d91 a7c8 1df25",
  e: "247 1d92 2c78 ab34",
  f: "192 1d6e 1d82 a799",
  g: "1e5 260 1d83 a7a1",
  h: "127 266 2c68 a795",
  i: "131 268 1d96 1df1a",
  j: "237 249 25f 284 29d",
  k: "199 1d84 2c6a a741 a743 a745 a7a3",
  l: "140 142 19a 234 26b-26d 1d85 2c61 a749 a78e ab37-ab39 1df11 1df13 1df26",
  m: "271 1d6f 1d86 ab3a",
  n: "19e 235 272-273 1d70 1d87 a791 a7a5 ab3b 1df27",
  o: "f8 1ff 2c7a a74b a74d 1df1b",
  p: "1a5 1d71 1d7d 1d88 a751 a753 a755",
  q: "24b 2a0 a757 a759",
  r: "24d 27c-27e 1d72-1d73 1d89 a7a7 ab49 1df16 1df28",
  s: "23f 282 1d74 1d8a a7a9 a7ca a7cd 1df1e 1df29",
  t: "167 1ab 1ad 236 288 1d75 2c66 1df09 1df2a",
  u: "1d99 a7b9 ab4e ab52",
  v: "28b 1d8c 2c71 2c74 a75f",
  w: "2c73",
  x: "1d8d ab56-ab59",
  y: "1b4 24f 1eff ab5a",
  z: "1b6 225 240 290-291 1d76 1d8e 2c6c"
}
let latinBase: Map<number, string> | undefined
const latinBaseOf = (cp: number): string | undefined => {
  if (latinBase === undefined) {
    latinBase = new Map()
    for (const [letter, list] of Object.entries(LATIN_BASE_LETTERS)) {
      for (const item of list.split(" ")) {
        const [from, to = from] = item.split("-").map((h) => parseInt(h, 16))
        for (let cp = from; cp <= to; cp++) latinBase.set(cp, letter)
      }
    }
  }
  return latinBase.get(cp)
}

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
 * the base letter named by the Unicode name (LATIN SMALL LETTER L WITH STROKE -> l; `LATIN_BASE_LETTERS`).
 */
const computeFold = (cp: number, char: string): string | undefined => {
  const nfc = char.normalize("NFC")
  if (nfc !== char && isGsmText(nfc)) return nfc
  const nfd = char.normalize("NFD")
  if (nfd !== char) {
    const stripped = nfd.replace(MARKS, "")
    if (isGsmText(stripped)) return stripped
  }
  if (LATIN.test(char)) return latinBaseOf(cp)
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

/** `unicodeName` of the `unicode-name` package. */
export type NameSource = (cp: number) => string | undefined
let nameSource: NameSource | undefined

/**
 * Sets where names come from. Under Node the `unicode-name` table (≈10 MB of heap once loaded) is
 * required on the first `nameOf`, i.e. when a response first lists a change or names a character;
 * a host without Node's module loader (the portal's browser bundle) imports
 * `@tuma/domain/unicodeNames`, which calls this.
 */
export const setNameSource = (source: NameSource): void => {
  nameSource = source
}

/** The property `key` of `value` (`undefined` when `value` is no object or function). */
const field = (value: unknown, key: string): unknown =>
  (typeof value === "object" && value !== null) || typeof value === "function" ? Reflect.get(value, key) : undefined

/** Node's loader functions (`getBuiltinModule`, `createRequire`, `require`) each take one string. */
const isLoader = (value: unknown): value is (arg: string) => unknown => typeof value === "function"

/** `unicodeName` takes a code point; only that it is a function can be checked. */
const isNameSource = (value: unknown): value is NameSource => typeof value === "function"

const loadNameSource = (): NameSource => {
  const getBuiltinModule = field(field(globalThis, "process"), "getBuiltinModule")
  if (!isLoader(getBuiltinModule)) {
    throw new Error("Unicode names are not loaded: import \"@tuma/domain/unicodeNames\" in this host")
  }
  const createRequire = field(getBuiltinModule("node:module"), "createRequire")
  if (!isLoader(createRequire)) throw new Error("node:module has no createRequire")
  const load = createRequire(import.meta.url)
  if (!isLoader(load)) throw new Error("createRequire gave no require function")
  const unicodeName = field(load("unicode-name"), "unicodeName")
  if (!isNameSource(unicodeName)) throw new Error("unicode-name exports no unicodeName function")
  return unicodeName
}

/** Unicode name (or label, e.g. `<surrogate-D800>`, or alias for controls, e.g. NULL) of a code point. */
export const nameOf = (cp: number): string => {
  let name = names.get(cp)
  if (name === undefined) {
    if (nameSource === undefined) nameSource = loadNameSource()
    name = nameSource(cp) ?? `<unnamed-${cp.toString(16).toUpperCase().padStart(4, "0")}>`
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
