/**
 * Routing and submitting a claimed batch (decisions §20, §21). Provider credit is reserved per batch,
 * market by market, route by route (`assignCredit`; what is not used is given back). Messages are
 * then grouped by their first route with credit: an unlimited route's group is submitted at once
 * (`submitMany`, no fiber per message; each outcome goes to the writer with `push` and the message's
 * in-flight slot is released by the writer's commit callback). A rate-limited route, and failover
 * after a transient refusal, run one fiber per message (`tryRoutes`), which waits at the route's
 * pacer and for its write to commit.
 */
import { Clock, Effect, Exit, FiberSet } from "effect"
import type { ClaimedMessage, DispatchStore, RouteRow } from "../ports/DispatchStore.js"
import type { OutboundSms, Provider, SubmitOutcome } from "../ports/Provider.js"
import type { DeliveryWriter } from "./DeliveryWriter.js"
import type { InFlight } from "./InFlight.js"
import type { Decision, Outcomes, Refusal, Write } from "./Outcomes.js"
import { isWrite } from "./Outcomes.js"
import type { Release } from "./Release.js"
import type { RouteTable } from "./RouteTable.js"

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

/** Hands a decision to the writer: `push` (a commit callback, for the hot path) or `commit` (an effect). */
export const outcomeWriter = (writer: DeliveryWriter["Type"]) => {
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
  return { push, commit }
}

/**
 * Per claimed batch: reserve provider credit per market, route by route (what a route granted beyond
 * what its messages use is given back at once); answers each message's route index, -1 = no credit anywhere.
 */
export const assignCredit = (
  store: Pick<DispatchStore["Type"], "reserveCredit">,
  routes: Pick<RouteTable, "routesOf">,
  returnCredit: (providerId: string, marketId: string, units: number) => void
) =>
(batch: ReadonlyArray<ClaimedMessage>, at: Date): Effect.Effect<ReadonlyMap<string, number>> =>
  Effect.gen(function*() {
    const assigned = new Map<string, number>()
    const byMarket = new Map<string, Array<ClaimedMessage>>()
    for (const m of batch) {
      const list = byMarket.get(m.marketId) ?? []
      list.push(m)
      byMarket.set(m.marketId, list)
    }
    for (const [market, msgs] of byMarket) {
      const marketRoutes = routes.routesOf(market)
      let remaining = msgs
      for (let i = 0; i < marketRoutes.length && remaining.length > 0; i++) {
        const route = marketRoutes[i]!
        const demand = remaining.reduce((s, m) => s + m.units, 0)
        let granted = demand === 0 ? 0 : yield* store.reserveCredit(route.providerId, market, demand, at)
        const left: Array<ClaimedMessage> = []
        for (const m of remaining) {
          if (m.units <= granted) {
            assigned.set(m.id, i)
            granted -= m.units
          } else left.push(m)
        }
        if (granted > 0) returnCredit(route.providerId, market, granted)
        remaining = left
      }
      for (const m of remaining) assigned.set(m.id, -1)
    }
    return assigned
  })

/** What the submitter works with. */
export interface SubmitterOptions {
  readonly store: Pick<DispatchStore["Type"], "reserveCredit">
  readonly writer: DeliveryWriter["Type"]
  readonly routes: RouteTable
  readonly outcomes: Outcomes
  readonly inFlight: InFlight
  /** The claim generation now (`Heartbeat.generation`): a message claimed in an older one is not submitted. */
  readonly generation: () => number
  readonly fibers: FiberSet.FiberSet
  readonly fork: (effect: Effect.Effect<void>) => void
  /** Gives back claims it will not settle (`Release.make`). */
  readonly release: Release
}

/** Routes and submits a claimed batch (claimed at `at`); its messages settle in the background. */
export type Dispatch = (batch: ReadonlyArray<ClaimedMessage>, at: Date) => Effect.Effect<void>

/** The submitter of one dispatcher. */
export const makeSubmitter = (options: SubmitterOptions): Dispatch => {
  const { fibers, fork, generation, inFlight, outcomes, release, routes, store, writer } = options
  const returnCredit = (providerId: string, marketId: string, units: number) =>
    writer.push("creditReturns", { providerId, marketId, units })
  const now = Effect.map(Clock.currentTimeMillis, (t) => new Date(t))

  const { commit, push } = outcomeWriter(writer)
  const assign = assignCredit(store, routes, returnCredit)

  /**
   * One message, one fiber: routes from `from` in order (credit reserved for those after `assigned`),
   * the route's rate limit, submit, record. Completes once the outcome is committed.
   */
  const tryRoutes = (
    m: ClaimedMessage,
    from: number,
    assigned: number,
    refusal: Refusal | null,
    claimedIn: number = generation()
  ) =>
    Effect.gen(function*() {
      const marketRoutes = routes.routesOf(m.marketId)
      const sms = toSms(m)
      let last = refusal
      for (let i = from; i < marketRoutes.length; i++) {
        const route = marketRoutes[i]!
        if (i > assigned) {
          const granted = m.units === 0
            ? 0
            : yield* store.reserveCredit(route.providerId, m.marketId, m.units, yield* now)
          if (granted < m.units) {
            if (granted > 0) returnCredit(route.providerId, m.marketId, granted)
            continue
          }
        }
        const provider = routes.providerOf(route)
        const pacer = routes.pacerOf(route)
        if (pacer !== null) yield* pacer.take(provider.partCount(sms))
        // taken over while it waited at the pacer: another worker may have claimed it since, leave it to that one
        if (claimedIn !== generation()) return
        const decision = outcomes.decide(m, route, yield* provider.submit(sms))
        if (isWrite(decision)) return yield* commit(decision)
        last = decision
      }
      yield* commit(outcomes.exhausted(m, last))
    })

  // a failure on the way (the store's credit, a bug): the claim is given back, claimable a second
  // after the store took it (not in a tight loop)
  const guarded = (m: ClaimedMessage, eff: Effect.Effect<void>) =>
    eff.pipe(
      Effect.catchAllCause((cause) =>
        Effect.zipRight(
          Effect.logError(`dispatch of ${m.id} failed; it is given back to the queue`, cause),
          Effect.sync(() => release({ messageIds: [m.id] }, 1000))
        )
      ),
      Effect.ensuring(Effect.sync(inFlight.release))
    )
  const failover = (m: ClaimedMessage, from: number, assigned: number, refusal: Refusal) =>
    fork(guarded(m, tryRoutes(m, from, assigned, refusal)))

  /** One provider's share of a claimed batch, submitted at once; outcomes recorded as they come. */
  const submitGroup = (route: RouteRow, index: number, msgs: ReadonlyArray<ClaimedMessage>) => {
    const provider = routes.providerOf(route)
    const settled = new Uint8Array(msgs.length)
    const onOutcome = (k: number, exit: Exit.Exit<SubmitOutcome>) => {
      if (settled[k] === 1) return
      settled[k] = 1
      const m = msgs[k]!
      const retryLater = (cause: unknown) => {
        fork(Effect.logError(`dispatch of ${m.id} failed; it is retried when its lease ends`, cause))
        inFlight.release()
      }
      if (Exit.isFailure(exit)) return retryLater(exit.cause)
      let decision: Decision
      try {
        decision = outcomes.decide(m, route, exit.value)
      } catch (e) {
        // a bug: logged, and its lease brings the message back
        return retryLater(e)
      }
      if (isWrite(decision)) push(decision, inFlight.release)
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
            inFlight.release()
          }
        }
      }))
    )
  }

  /** Routes a claimed batch: grouped by first route (unlimited ones at once), the rest one by one. */
  const dispatchBatch = (
    batch: ReadonlyArray<ClaimedMessage>,
    assigned: ReadonlyMap<string, number>
  ): Effect.Effect<void> =>
    Effect.gen(function*() {
      const groups = new Map<RouteRow, { index: number; msgs: Array<ClaimedMessage> }>()
      for (const m of batch) {
        const marketRoutes = routes.routesOf(m.marketId)
        const i = assigned.get(m.id) ?? -1
        if (marketRoutes.length === 0) {
          push(
            outcomes.fail(m, "NO_PROVIDER_ROUTE", `Not sent: there is no carrier route to ${m.country}.`),
            inFlight.release
          )
        } else if (i < 0) {
          push(outcomes.noCredit(m), inFlight.release)
        } else if (routes.pacerOf(marketRoutes[i]!) !== null) {
          yield* FiberSet.run(fibers, guarded(m, tryRoutes(m, i, i, null)))
        } else {
          const group = groups.get(marketRoutes[i]!)
          if (group === undefined) groups.set(marketRoutes[i]!, { index: i, msgs: [m] })
          else group.msgs.push(m)
        }
      }
      for (const [route, { index, msgs }] of groups) yield* FiberSet.run(fibers, submitGroup(route, index, msgs))
    })

  return (batch, at) =>
    Effect.gen(function*() {
      // the store failed before the batch was routed: its slots back now, its claims once the store answers
      const giveBack = Effect.sync(() => {
        inFlight.giveBack(batch.length)
        release({ messageIds: batch.map((m) => m.id) })
      })
      yield* routes.ensureCurrent.pipe(Effect.onError(() => giveBack))
      const assigned = yield* assign(batch, at).pipe(Effect.onError(() => giveBack))
      yield* dispatchBatch(batch, assigned)
    })
}
