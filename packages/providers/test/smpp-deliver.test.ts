/**
 * The event a deliver_sm carries (src/smpp/deliver.ts), without a connection: receipts by esm_class,
 * inbound messages with the sender's `+` restored, unreadable receipts as null.
 */
import smpp from "smpp"
import { describe, expect, it } from "vitest"
import { deliveredEvent, deliveredText } from "../src/smpp/deliver.js"

const now = new Date("2026-01-02T03:04:05Z")

describe("deliveredEvent", () => {
  it("a receipt (esm_class 0x04) in the text form is a DeliveryReport with its state", () => {
    const pdu = new smpp.PDU("deliver_sm", {
      esm_class: 0x04,
      short_message:
        "id:abc123 sub:001 dlvrd:001 submit date:2601020304 done date:2601020304 stat:DELIVRD err:000 text:hi"
    })
    const { event } = deliveredEvent("c1", pdu, now)
    expect(event?._tag).toBe("DeliveryReport")
    expect(event).toMatchObject({
      providerId: "c1",
      providerMessageId: "abc123",
      deliveryStatus: "DELIVRD",
      errorCode: "000",
      state: "delivered",
      receivedAt: now
    })
  })

  it("the TLVs of a receipt win over its text", () => {
    const pdu = new smpp.PDU("deliver_sm", {
      esm_class: 0x04,
      short_message: "id:text-id stat:DELIVRD err:000",
      receipted_message_id: "tlv-id",
      message_state: 5
    })
    expect(deliveredEvent("c1", pdu, now).event).toMatchObject({
      providerMessageId: "tlv-id",
      deliveryStatus: "UNDELIV"
    })
  })

  it("an unreadable receipt is null, with its text for the log", () => {
    const pdu = new smpp.PDU("deliver_sm", { esm_class: 0x04, short_message: "garbage" })
    expect(deliveredEvent("c1", pdu, now)).toEqual({ event: null, text: "garbage" })
  })

  it("an MO message is an InboundMessage; a national-TON numeric sender gets its +", () => {
    const pdu = new smpp.PDU("deliver_sm", {
      esm_class: 0,
      source_addr_ton: 1,
      source_addr: "254700000001",
      destination_addr: "40404",
      short_message: "STOP"
    })
    expect(deliveredEvent("c1", pdu, now).event).toMatchObject({
      _tag: "InboundMessage",
      providerId: "c1",
      from: "+254700000001",
      to: "40404",
      text: "STOP"
    })
    const alpha = new smpp.PDU("deliver_sm", { source_addr_ton: 5, source_addr: "ACME", short_message: "hi" })
    expect(deliveredEvent("c1", alpha, now).event).toMatchObject({ from: "ACME" })
  })

  it("reads the text from a string, a Buffer (GSM-7) or nothing", () => {
    expect(deliveredText(new smpp.PDU("deliver_sm", { short_message: "abc" }))).toBe("abc")
    expect(deliveredText(new smpp.PDU("deliver_sm", { short_message: Buffer.from("abc") }))).toBe("abc")
    expect(deliveredText(new smpp.PDU("deliver_sm", {}))).toBe("")
  })
})
