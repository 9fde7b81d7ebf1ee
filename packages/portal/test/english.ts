/**
 * The detector of English on a Kiswahili page, shared by the portal's walk (kiswahili.e2e.test.ts)
 * and the console's (console.e2e.test.ts): the visible text (and placeholders, labels for assistive
 * technology, titles) read word by word; a word that is English (a word of the portal's and console's
 * English texts or of the server's message catalogue that no Kiswahili text uses, or a common English
 * word) is reported, unless it is a name, a brand or a technical token (allow-list) or sits in what a
 * person wrote (`translate="no"`, code, quotes, times).
 */
import { MESSAGE_TEMPLATES } from "@tuma/domain/messages"
import { sw } from "../src/sw.js"
import type { Page } from "./harness.js"

const WORD = /[A-Za-z][A-Za-z']*/g
const wordsOf = (text: string) => (text.replace(/\{\w+\}/g, " ").match(WORD) ?? []).map((w) => w.toLowerCase())

/** Names, brands and technical tokens a Kiswahili page may show as they are. */
const ALLOWED = new Set([
  "tuma",
  "sms",
  "api",
  "csv",
  "url",
  "id",
  "ids",
  "otp",
  "unicode",
  "gsm",
  "utf",
  "uuid",
  "iso",
  "iana",
  "pdf",
  "jpg",
  "jpeg",
  "png",
  "kb",
  "json",
  "http",
  "https",
  "webhook",
  "webhooks",
  "english",
  "kiswahili",
  "tanzania",
  "kenya",
  "uganda",
  "rwanda",
  "burundi",
  "africa",
  "dar",
  "es",
  "salaam",
  "demo",
  "co",
  "e",
  "x",
  "ok",
  "tzs",
  "utc"
])

/** Common English words: on a Kiswahili page they are always a missed translation. */
const COMMON = [
  "the",
  "is",
  "are",
  "a",
  "an",
  "of",
  "to",
  "and",
  "or",
  "your",
  "you",
  "not",
  "be",
  "must",
  "field",
  "with",
  "for",
  "this",
  "that",
  "was",
  "has",
  "have",
  "no",
  "yes",
  "on",
  "in",
  "at",
  "by",
  "from",
  "it",
  "its",
  "can",
  "will",
  "sent",
  "send",
  "message",
  "messages",
  "number",
  "recipient",
  "please",
  "error",
  "invalid",
  "required",
  "failed"
]

const swWords = new Set(Object.values(sw).flatMap(wordsOf))
/** Words of the portal's and the server's English that no Kiswahili text uses. */
const englishWords = new Set(
  [...Object.keys(sw), ...Object.values(MESSAGE_TEMPLATES), COMMON.join(" ")].flatMap(wordsOf)
    .filter((w) => !swWords.has(w) && !ALLOWED.has(w))
)

/** The page's text as a person (or a screen reader) meets it, without what the customer wrote. */
export const visibleText = (page: Page) =>
  page.evaluate(() => {
    const { document, NodeFilter } = globalThis as any
    const skip = (e: any) => e.closest("[translate=no], code, script, style, time, q") !== null
    const out: Array<string> = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
      if (n.parentElement !== null && !skip(n.parentElement)) out.push(n.textContent)
    }
    // an accessible name of its own: placeholders, titles, and labels of controls that show no text
    for (const e of document.querySelectorAll("[placeholder], [aria-label], [title]")) {
      if (skip(e) || (e.getAttribute("aria-label") !== null && (e.textContent ?? "").trim() !== "")) continue
      for (const a of ["placeholder", "aria-label", "title"]) if (e.getAttribute(a)) out.push(e.getAttribute(a))
    }
    return out.join("\n")
  })

/** The English words of a text, with the line each stands in. */
export const englishIn = (text: string): Array<string> =>
  text
    .replace(
      /https?:\/\/\S+|\S+@\S+|\{[^}]*\}|[\w-]+(?:[:._/][\w-]+)+|U\+[0-9A-F]{4,6}|[0-9a-f]{8}-[0-9a-f-]{27}|\b\S+\.(?:csv|pdf|png|jpg)\b/g,
      " "
    )
    .split("\n")
    .flatMap((line) =>
      (line.match(WORD) ?? [])
        .filter((w) => !(w.length > 1 && w === w.toUpperCase())) // sender IDs and acronyms
        .filter((w) => englishWords.has(w.toLowerCase()))
        .map((w) => `${w} — in "${line.trim().slice(0, 120)}"`)
    )
