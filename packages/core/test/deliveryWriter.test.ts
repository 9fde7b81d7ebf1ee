/**
 * The delivery writer (group commit) against a recording `DispatchStore` double: what goes into
 * which transaction, and that a record's callback (a worker slot, a receipt's acknowledgement to the
 * carrier) runs only once the transaction holding it committed. The SQL side of the same records is
 * covered end to end in packages/providers/test/delivery.test.ts.
 */
import { expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { DeliveryConfig } from "../src/delivery/DeliveryConfig.js"
import { DeliveryWriter, layerWriter } from "../src/delivery/DeliveryWriter.js"
import type { DispatchBatch, ReceiptRecord, SentRecord } from "../src/ports/DispatchStore.js"
import { DispatchStore } from "../src/ports/DispatchStore.js"

const P = "00000000-0000-4000-8000-00000000000a"

/** A store whose `apply` records batches; the first `hold` applies wait for `release`. */
const recordingStore = (hold = 0) =>
  Effect.gen(function*() {
    const batches: Array<DispatchBatch> = []
    const events: Array<string> = []
    const release = yield* Deferred.make<void>()
    let held = 0
    const store = Layer.succeed(
      DispatchStore,
      {
        apply: (batch) =>
          Effect.gen(function*() {
            events.push(`apply ${batches.length}`)
            if (held++ < hold) yield* Deferred.await(release)
            batches.push(batch)
            events.push(`commit ${batches.length - 1}`)
            return { receiptsMatched: 0, receiptsPending: 0, optedOut: 0 }
          })
      } as DispatchStore["Type"]
    )
    return { batches, events, release, store }
  })

const writerWith = (store: Layer.Layer<DispatchStore>, flushDelayMs: number) =>
  layerWriter.pipe(Layer.provide(store), Layer.provide(DeliveryConfig.layer({ flushDelayMs, flushConcurrency: 2 })))

const sent = (messageId: string, ids: ReadonlyArray<string | null>, over: Partial<SentRecord> = {}): SentRecord => ({
  messageId,
  providerId: P,
  parts: ids.map((id, index) => ({
    index,
    providerMessageId: id,
    ref: id,
    state: id === null ? "unknown" : "enroute"
  })),
  failureReason: null,
  unknown: null,
  ...over
})

const receipt = (candidates: ReadonlyArray<string>, state: ReceiptRecord["state"] = "delivered"): ReceiptRecord => ({
  providerId: P,
  candidates,
  state,
  deliveryStatus: state === "delivered" ? "DELIVRD" : state === "failed" ? "UNDELIV" : "ENROUTE",
  errorCode: null,
  failureReason: state === "failed" ? "Delivery failed." : null,
  receivedAt: new Date()
})

/** Pushes `f` records and answers once every callback ran. */
const pushAll = (pushes: ReadonlyArray<(w: DeliveryWriter["Type"], done: () => void) => void>) =>
  Effect.gen(function*() {
    const writer = yield* DeliveryWriter
    const all = yield* Deferred.make<void>()
    let left = pushes.length
    for (const p of pushes) p(writer, () => void (--left === 0 && Deferred.unsafeDone(all, Effect.void)))
    yield* Deferred.await(all)
  })

it.live("a final receipt of a single-part message still waiting for its write joins its sent record", () =>
  Effect.gen(function*() {
    const { batches, events, store } = yield* recordingStore()
    yield* Effect.gen(function*() {
      yield* pushAll([
        (w, done) => w.push("sent", sent("m1", ["2a"]), () => (events.push("sent done"), done())),
        (w, done) => w.push("receipts", receipt(["2a", "42"]), () => (events.push("receipt done"), done()))
      ])
      const w = yield* DeliveryWriter
      expect(w.stats.joined).toBe(1)
    }).pipe(Effect.provide(writerWith(store, 30)))
    expect(batches).toHaveLength(1)
    expect(batches[0]!.receipts).toEqual([])
    expect(batches[0]!.sent[0]!.receipt).toEqual({ state: "delivered", deliveryStatus: "DELIVRD", failureReason: null })
    // acknowledged only once committed
    expect(events).toEqual(["apply 0", "commit 0", "sent done", "receipt done"])
  }))

it.live("no join for an intermediate receipt, a multi-part or unknown outcome, or an id in another format", () =>
  Effect.gen(function*() {
    const { batches, store } = yield* recordingStore()
    yield* pushAll([
      (w, done) => w.push("sent", sent("m1", ["a1"]), done),
      (w, done) => w.push("receipts", receipt(["a1"], "enroute"), done),
      (w, done) => w.push("sent", sent("m2", ["b1", "b2"]), done),
      (w, done) => w.push("receipts", receipt(["b1"]), done),
      (w, done) =>
        w.push("sent", sent("m3", ["c1"], { unknown: { reference: "m3", reason: "?", deadline: new Date() } }), done),
      (w, done) => w.push("receipts", receipt(["c1"]), done),
      (w, done) => w.push("sent", sent("m4", ["1f"]), done),
      (w, done) => w.push("receipts", receipt(["31", "1f"]), done)
    ]).pipe(Effect.provide(writerWith(store, 30)))
    expect(batches).toHaveLength(1)
    expect(batches[0]!.sent.every((r) => r.receipt === undefined)).toBe(true)
    expect(batches[0]!.receipts.map((r) => r.candidates[0])).toEqual(["a1", "b1", "c1", "31"])
  }))

it.live("a receipt for a part whose write is in progress waits for its commit, in the next transaction", () =>
  Effect.gen(function*() {
    const { batches, events, release, store } = yield* recordingStore(1)
    yield* Effect.gen(function*() {
      const writer = yield* DeliveryWriter
      const sentDone = yield* Deferred.make<void>()
      writer.push("sent", sent("m1", ["2a"]), () => Deferred.unsafeDone(sentDone, Effect.void))
      // the first transaction is now held open
      while (events.length === 0) yield* Effect.sleep("5 millis")
      const receiptDone = yield* Deferred.make<void>()
      writer.push("receipts", receipt(["2a"]), () => {
        events.push("receipt done")
        Deferred.unsafeDone(receiptDone, Effect.void)
      })
      yield* Effect.sleep("50 millis")
      expect(events).toEqual(["apply 0"])
      yield* Deferred.succeed(release, undefined)
      yield* Deferred.await(sentDone)
      yield* Deferred.await(receiptDone)
    }).pipe(Effect.provide(writerWith(store, 1)))
    expect(batches.map((b) => [b.sent.length, b.receipts.length])).toEqual([[1, 0], [0, 1]])
    expect(events).toEqual(["apply 0", "commit 0", "apply 1", "commit 1", "receipt done"])
  }))

it.live("closing while records keep coming: the close ends, and every record pushed before it is written", () =>
  Effect.gen(function*() {
    // each write takes 5 ms and a record comes every millisecond, so a flush is always in flight
    let committed = 0
    let pushed = 0
    const store = Layer.succeed(
      DispatchStore,
      {
        apply: (batch: DispatchBatch) =>
          Effect.sleep("5 millis").pipe(
            Effect.as({ receiptsMatched: 0, receiptsPending: 0, optedOut: 0, inbound: batch.inbound.length })
          )
      } as unknown as DispatchStore["Type"]
    )
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(writerWith(store, 1), scope)
    const writer = Context.get(context, DeliveryWriter)
    const producer = yield* Effect.sync(() => {
      pushed++
      writer.push("receipts", receipt([`r${pushed}`]), () => void committed++)
    }).pipe(Effect.zipRight(Effect.sleep("1 millis")), Effect.forever, Effect.fork)
    yield* Effect.sleep("300 millis")
    const pushedBeforeClose = pushed
    const closed = yield* Scope.close(scope, Exit.void).pipe(Effect.timeout("5 seconds"), Effect.option)
    yield* Fiber.interrupt(producer)
    expect(closed._tag).toBe("Some")
    expect(pushedBeforeClose).toBeGreaterThan(50)
    expect(committed).toBeGreaterThanOrEqual(pushedBeforeClose)
  }))
