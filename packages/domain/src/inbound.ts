/**
 * Two-way SMS: the rules of a message a handset sends to an account (mobile originated, "MO").
 *
 * - **Addresses.** An account receives on a long number (E.164), a dedicated short code, or a
 *   keyword (with aliases) on a shared short code. `inboundAddressKey` is the form addresses are
 *   compared in (digits only: carriers drop the `+`); `assignmentConflict` says whether a new
 *   assignment collides with the ones already made; `routeInbound` picks the assignment a message
 *   belongs to.
 * - **Keywords.** `inboundCommand` recognises the opt-out families (STOP, START, HELP: single word,
 *   any case, trimmed, a trailing `.`/`!` ignored); `firstWord` is the keyword a message starts with.
 * - **Parts.** `decodeShortMessage` reads a short_message (UDH 8/16-bit concatenation; GSM-7,
 *   Latin-1 or UCS-2); `sarConcat` reads the `sar_*` TLVs; `joinParts` joins what arrived in any
 *   order, duplicates dropped, flagging a message whose parts are missing; `partKey` is what makes a
 *   re-sent part the same part.
 *
 * Pure: no I/O, no clock reads.
 */
import { fromGsm7Octets } from "./gsm7.js"

// ---------------------------------------------------------------------------------------------
// Keywords and the opt-out families
// ---------------------------------------------------------------------------------------------

/** Words that opt a handset out of the account (English and Kiswahili). */
export const STOP_FAMILY: ReadonlySet<string> = new Set([
  "STOP",
  "STOPALL",
  "UNSUBSCRIBE",
  "CANCEL",
  "END",
  "QUIT",
  "SITISHA",
  "ACHA"
])

/** Words that opt a handset back in. */
export const START_FAMILY: ReadonlySet<string> = new Set(["START", "UNSTOP", "ANZA"])

/** Words that ask for the account's help text. */
export const HELP_FAMILY: ReadonlySet<string> = new Set(["HELP", "MSAADA"])

/** What an inbound text asks of the opt-out engine, if anything. */
export type InboundCommand = "stop" | "start" | "help"

/** The single word of a text, upper-cased, trimmed, a trailing `.` or `!` dropped ("" when several words). */
const singleWord = (text: string): string => {
  const t = text.trim().toUpperCase().replace(/[.!]+$/, "")
  return /\s/.test(t) ? "" : t
}

/**
 * The opt-out command an inbound text is: its whole text (trimmed, any case, a trailing `.`/`!`
 * ignored) is one word of the STOP, START or HELP family; null otherwise ("stop the meeting" is not
 * a command).
 */
export const inboundCommand = (text: string): InboundCommand | null => {
  const w = singleWord(text)
  return STOP_FAMILY.has(w) ? "stop" : START_FAMILY.has(w) ? "start" : HELP_FAMILY.has(w) ? "help" : null
}

/** The first word of a text, upper-cased (the keyword of a shared short code); "" for an empty text. */
export const firstWord = (text: string): string => text.trim().split(/\s+/, 1)[0]!.toUpperCase()

// ---------------------------------------------------------------------------------------------
// Addresses and their assignment
// ---------------------------------------------------------------------------------------------

/** One assignment of an inbound address to an account. */
export interface InboundAssignment {
  readonly id: string
  readonly accountId: string
  /** As the operator gave it, normalised: `+` and digits for a long number, digits for a short code. */
  readonly number: string
  /** Upper-case keyword on a shared short code; null for a dedicated number or short code. */
  readonly keyword: string | null
  /** Upper-case further keywords that route the same way. */
  readonly aliases: ReadonlyArray<string>
}

/** The form addresses are compared in: the digits (carriers give `254700…` for `+254700…`). */
export const inboundAddressKey = (address: string): string => address.replace(/\D/g, "")

/**
 * An operator's address, normalised; or a reason it is refused. A long number is E.164 (`+` and 8
 * to 15 digits); a short code is 3 to 8 digits without `+`.
 */
export const normalizeInboundNumber = (raw: string): { readonly number: string } | { readonly error: string } => {
  const t = raw.trim().replace(/[\s-]/g, "")
  if (/^\+[1-9]\d{7,14}$/.test(t)) return { number: t }
  if (/^\d{3,8}$/.test(t)) return { number: t }
  return { error: "must be an E.164 number (+ and 8 to 15 digits) or a short code (3 to 8 digits)" }
}

/** A keyword, normalised (upper case, one word of letters and digits, 1 to 20), or a reason it is refused. */
export const normalizeKeyword = (raw: string): { readonly keyword: string } | { readonly error: string } => {
  const t = raw.trim().toUpperCase()
  if (/^[\p{L}\p{N}]{1,20}$/u.test(t)) return { keyword: t }
  return { error: "must be one word of letters and digits (at most 20)" }
}

/** Every keyword an assignment answers to (its keyword and aliases). */
const wordsOf = (a: Pick<InboundAssignment, "keyword" | "aliases">): ReadonlyArray<string> =>
  a.keyword === null ? [] : [a.keyword, ...a.aliases]

/**
 * The existing assignment a new one collides with, or null. On one address: a dedicated assignment
 * (no keyword) excludes every other; keyword assignments share the address when no keyword or alias
 * is used twice. `ignoreId`
 * is the assignment being changed. (A keyword of the opt-out families is refused before this:
 * `isReservedKeyword`.)
 */
export const assignmentConflict = (
  existing: ReadonlyArray<InboundAssignment>,
  candidate: Pick<InboundAssignment, "number" | "keyword" | "aliases">,
  ignoreId?: string
): InboundAssignment | null => {
  const key = inboundAddressKey(candidate.number)
  const words = new Set(wordsOf(candidate))
  for (const e of existing) {
    if (e.id === ignoreId || inboundAddressKey(e.number) !== key) continue
    if (e.keyword === null || candidate.keyword === null) return e
    if (wordsOf(e).some((w) => words.has(w))) return e
  }
  return null
}

/** Whether a keyword is one of the opt-out families' words (reserved on every address). */
export const isReservedKeyword = (word: string): boolean =>
  STOP_FAMILY.has(word) || START_FAMILY.has(word) || HELP_FAMILY.has(word)

/**
 * The assignment an inbound message to `to` belongs to: the dedicated assignment of that address, or
 * the keyword assignment whose keyword or alias is the text's first word; null = unrouted. An opt-out
 * word on a shared short code goes to the account the handset last wrote to (the caller decides);
 * here it routes nowhere.
 */
export const routeInbound = (
  assignments: ReadonlyArray<InboundAssignment>,
  to: string,
  text: string
): InboundAssignment | null => {
  const key = inboundAddressKey(to)
  if (key === "") return null
  const word = firstWord(text)
  let byKeyword: InboundAssignment | null = null
  for (const a of assignments) {
    if (inboundAddressKey(a.number) !== key) continue
    if (a.keyword === null) return a
    if (byKeyword === null && wordsOf(a).includes(word)) byKeyword = a
  }
  return byKeyword
}

// ---------------------------------------------------------------------------------------------
// Short messages: decoding and concatenation
// ---------------------------------------------------------------------------------------------

/** How an inbound text was encoded on the air. */
export type InboundEncoding = "GSM-7" | "Latin-1" | "UCS-2"

/** A part's place in a concatenated message. */
export interface Concat {
  /** The reference shared by the parts (8 or 16 bit). */
  readonly ref: number
  readonly total: number
  /** 1-based. */
  readonly seq: number
}

const ESM_UDHI = 0x40

/** The encoding of an SMPP `data_coding`: 8 = UCS-2, 3 (and 1 on some carriers' Latin) = Latin-1, else GSM-7. */
export const encodingOfDataCoding = (dataCoding: number): InboundEncoding => {
  const coding = dataCoding & 0x0f
  return coding === 0x08 ? "UCS-2" : coding === 0x03 ? "Latin-1" : "GSM-7"
}

const decodeUcs2 = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!)
  return out
}

const decodeLatin1 = (bytes: Uint8Array): string => {
  let out = ""
  for (const b of bytes) out += String.fromCharCode(b)
  return out
}

/**
 * A short_message read: its text (GSM-7 unpacked septets, Latin-1 or UCS-2 by `data_coding`), the
 * encoding, and its concatenation header when `esm_class` has UDHI and the header has an 8-bit
 * (IEI 0) or 16-bit (IEI 8) concatenation element. A malformed header leaves the bytes as text.
 */
export const decodeShortMessage = (
  bytes: Uint8Array,
  esmClass: number,
  dataCoding: number
): { readonly text: string; readonly encoding: InboundEncoding; readonly concat: Concat | null } => {
  let body = bytes
  let concat: Concat | null = null
  if ((esmClass & ESM_UDHI) !== 0 && bytes.length > 0 && bytes[0]! + 1 <= bytes.length) {
    concat = concatOfUdh(bytes.subarray(1, 1 + bytes[0]!))
    body = bytes.subarray(1 + bytes[0]!)
  }
  const encoding = encodingOfDataCoding(dataCoding)
  const text = encoding === "UCS-2"
    ? decodeUcs2(body)
    : encoding === "Latin-1"
    ? decodeLatin1(body)
    : fromGsm7Octets(body)
  return { text, encoding, concat }
}

/**
 * The concatenation element of a user data header (the header's information elements, without its
 * length octet): 8-bit (IEI 0) or 16-bit (IEI 8) reference; null when there is none or it is malformed.
 */
export const concatOfUdh = (udh: Uint8Array): Concat | null => {
  let concat: Concat | null = null
  for (let i = 0; i + 1 < udh.length;) {
    const iei = udh[i]!
    const len = udh[i + 1]!
    if (iei === 0x00 && len === 3 && i + 4 < udh.length) {
      concat = { ref: udh[i + 2]!, total: udh[i + 3]!, seq: udh[i + 4]! }
    }
    if (iei === 0x08 && len === 4 && i + 5 < udh.length) {
      concat = { ref: (udh[i + 2]! << 8) | udh[i + 3]!, total: udh[i + 4]!, seq: udh[i + 5]! }
    }
    i += 2 + len
  }
  return concat !== null && validConcat(concat) ? concat : null
}

const validConcat = (c: Concat): boolean => c.total >= 1 && c.seq >= 1 && c.seq <= c.total

/** The concatenation of the `sar_msg_ref_num`, `sar_total_segments`, `sar_segment_seqnum` TLVs, when all are given. */
export const sarConcat = (
  ref: number | undefined,
  total: number | undefined,
  seq: number | undefined
): Concat | null => {
  if (ref === undefined || total === undefined || seq === undefined) return null
  const c = { ref, total, seq }
  return validConcat(c) ? c : null
}

/**
 * What makes a re-sent part the same part (with the provider, handset and address): its place in a
 * concatenated message (`c:ref:total:seq`), or, for a single-part message, its text (`s:` + text).
 */
export const partKey = (concat: Concat | null, text: string): string =>
  concat === null || concat.total === 1 ? `s:${text}` : `c:${concat.ref}:${concat.total}:${concat.seq}`

/** One part as stored while its message waits for the rest. */
export interface InboundPart {
  readonly seq: number
  readonly total: number
  readonly text: string
}

/** A message joined from its parts. */
export interface JoinedMessage {
  readonly text: string
  /** Distinct parts that arrived. */
  readonly parts: number
  /** Every part from 1 to total arrived. */
  readonly complete: boolean
}

/**
 * The parts of one message joined in sequence order, whatever their arrival order; a sequence number
 * seen twice counts once (its first text). `complete` is false when a part of 1..total is missing;
 * what arrived is kept.
 */
export const joinParts = (parts: ReadonlyArray<InboundPart>): JoinedMessage => {
  const bySeq = new Map<number, string>()
  let total = 1
  for (const p of parts) {
    if (!bySeq.has(p.seq)) bySeq.set(p.seq, p.text)
    total = Math.max(total, p.total)
  }
  const seqs = [...bySeq.keys()].sort((a, b) => a - b)
  let complete = bySeq.size === total
  for (let s = 1; s <= total && complete; s++) complete = bySeq.has(s)
  return { text: seqs.map((s) => bySeq.get(s)!).join(""), parts: bySeq.size, complete }
}

/** A carrier's text made storable: NUL (which PostgreSQL text cannot hold) removed. */
export const storableText = (text: string): string => text.includes("\u0000") ? text.replace(/\u0000/g, "") : text
