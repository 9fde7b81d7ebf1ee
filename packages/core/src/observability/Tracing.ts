/**
 * Trace context of messages: the span of the request that accepted a message is stored with it
 * (`TraceContextStore`, table `message_trace_context`), so the spans of its later life (dispatch
 * submit, delivery receipt, webhook attempt) — in another fiber, batch or process — link back to it.
 *
 * `TraceSettings.linkMessages` is set by the HTTP package when an OTLP endpoint is configured;
 * otherwise nothing is stored or looked up (tracing off costs nothing).
 */
import type { Tracer } from "effect"
import { Context, Effect, Layer, Option } from "effect"
import * as T from "effect/Tracer"

/** Whether the spans of a message's later life (dispatch, receipts, webhooks) are linked to the request that accepted it. */
export class TraceSettings extends Context.Reference<TraceSettings>()("@tuma/core/TraceSettings", {
  defaultValue: (): { readonly linkMessages: boolean } => ({ linkMessages: false })
}) {}

/** The W3C `traceparent` of messages (message id -> traceparent). */
export class TraceContextStore extends Context.Tag("@tuma/core/TraceContextStore")<TraceContextStore, {
  readonly save: (messageIds: ReadonlyArray<string>, traceparent: string) => Effect.Effect<void>
  readonly load: (messageIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
}>() {}

/** `00-<trace id>-<span id>-<flags>` of a span. */
export const traceparentOf = (span: Tracer.AnySpan): string =>
  `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** A span link to a stored `traceparent` (undefined when it does not parse). */
export const linkTo = (traceparent: string | undefined): Tracer.SpanLink | undefined => {
  if (traceparent === undefined) return undefined
  const m = TRACEPARENT.exec(traceparent)
  if (m === null) return undefined
  return {
    _tag: "SpanLink",
    span: T.externalSpan({ traceId: m[1]!, spanId: m[2]!, sampled: m[3] === "01" }),
    attributes: { "tuma.link": "accepted_by" }
  }
}

/** The current span's traceparent, if there is a span and it is sampled (else nothing to link to). */
export const currentTraceparent: Effect.Effect<string | undefined> = Effect.map(
  Effect.option(Effect.currentSpan),
  (span) => Option.isSome(span) && span.value.sampled ? traceparentOf(span.value) : undefined
)

/** The trace-context store when spans are linked to messages (`TraceSettings.linkMessages`), else undefined. */
export const linkedTraces: Effect.Effect<TraceContextStore["Type"] | undefined> = Effect.gen(
  function*() {
    const settings = yield* TraceSettings
    return settings.linkMessages ? Option.getOrUndefined(yield* Effect.serviceOption(TraceContextStore)) : undefined
  }
)

/**
 * A port's layer, observed: `observe` decorates the service `layer` builds, given the linked
 * trace-context store (the dispatch store's and the webhook sender's decorators).
 */
export const layerObservedBy = <I, S>(
  tag: Context.Tag<I, S>,
  observe: (inner: S, traces: TraceContextStore["Type"] | undefined) => S
) =>
<E, R>(layer: Layer.Layer<I, E, R>) =>
  Layer.effect(tag, Effect.zipWith(tag, linkedTraces, observe)).pipe(Layer.provide(layer))
