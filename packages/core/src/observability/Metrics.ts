/**
 * Tuma's metrics, defined once with Effect's `Metric` API (the registry is process-wide). The HTTP
 * package exports them as Prometheus text through `@effect/opentelemetry` (docs/observability.md).
 *
 * Label sets stay bounded: methods, route templates, statuses, channels, countries, modes, error
 * codes, provider names and outcomes — never accounts, keys or message ids.
 *
 * The hot paths update through `Labelled`: one label array per distinct label set, made once and
 * reused, so an update is a Map look-up and Effect's hook cache hit (no allocation per request).
 * Gauges that are read from the store or from live objects (queue depths, credit, binds, process)
 * are sampled when scraped: layers register a sampler with `registerSampler`.
 */
import type { WebhookAttemptOutcome } from "@tuma/domain"
import type { MetricLabel } from "effect"
import { Effect, Metric, MetricBoundaries } from "effect"
import * as Label from "effect/MetricLabel"
import type { Channel } from "../ports/SendStore.js"
import { sendErrorCodes } from "../send/model.js"

const seconds = (values: ReadonlyArray<number>) => MetricBoundaries.fromIterable(values)

/** Latency buckets (seconds) for requests and submits: 1 ms … 10 s. */
const latencyBuckets = seconds([0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])
/** Receipt delay buckets (seconds): 250 ms … 1 day. */
const receiptBuckets = seconds([0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400])

/** HTTP requests answered, by method, route template and status (counter). */
export const httpRequests = Metric.counter("tuma_http_requests_total", {
  description: "HTTP requests answered, by method, route template and status.",
  incremental: true
})
/** Time from a request's arrival to its answer, by method and route template (histogram, seconds). */
export const httpRequestDuration = Metric.histogram(
  "tuma_http_request_duration_seconds",
  latencyBuckets,
  "Time from a request's arrival to its answer, by method and route template."
)
/** Messages accepted, one per recipient, by channel, destination country and mode (counter). */
export const messagesAccepted = Metric.counter("tuma_messages_accepted_total", {
  description: "Messages accepted (one per recipient), by channel, destination country and mode (live or sandbox).",
  incremental: true
})
/** Send requests refused, and recipients refused within a campaign, by error code (counter). */
export const messagesRefused = Metric.counter("tuma_messages_refused_total", {
  description: "Send requests refused, and recipients refused within a campaign, by error code.",
  incremental: true
})
/** Messages that reached a final state (delivered or failed), by status and provider (counter). */
export const messagesFinal = Metric.counter("tuma_messages_final_total", {
  description: "Messages that reached a final state (delivered or failed), by status and provider.",
  incremental: true
})
/** Messages queued, leased or backing off for dispatch, sampled from the store at scrape (gauge). */
export const dispatchQueueDepth = Metric.gauge("tuma_dispatch_queue_depth", {
  description: "Messages waiting in the dispatch queue (queued, leased or backing off), read from the store."
})
/** Time a provider took to answer one message's submit, by provider (histogram, seconds). */
export const dispatchSubmitDuration = Metric.histogram(
  "tuma_dispatch_submit_duration_seconds",
  latencyBuckets,
  "Time a provider took to answer one message's submit, by provider."
)
/** Time from a part's submit to its final delivery receipt, by provider (histogram, seconds). */
export const receiptDelay = Metric.histogram(
  "tuma_delivery_receipt_delay_seconds",
  receiptBuckets,
  "Time from a part's submit to its final delivery receipt, by provider."
)
/** Whether a provider's carrier session is bound (1) or not (0), by provider (gauge). */
export const providerBindUp = Metric.gauge("tuma_provider_bind_up", {
  description: "1 when the provider's carrier session is bound (simulated providers: always 1), else 0."
})
/** Units of credit left with a provider for a country, sampled from the store at scrape (gauge). */
export const providerCreditUnits = Metric.gauge("tuma_provider_credit_units", {
  description: "Units of credit left with a provider for a country, read from the store."
})
/** Webhook delivery attempts, by outcome (success or failure) (counter). */
export const webhookDeliveries = Metric.counter("tuma_webhook_deliveries_total", {
  description: "Webhook delivery attempts, by outcome (success or failure).",
  incremental: true
})
/** Webhook deliveries pending a first attempt or a retry, sampled from the store at scrape (gauge). */
export const webhookQueueDepth = Metric.gauge("tuma_webhook_queue_depth", {
  description: "Webhook deliveries pending (first attempt or retry), read from the store."
})
/** Webhook endpoints disabled, after consecutive failures or by an operator, sampled from the store (gauge). */
export const webhookEndpointsDisabled = Metric.gauge("tuma_webhook_endpoints_disabled", {
  description: "Webhook endpoints disabled (after consecutive failures or by an operator), read from the store."
})
/** Inbound (mobile-originated) messages stored, by outcome: routed, unrouted; parts dropped as re-sends (counter). */
export const inboundMessages = Metric.counter("tuma_inbound_messages_total", {
  description:
    "Inbound messages stored by outcome (routed, unrouted), and parts dropped as a carrier's re-send (duplicate).",
  incremental: true
})
/** Inbound messages kept with no account, sampled from the store (gauge). */
export const inboundUnrouted = Metric.gauge("tuma_inbound_unrouted", {
  description: "Inbound messages to no assigned address (kept, listed to operators), read from the store."
})
/** Parts of concatenated inbound messages waiting for the rest, sampled from the store (gauge). */
export const inboundPartsWaiting = Metric.gauge("tuma_inbound_parts_waiting", {
  description: "Parts of inbound messages waiting for their other parts, read from the store."
})

/** Every metric Tuma itself defines (the dashboard test checks its queries against these and more). */
export const names: ReadonlyArray<string> = [
  "tuma_http_requests_total",
  "tuma_http_request_duration_seconds",
  "tuma_messages_accepted_total",
  "tuma_messages_refused_total",
  "tuma_messages_final_total",
  "tuma_dispatch_queue_depth",
  "tuma_dispatch_submit_duration_seconds",
  "tuma_delivery_receipt_delay_seconds",
  "tuma_provider_bind_up",
  "tuma_provider_credit_units",
  "tuma_webhook_deliveries_total",
  "tuma_webhook_queue_depth",
  "tuma_webhook_endpoints_disabled",
  "tuma_inbound_messages_total",
  "tuma_inbound_unrouted",
  "tuma_inbound_parts_waiting"
]

/**
 * A metric with a fixed list of label names; `labels(v1, v2, …)` answers the label array of those
 * values, made on first use and cached (the label sets are bounded by construction).
 */
export class Labelled<In, T = unknown, Out = unknown> {
  private readonly cache = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()
  constructor(
    readonly metric: Metric.Metric<T, In, Out>,
    readonly keys: ReadonlyArray<string>,
    /** A guard against unbounded sets: past this many, new sets share one "other" set. */
    readonly maxSets: number = 2000
  ) {}
  labels(...values: ReadonlyArray<string>): ReadonlyArray<MetricLabel.MetricLabel> {
    const key = values.length === 1 ? values[0]! : values.join("\u0001")
    let labels = this.cache.get(key)
    if (labels === undefined) {
      if (this.cache.size >= this.maxSets) return this.labels(...values.map(() => "other"))
      labels = this.keys.map((k, i) => Label.make(k, values[i] ?? ""))
      this.cache.set(key, labels)
    }
    return labels
  }
  /** Updates the metric for these label values (synchronous, for hot paths outside effects). */
  update(value: In, ...values: ReadonlyArray<string>): void {
    this.metric.unsafeUpdate(value, this.labels(...values))
  }
}

/** Labelled HTTP metrics: `requests` (method, route, status) and `duration` (method, route). */
export const http = {
  requests: new Labelled(httpRequests, ["method", "route", "status"]),
  duration: new Labelled(httpRequestDuration, ["method", "route"])
}
/** `messagesAccepted`, labelled by channel, country and mode. */
export const accepted = new Labelled(messagesAccepted, ["channel", "country", "mode"])
/** `messagesRefused`, labelled by error code. */
export const refused = new Labelled(messagesRefused, ["error_code"])
/** `messagesFinal`, labelled by final status and provider name. */
export const final = new Labelled(messagesFinal, ["status", "provider"])
/** `dispatchSubmitDuration`, labelled by provider. */
export const submitDuration = new Labelled(dispatchSubmitDuration, ["provider"])
/** `receiptDelay`, labelled by provider. */
export const receiptDelaySeconds = new Labelled(receiptDelay, ["provider"])
/** `providerBindUp`, labelled by provider name. */
export const bindUp = new Labelled(providerBindUp, ["provider"])
/** `providerCreditUnits`, labelled by provider and country. */
export const creditUnits = new Labelled(providerCreditUnits, ["provider", "country"])
/** `webhookDeliveries`, labelled by outcome. */
export const webhookOutcomes = new Labelled(webhookDeliveries, ["outcome"])
/** `inboundMessages`, labelled by outcome (routed, unrouted, duplicate). */
export const inboundOutcomes = new Labelled(inboundMessages, ["outcome"])

// ---------------------------------------------------------------------------------------------
// Series exported at zero before their first event
// ---------------------------------------------------------------------------------------------

/**
 * Makes each label set's series of a counter exist (an update by 0: a counter that has one keeps its
 * value), so that dashboards and alert rules read 0, not "no data", before the first event.
 */
export const atZero = <T, Out>(counter: Labelled<number, T, Out>, sets: ReadonlyArray<ReadonlyArray<string>>) => {
  for (const values of sets) counter.update(0, ...values)
}

const webhookAttemptOutcomes: ReadonlyArray<WebhookAttemptOutcome> = ["success", "failure"]
const channels: ReadonlyArray<Channel> = ["api", "web", "smpp"]
const finalStatuses = ["delivered", "failed"] as const

/**
 * The counters whose label values are known without the store, at zero: webhook attempts by outcome,
 * refusals by every code a send may be refused with. Run once when the metrics are exported.
 */
export const exportKnownAtZero: Effect.Effect<void> = Effect.sync(() => {
  atZero(webhookOutcomes, webhookAttemptOutcomes.map((o) => [o]))
  atZero(refused, sendErrorCodes.map((code) => [code]))
  atZero(inboundOutcomes, [["routed"], ["unrouted"], ["duplicate"]])
})

/** A provider's series at zero: final states (delivered, failed) through it. */
export const providerAtZero = (provider: string) => atZero(final, finalStatuses.map((status) => [status, provider]))

/** A destination country's series at zero: acceptances by channel and mode (live, sandbox). */
export const countryAtZero = (country: string) =>
  atZero(accepted, channels.flatMap((channel) => [[channel, country, "live"], [channel, country, "sandbox"]]))

// ---------------------------------------------------------------------------------------------
// Scrape-time samplers
// ---------------------------------------------------------------------------------------------

const samplers = new Set<Effect.Effect<void>>()

/** Registers an effect run before every scrape (removed when the scope closes). */
export const registerSampler = (sample: Effect.Effect<void>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      // a failing or slow sampler must not fail the scrape: its gauges keep their last value
      const guarded = sample.pipe(Effect.timeout("2 seconds"), Effect.ignoreLogged)
      samplers.add(guarded)
      return guarded
    }),
    (guarded) => Effect.sync(() => samplers.delete(guarded))
  )

/** Runs every registered sampler (concurrently); called by the exporter before it collects. */
export const sampleAll: Effect.Effect<void> = Effect.suspend(() =>
  Effect.forEach([...samplers], (s) => s, { concurrency: "unbounded", discard: true })
).pipe(Effect.withTracerEnabled(false))
