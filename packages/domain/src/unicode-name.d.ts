/** Types for `unicode-name` (Unicode 18 names, aliases and labels; ships without declarations). */
declare module "unicode-name" {
  /** Best name of a character or of a known code point sequence (emoji, named sequences). */
  export function unicodeName(char: string | number): string | undefined
  /** The name the standard assigned to a code point (no corrections, no aliases). */
  export function unicodeBaseName(char: string | number): string | undefined
  /** Corrected name when the standard has a correction alias, else the base name. */
  export function unicodeCorrectName(char: string | number): string | undefined
  /** Correct name, or a readable alias for characters without a name (controls). */
  export function unicodeReadableName(char: string | number): string | undefined
  /** Graphic, Format, Control, Private-use, Surrogate, Noncharacter or Reserved. */
  export function unicodeType(char: string | number): string | undefined
}
