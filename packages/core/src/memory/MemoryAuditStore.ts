/**
 * The in-memory `AuditStore`: the log is an array kept beside the `MemoryDatabase` it is built over
 * (two layers over one database share one log). Append-only: nothing here changes or removes an
 * entry. `transaction` runs the effect as it is (each memory operation is its own critical section).
 */
import { Effect, Layer } from "effect"
import type { AuditEntry } from "../ports/AuditStore.js"
import { AuditStore, matchesAuditFilter } from "../ports/AuditStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

const logs = new WeakMap<object, Array<AuditEntry>>()

const logOf = (db: object): Array<AuditEntry> => {
  let log = logs.get(db)
  if (log === undefined) {
    log = []
    logs.set(db, log)
  }
  return log
}

/** The in-memory `AuditStore` over the context's `MemoryDatabase`. */
export const layerMemory: Layer.Layer<AuditStore, never, MemoryDatabase> = Layer.effect(
  AuditStore,
  Effect.map(MemoryDatabase, (db) => {
    const log = logOf(db)
    return {
      append: (entry) =>
        Effect.sync(() => {
          const stored: AuditEntry = Object.freeze({ ...entry, id: String(log.length + 1) })
          log.push(stored)
          return stored
        }),
      search: (filter) =>
        Effect.sync(() => {
          const out: Array<AuditEntry> = []
          const limit = filter.limit ?? 100
          for (let i = log.length - 1; i >= 0 && out.length < limit; i--) {
            if (matchesAuditFilter(log[i], filter)) out.push(log[i])
          }
          return out
        }),
      transaction: (self) => self
    }
  })
)
