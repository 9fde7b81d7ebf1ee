/**
 * In-memory adapter of the delivery ports (`DispatchStore`, `DispatchWakeups`), over the shared
 * `MemoryDatabase`: a message accepted by `MemorySendStore` is in the same `dispatchQueue` the
 * claim reads. Each method is one critical section (`transact`), the twin of one SQL transaction of
 * `SqlDispatchStore`, and follows its statements in the same order with the same guards:
 *
 * - `claim` leases due queue rows (`available_at` pushed to the lease end, `attempts` + 1) and moves
 *   their messages to `processing`; an expired lease makes a row claimable again by itself.
 * - `apply` writes a batch: sent records (parts, reconciliation), late acceptances, failures with
 *   their refunds (decisions §20), requeues, provider credit given back, receipts (matched by
 *   provider and normalised ref, the newest unfinished message or part first; the rest kept
 *   pending), inbound STOPs. Status changes follow the domain's message machine (`messageStates.ts`),
 *   final states write their webhook deliveries as the SQL trigger does.
 * - `reserveSlots` and `heartbeat` read the time where SQL reads `clock_timestamp()`: Effect's
 *   `Clock`. Every other time is the caller's.
 *
 * The receipt matcher is `dispatchReceipts.ts`.
 */
import { isStopRequest } from "@tuma/domain"
import { Clock, Effect, Layer, Queue } from "effect"
import type {
  ApplyResult,
  ClaimedMessage,
  DispatchBatch,
  ProviderRow,
  ReconcileItem,
  ReleaseSelection,
  RouteRow,
  SentRecord
} from "../ports/DispatchStore.js"
import { DispatchStore, DispatchWakeups } from "../ports/DispatchStore.js"
import { applyPendingReceipts, applyReceipts, partsOf } from "./dispatchReceipts.js"
import { ascending, jsonCopy, key } from "./internal.js"
import type { MessageRecord, Tables } from "./MemoryDatabase.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { latest, receiptEvents, setStatus, statusAfter } from "./messageStates.js"

const waiting = (s: string) => s === "queued" || s === "processing"

/** A numeric JSON value as `(config->>'maxPerSecond')::float8` reads it (null when absent). */
const perSecondOf = (config: unknown): number | null => {
  if (typeof config !== "object" || config === null || !("maxPerSecond" in config)) return null
  const v = config.maxPerSecond
  return v === null || v === undefined ? null : Number(v)
}

// -- claim ---------------------------------------------------------------------------------------

const claimIn = (
  t: Tables,
  o: { readonly owner: string; readonly limit: number; readonly now: Date; readonly leaseUntil: Date }
): ReadonlyArray<ClaimedMessage> => {
  const due = [...t.dispatchQueue.values()]
    .filter((q) => q.available_at.getTime() <= o.now.getTime())
    .sort((a, b) => ascending(a.available_at, b.available_at))
    .slice(0, o.limit)
  const out: Array<ClaimedMessage> = []
  for (const q of due) {
    q.lease_owner = o.owner
    q.lease_until = o.leaseUntil
    q.available_at = o.leaseUntil
    q.attempts += 1
    const m = t.messages.get(q.message_id)
    if (m === undefined || !waiting(m.status)) continue
    // a lease that ran out: the message is still `processing`, claimed again as it is
    const status = m.status === "queued" ? statusAfter(m.status, ["claim"]) : m.status
    if (status === null) continue
    setStatus(t, m, status, o.now)
    m.updated_at = o.now
    out.push({
      id: m.id,
      accountId: m.account_id,
      marketId: m.market_id,
      country: m.country,
      recipient: m.recipient,
      senderId: m.sender_id,
      text: m.text,
      encoding: m.encoding,
      parts: m.parts,
      units: m.units,
      queuedAt: m.queued_at,
      createdAt: m.created_at,
      attempts: q.attempts
    })
  }
  return out
}

// -- the batch writer ----------------------------------------------------------------------------

/** `failure_context` of a sent record (what the SQL adapter writes as jsonb). */
const sentContext = (r: SentRecord): unknown =>
  r.unknown !== null
    ? { acceptance_state: "UNKNOWN", reference: r.unknown.reference, reason: r.unknown.reason }
    : r.failureReason !== null
    ? { acceptance_state: "ACCEPTED", refused_parts: r.parts.filter((p) => p.state === "failed").map((p) => p.index) }
    : null

const applySent = (t: Tables, r: SentRecord, now: Date) => {
  t.dispatchQueue.delete(r.messageId)
  const m = t.messages.get(r.messageId)
  if (m === undefined || !waiting(m.status)) return
  const outcome = r.failureReason !== null ? "failed" : r.receipt?.state ?? "sent"
  const status = statusAfter(m.status, [
    ...(m.status === "queued" ? ["claim" as const] : []),
    "accept",
    ...receiptEvents(outcome)
  ])
  if (status === null) return
  const at = latest(now, m.queued_at ?? m.created_at)
  m.sent_at = at
  if (r.receipt?.state === "delivered") m.delivered_at = at
  if (outcome === "failed") m.failed_at = at
  m.failure_reason = r.failureReason ?? r.receipt?.failureReason ?? null
  m.failure_context = sentContext(r)
  if (r.receipt !== undefined) {
    m.dr_checked_at = latest(now, m.dr_checked_at)
    m.dr_status = r.receipt.state
    m.dr_delivery_status = r.receipt.deliveryStatus
  }
  m.provider_id = r.providerId
  m.provider_message_id = r.parts[0]?.providerMessageId ?? null
  m.provider_ref = r.parts.length === 1 ? r.parts[0]!.ref : null
  m.updated_at = now
  setStatus(t, m, status, now)
  if (r.parts.length > 1) {
    for (const p of r.parts) {
      const k = key(m.id, String(p.index))
      const held = t.messageParts.get(k)
      t.messageParts.set(k, {
        message_id: m.id,
        part_index: p.index,
        provider_id: r.providerId,
        provider_message_id: p.providerMessageId,
        provider_ref: p.ref,
        state: p.state,
        delivery_status: held?.delivery_status ?? null,
        error_code: held?.error_code ?? null,
        failure_reason: held?.failure_reason ?? null,
        updated_at: now
      })
    }
  }
  if (r.unknown !== null && !t.dispatchReconcile.has(m.id)) {
    t.dispatchReconcile.set(m.id, {
      message_id: m.id,
      provider_id: r.providerId,
      reference: r.unknown.reference,
      reason: r.unknown.reason,
      deadline: r.unknown.deadline,
      created_at: now
    })
  }
}

/** Units of messages no provider accepted back to their wallets, a `refund` ledger row each. */
const refund = (t: Tables, messages: ReadonlyArray<MessageRecord>, now: Date) => {
  const sorted = messages.filter((m) => m.units > 0).sort((a, b) => ascending(a.id, b.id))
  const byWallet = new Map<string, Array<MessageRecord>>()
  for (const m of sorted) {
    const w = [...t.wallets.values()].find((x) => x.account_id === m.account_id && x.market_id === m.market_id)
    if (w === undefined) continue
    byWallet.set(w.id, [...(byWallet.get(w.id) ?? []), m])
  }
  for (const walletId of [...byWallet.keys()].sort()) {
    const w = t.wallets.get(walletId)!
    for (const m of byWallet.get(walletId)!) {
      w.balance += m.units
      w.updated_at = now
      t.walletLedger.push({
        id: ++t.ledgerSequence,
        wallet_id: w.id,
        account_id: w.account_id,
        kind: "refund",
        reason: null,
        corrects_id: null,
        units: m.units,
        balance_after: w.balance,
        amount: null,
        currency: null,
        message_id: m.id,
        campaign_id: null,
        reference: "not accepted by any provider",
        created_at: now
      })
    }
  }
}

const applyIn = (t: Tables, batch: DispatchBatch): ApplyResult => {
  const now = batch.now
  // 1. sent
  for (const r of batch.sent) applySent(t, r, now)
  // 2. late acceptances: the id of a part whose submit answer came after its timeout
  for (const l of batch.lateAcceptances) {
    const p = t.messageParts.get(key(l.messageId, String(l.partIndex)))
    if (p === undefined || p.provider_ref !== null) continue
    p.provider_message_id = l.providerMessageId
    p.provider_ref = l.ref
    if (p.state === "unknown") p.state = "enroute"
    p.updated_at = now
  }
  for (const l of batch.lateAcceptances) {
    const m = t.messages.get(l.messageId)
    if (m === undefined || l.partIndex !== 0 || m.provider_ref !== null) continue
    m.provider_message_id = m.provider_message_id ?? l.providerMessageId
    m.provider_ref = t.messageParts.has(key(m.id, "0")) ? null : l.ref
    m.updated_at = now
  }
  // 3. failed before any acceptance (refund per decisions §20)
  const refunded: Array<MessageRecord> = []
  for (const f of batch.failed) {
    t.dispatchQueue.delete(f.messageId)
    const m = t.messages.get(f.messageId)
    if (m === undefined || !waiting(m.status)) continue
    const status = statusAfter(m.status, ["fail"])
    if (status === null) continue
    m.failed_at = latest(now, m.queued_at ?? m.created_at)
    m.failure_reason = f.reason
    m.failure_context = { error_code: f.code, acceptance_state: "DEFINITELY_NOT_ACCEPTED" }
    m.updated_at = now
    setStatus(t, m, status, now)
    if (f.refund) refunded.push(m)
  }
  refund(t, refunded, now)
  // 4. back to the queue, later
  for (const r of batch.requeued) {
    const q = t.dispatchQueue.get(r.messageId)
    if (q !== undefined) {
      q.available_at = r.availableAt
      q.last_error = r.lastError
      q.lease_owner = null
      q.lease_until = null
    }
  }
  for (const r of batch.requeued) {
    const m = t.messages.get(r.messageId)
    const status = m?.status === "processing" ? statusAfter(m.status, ["release"]) : null
    if (m === undefined || status === null) continue
    setStatus(t, m, status, now)
    m.updated_at = now
  }
  // 5. provider credit given back (not accepted)
  for (const c of batch.creditReturns) {
    const credit = t.providerCredits.get(key(c.providerId, c.marketId))
    if (credit === undefined) continue
    credit.balance += c.units
    credit.updated_at = now
  }
  // 6. receipts
  const { matched, pending } = applyReceipts(t, batch.receipts, now)
  // 7. inbound STOP: opt the handset out of the account it replied to (the one thing kept: `warnUnkept`)
  let optedOut = 0
  const stops = batch.inbound
    .filter((i) => i.concat === null && isStopRequest(i.text))
    .map((i) => ({
      providerId: i.provider,
      recipient: i.from,
      to: i.to,
      text: i.text.trim(),
      receivedAt: i.receivedAt
    }))
  for (const o of [...batch.optOuts, ...stops]) {
    const replied = (m: MessageRecord) => m.sender_id.toUpperCase() === o.to.toUpperCase() || m.sender_id === o.to
    const last = [...t.messages.values()]
      .filter((m) => m.recipient === o.recipient)
      .sort((a, b) => Number(replied(b)) - Number(replied(a)) || b.created_at.getTime() - a.created_at.getTime())[0]
    if (last === undefined || t.optOuts.has(key(last.account_id, o.recipient))) continue
    t.optOuts.set(key(last.account_id, o.recipient), {
      account_id: last.account_id,
      recipient: o.recipient,
      reason: `Inbound "${o.text}" to ${o.to}`,
      created_at: now
    })
    optedOut++
  }
  const inbound = { parts: 0, duplicates: 0, messages: 0, unrouted: 0, messageIds: [] }
  return { receiptsMatched: matched, receiptsPending: pending, optedOut, inbound }
}

/** Memory keeps no inbound messages (docs/architecture.md "Memory adapters"): said, never silent. */
const warnUnkept = (batch: DispatchBatch) => {
  const unkept = batch.inbound.filter((i) => i.concat !== null || !isStopRequest(i.text)).length
  return unkept === 0 ? Effect.void : Effect.logWarning(
    `memory store: ${unkept} inbound part(s) acknowledged and not kept (two-way SMS needs the SQL store)`
  )
}

// -- schedules, reconciliation, rate, liveness ---------------------------------------------------

const promoteIn = (t: Tables, now: Date, limit: number): number => {
  const due = [...t.messages.values()]
    .filter((m) => m.status === "scheduled" && m.scheduled_at !== null && m.scheduled_at.getTime() <= now.getTime())
    .sort((a, b) => ascending(a.scheduled_at, b.scheduled_at))
    .slice(0, limit)
  for (const m of due) {
    setStatus(t, m, statusAfter(m.status, ["due"])!, now)
    m.queued_at = latest(now, m.created_at)
    m.updated_at = now
    if (!t.dispatchQueue.has(m.id)) {
      t.dispatchQueue.set(m.id, {
        message_id: m.id,
        account_id: m.account_id,
        available_at: now,
        attempts: 0,
        lease_owner: null,
        lease_until: null,
        last_error: null,
        created_at: now
      })
      t.dispatchVersion++
    }
    const c = m.campaign_id === null ? undefined : t.campaigns.get(m.campaign_id)
    if (c?.status === "scheduled") {
      c.status = "queued"
      c.updated_at = now
    }
  }
  return due.length
}

const dueReconciliationsIn = (t: Tables, now: Date, limit: number, leaseUntil: Date): ReadonlyArray<ReconcileItem> =>
  [...t.dispatchReconcile.values()]
    .filter((r) => r.deadline.getTime() <= now.getTime())
    .sort((a, b) => ascending(a.deadline, b.deadline))
    .slice(0, limit)
    .map((r) => {
      r.deadline = leaseUntil
      const fromParts = partsOf(t, r.message_id).flatMap((p) =>
        p.provider_message_id === null ? [] : [p.provider_message_id]
      )
      const own = t.messages.get(r.message_id)?.provider_message_id ?? null
      return {
        messageId: r.message_id,
        providerId: r.provider_id,
        reference: r.reference,
        providerMessageIds: fromParts.length > 0 ? fromParts : own === null ? [] : [own]
      }
    })

const failUnconfirmedIn = (t: Tables, items: ReadonlyArray<{ messageId: string; reason: string }>, now: Date) => {
  for (const i of items) {
    const m = t.messages.get(i.messageId)
    const status = m?.status === "sent" ? statusAfter(m.status, ["fail"]) : null
    if (m !== undefined && status !== null) {
      m.failed_at = latest(now, m.sent_at)
      m.failure_reason = i.reason
      m.dr_checked_at = now
      m.dr_status = "failed"
      m.updated_at = now
      setStatus(t, m, status, now)
    }
  }
  for (const i of items) t.dispatchReconcile.delete(i.messageId)
}

const sweepIn = (t: Tables, now: Date, olderThan: Date): number => {
  const matched = applyPendingReceipts(t, now)
  const keep = t.pendingReceipts.filter((o) => o.receivedAt.getTime() >= olderThan.getTime())
  t.pendingReceipts.splice(0, t.pendingReceipts.length, ...keep)
  // queue rows whose message is no longer waiting to be sent (cannot happen through this adapter)
  for (const q of [...t.dispatchQueue.values()]) {
    const m = t.messages.get(q.message_id)
    if (q.available_at.getTime() <= now.getTime() && m !== undefined && !waiting(m.status)) {
      t.dispatchQueue.delete(q.message_id)
    }
  }
  return matched
}

const reserveSlotsIn = (t: Tables, providerId: string, count: number, perSecond: number, clock: number) => {
  const span = (count / perSecond) * 1000
  const next = Math.max(t.dispatchRate.get(providerId) ?? clock, clock) + span
  t.dispatchRate.set(providerId, next)
  return Math.max(0, next - clock - span)
}

const heartbeatIn = (t: Tables, owner: string, now: Date, takeOverAfterMs: number | null, clock: Date) => {
  const me = t.dispatchWorkers.get(owner)
  if (me === undefined) t.dispatchWorkers.set(owner, { owner, started_at: clock, heartbeat_at: clock })
  else me.heartbeat_at = clock
  const dead = new Set<string>()
  if (takeOverAfterMs !== null) {
    for (const w of [...t.dispatchWorkers.values()]) {
      if (w.owner !== owner && w.heartbeat_at.getTime() < clock.getTime() - takeOverAfterMs) {
        dead.add(w.owner)
        t.dispatchWorkers.delete(w.owner)
      }
    }
  }
  let released = 0
  if (dead.size > 0) {
    for (const q of t.dispatchQueue.values()) {
      if (q.lease_owner !== null && dead.has(q.lease_owner) && q.available_at.getTime() > now.getTime()) {
        q.available_at = now
        q.lease_until = null
        released++
      }
    }
  }
  return { registered: me !== undefined, released }
}

const releaseIn = (t: Tables, owner: string, which: ReleaseSelection, availableAt: Date) => {
  const ids = "messageIds" in which ? new Set(which.messageIds) : null
  let released = 0
  for (const q of t.dispatchQueue.values()) {
    if (q.lease_owner !== owner) continue
    const selected = ids === null
      ? "leaseUntil" in which && q.lease_until?.getTime() === which.leaseUntil.getTime()
      : ids.has(q.message_id)
    if (!selected) continue
    q.available_at = availableAt
    q.lease_owner = null
    q.lease_until = null
    released++
    const m = t.messages.get(q.message_id)
    const status = m?.status === "processing" ? statusAfter(m.status, ["release"]) : null
    if (m === undefined || status === null) continue
    setStatus(t, m, status, availableAt)
    m.updated_at = availableAt
  }
  return released
}

/** The memory `DispatchStore` over the context's `MemoryDatabase`. */
export const make = Effect.map(MemoryDatabase, ({ transact: tx }) =>
  DispatchStore.of({
    claim: (options) => tx((t) => claimIn(t, options)),
    release: (owner, which, availableAt) => tx((t) => releaseIn(t, owner, which, availableAt)),
    routes: tx((t) =>
      [...t.providerRoutes.values()]
        .flatMap((r): Array<RouteRow> => {
          const p = t.providers.get(r.provider_id)
          return r.enabled && p?.enabled === true
            ? [{
              marketId: r.market_id,
              providerId: r.provider_id,
              providerName: p.name,
              priority: r.priority,
              maxPerSecond: perSecondOf(p.config)
            }]
            : []
        })
        .sort((a, b) =>
          ascending(a.marketId, b.marketId) || a.priority - b.priority || ascending(a.providerName, b.providerName)
        )
    ),
    providers: tx((t) =>
      [...t.providers.values()]
        .filter((p) => p.enabled)
        .sort((a, b) => ascending(a.name, b.name))
        .map((p): ProviderRow => {
          const config = jsonCopy(p.config)
          return {
            id: p.id,
            name: p.name,
            kind: p.kind,
            config: typeof config === "object" && config !== null ? { ...config } : {}
          }
        })
    ),
    reserveCredit: (providerId, marketId, units, now) =>
      tx((t) => {
        const credit = t.providerCredits.get(key(providerId.toLowerCase(), marketId.toLowerCase()))
        if (credit === undefined) return 0
        const granted = Math.min(credit.balance, units)
        credit.balance -= granted
        credit.updated_at = now
        return granted
      }),
    apply: (batch) => Effect.tap(tx((t) => applyIn(t, batch)), () => warnUnkept(batch)),
    promoteScheduled: (now, limit) => tx((t) => promoteIn(t, now, limit)),
    dueReconciliations: (now, limit, leaseUntil) => tx((t) => dueReconciliationsIn(t, now, limit, leaseUntil)),
    failUnconfirmed: (items, now) => items.length === 0 ? Effect.void : tx((t) => failUnconfirmedIn(t, items, now)),
    matchPendingReceipts: (now) => tx((t) => applyPendingReceipts(t, now)),
    sweepPendingReceipts: (now, olderThan) => tx((t) => sweepIn(t, now, olderThan)),
    reserveSlots: (providerId, count, perSecond) =>
      Effect.flatMap(Clock.currentTimeMillis, (ms) => tx((t) => reserveSlotsIn(t, providerId, count, perSecond, ms))),
    heartbeat: (owner, now, takeOverAfterMs) =>
      Effect.flatMap(
        Clock.currentTimeMillis,
        (ms) => tx((t) => heartbeatIn(t, owner, now, takeOverAfterMs, new Date(ms)))
      )
  }))

/** `DispatchStore` in memory (needs the shared `MemoryDatabase`). */
export const layerMemory: Layer.Layer<DispatchStore, never, MemoryDatabase> = Layer.effect(DispatchStore, make)

/** Wake-ups whenever a `transact` queued messages for dispatch (the memory `pg_notify('tuma_dispatch')`). */
export const layerWakeups: Layer.Layer<DispatchWakeups, never, MemoryDatabase> = Layer.scoped(
  DispatchWakeups,
  Effect.gen(function*() {
    const db = yield* MemoryDatabase
    const signal = yield* Queue.sliding<void>(1)
    const unsubscribe = db.onDispatchQueued(() => Queue.unsafeOffer(signal, undefined))
    yield* Effect.addFinalizer(() => Effect.sync(unsubscribe))
    return { next: Queue.take(signal) }
  })
)
