/**
 * The text of a submitted message (docs/smpp.md "Long messages"): data_coding 0 (GSM 03.38, unpacked),
 * 1 (IA5/ASCII), 3 (Latin-1) and 8 (UCS-2) decoded; a concatenated part recognised by its UDH (8- or
 * 16-bit reference) or its `sar_*` TLVs; `message_payload` taken as the whole message. Parts of one
 * message are joined per bind by (source, destination, reference) in `Joiner`.
 */
import { decodeGsm7, decodeUcs2 } from "@tuma/providers"
import type { Submit } from "./Pdu.js"
import { Tlv } from "./Pdu.js"

/** The data_coding values accepted. */
export const DATA_CODINGS: ReadonlySet<number> = new Set([0, 1, 3, 8])

/** The text of `bytes` in `dataCoding`, or undefined for an unsupported coding. */
export const decodeText = (dataCoding: number, bytes: Buffer): string | undefined => {
  switch (dataCoding) {
    case 0:
      return decodeGsm7(bytes)
    case 1:
      return Buffer.from(bytes.map((b) => b & 0x7f)).toString("latin1")
    case 3:
      return bytes.toString("latin1")
    case 8:
      return decodeUcs2(bytes)
    default:
      return undefined
  }
}

/** Where a part belongs: its message's reference, the number of parts, its place (1-based). */
export interface PartOf {
  readonly reference: number
  readonly total: number
  readonly seq: number
}

/** A submit's payload (without UDH) and, for a part of a concatenated message, where it belongs. */
export interface Payload {
  readonly bytes: Buffer
  readonly part: PartOf | undefined
}

/** A malformed UDH or sar_* set. */
export class BadConcatenation extends Error {}

const udhPart = (udh: Buffer): PartOf | undefined => {
  let at = 0
  let found: PartOf | undefined
  while (at + 2 <= udh.length) {
    const iei = udh[at]!
    const len = udh[at + 1]!
    const data = udh.subarray(at + 2, at + 2 + len)
    if (data.length < len) throw new BadConcatenation("truncated UDH element")
    if (iei === 0x00 && len === 3) found = { reference: data[0]!, total: data[1]!, seq: data[2]! }
    if (iei === 0x08 && len === 4) found = { reference: data.readUInt16BE(0), total: data[2]!, seq: data[3]! }
    at += 2 + len
  }
  return found
}

const sarPart = (tlvs: Map<number, Buffer>): PartOf | undefined => {
  const ref = tlvs.get(Tlv.sar_msg_ref_num)
  const total = tlvs.get(Tlv.sar_total_segments)
  const seq = tlvs.get(Tlv.sar_segment_seqnum)
  if (ref === undefined && total === undefined && seq === undefined) return undefined
  if (ref?.length !== 2 || total?.length !== 1 || seq?.length !== 1) {
    throw new BadConcatenation("sar_msg_ref_num, sar_total_segments and sar_segment_seqnum go together")
  }
  return { reference: ref.readUInt16BE(0), total: total[0]!, seq: seq[0]! }
}

/** The payload of a submit (`BadConcatenation` for a malformed UDH or sar set, or a part out of range). */
export const payloadOf = (submit: Submit): Payload => {
  const payloadTlv = submit.tlvs.get(Tlv.message_payload)
  const raw = payloadTlv !== undefined && submit.shortMessage.length === 0 ? payloadTlv : submit.shortMessage
  let bytes = raw
  let part: PartOf | undefined
  if ((submit.esmClass & 0x40) !== 0) {
    const udhl = raw[0]
    if (udhl === undefined || udhl + 1 > raw.length) throw new BadConcatenation("UDH longer than the message")
    part = udhPart(raw.subarray(1, 1 + udhl))
    bytes = raw.subarray(1 + udhl)
  }
  part ??= sarPart(submit.tlvs)
  if (part !== undefined && (part.total < 1 || part.seq < 1 || part.seq > part.total)) {
    throw new BadConcatenation("part number out of range")
  }
  // a "concatenated message" of one part is a message
  return { bytes, part: part !== undefined && part.total === 1 ? undefined : part }
}

/** A part waiting for its siblings. */
export interface HeldPart<T> {
  readonly seq: number
  readonly bytes: Buffer
  readonly dataCoding: number
  readonly waiter: T
}

/**
 * Joins the parts of concatenated messages of one bind. `add` answers the whole message's bytes (in
 * part order) and every part's waiter once the last part is in; until then undefined. A group whose
 * parts do not all arrive within `timeoutMs` of its first is handed to `onTimeout` (the session refuses
 * each held part). A repeated part number replaces the earlier one.
 */
export class Joiner<T> {
  private readonly groups = new Map<string, { total: number; parts: Map<number, HeldPart<T>>; timer: NodeJS.Timeout }>()
  constructor(
    private readonly timeoutMs: number,
    private readonly onTimeout: (parts: ReadonlyArray<HeldPart<T>>) => void
  ) {}
  /** Adds a part: the complete message, or undefined while parts are missing. */
  add(
    key: string,
    total: number,
    part: HeldPart<T>
  ): { readonly bytes: Buffer; readonly dataCoding: number; readonly parts: ReadonlyArray<HeldPart<T>> } | undefined {
    let group = this.groups.get(key)
    if (group === undefined || group.total !== total) {
      if (group !== undefined) this.expire(key)
      const timer = setTimeout(() => this.expire(key), this.timeoutMs)
      group = { total, parts: new Map(), timer }
      this.groups.set(key, group)
    }
    const earlier = group.parts.get(part.seq)
    if (earlier !== undefined) this.onTimeout([earlier])
    group.parts.set(part.seq, part)
    if (group.parts.size < total) return undefined
    clearTimeout(group.timer)
    this.groups.delete(key)
    const parts = [...group.parts.values()].sort((a, b) => a.seq - b.seq)
    return { bytes: Buffer.concat(parts.map((p) => p.bytes)), dataCoding: parts[0]!.dataCoding, parts }
  }
  /** Parts held now. */
  held(): number {
    return [...this.groups.values()].reduce((n, g) => n + g.parts.size, 0)
  }
  /** Drops every group (the bind closed): their waiters get nothing. */
  clear(): void {
    for (const g of this.groups.values()) clearTimeout(g.timer)
    this.groups.clear()
  }
  private expire(key: string) {
    const group = this.groups.get(key)
    if (group === undefined) return
    clearTimeout(group.timer)
    this.groups.delete(key)
    this.onTimeout([...group.parts.values()])
  }
}
