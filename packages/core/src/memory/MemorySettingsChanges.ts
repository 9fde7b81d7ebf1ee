/**
 * In-memory adapter of `SettingsChanges`: the `settingsVersion` of the shared `MemoryDatabase`, moved
 * by the memory adapters in the same critical section as every write to a cached setting (the twin
 * of migration 0060's statement triggers), and a wake-up of every subscriber right after that
 * section (the twin of `pg_notify`, which nothing can lose in one process: no poll).
 */
import { Effect, Layer, Queue } from "effect"
import { SettingsChanges } from "../ports/SettingsChanges.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

/** The memory `SettingsChanges` over the context's `MemoryDatabase`. */
export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const subscribers = new Set<Queue.Queue<void>>()
  const unsubscribe = db.onSettingsChanged(() => {
    for (const q of subscribers) Queue.unsafeOffer(q, undefined)
  })
  yield* Effect.addFinalizer(() => Effect.sync(unsubscribe))

  const subscribe = Effect.acquireRelease(
    Effect.tap(Queue.sliding<void>(1), (q) => Effect.sync(() => subscribers.add(q))),
    (q) => Effect.sync(() => subscribers.delete(q))
  ).pipe(Effect.map((q) => Queue.take(q)))

  return SettingsChanges.of({ version: db.transact((t) => String(t.settingsVersion)), subscribe })
})

/** `SettingsChanges` over the context's `MemoryDatabase`. */
export const layerMemory: Layer.Layer<SettingsChanges, never, MemoryDatabase> = Layer.scoped(SettingsChanges, make)
