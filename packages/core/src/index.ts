/**
 * Tuma's use cases as Effect services (`Send`, `Reads`, `SenderIds`, `Operator`, `Admin`) and the ports
 * (`Context.Tag`s) they run over: stores, ids. `Memory` holds in-memory adapters of the storage ports.
 * The portal's and the console's access, observability and the ports the adapters implement are
 * namespaces (`Portal.PortalAccess`, `Operators.OperatorAccess`, `Observability.Tracing`,
 * `Ports.Scrypt`, …), so their names cannot clash. Every module also stays importable on its own
 * (`@tuma/core/<folder>/<Module>`, the package's `./*` export), and these are reached that way
 * only, their one user being `@tuma/http`'s workers and adapters: the delivery pipeline
 * (`delivery/…`), the webhooks (`webhooks/…`), `observability/Metrics` and the ports of delivery,
 * webhooks, providers and the portal's reads (`ports/DispatchStore`, `ports/Provider`,
 * `ports/WebhookStore`, `ports/Notifiers`, `ports/PortalStore`, `ports/PortalReadStore`,
 * `ports/ApiKeys`, `ports/SettingsChanges`).
 *
 * @module @tuma/core
 */
export * from "./admin/index.js"
export * from "./audit/index.js"
export * as Memory from "./memory/index.js"
export * from "./MessageEntry.js"
export * as Observability from "./observability/index.js"
export * as Operators from "./operators/index.js"
export * as Portal from "./portal/index.js"
export * from "./ports/AdminStore.js"
export * from "./ports/AuditStore.js"
export * from "./ports/ContentCounter.js"
export * from "./ports/Ids.js"
export * as Ports from "./ports/index.js"
export * from "./ports/OperatorStore.js"
export * from "./ports/ReadStore.js"
export * from "./ports/SenderIdStore.js"
export * from "./ports/SendStore.js"
export * from "./reads/Reads.js"
export * from "./send/index.js"
export * from "./senderIds/SenderIds.js"
