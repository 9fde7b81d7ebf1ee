/**
 * What carriers report — delivery receipts, inbound messages (a STOP word opts the sender out,
 * `domain/optOut.ts`), late answers to a submit — turned into writer records (`ProviderEventSink`).
 */
import { isStopRequest } from "@tuma/domain"
import { Effect, Exit, Layer, Runtime } from "effect"
import type { ReceiptRecord } from "../ports/DispatchStore.js"
import { DispatchStore } from "../ports/DispatchStore.js"
import type { DeliveryReport, ProviderEvent } from "../ports/Provider.js"
import { ProviderEventSink } from "../ports/Provider.js"
import { DeliveryWriter } from "./DeliveryWriter.js"
import { describeReceiptFailure, normalizeRef, refCandidates } from "./ProviderRef.js"

// ---------------------------------------------------------------------------------------------
// What carriers report (receipts, MO, late answers) -> the writer
// ---------------------------------------------------------------------------------------------

/**
 * `ProviderEventSink` over the writer: receipts and late acceptances become records, an inbound STOP
 * an opt-out (other inbound is logged); events of unknown providers are logged and dropped.
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
            if (!isStopRequest(event.text)) {
              return yield* Effect.logInfo(`inbound message from ${event.from} to ${event.to} (not a STOP)`)
            }
            return yield* writer.write("optOuts", {
              providerId,
              recipient: event.from,
              to: event.to,
              text: event.text.trim(),
              receivedAt: event.receivedAt
            })
        }
      })
    // receipts of known providers go straight to the writer (one per part: no fiber each)
    const offer = (event: ProviderEvent, done: (recorded: boolean) => void): void => {
      const providerId = event._tag === "DeliveryReport" ? ids.get(event.providerId) : undefined
      if (providerId !== undefined && event._tag === "DeliveryReport") {
        return writer.push("receipts", receipt(providerId, event), () => done(true))
      }
      runCallback(handle(event), { onExit: (exit) => done(Exit.isSuccess(exit)) })
    }
    return { handle, offer }
  })
)
