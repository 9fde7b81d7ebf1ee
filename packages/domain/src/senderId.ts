/**
 * Sender ID names and the rules published by the requirements endpoint (spec §2.7, §4.8, §4.9).
 */
import { Either } from "effect"
import { InvalidSenderId } from "./errors.js"

/** Names always refused (spec §2.7). */
export const RESERVED_SENDER_IDS: ReadonlyArray<string> = [
  "ADMIN",
  "ALERT",
  "BANK",
  "BANKING",
  "GOV",
  "GOVT",
  "INFO",
  "LOGIN",
  "NOTICE",
  "OTP",
  "PASSWORD",
  "SECURE",
  "SECURITY",
  "SERVICE",
  "SUPPORT",
  "SYSTEM",
  "TAX",
  "UNKNOWN",
  "UNVERIFIED",
  "VERIFY",
  "WHATSAPP"
]

const RESERVED = new Set(RESERVED_SENDER_IDS)

/** Pattern of spec §2.7: letters, digits and single spaces between words. */
export const SENDER_ID_PATTERN = /^[A-Za-z0-9]+( [A-Za-z0-9]+)*$/
export const SENDER_ID_MIN_LENGTH = 3
export const SENDER_ID_MAX_LENGTH = 11

/** `sender_id_rules` of the requirements response (spec §2.7). */
export const senderIdRules = {
  min_length: SENDER_ID_MIN_LENGTH,
  max_length: SENDER_ID_MAX_LENGTH,
  pattern: SENDER_ID_PATTERN.source,
  description: "3 to 11 characters: letters A-Z, digits and single spaces between words; no symbols or " +
    "accents. Outer spaces are trimmed, repeated spaces collapsed, and the name is stored in uppercase. " +
    "Reserved names are always refused.",
  reserved_names: RESERVED_SENDER_IDS
} as const

export const SAMPLE_MESSAGE_MIN_LENGTH = 50
export const SAMPLE_MESSAGE_MAX_LENGTH = 500

/** `sample_message_rules` of the requirements response (spec §2.7). */
export const sampleMessageRules = {
  min_length: SAMPLE_MESSAGE_MIN_LENGTH,
  max_length: SAMPLE_MESSAGE_MAX_LENGTH,
  description: "50 to 500 characters: a real message you will send with this sender ID."
} as const

/** Allowed `purpose` values of a sender ID request (spec §4.9). */
export const SENDER_ID_PURPOSES = [
  "Notification",
  "Transactional",
  "OTP / Verification",
  "Promotional",
  "Marketing",
  "Alerts & Reminders",
  "Other"
] as const
export type SenderIdPurpose = (typeof SENDER_ID_PURPOSES)[number]

/** Accepted document formats (spec §2.7, §8) and the default size ceiling (decisions.md §17). */
export const DOCUMENT_FORMATS = ["pdf", "jpg", "jpeg", "png"] as const
export const DEFAULT_DOCUMENT_MAX_SIZE_KB = 5120

/** Trim, collapse every run of whitespace to one space, uppercase. Never fails. */
export const canonicalSenderId = (raw: string): string => raw.trim().replace(/\s+/g, " ").toUpperCase()

/** True when the canonical name is reserved, also when spelled with spaces (`O T P`). */
export const isReservedSenderId = (name: string): boolean => {
  const canonical = canonicalSenderId(name)
  return RESERVED.has(canonical) || RESERVED.has(canonical.replace(/ /g, ""))
}

/**
 * Normalises a requested sender ID (spec §2.7): trims, collapses whitespace runs (spaces, tabs) to a
 * single space, uppercases, then requires 3–11 characters, the pattern and a name that is not
 * reserved (compared after normalisation and also with the spaces removed, so `o t p` is refused).
 */
export const normalizeSenderId = (raw: string): Either.Either<string, InvalidSenderId> => {
  // the pattern is checked before uppercasing: "ß".toUpperCase() is "SS", "ﬁ" becomes "FI"
  const collapsed = raw.trim().replace(/\s+/g, " ")
  const name = collapsed.toUpperCase()
  const fail = (message: string) => Either.left(new InvalidSenderId({ message, sender_id: raw }))
  if (collapsed.length < SENDER_ID_MIN_LENGTH) {
    return fail(`The sender ID must be at least ${SENDER_ID_MIN_LENGTH} characters.`)
  }
  if (collapsed.length > SENDER_ID_MAX_LENGTH) {
    return fail(`The sender ID must not be greater than ${SENDER_ID_MAX_LENGTH} characters.`)
  }
  if (!SENDER_ID_PATTERN.test(collapsed)) {
    return fail("The sender ID may contain only letters A-Z, digits and single spaces between words.")
  }
  if (isReservedSenderId(name)) return fail(`The sender ID ${name} is reserved and cannot be requested.`)
  return Either.right(name)
}
