/**
 * In-memory adapter of `SettingsChanges`: the `settingsVersion` of the shared `MemoryDatabase`, moved
 * by the memory adapters in the same critical section as every write to a cached setting (the twin
 * of migration 0060's statement triggers), and a wake-up of every subscriber right after that
 * section (the twin of `pg_notify`, which nothing can lose in one process: no poll).
 */
import { Effect, Layer } from "effect"
import { makeSubscribers, SettingsChanges } from "../ports/SettingsChanges.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

/** The memory `SettingsChanges` over the context's `MemoryDatabase`. */
export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const { notify, subscribe } = makeSubscribers()
  const unsubscribe = db.onSettingsChanged(notify)
  yield* Effect.addFinalizer(() => Effect.sync(unsubscribe))

  return SettingsChanges.of({ version: db.transact((t) => String(t.settingsVersion)), subscribe })
})

/** `SettingsChanges` over the context's `MemoryDatabase`. */
export const layerMemory: Layer.Layer<SettingsChanges, never, MemoryDatabase> = Layer.scoped(SettingsChanges, make)
