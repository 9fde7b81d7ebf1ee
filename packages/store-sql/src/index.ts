/**
 * The SQL adapters of Tuma's ports (`layer` of each `Sql…Store`), the migrations, and the database
 * clients: PostgreSQL or the embedded PGlite (`Database`).
 *
 * @module @tuma/store-sql
 */
export * as Database from "./Database.js"
export * as Migrations from "./Migrations.js"
export * as PgliteClient from "./PgliteClient.js"
export * as SqlAdminStore from "./SqlAdminStore.js"
export * as SqlApiKeys from "./SqlApiKeys.js"
export * as SqlAuditStore from "./SqlAuditStore.js"
export * as SqlCampaignStore from "./SqlCampaignStore.js"
export * as SqlContactStore from "./SqlContactStore.js"
export * as SqlContentCounter from "./SqlContentCounter.js"
export * as SqlDispatchStore from "./SqlDispatchStore.js"
export * as SqlInboundStore from "./SqlInboundStore.js"
export * as SqlLoginFailures from "./SqlLoginFailures.js"
export * as SqlMailOutbox from "./SqlMailOutbox.js"
export * as SqlObservability from "./SqlObservability.js"
export * as SqlOperatorStore from "./SqlOperatorStore.js"
export * as SqlOperatorUserStore from "./SqlOperatorUserStore.js"
export * as SqlPortalReadStore from "./SqlPortalReadStore.js"
export * as SqlPortalStore from "./SqlPortalStore.js"
export * as SqlRateLimitStore from "./SqlRateLimitStore.js"
export * as SqlReadStore from "./SqlReadStore.js"
export * as SqlRetry from "./SqlRetry.js"
export * as SqlSenderIdStore from "./SqlSenderIdStore.js"
export * as SqlSendStore from "./SqlSendStore.js"
export * as SqlSettingsChanges from "./SqlSettingsChanges.js"
export * as SqlSmppBindStore from "./SqlSmppBindStore.js"
export * as SqlSmppStore from "./SqlSmppStore.js"
/** Every SQL adapter wired once (`SqlStore.layer(database)`, or by group), with the per-driver variants. */
export * as SqlStore from "./SqlStore.js"
export * as SqlWebhookStore from "./SqlWebhookStore.js"
export * as Wakeups from "./Wakeups.js"
