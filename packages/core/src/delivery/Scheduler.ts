/**
 * Scheduled messages move to `queued` when due: `promoteDue` runs at start and every
 * `scheduleIntervalMs`, in rounds of `PROMOTE_BATCH` until a round moves fewer, so a moment missed
 * during a restart is caught up at once.
 */
import { Clock, Effect } from "effect"
import type { DispatchStore } from "../ports/DispatchStore.js"

/** Messages moved per store round. */
export const PROMOTE_BATCH = 1000

/** Moves every due scheduled message to `queued`; answers how many moved. */
export const promoteDue = (store: Pick<DispatchStore["Type"], "promoteScheduled">): Effect.Effect<number> =>
  Effect.gen(function*() {
    let total = 0
    while (true) {
      const moved = yield* store.promoteScheduled(new Date(yield* Clock.currentTimeMillis), PROMOTE_BATCH)
      total += moved
      if (moved !== PROMOTE_BATCH) return total
    }
  })
