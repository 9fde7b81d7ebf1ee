/**
 * A character's name as the Send SMS preview shows it. In English, its Unicode name ("LEFT DOUBLE
 * QUOTATION MARK"); in Kiswahili there is no such list, so the name is what the conversion rules see
 * in it, in words, with its code point: "alama ya kunukuu (U+201C)" (docs/decisions.md).
 */
import {
  classOf,
  K_DASH,
  K_DOUBLE_QUOTE,
  K_ELLIPSIS,
  K_EMOJI,
  K_FOLD,
  K_INVISIBLE,
  K_SINGLE_QUOTE,
  K_UNSTORABLE,
  K_ZWJ
} from "@tuma/domain/codePointClass"
import type { Lang, T } from "./i18n.js"

const kinds = new Map<number, string>([
  [K_SINGLE_QUOTE, "single quotation mark"],
  [K_DOUBLE_QUOTE, "double quotation mark"],
  [K_DASH, "dash"],
  [K_ELLIPSIS, "ellipsis"],
  [K_INVISIBLE, "invisible character"],
  [K_FOLD, "letter with an accent"],
  [K_EMOJI, "emoji"],
  [K_ZWJ, "emoji joiner"],
  [K_UNSTORABLE, "character that cannot be stored"]
])

/** `character` is the preview's `U+201C`; `name` its Unicode name. */
export const characterName = (lang: Lang, t: T, character: string, name: string): string => {
  if (lang === "en") return name
  const cp = parseInt(character.slice(2), 16)
  return `${t(kinds.get(classOf(cp)) ?? "character")} (${character})`
}
