/**
 * The OpenTelemetry half of Observability.ts: the Prometheus metrics listener, the OTLP tracer
 * provider and the span-only tracer layer. Observability.ts imports this module only when metrics
 * or tracing are on, so that a server without them does not load OpenTelemetry's SDK and exporters
 * (≈30 MB of RSS; docs/operations.md, "Start-up and memory").
 * @internal
 */
import * as OtelMetrics from "@effect/opentelemetry/Metrics"
import * as OtelResource from "@effect/opentelemetry/Resource"
import * as OtelTracer from "@effect/opentelemetry/Tracer"
import type { TracerProvider } from "@opentelemetry/api"
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace-base"
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node"
import * as M from "@tuma/core/observability/Metrics"
import { Effect, Layer, Runtime, Tracer } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { ObservabilityOptions } from "./Options.js"
import { DEFAULT_TRACE_RATIO } from "./Options.js"
import * as RuntimeMetrics from "./Runtime.js"

const VERSION = "0.1.0"

/** The metrics listener: `GET /metrics` runs the samplers, then collects and serialises. */
export const metricsListener = (options: ObservabilityOptions["metrics"], port: number) =>
  Effect.gen(function*() {
    const exporter = new PrometheusExporter({ preventServerStart: true })
    const producer = yield* OtelMetrics.makeProducer.pipe(
      Effect.provide(OtelResource.layer({ serviceName: "tuma", serviceVersion: VERSION }))
    )
    yield* OtelMetrics.registerProducer(producer, () => exporter)
    yield* RuntimeMetrics.register
    // no target_info series and no otel_scope_* label on every sample: plain Prometheus series
    const serializer = new PrometheusSerializer(undefined, false, undefined, true, true)
    const runPromise = Runtime.runPromise(yield* Effect.runtime<never>())
    const server = createServer((req, res) => {
      if (req.method !== "GET" || (req.url ?? "").split("?", 1)[0] !== "/metrics") {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found: GET /metrics\n")
        return
      }
      runPromise(M.sampleAll).then(() => exporter.collect()).then(
        ({ resourceMetrics }) => {
          res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" })
          res.end(serializer.serialize(resourceMetrics))
        },
        (error) => res.writeHead(500, { "content-type": "text/plain" }).end(`# collection failed: ${error}\n`)
      )
    })
    const address = yield* Effect.acquireRelease(
      Effect.async<AddressInfo, Error>((resume) => {
        server.once("error", (e) => resume(Effect.fail(e)))
        server.listen(port, options.host, () => {
          const address = server.address()
          resume(
            typeof address === "object" && address !== null
              ? Effect.succeed(address)
              : Effect.fail(new Error("the metrics listener has no TCP address"))
          )
        })
      }),
      () => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
    ).pipe(Effect.orDie)
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address
    return `http://${host}:${address.port}/metrics`
  })

/** The OTLP/HTTP tracer provider (batched export), shut down with the scope. */
export const tracerProvider = (tracing: ObservabilityOptions["tracing"] & { readonly endpoint: string }) =>
  Effect.gen(function*() {
    const url = `${tracing.endpoint.replace(/\/+$/, "")}/v1/traces`
    const resource = yield* OtelResource.Resource.pipe(
      Effect.provide(OtelResource.layer({ serviceName: tracing.serviceName, serviceVersion: VERSION }))
    )
    return yield* Effect.acquireRelease(
      Effect.sync(() =>
        new NodeTracerProvider({
          resource,
          // db.query.text of the large set-based statements would be most of every export
          ...(process.env.OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT || process.env.OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT
            ? {}
            : { spanLimits: { attributeValueLengthLimit: 1024 } }),
          ...samplerOf(tracing.ratio),
          spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: 1000 })]
        })
      ),
      (provider) =>
        Effect.promise(() => provider.forceFlush().then(() => provider.shutdown())).pipe(
          Effect.timeoutOption("3 seconds"),
          Effect.ignore
        )
    )
  })

/** The provider's sampler: the given ratio, else the OTEL_* variables when set, else the default. */
const samplerOf = (ratio: number | undefined) =>
  ratio === undefined && process.env.OTEL_TRACES_SAMPLER
    ? {} // the SDK reads OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG itself
    : { sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio ?? DEFAULT_TRACE_RATIO) }) }

/**
 * `OtelTracer.layer` without its `context` hook. That hook runs every step of every fiber that has
 * a span inside `@opentelemetry/api`'s `context.with` (a new OTel context each time), so that
 * OpenTelemetry's own instrumentations see the current span; Tuma loads none (its spans are
 * Effect spans, parented explicitly, and the stored trace context is read from them), so here it
 * was pure cost: at one trace in ten it took a send's extra CPU from +14 % to +43 % (measured
 * side by side, docs/observability.md "Overhead").
 */
const layerSpansOnly = Layer.unwrapEffect(
  Effect.map(OtelTracer.make, (otel) => Layer.setTracer(Tracer.make({ span: otel.span, context: (f) => f() })))
).pipe(Layer.provideMerge(OtelTracer.layerTracer))

/** The span-only tracer over `provider`. */
export const layerSpans = (provider: TracerProvider, serviceName: string) =>
  layerSpansOnly.pipe(
    Layer.provide(Layer.succeed(OtelTracer.OtelTracerProvider, provider)),
    Layer.provide(OtelResource.layer({ serviceName, serviceVersion: VERSION }))
  )
