/**
 * The console's Overview figures, read from the process's Effect metric registry — the registry
 * `/metrics` serialises for Prometheus (docs/observability.md) — after running the scrape-time
 * samplers (queue depths, provider credit, binds, disabled endpoints). Counters are totals; the
 * page turns two readings into rates (accepted/s). In a multi-process server (`--workers N`) this is
 * the view of the process that answered.
 */
import * as M from "@tuma/core/observability/Metrics"
import { Effect, Metric, MetricState } from "effect"
import type { MetricPair } from "effect"

/** Per-provider delivery figures. */
export interface ProviderFigures {
  readonly provider: string
  readonly delivered: number
  readonly failed: number
  /** delivered / (delivered + failed), or null before any final message. */
  readonly delivery_rate: number | null
  /** Mean submit-to-receipt delay in seconds, or null before any receipt. */
  readonly receipt_delay_mean_s: number | null
  /** 1 bound, 0 not bound, null when never sampled. */
  readonly bind_up: number | null
}

/** What the Overview shows. */
export interface OverviewFigures {
  readonly at: string
  readonly accepted_total: number
  readonly queue_depth: number
  readonly webhook_queue_depth: number
  readonly webhook_endpoints_disabled: number
  readonly providers: ReadonlyArray<ProviderFigures>
  readonly credit: ReadonlyArray<{ provider: string; country: string; units: number; low: boolean }>
}

/** Provider credit under this is "running low" (the alert of docs/observability.md). */
export const LOW_CREDIT_UNITS = 10_000

const tag = (pair: MetricPair.MetricPair.Untyped, key: string) =>
  pair.metricKey.tags.find((t) => t.key === key)?.value ?? ""

/** A counter's total (a histogram's count of observations); 0 for other metric kinds. */
const countOf = (state: MetricState.MetricState.Untyped): number =>
  MetricState.isCounterState(state) || MetricState.isHistogramState(state) ? Number(state.count) : 0
/** A gauge's value; 0 for other metric kinds. */
const valueOf = (state: MetricState.MetricState.Untyped): number =>
  MetricState.isGaugeState(state) ? Number(state.value) : 0
/** A histogram's sum of observations; 0 for other metric kinds. */
const sumOf = (state: MetricState.MetricState.Untyped): number => MetricState.isHistogramState(state) ? state.sum : 0

/** Reads the figures (runs the samplers first). */
export const overview: Effect.Effect<OverviewFigures> = Effect.gen(function*() {
  yield* M.sampleAll
  const pairs = yield* Metric.snapshot
  let accepted = 0
  let queue = 0
  let webhookQueue = 0
  let disabled = 0
  const providers = new Map<
    string,
    { delivered: number; failed: number; delaySum: number; delayCount: number; bind: number | null }
  >()
  const of = (name: string) => {
    let p = providers.get(name)
    if (p === undefined) providers.set(name, p = { delivered: 0, failed: 0, delaySum: 0, delayCount: 0, bind: null })
    return p
  }
  const credit: Array<{ provider: string; country: string; units: number; low: boolean }> = []
  for (const pair of pairs) {
    const name = pair.metricKey.name
    const state = pair.metricState
    switch (name) {
      case "tuma_messages_accepted_total":
        if (tag(pair, "mode") !== "sandbox") accepted += countOf(state)
        break
      case "tuma_dispatch_queue_depth":
        queue = valueOf(state)
        break
      case "tuma_webhook_queue_depth":
        webhookQueue = valueOf(state)
        break
      case "tuma_webhook_endpoints_disabled":
        disabled = valueOf(state)
        break
      case "tuma_messages_final_total": {
        const provider = tag(pair, "provider")
        if (provider === "none" || provider === "") break
        const p = of(provider)
        if (tag(pair, "status") === "delivered") p.delivered += countOf(state)
        else p.failed += countOf(state)
        break
      }
      case "tuma_delivery_receipt_delay_seconds": {
        const p = of(tag(pair, "provider"))
        p.delaySum += sumOf(state)
        p.delayCount += countOf(state)
        break
      }
      case "tuma_provider_bind_up":
        of(tag(pair, "provider")).bind = valueOf(state)
        break
      case "tuma_provider_credit_units": {
        const units = valueOf(state)
        credit.push({
          provider: tag(pair, "provider"),
          country: tag(pair, "country"),
          units,
          low: units < LOW_CREDIT_UNITS
        })
        break
      }
    }
  }
  return {
    at: new Date().toISOString(),
    accepted_total: accepted,
    queue_depth: queue,
    webhook_queue_depth: webhookQueue,
    webhook_endpoints_disabled: disabled,
    providers: [...providers.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([provider, p]) => ({
      provider,
      delivered: p.delivered,
      failed: p.failed,
      delivery_rate: p.delivered + p.failed === 0 ? null : p.delivered / (p.delivered + p.failed),
      receipt_delay_mean_s: p.delayCount === 0 ? null : p.delaySum / p.delayCount,
      bind_up: p.bind
    })),
    credit: credit.sort((a, b) => a.units - b.units)
  }
})

/** The live bind state of each provider by name (from `tuma_provider_bind_up`). */
export const bindStates: Effect.Effect<ReadonlyMap<string, number>> = Effect.map(
  overview,
  (o) => new Map(o.providers.filter((p) => p.bind_up !== null).map((p) => [p.provider, p.bind_up!]))
)
