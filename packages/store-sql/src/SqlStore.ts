/**
 * Every SQL adapter of Tuma's ports wired in one place, with the variants each driver gets:
 *
 * - `ContentCounter`: the SQL counters on PostgreSQL (shared by every process), core's in-process
 *   counters on PGlite (one process owns the database).
 * - the rate-limit store is not here: PostgreSQL uses `SqlRateLimitStore.layer` behind the HTTP
 *   service's token leases, PGlite an in-process `RateLimiter` (a choice of the HTTP service).
 *
 * The groups (`layerSend`, `layerApi`, `layerDelivery`, `layerWebhookWorkers`) need only the
 * `SqlClient`; each is built from the same module-level adapter layers, so a process that builds
 * several of them gets one instance of each adapter (layers are memoised by reference). `layer(database)` is all of them
 * over the migrated database. The LISTEN-based wake-ups are only in the worker groups: a server
 * without workers opens no LISTEN connection.
 */
import type { SqlClient } from "@effect/sql"
import type { OperatorStore, SendStore } from "@tuma/core"
import { ContentCounter } from "@tuma/core"
import type { TraceContextStore } from "@tuma/core/observability/Tracing"
import type { AdminStore } from "@tuma/core/ports/AdminStore"
import type { ApiKeys } from "@tuma/core/ports/ApiKeys"
import type { AuditStore } from "@tuma/core/ports/AuditStore"
import type { CampaignStore } from "@tuma/core/ports/CampaignStore"
import type { ContactStore } from "@tuma/core/ports/ContactStore"
import type { DispatchStore, DispatchWakeups } from "@tuma/core/ports/DispatchStore"
import type { InboundStore } from "@tuma/core/ports/InboundStore"
import type { MailOutbox } from "@tuma/core/ports/Notifiers"
import type { OperatorUserStore } from "@tuma/core/ports/OperatorUserStore"
import type { PortalReadStore } from "@tuma/core/ports/PortalReadStore"
import type { PortalStore } from "@tuma/core/ports/PortalStore"
import type { ReadStore } from "@tuma/core/ports/ReadStore"
import type { SenderIdStore } from "@tuma/core/ports/SenderIdStore"
import type { SettingsChanges } from "@tuma/core/ports/SettingsChanges"
import type { SmppBindStore } from "@tuma/core/ports/SmppBindStore"
import type { SmppStore } from "@tuma/core/ports/SmppStore"
import type { WebhookStore, WebhookWakeups } from "@tuma/core/ports/WebhookStore"
import { Layer } from "effect"
import * as Database from "./Database.js"
import * as Partitions from "./partitions/maintain.js"
import * as SqlAdminStore from "./SqlAdminStore.js"
import * as SqlApiKeys from "./SqlApiKeys.js"
import * as SqlAuditStore from "./SqlAuditStore.js"
import * as SqlCampaignStore from "./SqlCampaignStore.js"
import * as SqlContactStore from "./SqlContactStore.js"
import * as SqlContentCounter from "./SqlContentCounter.js"
import * as SqlDispatchStore from "./SqlDispatchStore.js"
import * as SqlInboundStore from "./SqlInboundStore.js"
import * as SqlMailOutbox from "./SqlMailOutbox.js"
import * as SqlObservability from "./SqlObservability.js"
import * as SqlOperatorStore from "./SqlOperatorStore.js"
import * as SqlOperatorUserStore from "./SqlOperatorUserStore.js"
import * as SqlPortalReadStore from "./SqlPortalReadStore.js"
import * as SqlPortalStore from "./SqlPortalStore.js"
import * as SqlReadStore from "./SqlReadStore.js"
import * as SqlSenderIdStore from "./SqlSenderIdStore.js"
import * as SqlSendStore from "./SqlSendStore.js"
import * as SqlSettingsChanges from "./SqlSettingsChanges.js"
import * as SqlSmppBindStore from "./SqlSmppBindStore.js"
import * as SqlSmppStore from "./SqlSmppStore.js"
import * as SqlWebhookStore from "./SqlWebhookStore.js"

/** The database a store runs on: PostgreSQL or PGlite (`Database.DatabaseConfig["_tag"]`). */
export type Driver = Database.DatabaseConfig["_tag"]

/** The ports the REST service, the portal and the console use. */
export type ApiPorts =
  | SendStore
  | ContentCounter
  | OperatorStore
  | AuditStore
  | ApiKeys
  | ReadStore
  | SenderIdStore
  | AdminStore
  | WebhookStore
  | SettingsChanges
  | PortalStore
  | PortalReadStore
  | CampaignStore
  | ContactStore
  | OperatorUserStore
  | MailOutbox
  | TraceContextStore
  | SmppStore
  | InboundStore
  | SmppBindStore

/** The ports of the delivery workers. */
export type DeliveryPorts = DispatchStore | DispatchWakeups | SettingsChanges | TraceContextStore | InboundStore

/** The ports of the webhook workers. */
export type WebhookWorkerPorts = WebhookStore | WebhookWakeups | MailOutbox | TraceContextStore

/** The ports of the send use case. */
export type SendPorts = SendStore | ContentCounter

/** Every port `layer` gives. */
export type Ports = ApiPorts | DeliveryPorts | WebhookWorkerPorts

/** `ContentCounter` for a driver: SQL on PostgreSQL (shared by processes), in-process on PGlite. */
export const layerContentCounter = (driver: Driver): Layer.Layer<ContentCounter, never, SqlClient.SqlClient> =>
  driver === "Postgres" ? SqlContentCounter.layer : ContentCounter.layerMemory

/**
 * The adapters of the send use case, over the `SqlClient` (the webhook workers of `tuma worker` send
 * their system SMS through it: `layerSend("Postgres")`, counters shared with the service).
 */
export const layerSend = (driver: Driver): Layer.Layer<SendPorts, never, SqlClient.SqlClient> =>
  Layer.merge(SqlSendStore.layer, layerContentCounter(driver))

/** The adapters of the REST service, the portal and the console, over the `SqlClient`. */
export const layerApi = (driver: Driver): Layer.Layer<ApiPorts, never, SqlClient.SqlClient> =>
  Layer.mergeAll(
    layerSend(driver),
    SqlOperatorStore.layer,
    SqlAuditStore.layer,
    SqlApiKeys.layer,
    SqlReadStore.layer,
    SqlSenderIdStore.layer,
    SqlAdminStore.layer,
    SqlWebhookStore.layer,
    SqlSettingsChanges.layer,
    SqlPortalStore.layer,
    SqlPortalReadStore.layer,
    SqlCampaignStore.layer,
    SqlContactStore.layer,
    SqlOperatorUserStore.layer,
    SqlMailOutbox.layer,
    SqlObservability.layerTraceContext,
    SqlSmppStore.layer,
    SqlInboundStore.layer,
    SqlSmppBindStore.layer,
    Partitions.layer
  )

/** The adapters of the delivery workers (claims, outcomes, wake-ups), over the `SqlClient`. */
export const layerDelivery: Layer.Layer<DeliveryPorts, never, SqlClient.SqlClient> = Layer.mergeAll(
  SqlDispatchStore.layer,
  SqlDispatchStore.layerWakeups,
  SqlSettingsChanges.layer,
  SqlObservability.layerTraceContext,
  SqlInboundStore.layer
)

/** The adapters of the webhook workers (deliveries, wake-ups), over the `SqlClient`. */
export const layerWebhookWorkers: Layer.Layer<WebhookWorkerPorts, never, SqlClient.SqlClient> = Layer.mergeAll(
  SqlWebhookStore.layer,
  SqlWebhookStore.layerWakeups,
  SqlMailOutbox.layer,
  SqlObservability.layerTraceContext
)

/**
 * Every SQL adapter over the migrated database `database` (the `SqlClient` is given too): one
 * process running the service and the workers, a tool, a test.
 */
export const layer = (database: Database.DatabaseConfig): Layer.Layer<Ports | SqlClient.SqlClient> =>
  Layer.mergeAll(layerApi(database._tag), layerDelivery, layerWebhookWorkers).pipe(
    Layer.provideMerge(Database.layer(database).pipe(Layer.orDie))
  )
