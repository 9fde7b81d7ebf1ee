/**
 * `SlicedScheduler`: the fiber scheduler of `tuma serve` (issue 12) — fibers run in time slices, and
 * between slices the event loop polls sockets, accepts connections and fires timers.
 *
 * Why: Effect's default scheduler (3.20+) keeps one runner per fiber and chains each runner's
 * drains through microtasks, falling back to a timer only after 2,048 hops of the same fiber. Node
 * drains the whole microtask queue after every I/O callback, so while any fiber is runnable that
 * drain goes on: measured on the embedded store at 50 connections, the server accepted one new
 * connection per event-loop turn (30–50 ms each), and a connection's first request waited up to
 * 1.5 s in the accept queue although no handler took more than 0.2 s — the p99 the client saw.
 *
 * How: one run queue for every fiber (priorities as Effect's own `PriorityBuckets`). A drain that
 * starts in a macrotask opens a slice of `sliceMillis`; tasks scheduled while the slice lasts run in
 * microtasks (as before: no hop, no timer clamp); once it has run out, the next drain waits for the
 * check phase (`setImmediate`), after the poll phase has read every ready socket. A task scheduled
 * from an I/O callback outside a slice also waits for the check phase, so the poll phase only
 * reads and parses — the work it wakes runs after it, in order. `shouldYield` is Effect's own (a
 * fiber yields after `currentMaxOpsBeforeYield` operations).
 */
import type { RuntimeFiber } from "effect/Fiber"
import * as Scheduler from "effect/Scheduler"
import type { Task } from "effect/Scheduler"

/** How long one slice of fiber work may hold the event loop by default (milliseconds). */
export const DEFAULT_SLICE_MILLIS = 4

/** A scheduler that runs every fiber from one queue in slices of `sliceMillis` (see the module's doc). */
export class SlicedScheduler implements Scheduler.Scheduler {
  private running = false
  private tasks = new Scheduler.PriorityBuckets()
  private sliceEnd = 0

  constructor(readonly sliceMillis: number = DEFAULT_SLICE_MILLIS) {}

  private readonly drain = (): void => {
    const buckets = this.tasks.buckets
    this.tasks.buckets = []
    for (const [, toRun] of buckets) {
      for (let i = 0; i < toRun.length; i++) toRun[i]()
    }
    if (this.tasks.buckets.length === 0) this.running = false
    else this.next()
  }

  private readonly openSlice = (): void => {
    this.sliceEnd = performance.now() + this.sliceMillis
    this.drain()
  }

  private next(): void {
    if (performance.now() < this.sliceEnd) queueMicrotask(this.drain)
    else setImmediate(this.openSlice)
  }

  shouldYield(fiber: RuntimeFiber<unknown, unknown>): number | false {
    return Scheduler.defaultScheduler.shouldYield(fiber)
  }

  scheduleTask(task: Task, priority: number): void {
    this.tasks.scheduleTask(task, priority)
    if (!this.running) {
      this.running = true
      this.next()
    }
  }
}
