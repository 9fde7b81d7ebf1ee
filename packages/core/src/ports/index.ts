/**
 * The ports of core an embedding backend implements or replaces (`Context.Tag`s and their row
 * types), one namespace each. The storage ports the use cases need most are also exported flat by
 * `@tuma/core`.
 *
 * @module @tuma/core/ports
 */
export * as AdminStore from "./AdminStore.js"
export * as ApiKeys from "./ApiKeys.js"
export * as AuditStore from "./AuditStore.js"
export * as CampaignStore from "./CampaignStore.js"
export * as ContactStore from "./ContactStore.js"
export * as ContentCounter from "./ContentCounter.js"
export * as DispatchStore from "./DispatchStore.js"
export * as Ids from "./Ids.js"
export * as InboundStore from "./InboundStore.js"
export * as LoginFailures from "./LoginFailures.js"
export * as Notifiers from "./Notifiers.js"
export * as OperatorStore from "./OperatorStore.js"
export * as OperatorUserStore from "./OperatorUserStore.js"
export * as PortalReadStore from "./PortalReadStore.js"
export * as PortalStore from "./PortalStore.js"
export * as Provider from "./Provider.js"
export * as ReadStore from "./ReadStore.js"
export * as Scrypt from "./Scrypt.js"
export * as SenderIdStore from "./SenderIdStore.js"
export * as SendStore from "./SendStore.js"
export * as SettingsChanges from "./SettingsChanges.js"
export * as WebhookStore from "./WebhookStore.js"
