/** The pacer of a provider's `maxPerSecond`: slots reserved in chunks, waiters released at the rate. */
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { chunkOf, makePacer } from "../../src/delivery/Pacer.js"

const pacerAt = (perSecond: number) => {
  const reservations: Array<number> = []
  // the store's slot book: the next free slot moves on by a spacing per slot reserved
  let next = 0
  const pacer = makePacer({
    perSecond,
    reserve: (count) =>
      Effect.sync(() => {
        reservations.push(count)
        const now = Date.now()
        const first = Math.max(now, next)
        next = first + count * 1000 / perSecond
        return first - now
      }),
    fork: (pace) => void Effect.runFork(pace)
  })
  return { pacer, reservations }
}

it("a twentieth of a second's slots per reservation, at least one", () => {
  expect([chunkOf(1), chunkOf(20), chunkOf(50), chunkOf(200)]).toEqual([1, 1, 3, 10])
})

it.live("20 slots at 50/s take about 380 ms (19 spacings of 20 ms), reserved 3 at a time", () =>
  Effect.gen(function*() {
    const { pacer, reservations } = pacerAt(50)
    const start = Date.now()
    yield* Effect.forEach(Array.from({ length: 20 }), () => pacer.take(1), { concurrency: "unbounded" })
    const elapsed = Date.now() - start
    expect(elapsed).toBeGreaterThanOrEqual(330)
    expect(elapsed).toBeLessThan(1_500)
    expect(reservations.every((n) => n === 3)).toBe(true)
    expect(reservations.length).toBe(7)
  }))

it.live("a multipart message takes one slot per part; nothing to take passes at once", () =>
  Effect.gen(function*() {
    const { pacer, reservations } = pacerAt(10)
    yield* pacer.take(0)
    expect(reservations).toEqual([])
    const start = Date.now()
    yield* pacer.take(3)
    // three slots 100 ms apart: the third is due 200 ms after the first
    expect(Date.now() - start).toBeGreaterThanOrEqual(180)
    expect(reservations).toEqual([1, 1, 1])
  }))
