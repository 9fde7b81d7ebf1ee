/**
 * Dispatch workers: drain `dispatch_queue`, route each message to a provider, record every outcome.
 *
 * - Claim: batches leased with FOR UPDATE SKIP LOCKED (`DispatchStore.claim`); a crashed worker's
 *   lease runs out and the rows are claimed again. Wake-ups from `DispatchWakeups` (pg_notify),
 *   polling every `pollIntervalMs` as a fallback.
 * - Routing (decisions §20, §21): the market's routes in priority order; a provider without credit
 *   is skipped (credit is reserved per claimed batch, given back when not accepted); failover only
 *   after a transient `NotAccepted`; a permanent one fails the message with a refund; `Unknown`
 *   keeps the reference and waits for reconciliation (receipt, status query, or `unknownTimeoutMs`
 *   after which it fails without a refund and is never re-sent elsewhere). When every route answered
 *   transiently the message goes back to the queue with backoff, and fails with a refund after
 *   `giveUpAfterMs`.
 * - A per-provider `maxPerSecond` is enforced across every process by slots reserved in the store.
 * - Every state change goes through the `DeliveryWriter`: outcomes are grouped and written in one
 *   transaction per flush; a message's worker slot (and a receipt's acknowledgement to the carrier)
 *   is released only after its transaction committed.
 * - Scheduled messages move to `queued` when due (`promoteScheduled` runs at start and every
 *   `scheduleIntervalMs`, so a moment missed during a restart is caught up at once).
 */
import type { Scope } from "effect"
import { Cause, Clock, Context, Deferred, Effect, FiberId, FiberSet, Layer, Queue, Schedule } from "effect"
import { hostname } from "node:os"
import type { OutboundSms, Provider, ProviderEvent } from "../ports/Provider.js"
import { ProviderEventSink, Providers } from "../ports/Provider.js"
import type {
  ClaimedMessage,
  CreditReturn,
  DispatchBatch,
  FailRecord,
  LateAcceptanceRecord,
  OptOutRecord,
  ReceiptRecord,
  RequeueRecord,
  RouteRow,
  SentRecord
} from "./DispatchStore.js"
import { DispatchStore, DispatchWakeups } from "./DispatchStore.js"
import { describeReceiptFailure, normalizeRef, refCandidates } from "./ProviderRef.js"

export interface DeliveryOptions {
  /** Messages a worker process holds at once (submitting or waiting for their write). */
  readonly maxInFlight: number
  /** Rows per claim. */
  readonly claimBatch: number
  /** How long a claim is leased; must exceed the longest submit (throttling included). */
  readonly leaseMs: number
  readonly pollIntervalMs: number
  /** Outcomes gathered this long before a write (group commit). */
  readonly flushDelayMs: number
  /** Writes (transactions) in progress at once; 1 keeps them strictly in order. */
  readonly flushConcurrency: number
  readonly scheduleIntervalMs: number
  readonly reconcileIntervalMs: number
  /** An `Unknown` submit not confirmed by then fails (no refund). */
  readonly unknownTimeoutMs: number
  readonly retryBaseMs: number
  readonly retryMaxMs: number
  /** Transient refusals on every route keep a message queued this long, then it fails (refund). */
  readonly giveUpAfterMs: number
  readonly routesRefreshMs: number
  /** Pending receipts nobody matched are dropped after this long. */
  readonly pendingReceiptTtlMs: number
  /** How often receipts that came before their part are matched again. */
  readonly pendingSweepMs: number
  /** Run the claim loop (false: only receipts, schedules and reconciliation). */
  readonly dispatch: boolean
}

export const defaultDeliveryOptions: DeliveryOptions = {
  maxInFlight: 2000,
  claimBatch: 1000,
  leaseMs: 120_000,
  pollIntervalMs: 1000,
  flushDelayMs: 2,
  flushConcurrency: 3,
  scheduleIntervalMs: 1000,
  reconcileIntervalMs: 5000,
  unknownTimeoutMs: 15 * 60_000,
  retryBaseMs: 1000,
  retryMaxMs: 60_000,
  giveUpAfterMs: 60 * 60_000,
  routesRefreshMs: 10_000,
  pendingReceiptTtlMs: 7 * 24 * 3600_000,
  pendingSweepMs: 500,
  dispatch: true
}

export class DeliveryConfig extends Context.Reference<DeliveryConfig>()("@tuma/core/DeliveryConfig", {
  defaultValue: () => defaultDeliveryOptions
}) {
  static readonly layer = (options: Partial<DeliveryOptions>) =>
    Layer.succeed(DeliveryConfig, { ...defaultDeliveryOptions, ...options })
}

/** Words that opt a handset out when it sends them (trimmed, any case). */
export const STOP_WORDS: ReadonlySet<string> = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"])
export const isStopRequest = (text: string): boolean => STOP_WORDS.has(text.trim().toUpperCase().replace(/[.!]+$/, ""))

// ---------------------------------------------------------------------------------------------
// The writer: group commit of every state change
// ---------------------------------------------------------------------------------------------

interface Buffer {
  sent: Array<SentRecord>
  failed: Array<FailRecord>
  requeued: Array<RequeueRecord>
  creditReturns: Array<CreditReturn>
  receipts: Array<ReceiptRecord>
  lateAcceptances: Array<LateAcceptanceRecord>
  optOuts: Array<OptOutRecord>
  size: number
  readonly done: Deferred.Deferred<void>
}

const newBuffer = (): Buffer => ({
  sent: [],
  failed: [],
  requeued: [],
  creditReturns: [],
  receipts: [],
  lateAcceptances: [],
  optOuts: [],
  size: 0,
  done: Deferred.unsafeMake<void>(FiberId.none)
})

type Key = Exclude<keyof Buffer, "size" | "done">
type Item<K extends Key> = Buffer[K][number]

export interface DeliveryWriterStats {
  flushes: number
  records: number
  applyMs: number
  lastError: string | null
}

/** Totals of the writers of this process (benchmarks print them). */
export const writerStats: DeliveryWriterStats = { flushes: 0, records: 0, applyMs: 0, lastError: null }

export class DeliveryWriter extends Context.Tag("@tuma/core/DeliveryWriter")<DeliveryWriter, {
  readonly owner: string
  /** Queues a record; the effect completes once the transaction holding it committed. */
  readonly write: <K extends Key>(key: K, item: Item<K>) => Effect.Effect<void>
  /** Queues a record now (side effect), without waiting for its commit. */
  readonly unsafePush: <K extends Key>(key: K, item: Item<K>) => void
  readonly stats: DeliveryWriterStats
}>() {}

const MAX_FLUSH = 5000

export const layerWriter: Layer.Layer<DeliveryWriter, never, DispatchStore> = Layer.scoped(
  DeliveryWriter,
  Effect.gen(function*() {
    const store = yield* DispatchStore
    const cfg = yield* DeliveryConfig
    const owner = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`
    const stats = writerStats
    let current = newBuffer()
    const wake = yield* Queue.sliding<void>(1)

    // Flushes may overlap (`flushConcurrency`); a record that depends on one still being written
    // (a receipt for a part being recorded, a late answer for a message being recorded) waits for it.
    const pendingKeys = new Map<string, Deferred.Deferred<void>>()
    const partKey = (providerId: string, ref: string) => `${providerId}\u0001${ref}`

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
          optOuts: b.optOuts
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
        Effect.ensuring(Effect.suspend(() => {
          for (const r of b.sent) {
            pendingKeys.delete(`m:${r.messageId}`)
            for (const p of r.parts) if (p.ref !== null) pendingKeys.delete(partKey(r.providerId, p.ref))
          }
          return Deferred.succeed(b.done, undefined)
        }))
      )

    /** Takes the current buffer (registering what it records) for one flush. */
    const takeBuffer = (): Buffer | null => {
      const b = current
      if (b.size === 0) return null
      current = newBuffer()
      for (const r of b.sent) {
        pendingKeys.set(`m:${r.messageId}`, b.done)
        for (const p of r.parts) if (p.ref !== null) pendingKeys.set(partKey(r.providerId, p.ref), b.done)
      }
      return b
    }

    const permits = yield* Effect.makeSemaphore(Math.max(1, cfg.flushConcurrency))
    const scope = yield* Effect.scope
    yield* Effect.gen(function*() {
      while (true) {
        yield* Queue.take(wake)
        if (cfg.flushDelayMs > 0 && current.size < MAX_FLUSH) yield* Effect.sleep(cfg.flushDelayMs)
        yield* permits.take(1)
        const b = takeBuffer()
        if (b === null) {
          yield* permits.release(1)
          continue
        }
        yield* Effect.forkIn(applyBuffer(b).pipe(Effect.ensuring(permits.release(1))), scope)
      }
    }).pipe(Effect.interruptible, Effect.forkScoped)
    yield* Effect.addFinalizer(() =>
      permits.withPermits(Math.max(1, cfg.flushConcurrency))(
        Effect.suspend(() => {
          const b = takeBuffer()
          return b === null ? Effect.void : applyBuffer(b)
        })
      ).pipe(Effect.ignore)
    )

    const unsafePush = <K extends Key>(key: K, item: Item<K>): Buffer => {
      const b = current
      ;(b[key] as Array<Item<K>>).push(item)
      b.size++
      if (b.size === 1 || b.size >= MAX_FLUSH) Queue.unsafeOffer(wake, undefined)
      return b
    }
    const dependencies = <K extends Key>(key: K, item: Item<K>): Array<Deferred.Deferred<void>> => {
      const out: Array<Deferred.Deferred<void>> = []
      if (key === "receipts") {
        const r = item as ReceiptRecord
        for (const c of r.candidates) {
          const d = pendingKeys.get(partKey(r.providerId, c))
          if (d !== undefined) out.push(d)
        }
      } else if (key === "lateAcceptances") {
        const d = pendingKeys.get(`m:${(item as LateAcceptanceRecord).messageId}`)
        if (d !== undefined) out.push(d)
      }
      return out
    }
    const write = <K extends Key>(key: K, item: Item<K>): Effect.Effect<void> =>
      Effect.suspend(() => {
        const deps = dependencies(key, item)
        if (deps.length === 0) return Deferred.await(unsafePush(key, item).done)
        return Effect.forEach(deps, Deferred.await, { discard: true }).pipe(
          Effect.zipRight(Effect.suspend(() => Deferred.await(unsafePush(key, item).done)))
        )
      })

    return { owner, write, unsafePush: (key, item) => void unsafePush(key, item), stats }
  })
)

// ---------------------------------------------------------------------------------------------
// What carriers report (receipts, MO, late answers) -> the writer
// ---------------------------------------------------------------------------------------------

export const layerEventSink: Layer.Layer<ProviderEventSink, never, DeliveryWriter | DispatchStore> = Layer.effect(
  ProviderEventSink,
  Effect.gen(function*() {
    const writer = yield* DeliveryWriter
    const store = yield* DispatchStore
    let ids = new Map((yield* store.providers).map((p) => [p.name, p.id] as const))
    const idOf = (name: string) =>
      Effect.gen(function*() {
        const known = ids.get(name)
        if (known !== undefined) return known
        ids = new Map((yield* store.providers).map((p) => [p.name, p.id] as const))
        return ids.get(name)
      })
    const handle = (event: ProviderEvent): Effect.Effect<void> =>
      Effect.gen(function*() {
        const providerId = yield* idOf(event.providerId)
        if (providerId === undefined) {
          return yield* Effect.logWarning(`event from unknown provider ${event.providerId} ignored`)
        }
        switch (event._tag) {
          case "DeliveryReport":
            return yield* writer.write("receipts", {
              providerId,
              candidates: refCandidates(event.providerMessageId),
              state: event.state,
              deliveryStatus: event.deliveryStatus,
              errorCode: event.errorCode,
              failureReason: event.state === "failed"
                ? describeReceiptFailure(event.deliveryStatus, event.errorCode)
                : null,
              receivedAt: event.receivedAt
            })
          case "LateAcceptance":
            return yield* writer.write("lateAcceptances", {
              providerId,
              messageId: event.reference,
              partIndex: event.partIndex,
              providerMessageId: event.providerMessageId,
              ref: normalizeRef(event.providerMessageId)
            })
          case "InboundMessage":
            if (!isStopRequest(event.text)) {
              return yield* Effect.logInfo(`inbound message from ${event.from} to ${event.to} (not a STOP)`)
            }
            return yield* writer.write("optOuts", {
              providerId,
              recipient: event.from,
              to: event.to,
              text: event.text.trim(),
              receivedAt: event.receivedAt
            })
        }
      })
    return { handle }
  })
)

// ---------------------------------------------------------------------------------------------
// The dispatcher
// ---------------------------------------------------------------------------------------------

interface Gate {
  readonly take: (n: number) => Effect.Effect<void>
}

export interface DispatcherStats {
  claimed: number
  sent: number
  failed: number
  requeued: number
  unknown: number
}

export const dispatcherStats: DispatcherStats = { claimed: 0, sent: 0, failed: 0, requeued: 0, unknown: 0 }

/** Runs the workers of this process until interrupted. */
export const runDispatcher: Effect.Effect<
  never,
  never,
  DispatchStore | DispatchWakeups | Providers | DeliveryWriter | Scope.Scope
> = Effect.gen(function*() {
  const store = yield* DispatchStore
  const wakeups = yield* DispatchWakeups
  const providers = yield* Providers
  const writer = yield* DeliveryWriter
  const cfg = yield* DeliveryConfig
  const fibers = yield* FiberSet.make()
  const stats = dispatcherStats

  let routesByMarket = new Map<string, ReadonlyArray<RouteRow>>()
  let nameById = new Map<string, string>()
  const loadRoutes = Effect.gen(function*() {
    const rows = yield* store.routes
    const by = new Map<string, Array<RouteRow>>()
    for (const r of rows) {
      if (providers.get(r.providerName) === undefined) continue
      const list = by.get(r.marketId) ?? []
      list.push(r)
      by.set(r.marketId, list)
    }
    routesByMarket = by
    nameById = new Map((yield* store.providers).map((p) => [p.id, p.name] as const))
  })
  yield* loadRoutes
  yield* loadRoutes.pipe(
    Effect.catchAllCause((c) => Effect.logWarning("route refresh failed", c)),
    Effect.repeat(Schedule.spaced(cfg.routesRefreshMs)),
    Effect.delay(cfg.routesRefreshMs),
    Effect.forkScoped
  )

  const now = Effect.map(Clock.currentTimeMillis, (t) => new Date(t))

  const gates = new Map<string, Gate>()
  const gateFor = (route: RouteRow): Gate | null => {
    if (route.maxPerSecond === null || route.maxPerSecond <= 0) return null
    const existing = gates.get(route.providerId)
    if (existing !== undefined) return existing
    const perSecond = route.maxPerSecond
    const spacing = 1000 / perSecond
    const chunk = Math.max(1, Math.ceil(perSecond / 20))
    let slots: Array<number> = []
    const lock = Effect.unsafeMakeSemaphore(1)
    const gate: Gate = {
      take: (n) =>
        lock.withPermits(1)(Effect.gen(function*() {
          let last = 0
          for (let k = 0; k < n; k++) {
            const t = Date.now()
            while (slots.length > 0 && slots[0]! < t - spacing) slots.shift()
            if (slots.length === 0) {
              const delay = yield* store.reserveSlots(route.providerId, chunk, perSecond)
              const t0 = Date.now() + delay
              slots = Array.from({ length: chunk }, (_, i) => t0 + i * spacing)
            }
            last = slots.shift()!
          }
          const wait = last - Date.now()
          if (wait > 0) yield* Effect.sleep(wait)
        }))
    }
    gates.set(route.providerId, gate)
    return gate
  }

  /** Per claimed batch: reserve provider credit per market, route by route; -1 = no credit anywhere. */
  const assignCredit = (batch: ReadonlyArray<ClaimedMessage>, at: Date) =>
    Effect.gen(function*() {
      const assigned = new Map<string, number>()
      const byMarket = new Map<string, Array<ClaimedMessage>>()
      for (const m of batch) {
        const list = byMarket.get(m.marketId) ?? []
        list.push(m)
        byMarket.set(m.marketId, list)
      }
      for (const [market, msgs] of byMarket) {
        const routes = routesByMarket.get(market) ?? []
        let remaining = msgs
        for (let i = 0; i < routes.length && remaining.length > 0; i++) {
          const route = routes[i]!
          const demand = remaining.reduce((s, m) => s + m.units, 0)
          let granted = demand === 0 ? 0 : yield* store.reserveCredit(route.providerId, market, demand, at)
          const left: Array<ClaimedMessage> = []
          for (const m of remaining) {
            if (m.units <= granted) {
              assigned.set(m.id, i)
              granted -= m.units
            } else left.push(m)
          }
          if (granted > 0) {
            writer.unsafePush("creditReturns", { providerId: route.providerId, marketId: market, units: granted })
          }
          remaining = left
        }
        for (const m of remaining) assigned.set(m.id, -1)
      }
      return assigned
    })

  const fail = (m: ClaimedMessage, code: string, reason: string, refund: boolean) => {
    stats.failed++
    return writer.write("failed", { messageId: m.id, code, reason, refund })
  }

  const process1 = (m: ClaimedMessage, assigned: number): Effect.Effect<void> =>
    Effect.gen(function*() {
      const routes = routesByMarket.get(m.marketId) ?? []
      if (routes.length === 0) {
        return yield* fail(m, "NO_PROVIDER_ROUTE", `Not sent: there is no carrier route to ${m.country}.`, true)
      }
      if (assigned < 0) {
        return yield* fail(
          m,
          "PROVIDER_CREDIT_EXHAUSTED",
          `Not sent: no carrier has credit left for ${m.country}.`,
          true
        )
      }
      const sms: OutboundSms = {
        messageId: m.id,
        recipient: m.recipient,
        senderId: m.senderId,
        text: m.text,
        encoding: m.encoding
      }
      let last: { code: string; reason: string } | null = null
      for (let i = assigned; i < routes.length; i++) {
        const route = routes[i]!
        if (i > assigned) {
          const granted = m.units === 0
            ? 0
            : yield* store.reserveCredit(route.providerId, m.marketId, m.units, yield* now)
          if (granted < m.units) {
            if (granted > 0) {
              writer.unsafePush("creditReturns", { providerId: route.providerId, marketId: m.marketId, units: granted })
            }
            continue
          }
        }
        const provider = providers.get(route.providerName) as Provider
        const gate = gateFor(route)
        if (gate !== null) yield* gate.take(provider.partCount(sms))
        const out = yield* provider.submit(sms)
        switch (out._tag) {
          case "Accepted": {
            stats.sent++
            const refused = new Map(out.refusedParts.map((p) => [p.index, p.reason] as const))
            return yield* writer.write("sent", {
              messageId: m.id,
              providerId: route.providerId,
              parts: out.providerMessageIds.map((id, index) => ({
                index,
                providerMessageId: id,
                ref: id === null ? null : normalizeRef(id),
                state: id === null || refused.has(index) ? "failed" as const : "enroute" as const
              })),
              failureReason: out.refusedParts.length > 0 ? out.refusedParts[0]!.reason : null,
              unknown: null
            })
          }
          case "Unknown": {
            stats.unknown++
            const at = yield* now
            return yield* writer.write("sent", {
              messageId: m.id,
              providerId: route.providerId,
              parts: out.providerMessageIds.map((id, index) => ({
                index,
                providerMessageId: id,
                ref: id === null ? null : normalizeRef(id),
                state: id === null ? "unknown" as const : "enroute" as const
              })),
              failureReason: null,
              unknown: {
                reference: out.reference,
                reason: out.reason,
                deadline: new Date(at.getTime() + cfg.unknownTimeoutMs)
              }
            })
          }
          case "NotAccepted": {
            writer.unsafePush("creditReturns", { providerId: route.providerId, marketId: m.marketId, units: m.units })
            if (!out.transient) return yield* fail(m, out.code, out.reason, true)
            last = { code: out.code, reason: out.reason }
          }
        }
      }
      if (last === null) {
        return yield* fail(
          m,
          "PROVIDER_CREDIT_EXHAUSTED",
          `Not sent: no carrier has credit left for ${m.country}.`,
          true
        )
      }
      const at = yield* now
      const age = at.getTime() - (m.queuedAt ?? m.createdAt).getTime()
      if (age >= cfg.giveUpAfterMs) {
        return yield* fail(
          m,
          last.code,
          `${last.reason} Gave up after ${Math.round(age / 60_000)} minutes of retries.`,
          true
        )
      }
      stats.requeued++
      const delay = Math.min(cfg.retryBaseMs * 2 ** Math.max(0, m.attempts - 1), cfg.retryMaxMs)
      return yield* writer.write("requeued", {
        messageId: m.id,
        availableAt: new Date(at.getTime() + delay),
        lastError: last.reason
      })
    })

  // -- the claim loop ----------------------------------------------------------------------------
  let inFlight = 0
  const freed = yield* Queue.sliding<void>(1)
  const release = Effect.sync(() => {
    inFlight--
    Queue.unsafeOffer(freed, undefined)
  })
  const claimLoop = Effect.gen(function*() {
    while (true) {
      const free = cfg.maxInFlight - inFlight
      if (free < Math.max(1, Math.min(cfg.claimBatch, cfg.maxInFlight) / 2)) {
        yield* Queue.take(freed)
        continue
      }
      const at = yield* now
      const batch = yield* store.claim({
        owner: writer.owner,
        limit: Math.min(free, cfg.claimBatch),
        now: at,
        leaseUntil: new Date(at.getTime() + cfg.leaseMs)
      })
      if (batch.length === 0) {
        yield* Effect.raceFirst(wakeups.next, Effect.sleep(cfg.pollIntervalMs))
        continue
      }
      stats.claimed += batch.length
      inFlight += batch.length
      const assigned = yield* assignCredit(batch, at).pipe(
        Effect.onError(() => Effect.sync(() => void (inFlight -= batch.length)))
      )
      for (const m of batch) {
        yield* FiberSet.run(
          fibers,
          process1(m, assigned.get(m.id) ?? -1).pipe(
            Effect.catchAllCause((cause) =>
              Effect.logError(`dispatch of ${m.id} failed; it is retried when its lease ends`, cause)
            ),
            Effect.ensuring(release)
          )
        )
      }
    }
  })
  const forever = <A, E, R>(name: string, eff: Effect.Effect<A, E, R>) =>
    eff.pipe(
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.failCause(cause)
          : Effect.logError(`${name} failed; restarting`, cause).pipe(Effect.zipRight(Effect.sleep("1 second")))
      ),
      Effect.forever
    )
  if (cfg.dispatch) yield* forever("dispatch claim loop", claimLoop).pipe(Effect.forkScoped)

  // -- schedules ---------------------------------------------------------------------------------
  const promote = Effect.gen(function*() {
    while ((yield* store.promoteScheduled(yield* now, 1000)) === 1000) {
      // more are due: keep going
    }
  })
  yield* forever("scheduler", Effect.zipRight(promote, Effect.sleep(cfg.scheduleIntervalMs))).pipe(Effect.forkScoped)

  // -- reconciliation of unknown outcomes, pending receipts --------------------------------------
  const reconcile = Effect.gen(function*() {
    const at = yield* now
    const items = yield* store.dueReconciliations(at, 200, new Date(at.getTime() + 60_000))
    const unconfirmed: Array<{ messageId: string; reason: string }> = []
    for (const item of items) {
      const name = nameById.get(item.providerId)
      const provider = name === undefined ? undefined : providers.get(name)
      if (provider !== undefined && item.providerMessageIds.length > 0) {
        const answers = yield* Effect.forEach(item.providerMessageIds, (id) => provider.query(id))
        const found = answers.filter((a) => a._tag === "Found")
        if (found.length === answers.length && found.some((a) => a.state !== "enroute")) {
          yield* Effect.forEach(item.providerMessageIds, (id, i) => {
            const a = found[i]!
            return writer.write("receipts", {
              providerId: item.providerId,
              candidates: [normalizeRef(id)],
              state: a.state,
              deliveryStatus: a.deliveryStatus,
              errorCode: null,
              failureReason: a.state === "failed" ? describeReceiptFailure(a.deliveryStatus, null) : null,
              receivedAt: at
            })
          }, { discard: true })
          continue
        }
      }
      unconfirmed.push({
        messageId: item.messageId,
        reason: "Delivery unconfirmed: the carrier never confirmed it took the message and sent no delivery receipt."
      })
    }
    yield* store.failUnconfirmed(unconfirmed, at)
    yield* store.sweepPendingReceipts(at, new Date(at.getTime() - cfg.pendingReceiptTtlMs))
  })
  yield* forever("reconciler", Effect.zipRight(Effect.sleep(cfg.reconcileIntervalMs), reconcile)).pipe(
    Effect.forkScoped
  )
  // receipts that came before their part was recorded (another process, a late answer)
  yield* forever(
    "pending receipts",
    Effect.zipRight(Effect.sleep(cfg.pendingSweepMs), Effect.flatMap(now, store.matchPendingReceipts))
  ).pipe(Effect.forkScoped)

  return yield* Effect.never
})

/** The workers as a layer (they run for the life of the layer's scope). */
export const layerWorkers: Layer.Layer<
  never,
  never,
  DispatchStore | DispatchWakeups | Providers | DeliveryWriter
> = Layer.scopedDiscard(Effect.forkScoped(runDispatcher))

/**
 * Everything delivery needs on top of the store adapters: the writer, the event sink the providers
 * report to, the providers (built by `providers`, which may read the store), and the workers.
 */
export const layerDelivery = <E, R>(providers: Layer.Layer<Providers, E, R>) =>
  layerWorkers.pipe(
    Layer.provideMerge(providers),
    Layer.provideMerge(layerEventSink),
    Layer.provideMerge(layerWriter)
  )
