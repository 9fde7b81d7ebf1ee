/**
 * What an SMPP connection does with single PDUs, apart from its state: the event a deliver_sm carries
 * (a delivery receipt or an inbound message), and the batched write of PDUs.
 */
import type { ProviderEvent } from "@tuma/core/ports/Provider"
import { DeliveryReport, InboundMessage } from "@tuma/core/ports/Provider"
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
  return {
    event: new InboundMessage({
      providerId,
      from: pdu.source_addr_ton === 1 && /^\d+$/.test(from) ? `+${from}` : from,
      to: pdu.destination_addr ?? "",
      text,
      receivedAt: now
    }),
    text
  }
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
