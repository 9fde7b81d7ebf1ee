/**
 * The snapshot cache's one read per key (core `send/snapshotCache.ts`): sends that miss while their
 * key is being read wait for that read and take it as reused — only from a store that versions its
 * settings (a reused snapshot needs `accept`'s guard), and a read that fails leaves each waiter to
 * read for itself. The SQL half (fifty concurrent sends, one read) is in store-sql's snapshotReuse.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import type { SendSnapshot, SendStore, SnapshotRequest } from "../src/ports/SendStore.js"
import { makeSnapshotCache } from "../src/send/snapshotCache.js"

const snapshotOf = (request: SnapshotRequest, settingsVersion: string | undefined): SendSnapshot => ({
  account: { id: request.accountId, active: true },
  senderIds: [],
  markets: [],
  verifiedMarketIds: [],
  wallets: [],
  providerCapacity: [],
  optedOut: request.recipients.filter((r) => r.endsWith("9")),
  spamRules: [],
  spamBuiltinOff: [],
  settingsVersion
})

/** A store whose reads wait for `gate` and are counted; `fail` makes the first read die. */
const gatedStore = (gate: Deferred.Deferred<void>, options: { versioned: boolean; failFirst?: boolean }) => {
  const state = { reads: 0 }
  const store = {
    snapshot: (request: SnapshotRequest) =>
      Effect.suspend(() => {
        state.reads++
        const first = state.reads === 1
        return Effect.zipRight(
          Deferred.await(gate),
          first && options.failFirst === true
            ? Effect.die("connection lost")
            : Effect.succeed(snapshotOf(request, options.versioned ? "7" : undefined))
        )
      })
  } as unknown as SendStore["Type"]
  return { store, state }
}

const request = (recipient: string): SnapshotRequest => ({
  accountId: "acc",
  senderName: "TUMA",
  countries: ["TZ"],
  recipients: [recipient]
})

const twentyAtOnce = (options: { versioned: boolean; failFirst?: boolean }) =>
  Effect.gen(function*() {
    const gate = yield* Deferred.make<void>()
    const { state, store } = gatedStore(gate, options)
    const cache = makeSnapshotCache(store, { maxEntries: 100 })
    const fibers = yield* Effect.forEach(
      Array.from({ length: 20 }, (_, i) => `+2557120000${String(i).padStart(2, "0")}`),
      (r) => Effect.fork(Effect.exit(cache.get(request(r), 1_000))),
      { concurrency: "unbounded" }
    )
    yield* Effect.yieldNow()
    yield* Deferred.succeed(gate, undefined)
    const results = yield* Fiber.joinAll(fibers)
    return { reads: state.reads, results }
  })

describe("snapshot cache: one read per key at a time", () => {
  it.effect("twenty misses of one key while it is read: one read, the waiters get it as reused without opt-outs", () =>
    Effect.gen(function*() {
      const { reads, results } = yield* twentyAtOnce({ versioned: true })
      expect(reads).toBe(1)
      const ok = results.flatMap((e) => e._tag === "Success" ? [e.value] : [])
      expect(ok).toHaveLength(20)
      expect(ok.filter((c) => !c.reused)).toHaveLength(1)
      // the leader's own recipients' opt-outs are not handed to the others (accept guards theirs)
      for (const c of ok.filter((c) => c.reused)) expect(c.snapshot.optedOut).toEqual([])
    }))

  it.effect("a store without settings versions is read by every send (nothing can guard a shared read)", () =>
    Effect.gen(function*() {
      const { reads, results } = yield* twentyAtOnce({ versioned: false })
      expect(reads).toBe(20)
      expect(results.every((e) => e._tag === "Success" && !e.value.reused)).toBe(true)
    }))

  it.effect("when the read in flight dies, each waiter reads for itself", () =>
    Effect.gen(function*() {
      const { reads, results } = yield* twentyAtOnce({ versioned: true, failFirst: true })
      expect(results.filter((e) => e._tag === "Failure")).toHaveLength(1)
      expect(results.filter((e) => e._tag === "Success")).toHaveLength(19)
      expect(reads).toBeGreaterThan(1)
    }))

  it.effect("after clear() a miss does not wait for a read that started before it", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const { state, store } = gatedStore(gate, { versioned: true })
      const cache = makeSnapshotCache(store, { maxEntries: 100 })
      const first = yield* Effect.fork(cache.get(request("+255712000001"), 1_000))
      yield* Effect.yieldNow()
      cache.clear()
      const second = yield* Effect.fork(cache.get(request("+255712000002"), 1_000))
      yield* Effect.yieldNow()
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(first)
      const after = yield* Fiber.join(second)
      expect(state.reads).toBe(2)
      expect(after.reused).toBe(false)
    }))
})
