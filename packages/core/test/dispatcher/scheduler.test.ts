/** The scheduler promotes in rounds until a round moves fewer than a full batch. */
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PROMOTE_BATCH, promoteDue } from "../../src/delivery/Scheduler.js"

it.effect("due scheduled messages are released in full rounds, then the remainder", () =>
  Effect.gen(function*() {
    const rounds = [PROMOTE_BATCH, PROMOTE_BATCH, 7, 99]
    const limits: Array<number> = []
    const moved = yield* promoteDue({
      promoteScheduled: (_now, limit) => Effect.sync(() => (limits.push(limit), rounds.shift()!))
    })
    expect(moved).toBe(2 * PROMOTE_BATCH + 7)
    expect(limits).toEqual([PROMOTE_BATCH, PROMOTE_BATCH, PROMOTE_BATCH])
    expect(rounds).toEqual([99])
  }))

it.effect("nothing due: one round", () =>
  Effect.gen(function*() {
    let calls = 0
    expect(yield* promoteDue({ promoteScheduled: () => Effect.sync(() => (calls++, 0)) })).toBe(0)
    expect(calls).toBe(1)
  }))
