/**
 * In-memory adapters of the core storage ports: `@tuma/core` with no database at all (tests, demos,
 * embedding, a single process whose data may go when it exits). Every adapter works over one shared
 * `MemoryDatabase`, as the SQL adapters share one PostgreSQL database, and passes the same contract
 * suites as the SQL adapters (packages/store-sql/test, driver `memory`).
 *
 * `layerMemory` provides every port implemented here (and `ContentCounter.layerMemory`) over one
 * fresh `MemoryDatabase`, which it provides too, so a test can look at the tables. `Ids` is not a
 * store: provide `Ids.layer` (or `Ids.layerSequential`) beside it.
 *
 * ```ts
 * const app = Layer.mergeAll(Send.layer, Operator.layer, Reads.layer).pipe(
 *   Layer.provideMerge(Memory.layerMemory),
 *   Layer.provideMerge(Ids.layer)
 * )
 * ```
 *
 * Delivery too: `MemoryDispatchStore` (claims, the batch writer, receipts) and its wake-ups, and
 * `MemoryWebhookStore` (the webhook queue that final states fill, `messageStates.ts`), so a message
 * accepted by `Send` is claimed by the dispatch workers of the same process, and the portal reads
 * its webhook deliveries through `MemoryPortalReadStore`.
 */
import { Layer } from "effect"
import type { AdminStore } from "../ports/AdminStore.js"
import type { ApiKeys } from "../ports/ApiKeys.js"
import type { AuditStore } from "../ports/AuditStore.js"
import { ContentCounter } from "../ports/ContentCounter.js"
import type { DispatchStore, DispatchWakeups } from "../ports/DispatchStore.js"
import type { OperatorStore } from "../ports/OperatorStore.js"
import type { PortalReadStore } from "../ports/PortalReadStore.js"
import type { PortalStore } from "../ports/PortalStore.js"
import type { ReadStore } from "../ports/ReadStore.js"
import type { SenderIdStore } from "../ports/SenderIdStore.js"
import type { SendStore } from "../ports/SendStore.js"
import type { SettingsChanges } from "../ports/SettingsChanges.js"
import type { WebhookStore } from "../ports/WebhookStore.js"
import * as MemoryAdminStore from "./MemoryAdminStore.js"
import * as MemoryApiKeys from "./MemoryApiKeys.js"
import * as MemoryAuditStore from "./MemoryAuditStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import * as MemoryDispatchStore from "./MemoryDispatchStore.js"
import * as MemoryOperatorStore from "./MemoryOperatorStore.js"
import * as MemoryPortalReadStore from "./MemoryPortalReadStore.js"
import * as MemoryPortalStore from "./MemoryPortalStore.js"
import * as MemoryReadStore from "./MemoryReadStore.js"
import * as MemorySenderIdStore from "./MemorySenderIdStore.js"
import * as MemorySendStore from "./MemorySendStore.js"
import * as MemorySettingsChanges from "./MemorySettingsChanges.js"
import * as MemoryWebhookStore from "./MemoryWebhookStore.js"

export * as MemoryAdminStore from "./MemoryAdminStore.js"
export * as MemoryApiKeys from "./MemoryApiKeys.js"
export * as MemoryAuditStore from "./MemoryAuditStore.js"
export * from "./MemoryDatabase.js"
export * as MemoryDispatchStore from "./MemoryDispatchStore.js"
export * as MemoryOperatorStore from "./MemoryOperatorStore.js"
export * as MemoryPortalReadStore from "./MemoryPortalReadStore.js"
export * as MemoryPortalStore from "./MemoryPortalStore.js"
export * as MemoryReadStore from "./MemoryReadStore.js"
export * as MemorySenderIdStore from "./MemorySenderIdStore.js"
export * as MemorySendStore from "./MemorySendStore.js"
export * as MemorySettingsChanges from "./MemorySettingsChanges.js"
export * as MemoryWebhookStore from "./MemoryWebhookStore.js"
export { messageRecord, moveToFinal } from "./messageStates.js"

/** Every port the memory adapters implement. */
export type MemoryPorts =
  | SendStore
  | OperatorStore
  | ReadStore
  | ApiKeys
  | SenderIdStore
  | AdminStore
  | PortalStore
  | PortalReadStore
  | SettingsChanges
  | ContentCounter
  | AuditStore
  | DispatchStore
  | DispatchWakeups
  | WebhookStore

/** Every memory adapter over the context's `MemoryDatabase` (to share one database with other layers). */
export const layerPorts: Layer.Layer<MemoryPorts, never, MemoryDatabase> = Layer.mergeAll(
  MemorySendStore.layerMemory,
  MemoryOperatorStore.layerMemory,
  MemoryReadStore.layerMemory,
  MemoryApiKeys.layerMemory,
  MemorySenderIdStore.layerMemory,
  MemoryAdminStore.layerMemory,
  MemoryPortalStore.layerMemory,
  MemoryPortalReadStore.layerMemory,
  MemorySettingsChanges.layerMemory,
  ContentCounter.layerMemory,
  MemoryAuditStore.layerMemory,
  MemoryDispatchStore.layerMemory,
  MemoryDispatchStore.layerWakeups,
  MemoryWebhookStore.layerMemory
)

/** Every memory adapter over one fresh `MemoryDatabase` (provided too). */
export const layerMemory: Layer.Layer<MemoryPorts | MemoryDatabase> = Layer.provideMerge(
  layerPorts,
  MemoryDatabase.layer
)
