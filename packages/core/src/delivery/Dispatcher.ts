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
 *
 * Why one file of ~600 lines: the claim loop, its per-provider gates, the submit fan-out, the
 * retry/requeue decisions and the background sweeps (schedule promotion, reconcile, lease
 * take-over) share one in-flight budget and one set of fibers; split, each part would take the
 * others' state as parameters. The writer (`DeliveryWriter.ts`), the event sink (`EventSink.ts`)
 * and the settings (`DeliveryConfig.ts`) are their own modules.
 *
 * Why one file of ≈640 lines: the claim loop and its per-message path share the batch state
 * (leases, provider choice, credit gates); the writer and the event sink are separate modules.
 */
import type { Scope } from "effect"
import { Cause, Clock, Context, Effect, Exit, FiberSet, Layer, Queue, Schedule } from "effect"
import type { ClaimedMessage, FailRecord, RequeueRecord, RouteRow, SentRecord } from "../ports/DispatchStore.js"
import { DispatchStore, DispatchWakeups } from "../ports/DispatchStore.js"
import type { OutboundSms, Provider, SubmitOutcome } from "../ports/Provider.js"
import { Providers } from "../ports/Provider.js"
import { SettingsChanges } from "../ports/SettingsChanges.js"
import { DeliveryConfig } from "./DeliveryConfig.js"
import { DeliveryWriter, layerWriter } from "./DeliveryWriter.js"
import { layerEventSink } from "./EventSink.js"
import { describeReceiptFailure, normalizeRef } from "./ProviderRef.js"

// ---------------------------------------------------------------------------------------------
// The dispatcher
// ---------------------------------------------------------------------------------------------

interface Gate {
  readonly perSecond: number
  readonly take: (n: number) => Effect.Effect<void>
}

/** Totals of one dispatcher (counted on the hot path, outside Effect; benchmarks print them). */
export interface DispatcherStats {
  claimed: number
  sent: number
  failed: number
  requeued: number
  unknown: number
}

/** The totals of this layer's dispatcher (`layerWorkers` provides a fresh record). */
export class DispatcherCounts extends Context.Tag("@tuma/core/DispatcherCounts")<DispatcherCounts, DispatcherStats>() {}

/** A transient refusal: the next route is tried. */
interface Refusal {
  readonly code: string
  readonly reason: string
}

/** An outcome to record: what the writer is given for a message (its final or next state). */
type Write =
  | { readonly key: "sent"; readonly item: SentRecord }
  | { readonly key: "failed"; readonly item: FailRecord }
  | { readonly key: "requeued"; readonly item: RequeueRecord }

/** What a submit's outcome leads to: a record to write, or a refusal to fail over from. */
type Decision = Write | Refusal

const isWrite = (d: Decision): d is Write => "key" in d

const toSms = (m: ClaimedMessage): OutboundSms => ({
  messageId: m.id,
  recipient: m.recipient,
  senderId: m.senderId,
  text: m.text,
  encoding: m.encoding
})

/** `provider.submitMany`, or `submit` per message (a fiber each) for adapters without it. */
const submitAll = (
  provider: Provider,
  smses: ReadonlyArray<OutboundSms>,
  onOutcome: (index: number, outcome: Exit.Exit<SubmitOutcome>) => void
): Effect.Effect<void> =>
  provider.submitMany !== undefined
    ? provider.submitMany(smses, onOutcome)
    : Effect.forEach(
      smses,
      (sms, i) => Effect.exit(provider.submit(sms)).pipe(Effect.map((exit) => onOutcome(i, exit))),
      { concurrency: "unbounded", discard: true }
    )

/**
 * Runs the workers of this process until interrupted.
 *
 * What an outcome leads to is a value (`decide`, `exhausted`: a record to write or a refusal to
 * fail over from). The hot path has no fiber per message: a claimed batch is submitted per provider
 * with `submitMany`, each decision goes to the writer with `push`, and the message's slot is
 * released by the writer's commit callback. Failover after a transient refusal and rate-limited
 * routes run one fiber per message (`tryRoutes`), which waits for its write with `commit` (an
 * effect that completes once the transaction holding it committed).
 */
export const runDispatcher: Effect.Effect<
  never,
  never,
  DispatchStore | DispatchWakeups | Providers | DeliveryWriter | SettingsChanges | DispatcherCounts | Scope.Scope
> = Effect.gen(function*() {
  const store = yield* DispatchStore
  const wakeups = yield* DispatchWakeups
  const providers = yield* Providers
  const writer = yield* DeliveryWriter
  const settings = yield* SettingsChanges
  const cfg = yield* DeliveryConfig
  const clock = yield* Effect.clock
  const fibers = yield* FiberSet.make()
  const runInSet = yield* FiberSet.runtime(fibers)<never>()
  const stats = yield* DispatcherCounts

  /** A loaded route's provider (routes are loaded only for providers `providers` has). */
  const providerOf = (route: RouteRow): Provider => {
    const provider = providers.get(route.providerName)
    if (provider === undefined) throw new Error(`provider ${route.providerName} of a loaded route is not loaded`)
    return provider
  }
  let routesByMarket = new Map<string, ReadonlyArray<RouteRow>>()
  let nameById = new Map<string, string>()
  const gates = new Map<string, Gate>()
  /** The settings version the providers and routes were loaded at (decisions §30). */
  let loadedVersion = ""
  const loadRoutes = Effect.gen(function*() {
    const rows = yield* store.routes
    const by = new Map<string, Array<RouteRow>>()
    for (const r of rows) {
      if (providers.get(r.providerName) === undefined) continue
      const list = by.get(r.marketId) ?? []
      list.push(r)
      by.set(r.marketId, list)
      // a changed limit takes a new gate (slots already reserved stay in the store's count)
      if (gates.get(r.providerId)?.perSecond !== r.maxPerSecond) gates.delete(r.providerId)
    }
    routesByMarket = by
    nameById = new Map((yield* store.providers).map((p) => [p.id, p.name] as const))
  })
  /** Providers (started, restarted, stopped) and routes as the store has them now. */
  const reloadLock = yield* Effect.makeSemaphore(1)
  const reload = reloadLock.withPermits(1)(Effect.gen(function*() {
    const version = yield* settings.version
    if (providers.reload !== undefined) yield* providers.reload
    yield* loadRoutes
    loadedVersion = version
  }))
  /** Reloads unless already at the store's version: a message claimed now is routed by what it was checked by. */
  const ensureCurrent = Effect.flatMap(settings.version, (v) => v === loadedVersion ? Effect.void : reload)
  yield* reload
  const changed = yield* settings.subscribe
  yield* changed.pipe(
    Effect.zipRight(reload),
    Effect.catchAllCause((c) => Effect.logWarning("settings reload failed", c)),
    Effect.forever,
    Effect.forkScoped
  )
  yield* reload.pipe(
    Effect.catchAllCause((c) => Effect.logWarning("route refresh failed", c)),
    Effect.repeat(Schedule.spaced(cfg.routesRefreshMs)),
    Effect.delay(cfg.routesRefreshMs),
    Effect.forkScoped
  )

  const now = Effect.map(Clock.currentTimeMillis, (t) => new Date(t))

  const gateFor = (route: RouteRow): Gate | null => {
    if (route.maxPerSecond === null || route.maxPerSecond <= 0) return null
    const existing = gates.get(route.providerId)
    if (existing !== undefined) return existing
    const perSecond = route.maxPerSecond
    const spacing = 1000 / perSecond
    const chunk = Math.max(1, Math.ceil(perSecond / 20))
    // One pacer per gate hands the reserved slots out: every waiter whose slots are due is released in
    // the same turn, so the rate does not depend on how fast the event loop turns. (A lock held across
    // a sleep per message released one message per turn or two, and dropped every slot more than one
    // spacing late, reserving and wasting a chunk per message: ~25-30/s against 200-250/s on a busy
    // worker, issue 9 item 15.) A slot whose moment passed while the worker was busy is still ours and
    // is used late; only slots older than `lateMs` are dropped, which bounds the catch-up burst.
    const lateMs = Math.max(100, 2 * spacing)
    let slots: Array<number> = []
    const waiters: Array<{ n: number; readonly resume: () => void }> = []
    let pacing = false
    const pace: Effect.Effect<void> = Effect.gen(function*() {
      while (true) {
        const step = yield* Effect.sync(() => {
          if (waiters.length === 0) {
            pacing = false
            return { _tag: "done" } as const
          }
          const t = Date.now()
          while (slots.length > 0 && slots[0]! < t - lateMs) slots.shift()
          while (waiters.length > 0 && slots.length > 0 && slots[0]! <= t) {
            slots.shift()
            const head = waiters[0]!
            if (--head.n <= 0) {
              waiters.shift()
              head.resume()
            }
          }
          if (waiters.length === 0) return { _tag: "next" } as const
          return slots.length === 0 ? { _tag: "reserve" } as const : { _tag: "wait", ms: slots[0]! - t } as const
        })
        if (step._tag === "done") return
        if (step._tag === "wait") yield* Effect.sleep(step.ms)
        else if (step._tag === "reserve") {
          const delay = yield* store.reserveSlots(route.providerId, chunk, perSecond).pipe(
            Effect.catchAllCause((cause) =>
              Effect.as(Effect.logWarning("send slot reservation failed; retrying", cause), null)
            )
          )
          if (delay === null) yield* Effect.sleep(1000)
          else {
            const t0 = Date.now() + delay
            slots = Array.from({ length: chunk }, (_, i) => t0 + i * spacing)
          }
        }
      }
    })
    const gate: Gate = {
      perSecond,
      take: (n) =>
        n <= 0 ? Effect.void : Effect.async<void>((resume) => {
          const waiter = { n, resume: () => resume(Effect.void) }
          waiters.push(waiter)
          if (!pacing) {
            pacing = true
            runInSet(pace)
          }
          return Effect.sync(() => {
            const i = waiters.indexOf(waiter)
            if (i >= 0) waiters.splice(i, 1)
          })
        })
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
            writer.push("creditReturns", { providerId: route.providerId, marketId: market, units: granted })
          }
          remaining = left
        }
        for (const m of remaining) assigned.set(m.id, -1)
      }
      return assigned
    })

  // -- outcomes: decisions are values; `commit` (an effect) or `push` (a commit callback, for the
  //    hot path without a fiber per message) hands them to the writer ---------------------------
  /** Queues `w`; `onCommit` runs once the transaction holding it committed. */
  const push = (w: Write, onCommit: () => void): void => {
    switch (w.key) {
      case "sent":
        return writer.push("sent", w.item, onCommit)
      case "failed":
        return writer.push("failed", w.item, onCommit)
      case "requeued":
        return writer.push("requeued", w.item, onCommit)
    }
  }
  /** Writes `w`; completes once the transaction holding it committed. */
  const commit = (w: Write): Effect.Effect<void> => Effect.async<void>((resume) => push(w, () => resume(Effect.void)))

  const fail = (m: ClaimedMessage, code: string, reason: string): Write => {
    stats.failed++
    return { key: "failed", item: { messageId: m.id, code, reason, refund: true } }
  }
  const noCredit = (m: ClaimedMessage): Write =>
    fail(m, "PROVIDER_CREDIT_EXHAUSTED", `Not sent: no carrier has credit left for ${m.country}.`)

  /** The `sent` record of `m` on `route`: a part per provider id, in the state `stateOf` gives it. */
  const sent = (
    m: ClaimedMessage,
    route: RouteRow,
    ids: ReadonlyArray<string | null>,
    stateOf: (id: string | null, index: number) => SentRecord["parts"][number]["state"],
    rest: Pick<SentRecord, "failureReason" | "unknown">
  ): Write => ({
    key: "sent",
    item: {
      messageId: m.id,
      providerId: route.providerId,
      parts: ids.map((id, index) => ({
        index,
        providerMessageId: id,
        ref: id === null ? null : normalizeRef(id),
        state: stateOf(id, index)
      })),
      ...rest
    }
  })

  /** What the outcome of `m` on `route` leads to (provider credit not used is given back at once). */
  const decide = (m: ClaimedMessage, route: RouteRow, out: SubmitOutcome): Decision => {
    switch (out._tag) {
      case "Accepted": {
        stats.sent++
        const refused = new Set(out.refusedParts.map((p) => p.index))
        return sent(m, route, out.providerMessageIds, (id, i) => id === null || refused.has(i) ? "failed" : "enroute", {
          failureReason: out.refusedParts.length > 0 ? out.refusedParts[0]!.reason : null,
          unknown: null
        })
      }
      case "Unknown": {
        stats.unknown++
        return sent(m, route, out.providerMessageIds, (id) => id === null ? "unknown" : "enroute", {
          failureReason: null,
          unknown: {
            reference: out.reference,
            reason: out.reason,
            deadline: new Date(clock.unsafeCurrentTimeMillis() + cfg.unknownTimeoutMs)
          }
        })
      }
      case "NotAccepted": {
        writer.push("creditReturns", { providerId: route.providerId, marketId: m.marketId, units: m.units })
        return out.transient ? { code: out.code, reason: out.reason } : fail(m, out.code, out.reason)
      }
    }
  }

  /** Every route refused transiently (or had no credit): back to the queue with backoff, or failed. */
  const exhausted = (m: ClaimedMessage, last: Refusal | null): Write => {
    if (last === null) return noCredit(m)
    const at = clock.unsafeCurrentTimeMillis()
    const age = at - (m.queuedAt ?? m.createdAt).getTime()
    if (age >= cfg.giveUpAfterMs) {
      return fail(m, last.code, `${last.reason} Gave up after ${Math.round(age / 60_000)} minutes of retries.`)
    }
    stats.requeued++
    const delay = Math.min(cfg.retryBaseMs * 2 ** Math.max(0, m.attempts - 1), cfg.retryMaxMs)
    return { key: "requeued", item: { messageId: m.id, availableAt: new Date(at + delay), lastError: last.reason } }
  }

  /**
   * One message, one fiber: routes from `from` in order (credit reserved for those after `assigned`),
   * the route's rate limit, submit, record. Completes once the outcome is committed.
   */
  const tryRoutes = (
    m: ClaimedMessage,
    from: number,
    assigned: number,
    refusal: Refusal | null,
    claimedIn: number = generation
  ) =>
    Effect.gen(function*() {
      const routes = routesByMarket.get(m.marketId) ?? []
      const sms = toSms(m)
      let last = refusal
      for (let i = from; i < routes.length; i++) {
        const route = routes[i]!
        if (i > assigned) {
          const granted = m.units === 0
            ? 0
            : yield* store.reserveCredit(route.providerId, m.marketId, m.units, yield* now)
          if (granted < m.units) {
            if (granted > 0) {
              writer.push("creditReturns", { providerId: route.providerId, marketId: m.marketId, units: granted })
            }
            continue
          }
        }
        const provider = providerOf(route)
        const gate = gateFor(route)
        if (gate !== null) yield* gate.take(provider.partCount(sms))
        // taken over while it waited at the gate: another worker may have claimed it since, leave it to that one
        if (claimedIn !== generation) return
        const decision = decide(m, route, yield* provider.submit(sms))
        if (isWrite(decision)) return yield* commit(decision)
        last = decision
      }
      yield* commit(exhausted(m, last))
    })

  // -- liveness: take over the claims of dead workers (docs/delivery.md "Take-over") -------------
  /** Bumped when another worker took this one's claims over: what it claimed before is not submitted. */
  let generation = 0
  const beatEvery = Math.max(100, Math.floor(cfg.takeOverAfterMs / 5))
  let streakSince: number | null = null
  let lastBeat = 0
  const heartbeat = Effect.gen(function*() {
    const at = yield* now
    const t = at.getTime()
    // a gap (this process stalled, or the database was unreachable: the beat failed) starts a new
    // streak, so after an outage nobody is judged before it had the time to beat again
    if (streakSince === null || t - lastBeat > cfg.takeOverAfterMs / 2) streakSince = t
    const judge = t - streakSince >= cfg.takeOverAfterMs ? cfg.takeOverAfterMs : null
    const beat = yield* store.heartbeat(writer.owner, at, judge).pipe(
      Effect.tapErrorCause(() => Effect.sync(() => void (streakSince = null)))
    )
    if (!beat.registered && lastBeat !== 0) {
      generation++
      yield* Effect.logError(
        `delivery worker ${writer.owner} was taken for dead (silent for ${cfg.takeOverAfterMs} ms); ` +
          "the messages it holds and has not submitted are left to the worker that took them over"
      )
    }
    lastBeat = t
    if (beat.released > 0) {
      yield* Effect.logWarning(
        `took over ${beat.released} messages claimed by delivery workers silent for ${cfg.takeOverAfterMs} ms`
      )
      Queue.unsafeOffer(nudge, undefined)
    }
  })
  const nudge = yield* Queue.sliding<void>(1)

  // -- the claim loop ----------------------------------------------------------------------------
  let inFlight = 0
  /** The claim loop waits for this many free slots (half a batch): one wake-up, not one per message. */
  const claimAt = Math.max(1, Math.ceil(Math.min(cfg.claimBatch, cfg.maxInFlight) / 2))
  const freed = yield* Queue.sliding<void>(1)
  const release = () => {
    inFlight--
    if (cfg.maxInFlight - inFlight === claimAt) Queue.unsafeOffer(freed, undefined)
  }
  const guarded = (m: ClaimedMessage, eff: Effect.Effect<void>) =>
    eff.pipe(
      Effect.catchAllCause((cause) =>
        Effect.logError(`dispatch of ${m.id} failed; it is retried when its lease ends`, cause)
      ),
      Effect.ensuring(Effect.sync(release))
    )
  const failover = (m: ClaimedMessage, from: number, assigned: number, refusal: Refusal) =>
    void runInSet(guarded(m, tryRoutes(m, from, assigned, refusal)))

  /** One provider's share of a claimed batch, submitted at once; outcomes recorded as they come. */
  const submitGroup = (route: RouteRow, index: number, msgs: ReadonlyArray<ClaimedMessage>) => {
    const provider = providerOf(route)
    const settled = new Uint8Array(msgs.length)
    const onOutcome = (k: number, exit: Exit.Exit<SubmitOutcome>) => {
      if (settled[k] === 1) return
      settled[k] = 1
      const m = msgs[k]!
      const retryLater = (cause: unknown) => {
        runInSet(Effect.logError(`dispatch of ${m.id} failed; it is retried when its lease ends`, cause))
        release()
      }
      if (Exit.isFailure(exit)) return retryLater(exit.cause)
      let decision: Decision
      try {
        decision = decide(m, route, exit.value)
      } catch (e) {
        // a bug: logged, and its lease brings the message back
        return retryLater(e)
      }
      if (isWrite(decision)) push(decision, release)
      else failover(m, index + 1, index, decision)
    }
    return submitAll(provider, msgs.map(toSms), onOutcome).pipe(
      Effect.catchAllCause((cause) =>
        Effect.logError("dispatch of a batch failed; its messages are retried when their leases end", cause)
      ),
      // interrupted or died: whatever was not answered is released (its lease brings it back)
      Effect.ensuring(Effect.sync(() => {
        for (let k = 0; k < msgs.length; k++) {
          if (settled[k] === 0) {
            settled[k] = 1
            release()
          }
        }
      }))
    )
  }

  /** Routes a claimed batch: grouped by first route (unlimited ones at once), the rest one by one. */
  const dispatchBatch = (batch: ReadonlyArray<ClaimedMessage>, assigned: ReadonlyMap<string, number>) =>
    Effect.gen(function*() {
      const groups = new Map<RouteRow, { index: number; msgs: Array<ClaimedMessage> }>()
      for (const m of batch) {
        const routes = routesByMarket.get(m.marketId) ?? []
        const i = assigned.get(m.id) ?? -1
        if (routes.length === 0) {
          push(fail(m, "NO_PROVIDER_ROUTE", `Not sent: there is no carrier route to ${m.country}.`), release)
        } else if (i < 0) {
          push(noCredit(m), release)
        } else if (gateFor(routes[i]!) !== null) {
          yield* FiberSet.run(fibers, guarded(m, tryRoutes(m, i, i, null)))
        } else {
          const group = groups.get(routes[i]!)
          if (group === undefined) groups.set(routes[i]!, { index: i, msgs: [m] })
          else group.msgs.push(m)
        }
      }
      for (const [route, { index, msgs }] of groups) yield* FiberSet.run(fibers, submitGroup(route, index, msgs))
    })

  const claimLoop = Effect.gen(function*() {
    while (true) {
      const free = cfg.maxInFlight - inFlight
      if (free < claimAt) {
        yield* Queue.take(freed)
        continue
      }
      const at = yield* now
      const limit = Math.min(free, cfg.claimBatch)
      const batch = yield* store.claim({
        owner: writer.owner,
        limit,
        now: at,
        leaseUntil: new Date(at.getTime() + cfg.leaseMs)
      })
      if (batch.length === 0) {
        yield* Effect.raceAll([wakeups.next, Queue.take(nudge), Effect.sleep(cfg.pollIntervalMs)])
        continue
      }
      stats.claimed += batch.length
      inFlight += batch.length
      yield* ensureCurrent.pipe(Effect.onError(() => Effect.sync(() => void (inFlight -= batch.length))))
      const assigned = yield* assignCredit(batch, at).pipe(
        Effect.onError(() => Effect.sync(() => void (inFlight -= batch.length)))
      )
      yield* dispatchBatch(batch, assigned)
      // a short claim: let the stream of accepts fill the next one (DeliveryOptions.claimGatherMs)
      if (batch.length < limit && cfg.claimGatherMs > 0) yield* Effect.sleep(cfg.claimGatherMs)
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
  if (cfg.dispatch) {
    yield* forever("dispatch claim loop", claimLoop).pipe(Effect.forkScoped)
    yield* forever("heartbeat", Effect.zipRight(heartbeat, Effect.sleep(beatEvery))).pipe(Effect.forkScoped)
  }

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
  DispatcherCounts,
  never,
  DispatchStore | DispatchWakeups | Providers | DeliveryWriter | SettingsChanges
> = Layer.scoped(
  DispatcherCounts,
  Effect.gen(function*() {
    const stats: DispatcherStats = { claimed: 0, sent: 0, failed: 0, requeued: 0, unknown: 0 }
    yield* Effect.forkScoped(Effect.provideService(runDispatcher, DispatcherCounts, stats))
    return stats
  })
)

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
