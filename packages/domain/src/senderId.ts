/**
 * Sender ID names and the rules published by the requirements endpoint (spec §2.7, §4.8, §4.9).
 */
import { Either } from "effect"
import { InvalidSenderId, type ValidationFailed } from "./errors.js"
import { validationFailed } from "./validation.js"

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
/** Fewest characters of an alphanumeric sender ID. */
export const SENDER_ID_MIN_LENGTH = 3
/** Most characters of an alphanumeric sender ID (the GSM limit). */
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

/** Fewest characters of a sender-ID request's sample message. */
export const SAMPLE_MESSAGE_MIN_LENGTH = 50
/** Most characters of a sender-ID request's sample message. */
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
/** The purpose a sender-ID request declares (one of `SENDER_ID_PURPOSES`). */
export type SenderIdPurpose = (typeof SENDER_ID_PURPOSES)[number]

/** Accepted document formats (spec §2.7, §8) and the default size ceiling (decisions.md §17). */
export const DOCUMENT_FORMATS = ["pdf", "jpg", "jpeg", "png"] as const
/** Default size ceiling of an uploaded document, in KiB, when a requirement sets none. */
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

// ---------------------------------------------------------------------------------------------
// Documents (spec §2.7, §4.9, decisions.md §17): formats checked by content, sizes by max_size_kb
// ---------------------------------------------------------------------------------------------

/** A document format a requirement may accept (one of `DOCUMENT_FORMATS`). */
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number]

/** A document requirement as listed by the requirements endpoint (spec §2.7 `documents`). */
export interface DocumentRequirement {
  readonly uid: string
  readonly name: string
  readonly is_required: boolean
  readonly accepted_formats?: ReadonlyArray<string> | undefined
  readonly max_size_kb?: number | undefined
}

/** A document as sent in JSON (`documents_base64` / `protection_documents_base64` entries). */
export interface Base64Document {
  readonly requirement_uid?: string | undefined
  readonly filename: string
  readonly content_base64: string
}

/** An uploaded document after decoding: its requirement, file name and bytes. */
export interface DecodedDocument {
  readonly requirement_uid: string | null
  readonly filename: string
  /** Format found in the content (`jpg` for every JPEG). */
  readonly format: "pdf" | "jpg" | "png"
  readonly bytes: Uint8Array
}

/** The format of a file by its first bytes (PDF `%PDF-`, PNG signature, JPEG `FF D8 FF`). */
export const detectDocumentFormat = (bytes: Uint8Array): "pdf" | "jpg" | "png" | undefined => {
  const at = (i: number) => bytes[i]
  if (at(0) === 0x25 && at(1) === 0x50 && at(2) === 0x44 && at(3) === 0x46 && at(4) === 0x2d) return "pdf"
  if (
    at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47 &&
    at(4) === 0x0d && at(5) === 0x0a && at(6) === 0x1a && at(7) === 0x0a
  ) return "png"
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return "jpg"
  return undefined
}

/** Decodes base64 content (standard or URL-safe, whitespace ignored, optional `data:…;base64,`). */
export const decodeBase64Content = (content: string): Uint8Array =>
  new Uint8Array(Buffer.from(content.replace(/^data:[^,]*;base64,/, ""), "base64"))

const familyOf = (format: string): string => {
  const f = format.toLowerCase()
  return f === "jpeg" ? "jpg" : f
}

const extensionOf = (filename: string): string => {
  const dot = filename.lastIndexOf(".")
  return dot === -1 ? "" : familyOf(filename.slice(dot + 1))
}

/**
 * Checks every uploaded document of a sender ID request against the requirements (spec §4.9,
 * decisions.md §17): each `requirement_uid` must be a listed requirement, every requirement with
 * `is_required` must be attached, the content (magic bytes) must be an accepted format whose
 * extension the file name carries (`jpg`/`jpeg` alike), and the decoded size must not exceed the
 * requirement's `max_size_kb` (default {@link DEFAULT_DOCUMENT_MAX_SIZE_KB}). Protection documents
 * use the default formats and size. All problems are answered at once with paths such as
 * `documents_base64.1.content_base64`.
 */
export const checkSenderIdDocuments = (
  request: {
    readonly documents_base64?: ReadonlyArray<Base64Document> | null | undefined
    readonly protection_documents_base64?: ReadonlyArray<Base64Document> | null | undefined
  },
  requirements: ReadonlyArray<DocumentRequirement>,
  defaultMaxSizeKb: number = DEFAULT_DOCUMENT_MAX_SIZE_KB
): Either.Either<
  { readonly documents: ReadonlyArray<DecodedDocument>; readonly protection_documents: ReadonlyArray<DecodedDocument> },
  ValidationFailed
> => {
  const errors: Record<string, Array<string>> = {}
  const add = (path: string, message: string) => (errors[path] ??= []).push(message)
  const byUid = new Map(requirements.map((r) => [r.uid.toLowerCase(), r]))

  const check = (doc: Base64Document, path: string, requirement: DocumentRequirement | undefined) => {
    const listed = requirement?.accepted_formats ?? DOCUMENT_FORMATS
    const accepted = listed.map(familyOf)
    const maxKb = requirement?.max_size_kb ?? defaultMaxSizeKb
    const bytes = decodeBase64Content(doc.content_base64)
    const format = detectDocumentFormat(bytes)
    let ok = true
    if (!accepted.includes(extensionOf(doc.filename))) {
      add(`${path}.filename`, `The ${path}.filename field must be a file of type: ${listed.join(", ")}.`)
      ok = false
    }
    if (format === undefined || !accepted.includes(format)) {
      add(`${path}.content_base64`, `The ${path}.content_base64 field must be a ${listed.join(", ")} file.`)
      ok = false
    } else if (ok && extensionOf(doc.filename) !== format) {
      add(`${path}.content_base64`, `The ${path}.content_base64 field content does not match its file name.`)
      ok = false
    }
    if (bytes.length > maxKb * 1024) {
      add(`${path}.content_base64`, `The ${path}.content_base64 field must not be greater than ${maxKb} kilobytes.`)
      ok = false
    }
    return ok && format !== undefined
      ? { requirement_uid: requirement?.uid ?? null, filename: doc.filename, format, bytes }
      : undefined
  }

  const documents: Array<DecodedDocument> = []
  const attached = new Set<string>()
  ;(request.documents_base64 ?? []).forEach((doc, i) => {
    const path = `documents_base64.${i}`
    const requirement = doc.requirement_uid === undefined ? undefined : byUid.get(doc.requirement_uid.toLowerCase())
    if (requirement === undefined) {
      add(`${path}.requirement_uid`, `The selected ${path}.requirement_uid is invalid.`)
      return
    }
    attached.add(requirement.uid)
    const decoded = check(doc, path, requirement)
    if (decoded !== undefined) documents.push(decoded)
  })
  for (const r of requirements) {
    if (r.is_required && !attached.has(r.uid)) add("documents_base64", `The document "${r.name}" is required.`)
  }
  const protection_documents: Array<DecodedDocument> = []
  ;(request.protection_documents_base64 ?? []).forEach((doc, i) => {
    const decoded = check(doc, `protection_documents_base64.${i}`, undefined)
    if (decoded !== undefined) protection_documents.push(decoded)
  })
  return Object.keys(errors).length > 0
    ? Either.left(validationFailed(errors))
    : Either.right({ documents, protection_documents })
}
