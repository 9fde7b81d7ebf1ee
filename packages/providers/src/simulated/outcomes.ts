/**
 * The pieces of the simulated carrier (SimulatedProvider.ts) that hold no state of their own: the draw of
 * an outcome from the mix, the bounded table of part states `query` answers from, and the recording of
 * receipts through the sink.
 */
import type { DeliveryReport, PartState } from "@tuma/core/ports/Provider"
import type { ProviderEventSink } from "@tuma/core/ports/Provider"
import { Effect } from "effect"

/**
 * Shares of the outcomes the simulated carrier draws for each message: delivered, failed receipt, refused
 * (transient or permanent), unknown.
 */
export interface OutcomeMix {
  readonly delivered?: number
  /** Accepted, then a failed receipt (UNDELIV). */
  readonly failed?: number
  readonly refusedTransient?: number
  readonly refusedPermanent?: number
  readonly unknown?: number
}

/** The outcome drawn for a number in [0, 1) from the mix's relative weights (all zero: delivered). */
export const pickOutcome = (m: OutcomeMix, r01: number) => {
  const entries = [
    ["delivered", m.delivered ?? 0],
    ["failed", m.failed ?? 0],
    ["refusedTransient", m.refusedTransient ?? 0],
    ["refusedPermanent", m.refusedPermanent ?? 0],
    ["unknown", m.unknown ?? 0]
  ] as const
  const total = entries.reduce((s, [, w]) => s + w, 0)
  if (total <= 0) return "delivered" as const
  let r = r01 * total
  for (const [k, w] of entries) {
    if (r < w) return k
    r -= w
  }
  return "delivered" as const
}

/** The newest `max` parts' states, oldest forgotten first (a carrier keeps its answers for a while). */
export class BoundedStates {
  private readonly states = new Map<string, { state: PartState; word: string }>()
  constructor(private readonly max: number) {}
  set(id: string, state: PartState, word: string): void {
    this.states.delete(id)
    if (this.states.size >= this.max) this.states.delete(this.states.keys().next().value!)
    this.states.set(id, { state, word })
  }
  get(id: string): { readonly state: PartState; readonly word: string } | undefined {
    return this.states.get(id)
  }
}

/** Records receipts through the sink; answers those it could not record (to be reported again). */
export const recordReceipts = (
  sink: ProviderEventSink["Type"],
  events: ReadonlyArray<DeliveryReport>
): Effect.Effect<ReadonlyArray<DeliveryReport>> => {
  const offer = sink.offer
  if (events.length === 0) return Effect.succeed([])
  if (offer === undefined) {
    return Effect.map(
      Effect.forEach(
        events,
        (e) => Effect.map(Effect.either(sink.handle(e)), (r) => r._tag === "Left" ? [e] : []),
        { concurrency: "unbounded" }
      ),
      (failed) => failed.flat()
    )
  }
  // no fiber per receipt: the sink's callback path, answered when every receipt is settled
  return Effect.async<ReadonlyArray<DeliveryReport>>((resume) => {
    let left = events.length
    const failed: Array<DeliveryReport> = []
    for (const e of events) {
      offer(e, (recorded) => {
        if (!recorded) failed.push(e)
        if (--left === 0) resume(Effect.succeed(failed))
      })
    }
  })
}
