/**
 * What the observability of a process is set up with: the metrics listener, tracing and the log
 * (shared by the layer in Observability.ts and the OpenTelemetry parts in Otel.ts).
 */
import type { LogOptions } from "./Logger.js"

/** Metrics listener, tracing and log settings of a process. */
export interface ObservabilityOptions {
  readonly metrics: {
    /** Port of the `/metrics` listener (0 picks one); undefined: no listener. */
    readonly port: number | undefined
    readonly host: string
  }
  readonly tracing: {
    /** OTLP/HTTP base endpoint (`/v1/traces` is appended); undefined: tracing off. */
    readonly endpoint: string | undefined
    readonly serviceName: string
    /**
     * The share of new traces recorded and exported (parent-based: a request that arrives with a
     * sampled `traceparent` is always recorded). Undefined: `OTEL_TRACES_SAMPLER` /
     * `OTEL_TRACES_SAMPLER_ARG` when set, else `DEFAULT_TRACE_RATIO`.
     */
    readonly ratio?: number | undefined
  }
  readonly log: LogOptions
}

/**
 * One new trace in ten by default: with every trace exported a send costs about 40 % more CPU on
 * this code (docs/observability.md, "Overhead"); at one in ten the cost is within the 10 % target.
 * `OTEL_TRACES_SAMPLER=parentbased_always_on` records every trace.
 */
export const DEFAULT_TRACE_RATIO = 0.1
