/**
 * In-memory adapters of core's storage ports: `@tuma/core` with no database at all, for an embedding
 * backend's one process (examples/embed-core: `Send` and `Operator`) and for fast unit tests (core's
 * delivery, memory and preview tests; `Admin` runs on them). Every adapter works over one shared
 * `MemoryDatabase`, as the SQL adapters share one PostgreSQL database, and passes the same contract
 * suites as the SQL adapters (packages/store-sql/test, driver `memory`; `memoryParity.test.ts`
 * compares whole sessions). The portal's and the console's stores and the API-key look-up (`ApiKeys`,
 * the HTTP middleware's) have no memory adapter (docs/architecture.md "Memory adapters").
 *
 * `Memory.layer` (also `layerMemory`) provides every port implemented here (and
 * `ContentCounter.layerMemory`) over one fresh `MemoryDatabase`, which it provides too, so a test
 * can look at the tables. `Ids` is not a store: provide `Ids.layer` (or `Ids.layerSequential`) beside it.
 *
 * ```ts
 * const app = Layer.mergeAll(Send.layer, Operator.layer, Reads.layer).pipe(
 *   Layer.provideMerge(Memory.layer),
 *   Layer.provideMerge(Ids.layer)
 * )
 * ```
 *
 * Delivery too: `MemoryDispatchStore` (claims, the batch writer, receipts) and its wake-ups, and
 * `MemoryWebhookStore` (the webhook queue that final states fill, `messageStates.ts`), so a message
 * accepted by `Send` is claimed by the dispatch workers of the same process.
 */
import { Layer } from "effect"
import type { AdminStore } from "../ports/AdminStore.js"
import type { AuditStore } from "../ports/AuditStore.js"
import { ContentCounter } from "../ports/ContentCounter.js"
import type { DispatchStore, DispatchWakeups } from "../ports/DispatchStore.js"
import type { OperatorStore } from "../ports/OperatorStore.js"
import type { ReadStore } from "../ports/ReadStore.js"
import type { SenderIdStore } from "../ports/SenderIdStore.js"
import type { SendStore } from "../ports/SendStore.js"
import type { SettingsChanges } from "../ports/SettingsChanges.js"
import type { WebhookStore } from "../ports/WebhookStore.js"
import * as MemoryAdminStore from "./MemoryAdminStore.js"
import * as MemoryAuditStore from "./MemoryAuditStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import * as MemoryDispatchStore from "./MemoryDispatchStore.js"
import * as MemoryOperatorStore from "./MemoryOperatorStore.js"
import * as MemoryReadStore from "./MemoryReadStore.js"
import * as MemorySenderIdStore from "./MemorySenderIdStore.js"
import * as MemorySendStore from "./MemorySendStore.js"
import * as MemorySettingsChanges from "./MemorySettingsChanges.js"
import * as MemoryWebhookStore from "./MemoryWebhookStore.js"

export * as MemoryAdminStore from "./MemoryAdminStore.js"
export * as MemoryAuditStore from "./MemoryAuditStore.js"
export * from "./MemoryDatabase.js"
export * as MemoryDispatchStore from "./MemoryDispatchStore.js"
export * as MemoryOperatorStore from "./MemoryOperatorStore.js"
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
  | SenderIdStore
  | AdminStore
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
  MemorySenderIdStore.layerMemory,
  MemoryAdminStore.layerMemory,
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

/** Every kept memory port in one layer, over one fresh `MemoryDatabase` (provided too): the twin of the SQL side's wiring. */
export const layer: Layer.Layer<MemoryPorts | MemoryDatabase> = layerMemory
