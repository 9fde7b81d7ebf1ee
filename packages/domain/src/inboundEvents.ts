/**
 * What two-way SMS tells the customer: the `sms.received` and `optout.changed` webhook bodies (the
 * exact bytes signed and re-sent on every attempt) and the automatic replies to the opt-out
 * families, with their English and Kiswahili defaults.
 *
 * Pure: times are arguments.
 */
import type { InboundCommand } from "./inbound.js"
import { formatIsoWithOffset } from "./webhook.js"

/** A received message as its webhook tells it. */
export interface ReceivedEventInput {
  readonly messageId: string
  readonly from: string
  readonly to: string
  readonly keyword: string | null
  readonly text: string
  readonly parts: number
  readonly complete: boolean
  readonly receivedAt: Date
  /** When the event was written (`timestamp`, unix seconds). */
  readonly now: Date
  /** The last message the account sent to this handset from this number, if any. */
  readonly inReplyTo: string | null
}

/**
 * The `sms.received` body: `{ event, message_id, from, to, keyword, text, parts, complete,
 * received_at, timestamp, in_reply_to }`, in that order. `message_id` is the inbound message's uid,
 * stable across retries and redeliveries: receivers de-duplicate on it. `in_reply_to` stays the
 * last field: the SQL store writes a body made with `inReplyTo: null` and puts the uid in place of
 * its closing `null}` in the statement that finds it.
 */
export const receivedEventBody = (e: ReceivedEventInput): string =>
  JSON.stringify({
    event: "sms.received",
    message_id: e.messageId,
    from: e.from,
    to: e.to,
    keyword: e.keyword,
    text: e.text,
    parts: e.parts,
    complete: e.complete,
    received_at: formatIsoWithOffset(e.receivedAt),
    timestamp: Math.floor(e.now.getTime() / 1000),
    in_reply_to: e.inReplyTo
  })

/** An opt-out change as its webhook tells it. */
export interface OptOutEventInput {
  /** The inbound message that changed it (its uid). */
  readonly messageId: string
  /** The handset. */
  readonly phone: string
  /** `opted_out` after a STOP word, `opted_in` after a START word. */
  readonly status: "opted_out" | "opted_in"
  /** The word the handset sent, upper case. */
  readonly keyword: string
  /** The address it was sent to. */
  readonly to: string
  readonly changedAt: Date
  readonly now: Date
}

/** The `optout.changed` body: `{ event, message_id, phone, status, keyword, to, changed_at, timestamp }`. */
export const optOutEventBody = (e: OptOutEventInput): string =>
  JSON.stringify({
    event: "optout.changed",
    message_id: e.messageId,
    phone: e.phone,
    status: e.status,
    keyword: e.keyword,
    to: e.to,
    changed_at: formatIsoWithOffset(e.changedAt),
    timestamp: Math.floor(e.now.getTime() / 1000)
  })

/** The language of an automatic reply. */
export type ReplyLanguage = "en" | "sw"

/** The words of the opt-out families that are Kiswahili: the reply is then in Kiswahili. */
const KISWAHILI_WORDS: ReadonlySet<string> = new Set(["SITISHA", "ACHA", "ANZA", "MSAADA"])

/** The language to answer a command word in: Kiswahili for a Kiswahili word, else English. */
export const replyLanguageOf = (word: string): ReplyLanguage =>
  KISWAHILI_WORDS.has(word.trim().toUpperCase().replace(/[.!]+$/, "")) ? "sw" : "en"

/** An account's own auto-reply texts (null or absent: the default of that language). */
export type AutoReplyTexts = { readonly [K in `${InboundCommand}_${ReplyLanguage}`]?: string | null | undefined }

/** The default automatic replies. */
export const DEFAULT_AUTO_REPLIES: { readonly [K in `${InboundCommand}_${ReplyLanguage}`]: string } = {
  stop_en: "You have been unsubscribed and will receive no more messages from this number. Reply START to resubscribe.",
  stop_sw: "Umejiondoa na hutapokea ujumbe zaidi kutoka kwa nambari hii. Jibu ANZA kujiunga tena.",
  start_en: "You have been resubscribed and will receive messages from this number again. Reply STOP to unsubscribe.",
  start_sw: "Umejiunga tena na utapokea ujumbe kutoka kwa nambari hii. Jibu SITISHA kujiondoa.",
  help_en: "Reply STOP to unsubscribe, START to resubscribe.",
  help_sw: "Jibu SITISHA kujiondoa, ANZA kujiunga tena."
}

/** Most characters of an auto-reply text. */
export const AUTO_REPLY_MAX_LENGTH = 320

/** The automatic reply to `command` sent as `word`: the account's text, else the default, in the word's language. */
export const autoReplyText = (command: InboundCommand, word: string, texts: AutoReplyTexts): string => {
  const key = `${command}_${replyLanguageOf(word)}` as const
  const own = texts[key]
  return own !== null && own !== undefined && own.trim() !== "" ? own : DEFAULT_AUTO_REPLIES[key]
}
