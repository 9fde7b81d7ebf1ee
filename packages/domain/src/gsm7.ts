/**
 * The GSM 03.38 (3GPP TS 23.038) default alphabet and its extension table.
 *
 * This is the standard's own table (code -> character), not a Unicode data table: position `n` of
 * `GSM7_BASIC` is the character of septet `n`; `GSM7_EXTENSION` lists the characters reached with the
 * escape septet 0x1B. Everything else here is derived from these two constants.
 */

/** Septet 0x1B: escape to the extension table. */
export const GSM7_ESCAPE = 0x1b

/** The 128 characters of the default alphabet in septet order (0x1B, the escape, is a placeholder). */
export const GSM7_BASIC = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
  "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"

/** The extension table: character -> septet that follows the escape (form feed, ^ { } \ [ ~ ] | €). */
export const GSM7_EXTENSION: ReadonlyArray<readonly [char: string, septet: number]> = [
  ["\f", 0x0a],
  ["^", 0x14],
  ["{", 0x28],
  ["}", 0x29],
  ["\\", 0x2f],
  ["[", 0x3c],
  ["~", 0x3d],
  ["]", 0x3e],
  ["|", 0x40],
  ["€", 0x65]
]

/**
 * Septets per UTF-16 code unit: 1 for the default alphabet, 2 for the extension table, 0 when GSM-7
 * cannot carry it. Every GSM-7 character is in the BMP, so one code unit is one character.
 * @internal
 */
export const GSM7_UNITS: Uint8Array = new Uint8Array(0x10000)
const ENCODE = new Int16Array(0x10000).fill(-1)
const DECODE_BASIC: Array<string> = []
const DECODE_EXTENSION = new Map<number, string>()

for (let septet = 0; septet < 128; septet++) {
  const code = GSM7_BASIC.charCodeAt(septet)
  DECODE_BASIC.push(GSM7_BASIC[septet])
  if (septet === GSM7_ESCAPE) continue
  GSM7_UNITS[code] = 1
  ENCODE[code] = septet
}
for (const [char, septet] of GSM7_EXTENSION) {
  GSM7_UNITS[char.charCodeAt(0)] = 2
  ENCODE[char.charCodeAt(0)] = septet
  DECODE_EXTENSION.set(septet, char)
}

/** Septets the character takes (1 or 2), or 0 when it is not a GSM-7 character. */
export const gsm7Septets = (char: string): 0 | 1 | 2 => {
  const units = char.length === 1 ? GSM7_UNITS[char.charCodeAt(0)] : 0
  return units === 1 || units === 2 ? units : 0
}

/** True when every character of `text` is in the default alphabet or the extension table. */
export const isGsm7 = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    if (GSM7_UNITS[text.charCodeAt(i)] === 0) return false
  }
  return true
}

/** Septets `text` takes in GSM-7 (extension characters count 2); -1 when it is not GSM-7 text. */
export const gsm7Length = (text: string): number => {
  let units = 0
  for (let i = 0; i < text.length; i++) {
    const u = GSM7_UNITS[text.charCodeAt(i)]
    if (u === 0) return -1
    units += u
  }
  return units
}

/**
 * The unpacked septets of `text` (one byte per septet, 0x1B before each extension character): the
 * `short_message` of an SMPP submit with `data_coding` 0 on SMSCs that take unpacked GSM-7.
 * Throws a RangeError when `text` holds a character GSM-7 cannot carry (analyse the body first).
 */
export const toGsm7Octets = (text: string): Uint8Array => {
  const length = gsm7Length(text)
  if (length < 0) {
    throw new RangeError("toGsm7Octets: the text holds a character GSM-7 cannot carry")
  }
  const out = new Uint8Array(length)
  let o = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (GSM7_UNITS[code] === 2) out[o++] = GSM7_ESCAPE
    out[o++] = ENCODE[code]
  }
  return out
}

/**
 * Text of unpacked GSM-7 septets (the inverse of `toGsm7Octets`). An escape followed by a septet the
 * extension table does not define decodes as the default-alphabet character (3GPP TS 23.038 §6.2.1.1);
 * a trailing escape is dropped. Bits above the seventh are ignored.
 */
export const fromGsm7Octets = (octets: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < octets.length; i++) {
    const septet = octets[i] & 0x7f
    if (septet === GSM7_ESCAPE) {
      if (i + 1 >= octets.length) break
      const next = octets[++i] & 0x7f
      out += DECODE_EXTENSION.get(next) ?? (next === GSM7_ESCAPE ? " " : DECODE_BASIC[next])
    } else {
      out += DECODE_BASIC[septet]
    }
  }
  return out
}
