/**
 * Delivery (docs/delivery.md): the dispatch workers that claim accepted messages and hand them to
 * carriers (`Dispatcher`), the writer that records their outcomes in batches (`DeliveryWriter`), the
 * sink of carrier events and receipts (`EventSink`), their settings (`DeliveryConfig`) and the
 * carrier reference rules (`ProviderRef`). One namespace per module.
 *
 * @module @tuma/core/delivery
 */
export * as DeliveryConfig from "./DeliveryConfig.js"
export * as DeliveryWriter from "./DeliveryWriter.js"
export * as Dispatcher from "./Dispatcher.js"
export * as EventSink from "./EventSink.js"
export * as ProviderRef from "./ProviderRef.js"
