/**
 * Tuma's pure rules: encoding and conversion, segments, templates, pricing, phone numbers, state machines,
 * idempotency, spam policy, webhook signatures and the typed errors. No I/O.
 *
 * @module @tuma/domain
 */
export * from "./apiKey.js"
export * from "./audit.js"
export * from "./carrierCoverage.js"
export * as Cidr from "./cidr.js"
export * from "./encoding.js"
export * from "./errors.js"
export * from "./gsm7.js"
export * from "./idempotency.js"
export * from "./inbound.js"
export * from "./inboundEvents.js"
export * from "./messages.js"
export * from "./optOut.js"
export * from "./phone.js"
export * from "./pricing.js"
export * from "./providerConfig.js"
export * from "./schemas.js"
export * from "./senderId.js"
export * from "./smpp.js"
export * from "./spam.js"
export * from "./stateMachines.js"
export * from "./storedText.js"
export * from "./template.js"
export * from "./validation.js"
export * from "./webhook.js"
