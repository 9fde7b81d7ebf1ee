/**
 * The sliced scheduler of `tuma serve` (Scheduling.ts): busy fibers leave the event loop free between
 * slices — a macrotask (an accepted connection, a socket read, a timer) waits at most about one
 * slice, not until every runnable fiber has blocked — and fibers still run to completion in order.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Scheduler } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { connect } from "node:net"
import { SlicedScheduler } from "../src/runtime/Scheduling.js"

/** Burns `ms` of CPU on the calling thread. */
const spin = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // busy
  }
}

/** Runs two fibers that each burn 1 ms and yield, 150 times; returns when a setImmediate queued at the start fired. */
const immediateDelay = (scheduler: Scheduler.Scheduler) =>
  Effect.runPromise(Effect.withScheduler(
    Effect.gen(function*() {
      const start = performance.now()
      let firedAt = -1
      setImmediate(() => (firedAt = performance.now() - start))
      const busy = Effect.forEach(Array.from({ length: 150 }), () =>
        Effect.zipRight(Effect.sync(() => spin(1)), Effect.yieldNow()), { discard: true })
      const fibers = yield* Effect.all([Effect.fork(busy), Effect.fork(busy)])
      yield* Fiber.joinAll(fibers)
      return { firedAt, total: performance.now() - start }
    }),
    scheduler
  ))

describe("SlicedScheduler", () => {
  it.live("a macrotask runs after about one slice while fibers stay busy", () =>
    Effect.promise(async () => {
      const sliced = await immediateDelay(new SlicedScheduler(4))
      expect(sliced.total).toBeGreaterThan(250) // the fibers did their 300 ms of work
      expect(sliced.firedAt).toBeGreaterThanOrEqual(0)
      expect(sliced.firedAt).toBeLessThan(60)
    }))

  it.live("Effect's default scheduler holds the same macrotask until the fibers are done (why the server replaces it)", () =>
    Effect.promise(async () => {
      const mixed = await immediateDelay(Scheduler.defaultScheduler)
      // not before the fibers were done (-1), or long after one slice
      expect(mixed.firedAt === -1 || mixed.firedAt > 200).toBe(true)
    }))

  it.live("a connection is accepted and answered while a fiber keeps the CPU busy", () =>
    Effect.promise(async () => {
      const server = createServer((_req, res) => res.end("ok"))
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const { port } = server.address() as AddressInfo
      try {
        const answered = await Effect.runPromise(Effect.withScheduler(
          Effect.gen(function*() {
            let stop = false
            const busy = Effect.whileLoop({
              while: () => !stop,
              body: () => Effect.zipRight(Effect.sync(() => spin(1)), Effect.yieldNow()),
              step: () => {}
            })
            const fiber = yield* Effect.fork(busy)
            const started = performance.now()
            const ms = yield* Effect.async<number>((resume) => {
              const socket = connect(port, "127.0.0.1", () =>
                socket.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
              socket.on("data", () => {
                socket.destroy()
                resume(Effect.succeed(performance.now() - started))
              })
            })
            stop = true
            yield* Fiber.join(fiber)
            return ms
          }),
          new SlicedScheduler(4)
        ))
        expect(answered).toBeLessThan(200)
      } finally {
        await new Promise<void>((resolve) =>
          server.close(() =>
            resolve()
          )
        )
      }
    }))

  it.live("tasks run in the order they were scheduled, higher priority buckets after lower ones", () =>
    Effect.sync(() => {
      const scheduler = new SlicedScheduler(4)
      const order: Array<string> = []
      return new Promise<Array<string>>((resolve) => {
        scheduler.scheduleTask(() => order.push("a0"), 0)
        scheduler.scheduleTask(() => order.push("b1"), 1)
        scheduler.scheduleTask(() => order.push("c0"), 0)
        scheduler.scheduleTask(() => {
          order.push("d1")
          setImmediate(() => resolve(order))
        }, 1)
      })
    }).pipe(
      Effect.flatMap((p) => Effect.promise(() => p)),
      Effect.map((order) => expect(order).toEqual(["a0", "c0", "b1", "d1"]))
    ))
})
