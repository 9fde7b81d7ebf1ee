/**
 * Metrics and spans of the send path, as decorators of the `Send` use case and its `SendStore`
 * port (the use case itself is untouched):
 *
 * - `tuma_messages_accepted_total{channel,country,mode}`: live messages once their acceptance
 *   transaction committed (`SendStore.accept` answered `Accepted`), one per recipient; sandbox sends
 *   (nothing stored) with `mode="sandbox"` when the use case answers them.
 * - `tuma_messages_refused_total{error_code}`: a refused request counts once with its error code; a
 *   campaign's skipped recipients (`failures`) count once each.
 * - With `TraceSettings.linkMessages`: a span per use case (`Send.single`, `Send.bulkV1`,
 *   `Send.bulkV2`) and the accepting span's `traceparent` saved for every message before the
 *   acceptance transaction (so a dispatcher never claims a message before its context exists; the
 *   rows of a send that was then refused are orphans nobody reads).
 */
import { normalizeRecipient } from "@tuma/domain"
import { Effect, FiberRef, Layer, Predicate } from "effect"
import { SendStore } from "../ports/SendStore.js"
import type { SendCaller, SendOutcome } from "../send/model.js"
import { batchOf, Send } from "../send/Send.js"
import { currentLogUids } from "./LogContext.js"
import * as M from "./Metrics.js"
import { currentTraceparent, linkedTraces, TraceContextStore, TraceSettings } from "./Tracing.js"

const countryOf = (recipient: string): string => {
  const r = normalizeRecipient(recipient)
  return r._tag === "Right" ? r.right.country : "unknown"
}

const refusedFromData = (data: unknown) => {
  const failures = Predicate.hasProperty(data, "failures") ? data.failures : undefined
  if (Array.isArray(failures)) {
    for (const f of failures) {
      if (Predicate.hasProperty(f, "error_code") && typeof f.error_code === "string") M.refused.update(1, f.error_code)
    }
  }
}

const errorCodeOf = (error: unknown): string =>
  Predicate.hasProperty(error, "error_code") && typeof error.error_code === "string" ? error.error_code : "UNKNOWN"

const recipientOf = (r: unknown): string | undefined =>
  Predicate.hasProperty(r, "recipient") && typeof r.recipient === "string" ? r.recipient : undefined

const countSandbox = (caller: SendCaller, data: unknown) => {
  const channel = caller.channel ?? "api"
  const list = Predicate.hasProperty(data, "results")
    ? data.results
    : Predicate.hasProperty(data, "messages")
    ? data.messages
    : undefined
  if (Array.isArray(list)) {
    for (const r of list) {
      const recipient = recipientOf(r)
      if (recipient !== undefined) M.accepted.update(1, channel, countryOf(recipient), "sandbox")
    }
  } else {
    const recipient = recipientOf(data)
    if (recipient !== undefined) M.accepted.update(1, channel, countryOf(recipient), "sandbox")
  }
}

const observeCall = <A, E, R>(
  name: string,
  caller: SendCaller,
  call: Effect.Effect<SendOutcome<A>, E, R>,
  spans: boolean
): Effect.Effect<SendOutcome<A>, E, R> => {
  const observed = call.pipe(
    Effect.tap((outcome) => {
      const uid = Predicate.hasProperty(outcome.data, "uid") && typeof outcome.data.uid === "string"
        ? outcome.data.uid
        : undefined
      const key = name === "Send.single" ? "message_uid" : "campaign_uid"
      const logged = uid === undefined ? Effect.void : Effect.map(FiberRef.get(currentLogUids), (uids) => {
        if (uids !== undefined) uids[key] = uid
      })
      if (outcome.idempotent_replay) return logged
      refusedFromData(outcome.data)
      if (outcome.sandbox) countSandbox(caller, outcome.data)
      return spans && uid !== undefined ? Effect.zipRight(logged, Effect.annotateCurrentSpan(key, uid)) : logged
    }),
    Effect.tapError((error) => Effect.sync(() => M.refused.update(1, errorCodeOf(error))))
  )
  return spans
    ? Effect.withSpan(observed, name, { attributes: { "tuma.mode": caller.mode }, captureStackTrace: false })
    : observed
}

/** `Send` with metrics (and spans when tracing links messages). */
export const observeSend = (send: Send["Type"], spans: boolean): Send["Type"] => {
  const single: Send["Type"]["single"] = (caller, request) =>
    observeCall("Send.single", caller, send.single(caller, request), spans)
  return {
    single,
    // each send of a batch observed as the single send it is
    batch: batchOf(single),
    bulkV1: (caller, request) => observeCall("Send.bulkV1", caller, send.bulkV1(caller, request), spans),
    bulkV2: (caller, request) => observeCall("Send.bulkV2", caller, send.bulkV2(caller, request), spans)
  }
}

/** `SendStore` counting accepted messages (and saving their trace context when tracing). */
export const observeSendStore = (
  store: SendStore["Type"],
  traces: TraceContextStore["Type"] | undefined
): SendStore["Type"] => ({
  ...store,
  accept: (plan) => {
    const count = (outcome: { readonly _tag: string }) => {
      if (outcome._tag !== "Accepted") return
      const channel = plan.messages.common.channel
      for (const item of plan.messages.items) M.accepted.update(1, channel, item.country, "live")
    }
    if (traces === undefined) return Effect.map(store.accept(plan), (o) => (count(o), o))
    return Effect.flatMap(currentTraceparent, (traceparent) =>
      (traceparent === undefined
        ? Effect.void
        : traces.save(plan.messages.items.map((m) => m.id), traceparent)).pipe(
          Effect.zipRight(store.accept(plan)),
          Effect.map((o) => (count(o), o))
        ))
  }
})

/** Wraps a layer of `Send` (whose `SendStore` is given) so both are observed. */
export const layerObserved = <E, R, E2, R2>(
  send: Layer.Layer<Send, E, R | SendStore>,
  store: Layer.Layer<SendStore, E2, R2>
): Layer.Layer<Send, E | E2, Exclude<R, SendStore> | R2> =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const settings = yield* TraceSettings
    const traces = yield* linkedTraces
    const observedStore = Layer.effect(SendStore, Effect.map(SendStore, (s) => observeSendStore(s, traces))).pipe(
      Layer.provide(store)
    )
    return Layer.effect(Send, Effect.map(Send, (s) => observeSend(s, settings.linkMessages))).pipe(
      Layer.provide(send),
      Layer.provide(observedStore)
    )
  }))
