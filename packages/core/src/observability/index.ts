/**
 * Traces, metrics and log context of the use cases, and the decorators that observe a port's layer.
 *
 * @module @tuma/core/observability
 */
export * as DeliveryObserved from "./DeliveryObserved.js"
export * as LogContext from "./LogContext.js"
export * as Metrics from "./Metrics.js"
export * as SendObserved from "./SendObserved.js"
export * as Tracing from "./Tracing.js"
export * as WebhookObserved from "./WebhookObserved.js"
