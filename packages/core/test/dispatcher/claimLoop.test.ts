/** The claim loop: the in-flight budget, waiting for work, and the gather wait after a short claim. */
import { expect, it } from "@effect/vitest"
import { Effect, Fiber, TestClock } from "effect"
import { claimOnce } from "../../src/delivery/ClaimLoop.js"
import { makeInFlight } from "../../src/delivery/InFlight.js"
import type { ClaimedMessage, ReleaseSelection } from "../../src/ports/DispatchStore.js"

const message = (id: string): ClaimedMessage => ({
  id,
  accountId: "a",
  marketId: "tz",
  country: "TZ",
  recipient: "+255712345678",
  senderId: "TUMA",
  text: "hi",
  encoding: "GSM-7",
  parts: 1,
  units: 1,
  queuedAt: null,
  createdAt: new Date(0),
  attempts: 1
})

const cfg = { claimBatch: 10, maxInFlight: 10, leaseMs: 30_000, pollIntervalMs: 1_000, claimGatherMs: 50 }

const setUp = (batches: Array<number>) =>
  Effect.gen(function*() {
    const inFlight = yield* makeInFlight(cfg)
    const limits: Array<number> = []
    const dispatched: Array<number> = []
    const released: Array<ReleaseSelection> = []
    const options = {
      store: {
        claim: ({ limit }: { limit: number }) =>
          Effect.sync(() => {
            limits.push(limit)
            return Array.from({ length: Math.min(limit, batches.shift() ?? 0) }, (_, i) => message(`m${i}`))
          })
      },
      owner: "w",
      cfg,
      inFlight,
      woken: Effect.never,
      dispatch: (batch: ReadonlyArray<ClaimedMessage>) => Effect.sync(() => void dispatched.push(batch.length)),
      release: (which: ReleaseSelection) => void released.push(which)
    }
    return { inFlight, limits, dispatched, released, options }
  })

it.effect("a short claim waits claimGatherMs before the next turn; a full one does not", () =>
  Effect.gen(function*() {
    const { dispatched, inFlight, options } = yield* setUp([3, 10])
    const short = yield* Effect.fork(claimOnce(options))
    yield* TestClock.adjust(49)
    expect(short.unsafePoll()).toBeNull()
    yield* TestClock.adjust(1)
    yield* Fiber.join(short)
    expect(dispatched).toEqual([3])
    expect(inFlight.free()).toBe(7)
    // the budget is below a half batch now? 7 free >= 5: a claim of at most 7, full, no wait
    const full = yield* Effect.fork(claimOnce({ ...options, cfg: { ...cfg, claimGatherMs: 10_000 } }))
    yield* Fiber.join(full)
    expect(dispatched).toEqual([3, 7])
  }))

it.effect("with fewer than half a batch free, no claim until messages settle", () =>
  Effect.gen(function*() {
    const { dispatched, inFlight, limits, options } = yield* setUp([10, 10])
    yield* claimOnce(options)
    expect(inFlight.free()).toBe(0)
    const waiting = yield* Effect.fork(claimOnce(options))
    for (let i = 0; i < 4; i++) inFlight.release()
    yield* TestClock.adjust(1)
    expect(waiting.unsafePoll()).toBeNull()
    inFlight.release() // five free: half a batch
    yield* Fiber.join(waiting)
    expect(limits).toEqual([10])
    yield* claimOnce(options)
    expect(limits).toEqual([10, 5])
    expect(dispatched).toEqual([10, 5])
  }))

it.effect("nothing to claim: waits for a wake-up or the poll interval", () =>
  Effect.gen(function*() {
    const { limits, options } = yield* setUp([])
    const idle = yield* Effect.fork(claimOnce(options))
    yield* TestClock.adjust(999)
    expect(idle.unsafePoll()).toBeNull()
    yield* TestClock.adjust(1)
    yield* Fiber.join(idle)
    expect(limits).toEqual([10])
  }))

it.effect("a claim that failed gives back what it may have leased (its lease end), and dispatches nothing", () =>
  Effect.gen(function*() {
    const { dispatched, inFlight, options, released } = yield* setUp([])
    const lost = { ...options, store: { claim: () => Effect.die(new Error("connection terminated")) } }
    const exit = yield* Effect.exit(claimOnce(lost))
    expect(exit._tag).toBe("Failure")
    expect(released).toEqual([{ leaseUntil: new Date(cfg.leaseMs) }])
    expect(dispatched).toEqual([])
    expect(inFlight.free()).toBe(10)
  }))
