/**
 * What carriers report — delivery receipts, inbound messages (two-way SMS: stored, joined and routed
 * by the store in the writer's transaction), late answers to a submit — turned into writer records
 * (`ProviderEventSink`).
 */
import { storableText } from "@tuma/domain"
import { Effect, Exit, Layer, Runtime } from "effect"
import type { ReceiptRecord } from "../ports/DispatchStore.js"
import { DispatchStore } from "../ports/DispatchStore.js"
import type { InboundRecord } from "../ports/InboundStore.js"
import type { DeliveryReport, InboundMessage, ProviderEvent } from "../ports/Provider.js"
import { ProviderEventSink } from "../ports/Provider.js"
import { DeliveryWriter } from "./DeliveryWriter.js"
import { describeReceiptFailure, normalizeRef, refCandidates } from "./ProviderRef.js"

// ---------------------------------------------------------------------------------------------
// What carriers report (receipts, MO, late answers) -> the writer
// ---------------------------------------------------------------------------------------------

/**
 * The writer's record of a mobile-originated part: addresses and text made storable (a NUL, which
 * PostgreSQL cannot store, would stall the writer: it is dropped), GSM-7 when the carrier did not say.
 */
export const inboundRecord = (event: InboundMessage): InboundRecord => ({
  provider: event.providerId,
  from: storableText(event.from).slice(0, 64),
  to: storableText(event.to).slice(0, 64),
  text: storableText(event.text),
  encoding: event.encoding ?? "GSM-7",
  concat: event.concat ?? null,
  receivedAt: event.receivedAt
})

/**
 * `ProviderEventSink` over the writer: receipts, late acceptances and inbound parts become records;
 * events of unknown providers are logged and dropped.
 */
export const layerEventSink: Layer.Layer<ProviderEventSink, never, DeliveryWriter | DispatchStore> = Layer.effect(
  ProviderEventSink,
  Effect.gen(function*() {
    const writer = yield* DeliveryWriter
    const store = yield* DispatchStore
    const runtime = yield* Effect.runtime<never>()
    const runCallback = Runtime.runCallback(runtime)
    let ids = new Map((yield* store.providers).map((p) => [p.name, p.id] as const))
    const idOf = (name: string) =>
      Effect.gen(function*() {
        const known = ids.get(name)
        if (known !== undefined) return known
        ids = new Map((yield* store.providers).map((p) => [p.name, p.id] as const))
        return ids.get(name)
      })
    const receipt = (providerId: string, event: DeliveryReport): ReceiptRecord => ({
      providerId,
      candidates: refCandidates(event.providerMessageId),
      state: event.state,
      deliveryStatus: event.deliveryStatus,
      errorCode: event.errorCode,
      failureReason: event.state === "failed" ? describeReceiptFailure(event.deliveryStatus, event.errorCode) : null,
      receivedAt: event.receivedAt
    })
    const handle = (event: ProviderEvent): Effect.Effect<void> =>
      Effect.gen(function*() {
        const providerId = yield* idOf(event.providerId)
        if (providerId === undefined) {
          return yield* Effect.logWarning(`event from unknown provider ${event.providerId} ignored`)
        }
        switch (event._tag) {
          case "DeliveryReport":
            return yield* writer.write("receipts", receipt(providerId, event))
          case "LateAcceptance":
            return yield* writer.write("lateAcceptances", {
              providerId,
              messageId: event.reference,
              partIndex: event.partIndex,
              providerMessageId: event.providerMessageId,
              ref: normalizeRef(event.providerMessageId)
            })
          case "InboundMessage":
            // stored, joined and routed by the store (`InboundStore`, two-way SMS); acknowledged after
            return yield* writer.write("inbound", inboundRecord(event))
        }
      })
    // receipts and inbound parts of known providers go straight to the writer (one per PDU: no
    // fiber each); the carrier is answered once the transaction holding them committed
    const offer = (event: ProviderEvent, done: (recorded: boolean) => void): void => {
      const providerId = event._tag === "LateAcceptance" ? undefined : ids.get(event.providerId)
      if (providerId !== undefined && event._tag === "DeliveryReport") {
        return writer.push("receipts", receipt(providerId, event), () => done(true))
      }
      if (providerId !== undefined && event._tag === "InboundMessage") {
        return writer.push("inbound", inboundRecord(event), () => done(true))
      }
      runCallback(handle(event), { onExit: (exit) => done(Exit.isSuccess(exit)) })
    }
    return { handle, offer }
  })
)
