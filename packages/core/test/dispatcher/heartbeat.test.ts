/** The heartbeat: judging others only after a gapless streak, the generation bump on being taken over. */
import { expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { makeHeartbeat } from "../../src/delivery/Heartbeat.js"

const fakeStore = (answers: Array<{ registered: boolean; released: number }>) => {
  const calls: Array<number | null> = []
  return {
    calls,
    store: {
      heartbeat: (_owner: string, _now: Date, takeOverAfterMs: number | null) =>
        Effect.sync(() => {
          calls.push(takeOverAfterMs)
          return answers.shift() ?? { registered: true, released: 0 }
        })
    }
  }
}

it.effect("others are judged only once this worker beat without a gap for takeOverAfterMs", () =>
  Effect.gen(function*() {
    const { calls, store } = fakeStore([])
    const hb = makeHeartbeat({ store, owner: "w", takeOverAfterMs: 1_000, onReleased: () => {} })
    expect(hb.everyMs).toBe(200)
    for (let i = 0; i < 6; i++) {
      yield* hb.beat
      yield* TestClock.adjust(200)
    }
    expect(calls).toEqual([null, null, null, null, null, 1_000])
    // a gap longer than half the take-over time starts a new streak
    yield* TestClock.adjust(600)
    yield* hb.beat
    expect(calls.at(-1)).toBeNull()
  }))

it.effect("taken for dead: the generation moves on; released claims nudge the claim loop", () =>
  Effect.gen(function*() {
    let nudges = 0
    const { store } = fakeStore([
      { registered: false, released: 0 },
      { registered: true, released: 0 },
      { registered: false, released: 4 }
    ])
    const hb = makeHeartbeat({ store, owner: "w", takeOverAfterMs: 1_000, onReleased: () => nudges++ })
    yield* TestClock.adjust(1_000)
    yield* hb.beat // the first beat registers: not a take-over
    expect(hb.generation()).toBe(0)
    yield* hb.beat
    expect(hb.generation()).toBe(0)
    yield* hb.beat
    expect(hb.generation()).toBe(1)
    expect(nudges).toBe(1)
  }))
