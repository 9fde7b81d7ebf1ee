/**
 * In-memory adapters of the core storage ports: `@tuma/core` with no database at all (tests, demos,
 * embedding, a single process that may lose its data on exit). Every adapter works over one shared
 * `MemoryDatabase`, as the SQL adapters share one PostgreSQL database, and passes the same contract
 * suites as the SQL adapters (packages/store-sql/test, driver `memory`).
 *
 * `layerMemory` provides every port implemented here (and `ContentCounter.layerMemory`) over one
 * fresh `MemoryDatabase`, which it provides too, so a test can look at the tables. `Ids` is not a
 * store: provide `Ids.layer` (or `Ids.layerSequential`) beside it.
 *
 * ```ts
 * const app = Layer.mergeAll(Send.layer, Operator.layer).pipe(
 *   Layer.provideMerge(Memory.layerMemory),
 *   Layer.provideMerge(Ids.layer)
 * )
 * ```
 */
import { Layer } from "effect"
import { ContentCounter } from "../ports/ContentCounter.js"
import type { OperatorStore } from "../ports/OperatorStore.js"
import type { SendStore } from "../ports/SendStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import * as MemoryOperatorStore from "./MemoryOperatorStore.js"
import * as MemorySendStore from "./MemorySendStore.js"

export * from "./MemoryDatabase.js"
export * as MemoryOperatorStore from "./MemoryOperatorStore.js"
export * as MemorySendStore from "./MemorySendStore.js"

/** Every port the memory adapters implement. */
export type MemoryPorts = SendStore | OperatorStore | ContentCounter

/** Every memory adapter over the context's `MemoryDatabase` (to share one database with other layers). */
export const layerPorts: Layer.Layer<MemoryPorts, never, MemoryDatabase> = Layer.mergeAll(
  MemorySendStore.layerMemory,
  MemoryOperatorStore.layerMemory,
  ContentCounter.layerMemory
)

/** Every memory adapter over one fresh `MemoryDatabase` (provided too). */
export const layerMemory: Layer.Layer<MemoryPorts | MemoryDatabase> = Layer.provideMerge(
  layerPorts,
  MemoryDatabase.layer
)
