/**
 * The writer: group commit of every state change of delivery. Outcomes (sent, failed, requeued,
 * unknown, receipts, opt-outs, inbound parts, credit returns, late acceptances) are buffered and written in one
 * transaction per flush; `push(…, onCommit)` runs `onCommit` only after its transaction committed,
 * so a worker slot (and a receipt's acknowledgement to the carrier) is released only then.
 */
import { Cause, Clock, Context, Effect, ExecutionStrategy, Layer, Queue, Random, Schedule, Scope } from "effect"
import type {
  CreditReturn,
  DispatchBatch,
  FailRecord,
  LateAcceptanceRecord,
  OptOutRecord,
  ReceiptRecord,
  RequeueRecord,
  SentRecord
} from "../ports/DispatchStore.js"
import { DispatchStore } from "../ports/DispatchStore.js"
import type { InboundRecord } from "../ports/InboundStore.js"
import { DeliveryConfig } from "./DeliveryConfig.js"

// ---------------------------------------------------------------------------------------------
// The writer: group commit of every state change
// ---------------------------------------------------------------------------------------------

interface Buffer {
  readonly sent: Array<SentRecord>
  /** Single-part sent records a final receipt may still join, by part key: index in `sent`. */
  readonly joinable: Map<string, number>
  readonly failed: Array<FailRecord>
  readonly requeued: Array<RequeueRecord>
  readonly creditReturns: Array<CreditReturn>
  readonly receipts: Array<ReceiptRecord>
  readonly lateAcceptances: Array<LateAcceptanceRecord>
  readonly optOuts: Array<OptOutRecord>
  readonly inbound: Array<InboundRecord>
  size: number
  /** Run once the transaction holding this buffer committed (never when it did not). */
  readonly onCommit: Array<() => void>
}

const newBuffer = (): Buffer => ({
  sent: [],
  joinable: new Map(),
  failed: [],
  requeued: [],
  creditReturns: [],
  receipts: [],
  lateAcceptances: [],
  optOuts: [],
  inbound: [],
  size: 0,
  onCommit: []
})

type Key = Exclude<keyof Buffer, "size" | "onCommit" | "joinable">
type Item<K extends Key> = Buffer[K][number]
/** A buffer's lists by key, each typed by its key (so a generic key indexes its own list). */
type Lists = { readonly [K in Key]: Array<Item<K>> }

/** True when `key` is `want`: then `item`, pushed under `key`, is an `Item<want>`. */
const isItemOf = <K extends Key>(want: K, key: Key, _item: Item<Key>): _item is Item<K> => key === want

/**
 * The writer's running totals since start: flushes, records written, joined receipts, time in `apply`
 * (ms), last error.
 */
export interface DeliveryWriterStats {
  flushes: number
  records: number
  /** Receipts written with their message's `sent` record (one UPDATE for both). */
  joined: number
  applyMs: number
  lastError: string | null
}

/** Group commit of delivery outcomes: records queued under `owner` are written one transaction per flush. */
export class DeliveryWriter extends Context.Tag("@tuma/core/DeliveryWriter")<DeliveryWriter, {
  readonly owner: string
  /** Queues a record; the effect completes once the transaction holding it committed. */
  readonly write: <K extends Key>(key: K, item: Item<K>) => Effect.Effect<void>
  /**
   * Queues a record now (no fiber); `onCommit` runs once the transaction holding it committed.
   * A receipt for a part (or a late answer for a message) still being written is queued after it.
   */
  readonly push: <K extends Key>(key: K, item: Item<K>, onCommit?: () => void) => void
  readonly stats: DeliveryWriterStats
}>() {}

const MAX_FLUSH = 5000

/**
 * One flush: the buffer's records in one `DispatchStore.apply` (retried until it commits), then its
 * commit callbacks. `forget` drops the buffer's keys from the pending ones, committed or not.
 */
const applyWith = (options: {
  readonly store: DispatchStore["Type"]
  readonly owner: string
  readonly stats: DeliveryWriterStats
  readonly forget: (b: Buffer) => void
}) => {
  const { forget, owner, stats, store } = options
  const runCallbacks = (callbacks: ReadonlyArray<() => void>) => {
    for (const f of callbacks) {
      try {
        f()
      } catch (e) {
        stats.lastError = String(e)
      }
    }
  }

  const applyBuffer = (b: Buffer) =>
    Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      const t0 = performance.now()
      const batch: DispatchBatch = {
        now,
        owner,
        sent: b.sent,
        failed: b.failed,
        requeued: b.requeued,
        creditReturns: b.creditReturns,
        receipts: b.receipts,
        lateAcceptances: b.lateAcceptances,
        optOuts: b.optOuts,
        inbound: b.inbound
      }
      yield* store.apply(batch).pipe(
        Effect.tapErrorCause((cause) =>
          Effect.sync(() => void (stats.lastError = Cause.pretty(cause))).pipe(
            Effect.zipRight(Effect.logWarning("delivery write failed; retrying", cause))
          )
        ),
        Effect.sandbox,
        Effect.retry(Schedule.exponential("100 millis").pipe(Schedule.union(Schedule.spaced("5 seconds"))))
      )
      stats.flushes++
      stats.records += b.size
      stats.applyMs += performance.now() - t0
    }).pipe(
      Effect.orDie,
      Effect.ensuring(Effect.sync(() => forget(b))),
      Effect.zipRight(Effect.sync(() => runCallbacks(b.onCommit)))
    )
  return applyBuffer
}

/**
 * The writer over `DispatchStore.apply`: flushes `flushDelayMs` after a first record (at once from
 * 5000), `flushConcurrency` at a time; retries a failed write until it commits; flushes on close.
 */
export const layerWriter: Layer.Layer<DeliveryWriter, never, DispatchStore> = Layer.scoped(
  DeliveryWriter,
  Effect.gen(function*() {
    const store = yield* DispatchStore
    const cfg = yield* DeliveryConfig
    const owner = `${cfg.workerName}:${(yield* Random.nextInt).toString(36).slice(-6)}`
    const stats: DeliveryWriterStats = { flushes: 0, records: 0, joined: 0, applyMs: 0, lastError: null }
    let current = newBuffer()
    const wake = yield* Queue.sliding<void>(1)

    // Flushes may overlap (`flushConcurrency`); a record that depends on one still being written
    // (a receipt for a part being recorded, a late answer for a message being recorded) waits for it.
    const pendingKeys = new Map<string, Buffer>()
    const partKey = (providerId: string, ref: string) => `${providerId}\u0001${ref}`
    const forEachKey = (b: Buffer, f: (key: string) => void) => {
      for (const r of b.sent) {
        f(`m:${r.messageId}`)
        for (const p of r.parts) if (p.ref !== null) f(partKey(r.providerId, p.ref))
      }
    }
    const applyBuffer = applyWith({ store, owner, stats, forget: (b) => forEachKey(b, (k) => pendingKeys.delete(k)) })

    /** Takes the current buffer (registering what it records) for one flush. */
    const takeBuffer = (): Buffer | null => {
      const b = current
      if (b.size === 0) return null
      current = newBuffer()
      forEachKey(b, (k) => pendingKeys.set(k, b))
      return b
    }

    const permits = yield* Effect.makeSemaphore(Math.max(1, cfg.flushConcurrency))
    // the flushes' own scope, closed after the finalizer below (finalizers run in reverse order): a
    // flush in flight when the writer closes is waited for, never interrupted (its records would be lost)
    const flushes = yield* Scope.fork(yield* Effect.scope, ExecutionStrategy.sequential)
    // set when the scope closes: the loop starts no flush after it
    let closing = false
    yield* Effect.gen(function*() {
      while (true) {
        yield* Queue.take(wake)
        if (cfg.flushDelayMs > 0 && current.size < MAX_FLUSH) yield* Effect.sleep(cfg.flushDelayMs)
        yield* permits.take(1)
        const b = closing ? null : takeBuffer()
        if (b === null) {
          yield* permits.release(1)
          if (closing) return
          continue
        }
        yield* Effect.forkIn(applyBuffer(b).pipe(Effect.ensuring(permits.release(1))), flushes)
      }
    }).pipe(Effect.interruptible, Effect.forkScoped)
    // on close: the flushes in flight end, then what is left is written. The loop is stopped first.
    // Left running while records kept coming, it started flush after flush (forked into the closing
    // scope, each was interrupted at once and its records lost), and a semaphore hands a free permit to
    // a one-permit taker before a waiter for all of them: this wait could last for ever.
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => {
        closing = true
        return Queue.offer(wake, undefined)
      }).pipe(
        Effect.zipRight(
          permits.withPermits(Math.max(1, cfg.flushConcurrency))(
            Effect.suspend(() => {
              const b = takeBuffer()
              return b === null ? Effect.void : applyBuffer(b)
            })
          )
        ),
        Effect.ignore
      )
    )

    const enqueue = <K extends Key>(key: K, item: Item<K>, onCommit: (() => void) | undefined) => {
      const b = current
      const lists: Lists = b
      const list = lists[key]
      if (isItemOf("sent", key, item)) {
        const r = item
        const part = r.parts.length === 1 ? r.parts[0]! : null
        if (part !== null && part.ref !== null && r.unknown === null && r.failureReason === null) {
          b.joinable.set(partKey(r.providerId, part.ref), list.length)
        }
      }
      list.push(item)
      b.size++
      if (onCommit !== undefined) b.onCommit.push(onCommit)
      if (b.size === 1 || b.size >= MAX_FLUSH) Queue.unsafeOffer(wake, undefined)
    }
    /** The flushes in progress `item` must follow (none, usually). */
    const dependencies = <K extends Key>(key: K, item: Item<K>): Array<Buffer> | null => {
      if (pendingKeys.size === 0) return null
      let out: Array<Buffer> | null = null
      if (isItemOf("receipts", key, item)) {
        const r = item
        for (const c of r.candidates) {
          const b = pendingKeys.get(partKey(r.providerId, c))
          if (b !== undefined) (out ??= []).push(b)
        }
      } else if (isItemOf("lateAcceptances", key, item)) {
        const b = pendingKeys.get(`m:${item.messageId}`)
        if (b !== undefined) out = [b]
      }
      return out
    }
    /**
     * A final receipt whose (single-part) message is still waiting in the current buffer joins its
     * `sent` record: same transaction as it would have had, one row version instead of two. Only on
     * the receipt's literal id, as the database would match first.
     */
    const join = (r: ReceiptRecord, onCommit: (() => void) | undefined): boolean => {
      if (r.state === "enroute") return false
      const b = current
      const key = partKey(r.providerId, r.candidates[0]!)
      const index = b.joinable.get(key)
      if (index === undefined) return false
      b.joinable.delete(key)
      b.sent[index] = {
        ...b.sent[index]!,
        receipt: { state: r.state, deliveryStatus: r.deliveryStatus, failureReason: r.failureReason }
      }
      if (onCommit !== undefined) b.onCommit.push(onCommit)
      stats.joined++
      return true
    }
    const push = <K extends Key>(key: K, item: Item<K>, onCommit?: () => void): void => {
      if (isItemOf("receipts", key, item) && join(item, onCommit)) return
      const deps = dependencies(key, item)
      if (deps === null) return enqueue(key, item, onCommit)
      let waiting = deps.length
      const next = () => {
        if (--waiting === 0) enqueue(key, item, onCommit)
      }
      for (const b of deps) b.onCommit.push(next)
    }
    const write = <K extends Key>(key: K, item: Item<K>): Effect.Effect<void> =>
      Effect.async<void>((resume) => push(key, item, () => resume(Effect.void)))

    return { owner, write, push, stats }
  })
)
