/**
 * Seeing inside a running Tuma (issue 13; docs/observability.md):
 *
 * - **Metrics**: Effect `Metric`s (`@tuma/core/observability/Metrics` plus process/Node runtime
 *   metrics) exported through `@effect/opentelemetry`'s metric producer to the OpenTelemetry
 *   Prometheus exporter, served as Prometheus text at `GET /metrics` on a listener of its own
 *   (`--metrics-port` / `TUMA_METRICS_PORT`, host `TUMA_METRICS_HOST`, default 127.0.0.1). Gauges
 *   read from the store or live objects are sampled when scraped.
 * - **Traces**: with `OTEL_EXPORTER_OTLP_ENDPOINT`, OpenTelemetry through `@effect/opentelemetry`
 *   and the OTLP/HTTP exporter (batched). Without it the Effect tracer is disabled, the platform's
 *   per-request span work is skipped and no trace context is stored: no cost.
 * - **Logs**: `TUMA_LOG_FORMAT` / `TUMA_LOG_LEVEL` (ObservabilityLogger.ts).
 *
 *   layerProcess(options) — the process-wide parts, built once: exporter and listener, tracer
 *                           provider. Answers `ObservabilityRuntime`.
 *   layerFiber(runtime)   — what every layer build needs in its fiber: logger, level, tracer (or
 *                           none), `TraceSettings`. Provide it to each build of the server, store
 *                           and workers.
 *   layer(options)        — both, for one build (tests, examples).
 *   observeRequest        — the HTTP metrics hook of the envelope middleware.
 *
 * The OpenTelemetry parts live in ObservabilityOtel.ts, imported only when metrics or tracing are on.
 */
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import type { TracerProvider } from "@opentelemetry/api"
import * as M from "@tuma/core/observability/Metrics"
import { TraceSettings } from "@tuma/core/observability/Tracing"
import { Context, Effect, Layer } from "effect"
import type { RouteEntry } from "../shared/Routes.js"
import * as ObservabilityLogger from "./Logger.js"
import type { ObservabilityOptions } from "./Options.js"

export { DEFAULT_TRACE_RATIO, type ObservabilityOptions } from "./Options.js"

const nonNegativeInt = (name: string, v: string | undefined): number | undefined => {
  if (v === undefined || v === "") return undefined
  const n = Number(v)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name}: not a port number: ${v}`)
  return n
}

/** Options from the environment (and `--metrics-port`, which wins over `TUMA_METRICS_PORT`). */
export const optionsFromEnv = (
  env: Record<string, string | undefined> = process.env,
  flags: { readonly metricsPort?: string | undefined } = {}
): ObservabilityOptions => ({
  metrics: {
    port: nonNegativeInt("--metrics-port", flags.metricsPort ?? env.TUMA_METRICS_PORT),
    host: env.TUMA_METRICS_HOST || "127.0.0.1"
  },
  tracing: {
    endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    serviceName: env.OTEL_SERVICE_NAME || "tuma"
  },
  log: {
    format: ObservabilityLogger.parseFormat(env.TUMA_LOG_FORMAT, process.stdout.isTTY === true),
    level: ObservabilityLogger.parseLevel(env.TUMA_LOG_LEVEL)
  }
})

export class ObservabilityRuntime extends Context.Tag("@tuma/http/observability/Runtime")<ObservabilityRuntime, {
  readonly options: ObservabilityOptions
  /** `http://host:port/metrics` of the listener, when there is one. */
  readonly metricsUrl: string | undefined
  readonly tracerProvider: TracerProvider | undefined
}>() {}

/** The process-wide parts: the metrics listener and the tracer provider. */
export const layerProcess = (options: ObservabilityOptions) =>
  Layer.scoped(
    ObservabilityRuntime,
    Effect.gen(function*() {
      // OpenTelemetry's SDK and exporters (≈30 MB of RSS) are imported only when metrics or tracing are on
      const otel = options.metrics.port === undefined && options.tracing.endpoint === undefined
        ? undefined
        : yield* Effect.promise(() => import("./Otel.js"))
      const metricsUrl = options.metrics.port === undefined || otel === undefined
        ? undefined
        : yield* otel.metricsListener(options.metrics, options.metrics.port)
      if (metricsUrl !== undefined) yield* M.exportKnownAtZero
      let tracerProvider: TracerProvider | undefined
      if (options.tracing.endpoint !== undefined && otel !== undefined) {
        tracerProvider = yield* otel.tracerProvider({ ...options.tracing, endpoint: options.tracing.endpoint })
      }
      return { options, metricsUrl, tracerProvider }
    })
  )

const UNTRACED = new Set(["/healthz", "/readyz"])

/** Logger, tracer (or none) and `TraceSettings` for a layer build. */
export const layerFiber = (runtime: ObservabilityRuntime["Type"]) => {
  const log = ObservabilityLogger.layer(runtime.options.log)
  const provider = runtime.tracerProvider
  const tracing = provider === undefined
    ? Layer.mergeAll(
      Layer.setTracerEnabled(false),
      // the platform's server span would still parse the URL and redact headers per request
      Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true),
      Layer.succeed(TraceSettings, { linkMessages: false })
    )
    : Layer.mergeAll(
      // health checks (probes every few seconds) are not traced
      Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, (request) => UNTRACED.has(request.url)),
      Layer.unwrapEffect(
        Effect.promise(() => import("./Otel.js")).pipe(
          Effect.map((otel) => otel.layerSpans(provider, runtime.options.tracing.serviceName))
        )
      ),
      Layer.succeed(TraceSettings, { linkMessages: true })
    )
  return Layer.merge(log, tracing)
}

/** Both halves for a single build: `Layer.provide(app, Observability.layer(options))`. */
export const layer = (options: ObservabilityOptions) =>
  Layer.unwrapEffect(Effect.map(ObservabilityRuntime, (rt) => layerFiber(rt))).pipe(
    Layer.provideMerge(layerProcess(options))
  )

// ---------------------------------------------------------------------------------------------
// HTTP request metrics (the envelope middleware's hook)
// ---------------------------------------------------------------------------------------------

/**
 * Route template of a request path (bounded): static routes by a Map look-up, parameterised ones by
 * their patterns; anything else is "unmatched".
 */
export const routeResolver = (routes: ReadonlyArray<RouteEntry>) => {
  const exact = new Map<string, string>()
  const patterns: Array<RouteEntry> = []
  for (const r of routes) {
    if (r.path.includes(":")) patterns.push(r)
    else {
      exact.set(r.path, r.path)
      exact.set(r.path + "/", r.path)
    }
  }
  return (path: string): string => {
    const found = exact.get(path)
    if (found !== undefined) return found
    for (const r of patterns) if (r.regex.test(path)) return r.path
    return "unmatched"
  }
}

const STATUS = new Map<number, string>()
const statusText = (status: number) => {
  let s = STATUS.get(status)
  if (s === undefined) {
    s = String(status)
    STATUS.set(status, s)
  }
  return s
}

/** Counts a request and observes its duration (`started`: `performance.now()` at arrival). */
export const observeRequest = (method: string, route: string, status: number, started: number): void => {
  M.http.requests.update(1, method, route, statusText(status))
  M.http.duration.update((performance.now() - started) / 1000, method, route)
}
