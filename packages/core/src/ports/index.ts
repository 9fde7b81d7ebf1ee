/**
 * The ports of core an embedding backend implements or replaces (`Context.Tag`s and their row
 * types), one namespace each. The storage ports the use cases need most are also exported flat by
 * `@tuma/core`; the ports of delivery, webhooks and the portal's reads are imported on their own
 * (`@tuma/core/ports/<Port>`).
 *
 * @module @tuma/core/ports
 */
export * as AdminStore from "./AdminStore.js"
export * as AuditStore from "./AuditStore.js"
export * as ContentCounter from "./ContentCounter.js"
export * as Ids from "./Ids.js"
export * as LoginFailures from "./LoginFailures.js"
export * as OperatorStore from "./OperatorStore.js"
export * as OperatorUserStore from "./OperatorUserStore.js"
export * as ReadStore from "./ReadStore.js"
export * as Scrypt from "./Scrypt.js"
export * as SenderIdStore from "./SenderIdStore.js"
export * as SendStore from "./SendStore.js"
