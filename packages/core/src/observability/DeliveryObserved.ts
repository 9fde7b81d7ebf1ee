/**
 * Metrics and spans of delivery, as decorators of the `DispatchStore` and `Providers` ports (the
 * dispatcher itself is untouched and keeps its no-fiber-per-message hot path):
 *
 * - `tuma_dispatch_submit_duration_seconds{provider}`: from a message's submit to the provider's
 *   answer (`submit` and `submitMany` alike).
 * - `tuma_messages_final_total{status,provider}`: counted when the outcome's transaction committed
 *   (`DispatchStore.apply` succeeded): failures before any provider took the message
 *   (`provider="none"`), partial refusals, final receipts joined to their sent record, and final
 *   receipts of parts this process recorded as sent (a message is delivered when every part is,
 *   failed at its first failed part — as the store decides); unconfirmed `Unknown` submits failed by
 *   reconciliation.
 * - `tuma_delivery_receipt_delay_seconds{provider}`: from the part's submit to its final receipt.
 * - `tuma_provider_bind_up{provider}`: sampled at scrape time from each provider (`bound`).
 *
 * Receipts are matched to parts in memory (a bounded table of parts sent by this process, oldest
 * dropped past `MAX_TRACKED`): a receipt for a part sent by another process or before a restart is
 * recorded by the store as usual but not counted here (docs/observability.md).
 *
 * With `TraceSettings.linkMessages`, a `dispatch.submit` span per message and a `delivery.receipt`
 * span per final receipt, each linked to the span of the request that accepted the message.
 */
import type { Tracer } from "effect"
import { Effect, Exit, Layer } from "effect"
import type { ClaimedMessage } from "../ports/DispatchStore.js"
import { DispatchStore } from "../ports/DispatchStore.js"
import type { Provider, SubmitOutcome } from "../ports/Provider.js"
import { Providers } from "../ports/Provider.js"
import * as M from "./Metrics.js"
import { layerObservedBy, linkTo, TraceContextStore, TraceSettings } from "./Tracing.js"

const MAX_TRACKED = 200_000

interface MessageTrack {
  remaining: number
  done: boolean
  readonly provider: string
  readonly messageId: string
}
interface PartTrack {
  readonly at: number
  readonly message: MessageTrack
}

/** Process-wide state shared by the two decorators (like the metric registry itself). */
const state = {
  /** providers.id -> providers.name */
  names: new Map<string, string>(),
  /** message id -> epoch ms its submit was answered */
  submittedAt: new Map<string, number>(),
  /** provider id + ref -> the part */
  parts: new Map<string, PartTrack>(),
  /** message id -> traceparent of the accepting request (tracing only) */
  traceparents: new Map<string, string>(),
  /** message id -> provider name of an unknown submit (reconciliation) */
  reconciling: new Map<string, string>()
}

const bounded = <K, V>(map: Map<K, V>, key: K, value: V) => {
  if (map.size >= MAX_TRACKED) {
    const oldest = map.keys().next()
    if (!oldest.done) map.delete(oldest.value)
  }
  map.set(key, value)
}

const nameOf = (providerId: string) => state.names.get(providerId) ?? "unknown"
const partKey = (providerId: string, ref: string) => `${providerId}\u0001${ref}`

const rootSpan = (
  name: string,
  messageId: string,
  attributes: Record<string, unknown>
): Effect.Effect<Tracer.Span> => {
  const link = linkTo(state.traceparents.get(messageId))
  // the workers run with the tracer disabled (their polling statements are not traced): on for this span
  return Effect.withTracerEnabled(
    Effect.makeSpan(name, {
      root: true,
      kind: name === "dispatch.submit" ? "producer" : "consumer",
      links: link === undefined ? [] : [link],
      attributes: { message_uid: messageId, ...attributes },
      captureStackTrace: false
    }),
    true
  )
}

/** `DispatchStore` counting final outcomes and receipt delays once they are committed. */
export const observeDispatchStore = (
  store: DispatchStore["Type"],
  traces: TraceContextStore["Type"] | undefined
): DispatchStore["Type"] => ({
  ...store,
  routes: Effect.tap(store.routes, (rows) => {
    for (const r of rows) state.names.set(r.providerId, r.providerName)
  }),
  providers: Effect.tap(store.providers, (rows) => {
    for (const r of rows) state.names.set(r.id, r.name)
  }),
  claim: traces === undefined ?
    store.claim :
    (options) =>
      Effect.tap(
        store.claim(options),
        (claimed: ReadonlyArray<ClaimedMessage>) =>
          claimed.length === 0 ? Effect.void : Effect.map(
            traces.load(claimed.map((m) => m.id)),
            (found) => {
              for (const [id, tp] of found) bounded(state.traceparents, id, tp)
            }
          )
      ),
  dueReconciliations: (now, limit, leaseUntil) =>
    Effect.tap(store.dueReconciliations(now, limit, leaseUntil), (items) => {
      for (const i of items) bounded(state.reconciling, i.messageId, nameOf(i.providerId))
    }),
  failUnconfirmed: (items, now) =>
    Effect.tap(store.failUnconfirmed(items, now), () => {
      for (const i of items) {
        M.final.update(1, "failed", state.reconciling.get(i.messageId) ?? "unknown")
        state.reconciling.delete(i.messageId)
        state.traceparents.delete(i.messageId)
      }
    }),
  apply: (batch) =>
    Effect.tap(store.apply(batch), (result) => {
      const now = batch.now.getTime()
      if (batch.inbound.length > 0) {
        M.inboundOutcomes.update(result.inbound.messages - result.inbound.unrouted, "routed")
        M.inboundOutcomes.update(result.inbound.unrouted, "unrouted")
        M.inboundOutcomes.update(result.inbound.duplicates, "duplicate")
      }
      const spans: Array<Effect.Effect<void>> = []
      for (const f of batch.failed) {
        M.final.update(1, "failed", "none")
        state.traceparents.delete(f.messageId)
      }
      for (const r of batch.sent) {
        const provider = nameOf(r.providerId)
        const at = state.submittedAt.get(r.messageId) ?? now
        state.submittedAt.delete(r.messageId)
        if (r.receipt !== undefined) {
          M.final.update(1, r.receipt.state, provider)
          M.receiptDelaySeconds.update(Math.max(0, now - at) / 1000, provider)
          if (traces !== undefined) {
            spans.push(receiptSpan(r.messageId, provider, r.receipt.state, r.receipt.deliveryStatus))
          }
          state.traceparents.delete(r.messageId)
        } else if (r.failureReason !== null) {
          M.final.update(1, "failed", provider)
          state.traceparents.delete(r.messageId)
        } else if (r.unknown === null) {
          const message: MessageTrack = { remaining: r.parts.length, done: false, provider, messageId: r.messageId }
          for (const p of r.parts) {
            if (p.ref !== null) bounded(state.parts, partKey(r.providerId, p.ref), { at, message })
          }
        }
      }
      for (const r of batch.receipts) {
        if (r.state === "enroute") continue
        let track: PartTrack | undefined
        for (const c of r.candidates) {
          const key = partKey(r.providerId, c)
          track = state.parts.get(key)
          if (track !== undefined) {
            state.parts.delete(key)
            break
          }
        }
        if (track === undefined) continue
        const m = track.message
        M.receiptDelaySeconds.update(Math.max(0, r.receivedAt.getTime() - track.at) / 1000, m.provider)
        m.remaining--
        let final: "delivered" | "failed" | undefined
        if (!m.done && (r.state === "failed" || m.remaining === 0)) {
          final = r.state === "failed" ? "failed" : "delivered"
          m.done = true
          M.final.update(1, final, m.provider)
        }
        if (traces !== undefined) spans.push(receiptSpan(m.messageId, m.provider, r.state, r.deliveryStatus))
        if (final !== undefined) state.traceparents.delete(m.messageId)
      }
      return spans.length === 0 ? Effect.void : Effect.all(spans, { discard: true })
    })
})

const receiptSpan = (messageId: string, provider: string, state: string, deliveryStatus: string) =>
  Effect.flatMap(
    rootSpan("delivery.receipt", messageId, {
      "tuma.provider": provider,
      "tuma.receipt.state": state,
      "tuma.receipt.status": deliveryStatus
    }),
    (span) => Effect.sync(() => span.end(BigInt(Date.now()) * 1_000_000n, Exit.void))
  )

const outcomeTag = (exit: Exit.Exit<SubmitOutcome>) => Exit.isSuccess(exit) ? exit.value._tag : "Defect"

/** A provider whose submits are timed (and traced when `spans`). */
export const observeProvider = (provider: Provider, spans: boolean): Provider => {
  const labels = M.submitDuration.labels(provider.id)
  const done = (messageId: string, started: number) => {
    const t = Date.now()
    M.dispatchSubmitDuration.unsafeUpdate((performance.now() - started) / 1000, labels)
    bounded(state.submittedAt, messageId, t)
  }
  const endSpan = (span: Tracer.Span | undefined, exit: Exit.Exit<SubmitOutcome>) => {
    if (span === undefined) return
    span.attribute("tuma.submit.outcome", outcomeTag(exit))
    span.end(BigInt(Date.now()) * 1_000_000n, Exit.isSuccess(exit) ? Exit.void : exit)
  }
  const spanFor = (messageId: string) =>
    spans ? Effect.map(rootSpan("dispatch.submit", messageId, { "tuma.provider": provider.id }), (s) => s) : undefined
  return {
    ...provider,
    submit: (sms) =>
      Effect.gen(function*() {
        const span = spans ? yield* spanFor(sms.messageId)! : undefined
        const started = performance.now()
        const exit = yield* Effect.exit(provider.submit(sms))
        done(sms.messageId, started)
        endSpan(span, exit)
        return yield* exit
      }),
    ...(provider.submitMany === undefined ? {} : {
      submitMany: (smses, onOutcome) =>
        Effect.gen(function*() {
          const opened: Array<Tracer.Span> | undefined = spans ? [] : undefined
          if (opened !== undefined) { for (const sms of smses) opened.push(yield* spanFor(sms.messageId)!) }
          const started = performance.now()
          return yield* provider.submitMany!(smses, (i, exit) => {
            done(smses[i]!.messageId, started)
            endSpan(opened?.[i], exit)
            onOutcome(i, exit)
          })
        })
    })
  }
}

/**
 * The providers of a layer, observed; their bind state sampled at every scrape. The registry may
 * `reload` (providers started, restarted, stopped while running): each adapter is wrapped once, when
 * first seen, and a provider that left the registry reads 0.
 */
export const layerObservedProviders = <E, R>(providers: Layer.Layer<Providers, E, R>) =>
  Layer.scoped(
    Providers,
    Effect.gen(function*() {
      const inner = yield* Providers
      const settings = yield* TraceSettings
      const wrapped = new WeakMap<Provider, Provider>()
      const wrap = (p: Provider): Provider => {
        let w = wrapped.get(p)
        if (w === undefined) {
          w = observeProvider(p, settings.linkMessages)
          wrapped.set(p, w)
        }
        return w
      }
      const seen = new Set<string>()
      yield* M.registerSampler(Effect.sync(() => {
        const now = new Set<string>()
        for (const p of inner.all) {
          now.add(p.id)
          if (!seen.has(p.id)) M.providerAtZero(p.id)
          seen.add(p.id)
          M.bindUp.update(p.bound === undefined || p.bound() ? 1 : 0, p.id)
        }
        for (const id of seen) if (!now.has(id)) M.bindUp.update(0, id)
      }))
      return Providers.of({
        get: (id) => {
          const p = inner.get(id)
          return p === undefined ? undefined : wrap(p)
        },
        get all() {
          return inner.all.map(wrap)
        },
        ...(inner.reload === undefined ? {} : { reload: inner.reload })
      })
    })
  ).pipe(Layer.provide(providers))

/** The dispatch store of a layer, observed. */
export const layerObservedDispatchStore = layerObservedBy(DispatchStore, observeDispatchStore)
