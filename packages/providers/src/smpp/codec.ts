/**
 * SMPP 3.4 wire helpers: part splitting with an 8-bit concatenation UDH, GSM-7 (unpacked, data_coding 0)
 * and UCS-2 (data_coding 8) encoding, delivery-receipt parsing.
 */
import type { PartState, ProviderEncoding } from "@tuma/core/ports/Provider"
import { concatOfUdh } from "@tuma/domain"
import smpp from "smpp"

/** SMPP `data_coding` of GSM-7 text (SMSC default alphabet). */
export const DATA_CODING_GSM7 = 0
/** SMPP `data_coding` of UCS-2 text. */
export const DATA_CODING_UCS2 = 8
/** `esm_class` bit: the short message starts with a user data header (a concatenated part). */
export const ESM_CLASS_UDHI = 0x40
/** esm_class message type bits 2-5 (0x3C); 0x04 = MC delivery receipt. */
export const ESM_CLASS_TYPE_MASK = 0x3c
/** `esm_class` message type of an MC delivery receipt. */
export const ESM_CLASS_RECEIPT = 0x04
/** `esm_class` message type of an intermediate delivery notification. */
export const ESM_CLASS_INTERMEDIATE = 0x20

const GSM_SINGLE = 160
const GSM_PART = 153
const UCS2_SINGLE = 140 // octets (70 UTF-16 code units)
const UCS2_PART = 134 // octets (67 code units)

const encodeUcs2 = (text: string): Buffer => {
  const le = Buffer.from(text, "utf16le")
  const be = Buffer.allocUnsafe(le.length)
  for (let i = 0; i < le.length; i += 2) {
    be[i] = le[i + 1]!
    be[i + 1] = le[i]!
  }
  return be
}

/** Text of UCS-2 (big-endian) bytes; an odd trailing byte is ignored. */
export const decodeUcs2 = (data: Buffer): string => {
  const le = Buffer.allocUnsafe(data.length - (data.length % 2))
  for (let i = 0; i + 1 < data.length; i += 2) {
    le[i] = data[i + 1]!
    le[i + 1] = data[i]!
  }
  return le.toString("utf16le")
}

/**
 * smpp 0.5.1's `gsmCoder.getCoder` tests `Object.keys(table).length === 0` on every call: a
 * 128-entry array for every GSM-7 short_message the package decodes itself (each deliver_sm read)
 * or encodes. A built table never changes, so it is answered from a cache (same objects).
 */
{
  const build = smpp.gsmCoder.getCoder.bind(smpp.gsmCoder)
  const built = new Map<number, ReturnType<typeof build>>()
  smpp.gsmCoder.getCoder = (shift) => {
    let coder = built.get(shift)
    if (coder === undefined) built.set(shift, coder = build(shift))
    return coder
  }
}

/**
 * The GSM 03.38 default alphabet tables of the `smpp` package, read once: its own `gsmCoder`
 * rebuilds `Object.keys` of them and a RegExp on every call (a measurable share of a worker's CPU).
 * Same bytes for every character of the alphabet and the same text for every byte sequence; a
 * character outside the alphabet (never sent as GSM-7: the domain picks UCS-2 for it) becomes a
 * space, where the package's coder writes 0x00.
 */
const GSM = (() => {
  const coder = smpp.gsmCoder.getCoder(0)
  const encode = new Map<number, number>()
  for (const [c, septet] of Object.entries(coder.charListEnc)) encode.set(c.charCodeAt(0), septet)
  const escape = new Map<number, number>()
  for (const [c, esc] of Object.entries(coder.extCharListEnc)) escape.set(c.charCodeAt(0), coder.charListEnc[esc]!)
  const decode: Array<string> = []
  for (let b = 0; b < 256; b++) decode.push(coder.charListDec[b] || " ")
  const unescape = new Map<number, string>()
  for (let b = 0; b < 128; b++) {
    const ext = coder.extCharListDec[decode[b]!]
    if (ext !== undefined && decode[b] !== "\\") unescape.set(b, ext)
  }
  return { encode, escape, decode, unescape }
})()

/** GSM 03.38 default alphabet, unpacked: one septet per octet, extension characters as ESC + char. */
export const encodeGsm7 = (text: string): Buffer => {
  const out = Buffer.allocUnsafe(text.length * 2)
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const esc = GSM.escape.get(c)
    if (esc !== undefined) {
      out[n++] = 0x1b
      out[n++] = esc
    } else {
      out[n++] = GSM.encode.get(c) ?? 0x20
    }
  }
  return out.subarray(0, n)
}

/** Text of unpacked GSM-7 bytes (one septet a byte, escapes included). */
export const decodeGsm7 = (data: Buffer): string => {
  let text = ""
  for (let i = 0; i < data.length; i++) {
    const b = data[i]!
    const ext = b === 0x1b && i + 1 < data.length ? GSM.unescape.get(data[i + 1]!) : undefined
    if (ext !== undefined) {
      text += ext
      i++
    } else {
      text += GSM.decode[b]!
    }
  }
  return text
}

/** The bytes of a text in the given encoding (unpacked GSM-7, or UCS-2 big-endian). */
export const encodePayload = (text: string, encoding: ProviderEncoding): Buffer =>
  encoding === "GSM-7" ? encodeGsm7(text) : encodeUcs2(text)

/** Split an encoded payload into part payloads without cutting an escape pair or a surrogate pair. */
export const splitPayload = (payload: Buffer, encoding: ProviderEncoding): ReadonlyArray<Buffer> => {
  const single = encoding === "GSM-7" ? GSM_SINGLE : UCS2_SINGLE
  if (payload.length <= single) return [payload]
  const size = encoding === "GSM-7" ? GSM_PART : UCS2_PART
  const parts: Array<Buffer> = []
  let at = 0
  while (at < payload.length) {
    let end = Math.min(at + size, payload.length)
    if (end < payload.length) {
      if (encoding === "GSM-7") {
        if (payload[end - 1] === 0x1b) end -= 1
      } else {
        const unit = (payload[end - 2]! << 8) | payload[end - 1]!
        if (unit >= 0xd800 && unit <= 0xdbff) end -= 2
      }
    }
    parts.push(payload.subarray(at, end))
    at = end
  }
  return parts
}

/** How many SMPP parts the text takes in that encoding. */
export const partCount = (text: string, encoding: ProviderEncoding): number =>
  splitPayload(encodePayload(text, encoding), encoding).length

/** 8-bit reference concatenation header: IEI 0x00, length 3, reference, total, sequence (1-based). */
export const concatUdh = (reference: number, total: number, sequence: number): Buffer =>
  Buffer.from([0x05, 0x00, 0x03, reference & 0xff, total, sequence])

/** One SMPP part as submitted: its short message bytes and `esm_class`. */
export interface WirePart {
  readonly shortMessage: Buffer
  readonly esmClass: number
  readonly dataCoding: number
}

/** The submit_sm payloads of a message: UDH-prefixed when it takes more than one part. */
export const wireParts = (text: string, encoding: ProviderEncoding, reference: number): ReadonlyArray<WirePart> => {
  const dataCoding = encoding === "GSM-7" ? DATA_CODING_GSM7 : DATA_CODING_UCS2
  const payloads = splitPayload(encodePayload(text, encoding), encoding)
  if (payloads.length === 1) return [{ shortMessage: payloads[0]!, esmClass: 0, dataCoding }]
  return payloads.map((p, i) => ({
    shortMessage: Buffer.concat([concatUdh(reference, payloads.length, i + 1), p]),
    esmClass: ESM_CLASS_UDHI,
    dataCoding
  }))
}

/** Split a received short_message into its UDH concatenation info (if any) and text. */
export const readShortMessage = (
  raw: Buffer,
  esmClass: number,
  dataCoding: number
): { readonly text: string; readonly concat: { ref: number; total: number; seq: number } | null } => {
  let body = raw
  let concat: { ref: number; total: number; seq: number } | null = null
  if ((esmClass & ESM_CLASS_UDHI) !== 0 && raw.length > 0) {
    const udhLen = raw[0]!
    concat = concatOfUdh(raw.subarray(1, 1 + udhLen))
    body = raw.subarray(1 + udhLen)
  }
  const coding = dataCoding & 0x0f
  const text = coding === DATA_CODING_UCS2
    ? decodeUcs2(body)
    : coding === 0
    ? decodeGsm7(body)
    : body.toString("latin1")
  return { text, concat }
}

/** `message_state` TLV values (SMPP 3.4 §5.3.2.35) to their receipt `stat:` words. */
export const MESSAGE_STATE_WORDS: Record<number, string> = {
  1: "ENROUTE",
  2: "DELIVRD",
  3: "EXPIRED",
  4: "DELETED",
  5: "UNDELIV",
  6: "ACCEPTD",
  7: "UNKNOWN",
  8: "REJECTD"
}

/** The part state of a delivery receipt's `stat` (`DELIVRD`, `UNDELIV`, …). */
export const stateOfStatus = (stat: string): PartState => {
  switch (stat.toUpperCase()) {
    case "DELIVRD":
    case "DELIVERED":
      return "delivered"
    case "ENROUTE":
    case "ACCEPTD":
    case "BUFFRED":
    case "SCHEDULED":
      return "enroute"
    default:
      return "failed"
  }
}

export { describeReceiptFailure } from "@tuma/core/delivery/ProviderRef"

/** The fields of a delivery receipt's text (`id:… stat:… err:…`). */
export interface ParsedReceipt {
  readonly id: string
  readonly stat: string
  readonly err: string | null
}

/**
 * A delivery receipt from a deliver_sm: the `receipted_message_id` / `message_state` TLVs when present,
 * otherwise (or to fill gaps) the SMPP 3.4 Appendix B text form `id:… sub:… dlvrd:… … stat:… err:…`.
 */
export const parseReceipt = (
  text: string,
  tlvId: string | undefined,
  tlvState: number | undefined
): ParsedReceipt | null => {
  const idMatch = /\bid:\s*([^\s]+)/i.exec(text)
  const statMatch = /\bstat:\s*([A-Za-z_]+)/i.exec(text)
  const errMatch = /\berr:\s*([0-9A-Za-z]+)/i.exec(text)
  const id = tlvId !== undefined && tlvId !== "" ? tlvId : idMatch?.[1]
  const stat = tlvState !== undefined && MESSAGE_STATE_WORDS[tlvState] !== undefined
    ? MESSAGE_STATE_WORDS[tlvState]!
    : statMatch?.[1]?.toUpperCase()
  if (id === undefined || stat === undefined) return null
  return { id, stat, err: errMatch?.[1] ?? null }
}

/** Text form of a receipt (SMPP 3.4 Appendix B). */
export const formatReceiptText = (
  id: string,
  stat: string,
  err: string,
  submitted: Date,
  done: Date,
  text: string
): string => {
  const d = (x: Date) =>
    [x.getUTCFullYear() % 100, x.getUTCMonth() + 1, x.getUTCDate(), x.getUTCHours(), x.getUTCMinutes()]
      .map((n) => String(n).padStart(2, "0"))
      .join("")
  const dlvrd = stat === "DELIVRD" ? "001" : "000"
  return `id:${id} sub:001 dlvrd:${dlvrd} submit date:${d(submitted)} done date:${
    d(done)
  } stat:${stat} err:${err} text:${text.slice(0, 20)}`
}

/** submit_sm_resp statuses worth trying again (the message was not accepted, the cause is passing). */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([
  smpp.ESME_RSYSERR,
  smpp.ESME_RMSGQFUL,
  smpp.ESME_RTHROTTLED,
  smpp.ESME_RX_T_APPN,
  smpp.ESME_RSUBMITFAIL,
  smpp.ESME_RINVBNDSTS,
  smpp.ESME_RUNKNOWNERR
])

const STATUS_NAMES = new Map<number, string>(Object.entries(smpp.errors).map(([k, v]) => [v, k]))

/** The name of an SMPP `command_status` (`ESME_RTHROTTLED`, …), or its hex value. */
export const statusName = (status: number): string =>
  STATUS_NAMES.get(status) ?? `0x${status.toString(16).padStart(8, "0")}`

const STATUS_REASONS: Record<string, string> = {
  ESME_RINVDSTADR: "the carrier refused the destination number",
  ESME_RINVSRCADR: "the carrier refused the sender ID",
  ESME_RINVMSGLEN: "the carrier refused the message length",
  ESME_RX_P_APPN: "the carrier refused the message permanently",
  ESME_RX_R_APPN: "the carrier rejected the message",
  ESME_RSYSERR: "the carrier reported a system error",
  ESME_RMSGQFUL: "the carrier's queue is full",
  ESME_RTHROTTLED: "the carrier is throttling submissions",
  ESME_RX_T_APPN: "the carrier reported a temporary error",
  ESME_RSUBMITFAIL: "the carrier could not take the message"
}

/** A customer-facing reason for a refused submit's `command_status`. */
export const describeStatus = (status: number): string => {
  const name = statusName(status)
  return `Not accepted: ${STATUS_REASONS[name] ?? "the carrier refused the message"} (${name}).`
}
