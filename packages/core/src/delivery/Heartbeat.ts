/**
 * Liveness of a delivery worker (docs/delivery.md "Take-over"): it beats every fifth of
 * `takeOverAfterMs`; once it has itself beaten without a gap for `takeOverAfterMs`, its beats also
 * judge the others, and the claims of workers silent that long are released to be claimed again.
 * A gap (this process stalled, or the database was unreachable: the beat failed) starts a new streak,
 * so after an outage nobody is judged before it had the time to beat again. When this worker finds
 * itself taken for dead, its `generation` moves on: what it claimed before is not submitted.
 */
import { Clock, Effect } from "effect"
import type { DispatchStore } from "../ports/DispatchStore.js"

/** One worker's heartbeat and the generation of its claims. */
export interface Heartbeat {
  /** One beat (and judgement of the others, when this worker's streak is long enough). */
  readonly beat: Effect.Effect<void>
  /** The interval between beats. */
  readonly everyMs: number
  /** Bumped each time another worker took this one's claims over. */
  readonly generation: () => number
}

/** The heartbeat of worker `owner`; `onReleased` runs when its beat released other workers' claims. */
export const makeHeartbeat = (options: {
  readonly store: Pick<DispatchStore["Type"], "heartbeat">
  readonly owner: string
  readonly takeOverAfterMs: number
  readonly onReleased: () => void
}): Heartbeat => {
  const { onReleased, owner, store, takeOverAfterMs } = options
  const state: { generation: number; streakSince: number | null; lastBeat: number } = {
    generation: 0,
    streakSince: null,
    lastBeat: 0
  }
  const beat = Effect.gen(function*() {
    const t = yield* Clock.currentTimeMillis
    if (state.streakSince === null || t - state.lastBeat > takeOverAfterMs / 2) state.streakSince = t
    const judge = t - state.streakSince >= takeOverAfterMs ? takeOverAfterMs : null
    const result = yield* store.heartbeat(owner, new Date(t), judge).pipe(
      Effect.tapErrorCause(() => Effect.sync(() => void (state.streakSince = null)))
    )
    if (!result.registered && state.lastBeat !== 0) {
      state.generation++
      yield* Effect.logError(
        `delivery worker ${owner} was taken for dead (silent for ${takeOverAfterMs} ms); ` +
          "the messages it holds and has not submitted are left to the worker that took them over"
      )
    }
    state.lastBeat = t
    if (result.released > 0) {
      yield* Effect.logWarning(
        `took over ${result.released} messages claimed by delivery workers silent for ${takeOverAfterMs} ms`
      )
      onReleased()
    }
  })
  return { beat, everyMs: Math.max(100, Math.floor(takeOverAfterMs / 5)), generation: () => state.generation }
}
