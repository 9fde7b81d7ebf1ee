/**
 * What an SMPP connection does with single PDUs, apart from its state: the event a deliver_sm carries
 * (a delivery receipt or an inbound message), and the batched write of PDUs.
 */
import type { ProviderEvent } from "@tuma/core/ports/Provider"
import { DeliveryReport, InboundMessage } from "@tuma/core/ports/Provider"
import type { Concat, InboundEncoding } from "@tuma/domain"
import { concatOfUdh, decodeShortMessage, encodingOfDataCoding, sarConcat } from "@tuma/domain"
import type smpp from "smpp"
import {
  ESM_CLASS_INTERMEDIATE,
  ESM_CLASS_RECEIPT,
  ESM_CLASS_TYPE_MASK,
  parseReceipt,
  readShortMessage,
  stateOfStatus
} from "./codec.js"

/** The text of a deliver_sm's short_message, whatever form the `smpp` package gave it. */
export const deliveredText = (pdu: smpp.PDU): string => {
  const sm = pdu.short_message
  return typeof sm === "string"
    ? sm
    : Buffer.isBuffer(sm)
    ? readShortMessage(sm, pdu.esm_class ?? 0, pdu.data_coding ?? 0).text
    : sm !== undefined
    ? (typeof sm.message === "string" ? sm.message : sm.message.toString("latin1"))
    : ""
}

/**
 * The event of a deliver_sm received at `now` from carrier `providerId`: a `DeliveryReport` for a
 * receipt (esm_class 0x04 / 0x20), an `InboundMessage` otherwise (a national-TON numeric sender gets
 * its `+`), or null for a receipt whose text cannot be read; with the text, for the log.
 */
export const deliveredEvent = (
  providerId: string,
  pdu: smpp.PDU,
  now: Date
): { readonly event: ProviderEvent | null; readonly text: string } => {
  const type = (pdu.esm_class ?? 0) & ESM_CLASS_TYPE_MASK
  const text = deliveredText(pdu)
  if (type === ESM_CLASS_RECEIPT || type === ESM_CLASS_INTERMEDIATE) {
    const r = parseReceipt(text, pdu.receipted_message_id, pdu.message_state)
    if (r === null) return { event: null, text }
    return {
      event: new DeliveryReport({
        providerId,
        providerMessageId: r.id,
        state: stateOfStatus(r.stat),
        deliveryStatus: r.stat,
        errorCode: r.err,
        receivedAt: now
      }),
      text
    }
  }
  const from = pdu.source_addr ?? ""
  const mo = inboundContent(pdu)
  return {
    event: new InboundMessage({
      providerId,
      from: pdu.source_addr_ton === 1 && /^\d+$/.test(from) ? `+${from}` : from,
      to: pdu.destination_addr ?? "",
      text: mo.text,
      encoding: mo.encoding,
      concat: mo.concat,
      receivedAt: now
    }),
    text: mo.text
  }
}

const tlvNumber = (v: unknown): number | undefined => typeof v === "number" ? v : undefined

/**
 * A mobile-originated deliver_sm's text, encoding (by `data_coding`: GSM-7, Latin-1, UCS-2) and
 * place in a concatenated message (UDH 8/16-bit, or the `sar_*` TLVs); a message in
 * `message_payload` when short_message is empty. Whatever form the `smpp` package decoded it to.
 */
export const inboundContent = (
  pdu: smpp.PDU
): { readonly text: string; readonly encoding: InboundEncoding; readonly concat: Concat | null } => {
  const dataCoding = pdu.data_coding ?? 0
  const encoding = encodingOfDataCoding(dataCoding)
  const read = (sm: smpp.ShortMessage | Buffer | string | undefined): { text: string; concat: Concat | null } => {
    if (sm === undefined) return { text: "", concat: null }
    if (typeof sm === "string") return { text: sm, concat: null }
    if (Buffer.isBuffer(sm)) {
      const d = decodeShortMessage(sm, pdu.esm_class ?? 0, dataCoding)
      return { text: d.text, concat: d.concat }
    }
    const text = typeof sm.message === "string" ? sm.message : decodeShortMessage(sm.message, 0, dataCoding).text
    const udh = sm.udh ?? []
    return { text, concat: udh.length > 0 ? concatOfUdh(Buffer.concat([...udh])) : null }
  }
  const short = read(pdu.short_message)
  const body = short.text === "" && pdu.message_payload !== undefined ? read(pdu.message_payload) : short
  const concat = body.concat ??
    sarConcat(tlvNumber(pdu.sar_msg_ref_num), tlvNumber(pdu.sar_total_segments), tlvNumber(pdu.sar_segment_seqnum))
  return { text: body.text, encoding, concat }
}

/**
 * `session.send`, with every PDU written in the same tick going out in one `writev`: the socket is
 * corked at the first and uncorked on the next tick (a submit per answer received, an
 * acknowledgement per receipt committed: one system call per burst instead of one per PDU).
 */
export const sendBatched = (session: smpp.Session, pdu: smpp.PDU, onResponse?: (pdu: smpp.PDU) => void): boolean => {
  const socket = session.socket
  if (socket.writableCorked === 0) {
    socket.cork()
    process.nextTick(() => socket.uncork())
  }
  return session.send(pdu, onResponse)
}
