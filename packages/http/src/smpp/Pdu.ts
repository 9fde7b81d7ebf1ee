/**
 * SMPP 3.4 PDUs on the wire, the few the server speaks: framing (`frameLength`), decoding of what an ESME
 * sends (binds, unbind, enquire_link, submit_sm, data_sm, deliver_sm_resp and the responses), encoding of
 * what the server answers (responses, deliver_sm, generic_nack). A malformed body is `Malformed` (the
 * session answers generic_nack); nothing here throws on any bytes.
 */

/** Command ids (SMPP 3.4 §5.1.2). */
export const Cmd = {
  generic_nack: 0x80000000,
  bind_receiver: 0x00000001,
  bind_transmitter: 0x00000002,
  submit_sm: 0x00000004,
  deliver_sm: 0x00000005,
  unbind: 0x00000006,
  bind_transceiver: 0x00000009,
  enquire_link: 0x00000015,
  data_sm: 0x00000103
} as const

/** The response id of a command id. */
export const respOf = (id: number): number => (id | 0x80000000) >>> 0

/** TLV tags used (SMPP 3.4 §5.3.2). */
export const Tlv = {
  receipted_message_id: 0x001e,
  sar_msg_ref_num: 0x020c,
  sar_total_segments: 0x020e,
  sar_segment_seqnum: 0x020f,
  sc_interface_version: 0x0210,
  network_error_code: 0x0423,
  message_payload: 0x0424,
  message_state: 0x0427
} as const

/** The smallest and largest PDU accepted (a longer one cannot be framed: the connection is closed). */
export const PDU_MIN = 16
/** The largest PDU the server reads (64 KiB). */
export const PDU_MAX = 65_536

/** A PDU's header and its body bytes. */
export interface Pdu {
  readonly commandId: number
  readonly status: number
  readonly sequence: number
  readonly body: Buffer
}

/** A body that could not be read. */
export class Malformed extends Error {}

/** The PDU length at the head of `buffer`, or undefined when fewer than 4 bytes are there. */
export const frameLength = (buffer: Buffer): number | undefined =>
  buffer.length < 4 ? undefined : buffer.readUInt32BE(0)

/** The header and body of one whole PDU. */
export const readPdu = (frame: Buffer): Pdu => ({
  commandId: frame.readUInt32BE(4),
  status: frame.readUInt32BE(8),
  sequence: frame.readUInt32BE(12),
  body: frame.subarray(16)
})

/** A reader over a body: C-octet strings, integers, octets, TLVs. Throws `Malformed` past the end. */
export class Reader {
  private at = 0
  constructor(private readonly data: Buffer) {}
  /** A NUL-terminated string of at most `max` octets (NUL included), read as Latin-1. */
  cstring(max: number): string {
    const end = this.data.indexOf(0, this.at)
    if (end < 0 || end - this.at + 1 > max) throw new Malformed("C-octet string too long or unterminated")
    const s = this.data.toString("latin1", this.at, end)
    this.at = end + 1
    return s
  }
  /** One octet. */
  u8(): number {
    if (this.at + 1 > this.data.length) throw new Malformed("body too short")
    return this.data[this.at++]!
  }
  /** `n` octets. */
  bytes(n: number): Buffer {
    if (this.at + n > this.data.length) throw new Malformed("body too short")
    const b = this.data.subarray(this.at, this.at + n)
    this.at += n
    return b
  }
  /** The TLVs left, by tag (a truncated TLV is `Malformed`). */
  tlvs(): Map<number, Buffer> {
    const out = new Map<number, Buffer>()
    while (this.at < this.data.length) {
      if (this.at + 4 > this.data.length) throw new Malformed("truncated TLV")
      const tag = this.data.readUInt16BE(this.at)
      const len = this.data.readUInt16BE(this.at + 2)
      this.at += 4
      out.set(tag, this.bytes(len))
    }
    return out
  }
}

/** A bind's fields. */
export interface Bind {
  readonly systemId: string
  readonly password: string
  readonly interfaceVersion: number
}

/** Reads a bind_transmitter / bind_receiver / bind_transceiver body. */
export const readBind = (body: Buffer): Bind => {
  const r = new Reader(body)
  const systemId = r.cstring(16)
  const password = r.cstring(9)
  r.cstring(13)
  const interfaceVersion = r.u8()
  return { systemId, password, interfaceVersion }
}

/** A submitted short message: addresses, coding, the raw bytes and TLVs. */
export interface Submit {
  readonly sourceAddr: string
  readonly destTon: number
  readonly destinationAddr: string
  readonly esmClass: number
  readonly registeredDelivery: number
  readonly dataCoding: number
  readonly shortMessage: Buffer
  readonly tlvs: Map<number, Buffer>
}

/** Reads a submit_sm body (SMPP 3.4 §4.4.1). */
export const readSubmitSm = (body: Buffer): Submit => {
  const r = new Reader(body)
  r.cstring(6)
  r.u8()
  r.u8()
  const sourceAddr = r.cstring(21)
  const destTon = r.u8()
  r.u8()
  const destinationAddr = r.cstring(21)
  const esmClass = r.u8()
  r.u8()
  r.u8()
  r.cstring(17)
  r.cstring(17)
  const registeredDelivery = r.u8()
  r.u8()
  const dataCoding = r.u8()
  r.u8()
  const shortMessage = Buffer.from(r.bytes(r.u8()))
  const tlvs = r.tlvs()
  return { sourceAddr, destTon, destinationAddr, esmClass, registeredDelivery, dataCoding, shortMessage, tlvs }
}

/** Reads a data_sm body (SMPP 3.4 §4.7.1): the text is in `message_payload`. */
export const readDataSm = (body: Buffer): Submit => {
  const r = new Reader(body)
  r.cstring(6)
  r.u8()
  r.u8()
  const sourceAddr = r.cstring(65)
  const destTon = r.u8()
  r.u8()
  const destinationAddr = r.cstring(65)
  const esmClass = r.u8()
  const registeredDelivery = r.u8()
  const dataCoding = r.u8()
  const tlvs = r.tlvs()
  return {
    sourceAddr,
    destTon,
    destinationAddr,
    esmClass,
    registeredDelivery,
    dataCoding,
    shortMessage: Buffer.alloc(0),
    tlvs
  }
}

// ---------------------------------------------------------------------------------------------
// encoding
// ---------------------------------------------------------------------------------------------

const cstr = (s: string) => Buffer.concat([Buffer.from(s, "latin1"), Buffer.from([0])])
const u8 = (n: number) => Buffer.from([n & 0xff])

/** One TLV. */
export const tlv = (tag: number, value: Buffer): Buffer => {
  const head = Buffer.alloc(4)
  head.writeUInt16BE(tag, 0)
  head.writeUInt16BE(value.length, 2)
  return Buffer.concat([head, value])
}

/** A whole PDU of a header and a body. */
export const encodePdu = (commandId: number, status: number, sequence: number, body: Buffer = Buffer.alloc(0)) => {
  const head = Buffer.alloc(16)
  head.writeUInt32BE(16 + body.length, 0)
  head.writeUInt32BE(commandId >>> 0, 4)
  head.writeUInt32BE(status >>> 0, 8)
  head.writeUInt32BE(sequence >>> 0, 12)
  return Buffer.concat([head, body])
}

/** A bind response: the server's system_id, and `sc_interface_version` 0x34 to a 3.4 ESME. */
export const bindResp = (commandId: number, status: number, sequence: number, systemId: string, v34: boolean) =>
  encodePdu(
    respOf(commandId),
    status,
    sequence,
    status !== 0
      ? Buffer.alloc(0)
      : Buffer.concat([cstr(systemId), v34 ? tlv(Tlv.sc_interface_version, u8(0x34)) : Buffer.alloc(0)])
  )

/** submit_sm_resp / data_sm_resp: the message_id when accepted, no body when refused. */
export const submitResp = (commandId: number, status: number, sequence: number, messageId: string) =>
  encodePdu(respOf(commandId), status, sequence, status === 0 ? cstr(messageId) : Buffer.alloc(0))

/** A delivery receipt as deliver_sm (esm_class 0x04, or 0x20 for an intermediate one), with its TLVs. */
export interface ReceiptPdu {
  readonly sequence: number
  /** 0x04 SMSC delivery receipt (final), 0x20 intermediate delivery notification. */
  readonly esmClass: number
  /** The handset the message went to (source of the receipt). */
  readonly sourceAddr: string
  /** The sender ID the message was sent from (destination of the receipt). */
  readonly destinationAddr: string
  readonly text: string
  readonly messageId: string
  readonly messageState: number
  readonly failed: boolean
}

/** deliver_sm of a receipt (SMPP 3.4 §4.6.1, Appendix B). */
export const deliverReceipt = (r: ReceiptPdu): Buffer => {
  const text = Buffer.from(r.text, "latin1").subarray(0, 254)
  const body = Buffer.concat([
    cstr(""), // service_type
    u8(1),
    u8(1),
    cstr(r.sourceAddr.replace(/^\+/, "").slice(0, 20)),
    u8(5),
    u8(0),
    cstr(r.destinationAddr.slice(0, 20)),
    u8(r.esmClass), // esm_class: SMSC delivery receipt, or intermediate notification
    u8(0),
    u8(0),
    cstr(""),
    cstr(""),
    u8(0),
    u8(0),
    u8(0), // data_coding: default alphabet (ASCII text)
    u8(0),
    u8(text.length),
    text,
    tlv(Tlv.receipted_message_id, cstr(r.messageId)),
    tlv(Tlv.message_state, u8(r.messageState)),
    r.failed ? tlv(Tlv.network_error_code, Buffer.from([0x03, 0x00, 0x01])) : Buffer.alloc(0)
  ])
  return encodePdu(Cmd.deliver_sm, 0, r.sequence, body)
}

/** A handset's message as deliver_sm (esm_class 0x00, or 0x40 for a part with its UDH). */
export interface MoPdu {
  readonly sequence: number
  /** The handset (sent without its `+`, TON international). */
  readonly sourceAddr: string
  /** The number (TON international) or short code (TON unknown) it was sent to. */
  readonly destinationAddr: string
  /** The part's bytes (UDH included for a part of a long message). */
  readonly shortMessage: Buffer
  readonly esmClass: number
  readonly dataCoding: number
}

/** deliver_sm of a mobile-originated message (SMPP 3.4 §4.6.1). */
export const deliverMo = (m: MoPdu): Buffer => {
  // TON international for `+…` and full numbers (10 digits and more), unknown for short codes
  const international = (a: string) => a.startsWith("+") || /^\d{10,}$/.test(a)
  const body = Buffer.concat([
    cstr(""), // service_type
    u8(international(m.sourceAddr) ? 1 : 0),
    u8(1),
    cstr(m.sourceAddr.replace(/^\+/, "").slice(0, 20)),
    u8(international(m.destinationAddr) ? 1 : 0),
    u8(1),
    cstr(m.destinationAddr.replace(/^\+/, "").slice(0, 20)),
    u8(m.esmClass),
    u8(0),
    u8(0),
    cstr(""),
    cstr(""),
    u8(0),
    u8(0),
    u8(m.dataCoding),
    u8(0),
    u8(m.shortMessage.length),
    m.shortMessage
  ])
  return encodePdu(Cmd.deliver_sm, 0, m.sequence, body)
}
