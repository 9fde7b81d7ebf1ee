/**
 * Tuma's use cases as Effect services (`Send`, `Reads`, `SenderIds`, `Operator`, `Admin`) and the ports
 * (`Context.Tag`s) they run over: stores, ids. `Memory` holds in-memory adapters of the storage ports.
 * The rest are namespaces, so their names cannot clash: the portal's and the console's access
 * (`Portal.PortalAccess`, `Operators.OperatorAccess`), delivery (`Delivery.Dispatcher`,
 * `Delivery.DeliveryWriter`, `Delivery.EventSink`, …), webhooks (`Webhooks.WebhookWorkers`, …),
 * observability (`Observability.Tracing`, `Observability.Metrics`, …) and every port (`Ports.Scrypt`,
 * `Ports.DispatchStore`, `Ports.Provider`, …). Every module also stays importable on its own
 * (`@tuma/core/<folder>/<Module>`, the package's `./*` export).
 *
 * @module @tuma/core
 */
export * from "./admin/index.js"
export * from "./audit/index.js"
/** What a campaign's owner may do after acceptance (`Campaigns.cancelCampaign`). */
export * as Campaigns from "./campaigns/Cancel.js"
/** An account's contacts, groups and saved templates (`Contacts.importContacts`, `Contacts.groupRecipients`, …). */
export * as Contacts from "./contacts/Contacts.js"
export * as Delivery from "./delivery/index.js"
export * from "./inbound/Inbound.js"
export * as InboundWorkers from "./inbound/InboundWorkers.js"
export * from "./inbound/inbox.js"
export * from "./inbound/views.js"
export * as Memory from "./memory/index.js"
export * from "./MessageEntry.js"
export * as Observability from "./observability/index.js"
export * as Operators from "./operators/index.js"
export * as Portal from "./portal/index.js"
export * from "./ports/AdminStore.js"
export * from "./ports/ApiKeys.js"
export * from "./ports/AuditStore.js"
export * from "./ports/CampaignStore.js"
export * from "./ports/ContactStore.js"
export * from "./ports/ContentCounter.js"
export * from "./ports/Ids.js"
export * from "./ports/InboundStore.js"
export * as Ports from "./ports/index.js"
export * from "./ports/Notifiers.js"
export * from "./ports/OperatorStore.js"
export * from "./ports/OperatorUserStore.js"
export * from "./ports/PortalReadStore.js"
export * from "./ports/PortalStore.js"
export * from "./ports/ReadStore.js"
export * from "./ports/SenderIdStore.js"
export * from "./ports/SendStore.js"
export * from "./ports/SettingsChanges.js"
export * from "./ports/SmppBindStore.js"
export * from "./ports/SmppStore.js"
export * from "./ports/WebhookStore.js"
/** The portal's dashboard figures of an account (`Dashboard.dashboardOf`). */
export * as Dashboard from "./reads/Dashboard.js"
export * from "./reads/Reads.js"
/** The preview of a text and the price preview of a campaign before they are sent (`Preview.previewOf`, `Preview.campaignPreviewOf`). */
export * from "./send/index.js"
export * as Preview from "./send/Preview.js"
export * from "./senderIds/SenderIds.js"
export * from "./smpp/SmppAccounts.js"
export * from "./smpp/SmppLiveBinds.js"
export * from "./smpp/SmppThroughput.js"
export * from "./smpp/views.js"
export * as Webhooks from "./webhooks/index.js"
