/**
 * Tuma's use cases as Effect services (`Send`, `Reads`, `SenderIds`, `Operator`, `Admin`) and the ports
 * (`Context.Tag`s) they run over: stores, ids. `Memory` holds in-memory adapters of the storage ports.
 *
 * @module @tuma/core
 */
export * from "./admin/index.js"
export * from "./audit/index.js"
export * as Memory from "./memory/index.js"
export * from "./MessageEntry.js"
export * from "./ports/AdminStore.js"
export * from "./ports/AuditStore.js"
export * from "./ports/ContentCounter.js"
export * from "./ports/Ids.js"
export * from "./ports/OperatorStore.js"
export * from "./ports/ReadStore.js"
export * from "./ports/SenderIdStore.js"
export * from "./ports/SendStore.js"
export * from "./reads/Reads.js"
export * from "./send/index.js"
export * from "./senderIds/SenderIds.js"
