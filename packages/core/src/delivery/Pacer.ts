/**
 * The pacer of one provider's `maxPerSecond` (decisions §20): send slots are reserved in the store
 * in chunks (so the rate holds across every process), and one pacing fiber hands them out as they
 * fall due. Every waiter whose slots are due is released in the same turn, so the rate does not
 * depend on how fast the event loop turns. (A lock held across a sleep per message released one
 * message per turn or two, and dropped every slot more than one spacing late, reserving and wasting
 * a chunk per message: ~25-30/s against 200-250/s on a busy worker.) A slot whose moment passed
 * while the worker was busy is still ours and is used late; only slots older than `lateMs` are
 * dropped, which bounds the catch-up burst.
 *
 * The state (reserved slots, waiters, whether the pacing fiber runs) belongs to the pacer alone.
 */
import { Effect } from "effect"

/** A rate gate: `take(n)` completes once `n` send slots are ours. */
export interface Pacer {
  readonly perSecond: number
  readonly take: (n: number) => Effect.Effect<void>
}

/** What a pacer needs: its rate, the store's slot reservation, and where to run its pacing fiber. */
export interface PacerOptions {
  readonly perSecond: number
  /** Reserves `count` slots at `perSecond`; answers the delay (ms) until the first of them. */
  readonly reserve: (count: number, perSecond: number) => Effect.Effect<number, unknown>
  /** Runs the pacing fiber (in the dispatcher's fiber set). */
  readonly fork: (pace: Effect.Effect<void>) => void
}

/** Slots reserved per store round trip: a twentieth of a second's worth, at least one. */
export const chunkOf = (perSecond: number): number => Math.max(1, Math.ceil(perSecond / 20))

/** A pacer at `perSecond` (its pacing fiber runs only while someone waits). */
export const makePacer = ({ fork, perSecond, reserve }: PacerOptions): Pacer => {
  const spacing = 1000 / perSecond
  const chunk = chunkOf(perSecond)
  const lateMs = Math.max(100, 2 * spacing)
  let slots: Array<number> = []
  const waiters: Array<{ n: number; readonly resume: () => void }> = []
  let pacing = false

  /** One turn: drop stale slots, release the waiters whose slots are due, say what comes next. */
  const turn = () => {
    if (waiters.length === 0) {
      pacing = false
      return { _tag: "done" } as const
    }
    const t = Date.now()
    while (slots.length > 0 && slots[0]! < t - lateMs) slots.shift()
    while (waiters.length > 0 && slots.length > 0 && slots[0]! <= t) {
      slots.shift()
      const head = waiters[0]!
      if (--head.n <= 0) {
        waiters.shift()
        head.resume()
      }
    }
    if (waiters.length === 0) return { _tag: "next" } as const
    return slots.length === 0 ? { _tag: "reserve" } as const : { _tag: "wait", ms: slots[0]! - t } as const
  }

  const refill = Effect.gen(function*() {
    const delay = yield* reserve(chunk, perSecond).pipe(
      Effect.catchAllCause((cause) =>
        Effect.as(Effect.logWarning("send slot reservation failed; retrying", cause), null)
      )
    )
    if (delay === null) yield* Effect.sleep(1000)
    else {
      const t0 = Date.now() + delay
      slots = Array.from({ length: chunk }, (_, i) => t0 + i * spacing)
    }
  })

  const pace: Effect.Effect<void> = Effect.gen(function*() {
    while (true) {
      const step = yield* Effect.sync(turn)
      if (step._tag === "done") return
      if (step._tag === "wait") yield* Effect.sleep(step.ms)
      else if (step._tag === "reserve") yield* refill
    }
  })

  return {
    perSecond,
    take: (n) =>
      n <= 0 ? Effect.void : Effect.async<void>((resume) => {
        const waiter = { n, resume: () => resume(Effect.void) }
        waiters.push(waiter)
        if (!pacing) {
          pacing = true
          fork(pace)
        }
        return Effect.sync(() => {
          const i = waiters.indexOf(waiter)
          if (i >= 0) waiters.splice(i, 1)
        })
      })
  }
}
