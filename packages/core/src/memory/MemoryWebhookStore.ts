/**
 * In-memory adapter of `WebhookStore`, over the shared `MemoryDatabase`: endpoints, the delivery
 * queue (written by the final-state moves of `MemoryDispatchStore`, `messageStates.ts`), attempts
 * and the notifications owed when an endpoint is disabled. Same rules as `SqlWebhookStore`: a
 * claim leases a delivery by pushing `next_attempt_at` to the lease end; the consecutive-failure
 * rule is the domain's `applyWebhookAttempt`; disabling an endpoint skips its pending deliveries.
 *
 * Two methods take ids from an effect (`notificationIds`, `newId`): they count in one critical
 * section what they need, draw the ids, and write in a second one that checks the count is still
 * right (else they draw again), so nothing runs between a read and the write that depends on it.
 *
 * Why one file of ≈400 lines: one port's adapter: every `WebhookStore` operation over the shared
 * tables, kept together so each mirrors its SQL twin (SqlWebhookStore.ts) line for line.
 */
import type { WebhookEndpointHealth } from "@tuma/domain"
import { applyWebhookAttempt, DEFAULT_WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from "@tuma/domain"
import { Effect, Layer } from "effect"
import type {
  AttemptView,
  ClaimedDelivery,
  ClaimedNotification,
  DeliveryMessage,
  DeliveryView,
  WebhookEndpoint
} from "../ports/WebhookStore.js"
import { WebhookStore } from "../ports/WebhookStore.js"
import { ascending, check, uuid } from "./internal.js"
import type { Tables, WebhookDeliveryRecord, WebhookEndpointRecord } from "./MemoryDatabase.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

const toEndpoint = (e: WebhookEndpointRecord): WebhookEndpoint => ({
  id: e.id,
  accountId: e.account_id,
  apiKeyId: e.api_key_id,
  url: e.url,
  enabled: e.enabled,
  consecutiveFailures: e.consecutive_failures,
  disabledAt: e.disabled_at,
  disabledReason: e.disabled_reason,
  events: e.events,
  createdAt: e.created_at,
  updatedAt: e.updated_at
})

/** The payload's inputs: the delivery joined with its message (none when the message is gone). */
const messageOf = (t: Tables, d: WebhookDeliveryRecord): DeliveryMessage | null => {
  const m = d.event === WEBHOOK_TEST_EVENT
    ? { recipient: "", sender_id: "", failure_reason: null }
    : t.messages.get(d.message_id)
  return m === undefined ? null : {
    messageId: d.message_id,
    messageStatus: d.event === "sms.delivered" ? "delivered" : "failed",
    recipient: m.recipient,
    senderId: m.sender_id,
    failureReason: m.failure_reason,
    finalAt: d.final_at,
    createdAt: d.created_at
  }
}

const toDelivery = (t: Tables, d: WebhookDeliveryRecord): DeliveryView | null => {
  const message = messageOf(t, d)
  return message === null ? null : {
    ...message,
    id: d.id,
    endpointId: d.endpoint_id,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === "pending" ? d.next_attempt_at : null,
    lastStatus: d.last_status,
    lastError: d.last_error,
    redeliveryOf: d.redelivery_of,
    completedAt: d.completed_at,
    payload: d.payload ?? null
  }
}

const skipPending = (t: Tables, endpointIds: ReadonlyArray<string>, reason: string, now: Date) => {
  const ids = new Set(endpointIds)
  for (const d of t.webhookDeliveries.values()) {
    if (!ids.has(d.endpoint_id) || d.status !== "pending") continue
    d.status = "skipped"
    d.last_error = reason
    d.completed_at = now
    d.updated_at = now
  }
}

/** The endpoint `f` changed, or null when there is none with this id. */
const updateEndpoint = (t: Tables, id: string, f: (e: WebhookEndpointRecord) => void): WebhookEndpoint | null => {
  const e = t.webhookEndpoints.get(id.toLowerCase())
  if (e === undefined) return null
  f(e)
  return toEndpoint(e)
}

/** Draws ids until the write `f` (given them) accepts them: `need` counts them in the same section. */
const withIds = <A>(
  db: MemoryDatabase["Type"],
  newId: Effect.Effect<string>,
  need: (t: Tables) => number,
  f: (t: Tables, ids: ReadonlyArray<string>) => A
): Effect.Effect<A> =>
  Effect.gen(function*() {
    while (true) {
      const n = yield* db.transact(need)
      const ids = yield* Effect.all(Array.from({ length: n }, () => newId))
      const done = yield* db.transact((t) => need(t) === n ? { value: f(t, ids) } : null)
      if (done !== null) return done.value
    }
  })

/** The endpoints a batch of attempts moves: their health after the batch and those it disabled. */
const healthAfter = (
  t: Tables,
  records: Parameters<WebhookStore["Type"]["recordAttempts"]>[0],
  policy: Parameters<WebhookStore["Type"]["recordAttempts"]>[2]
) => {
  const health = new Map<string, WebhookEndpointHealth>()
  const justDisabled: Array<string> = []
  for (const r of records) {
    const e = t.webhookEndpoints.get(r.endpointId)
    if (e === undefined) continue // endpoint deleted meanwhile
    const h = health.get(e.id) ?? { consecutiveFailures: e.consecutive_failures, disabled: !e.enabled }
    const next = applyWebhookAttempt(h, r.outcome, policy)
    if (next.justDisabled) justDisabled.push(e.id)
    health.set(e.id, { consecutiveFailures: next.consecutiveFailures, disabled: next.disabled })
  }
  return { health, justDisabled }
}

type Database = MemoryDatabase["Type"]
type Store = WebhookStore["Type"]

/** The endpoint methods (the operator's and the portal's): endpoints, their deliveries and attempts. */
type EndpointMethod =
  | "createEndpoint"
  | "getEndpoint"
  | "listEndpoints"
  | "enableEndpoint"
  | "disableEndpoint"
  | "setSecret"
  | "setEvents"
  | "listDeliveries"
  | "getDelivery"
  | "listAttempts"

/** Endpoints, their deliveries and attempts. */
const endpointMethods = ({ transact: tx }: Database): Pick<Store, EndpointMethod> => ({
  createEndpoint: (input) =>
    tx((t) => {
      const k = t.apiKeys.get(uuid(input.apiKeyId))
      if (k === undefined) return null
      const id = uuid(input.id)
      check(!t.webhookEndpoints.has(id), "webhook_endpoints", `duplicate key: endpoint ${id} exists`)
      const e: WebhookEndpointRecord = {
        id,
        account_id: k.account_id,
        api_key_id: k.id,
        url: input.url,
        secret: input.secret,
        enabled: true,
        consecutive_failures: 0,
        disabled_at: null,
        disabled_reason: null,
        events: input.events ?? DEFAULT_WEBHOOK_EVENTS,
        created_at: input.now,
        updated_at: input.now
      }
      t.webhookEndpoints.set(id, e)
      return toEndpoint(e)
    }),
  getEndpoint: (id) => tx((t) => updateEndpoint(t, id, () => {})),
  listEndpoints: (filter) =>
    tx((t) =>
      [...t.webhookEndpoints.values()]
        .filter((e) =>
          (filter.accountId === undefined || e.account_id === filter.accountId.toLowerCase()) &&
          (filter.apiKeyId === undefined || e.api_key_id === filter.apiKeyId.toLowerCase())
        )
        .sort((a, b) => ascending(a.created_at, b.created_at) || ascending(a.id, b.id))
        .map(toEndpoint)
    ),
  enableEndpoint: (id, now) =>
    tx((t) =>
      updateEndpoint(t, id, (e) => {
        e.enabled = true
        e.consecutive_failures = 0
        e.disabled_at = null
        e.disabled_reason = null
        e.updated_at = now
      })
    ),
  disableEndpoint: (id, reason, now) =>
    tx((t) =>
      updateEndpoint(t, id, (e) => {
        e.enabled = false
        e.disabled_at = e.disabled_at ?? now
        e.disabled_reason = reason
        e.updated_at = now
        skipPending(t, [e.id], reason, now)
      })
    ),
  setEvents: (id, events, now) =>
    tx((t) =>
      updateEndpoint(t, id, (e) => {
        e.events = events
        e.updated_at = now
      })
    ),
  setSecret: (id, secret, now) =>
    tx((t) =>
      updateEndpoint(t, id, (e) => {
        e.secret = secret
        e.updated_at = now
      })
    ),
  listDeliveries: (endpointId, options) =>
    tx((t) =>
      [...t.webhookDeliveries.values()]
        .filter((d) =>
          d.endpoint_id === endpointId.toLowerCase() &&
          (options.status === undefined || d.status === options.status) &&
          (options.before === undefined || d.created_at.getTime() < options.before.getTime())
        )
        .sort((a, b) => ascending(b.created_at, a.created_at) || ascending(b.id, a.id))
        .flatMap((d) => toDelivery(t, d) ?? [])
        .slice(0, options.limit)
    ),
  getDelivery: (id) =>
    tx((t) => {
      const d = t.webhookDeliveries.get(id.toLowerCase())
      return d === undefined ? null : toDelivery(t, d)
    }),
  listAttempts: (deliveryId) =>
    tx((t) =>
      t.webhookAttempts
        .filter((a) => a.deliveryId === deliveryId.toLowerCase())
        .sort((a, b) => a.attempt - b.attempt || a.id - b.id)
        .map(({ endpointId: _e, id: _id, nextAttemptAt: _n, ...view }): AttemptView => view)
    )
})

/** The delivery queue: due deliveries claimed, attempts recorded (endpoint health), the next due time. */
type AttemptMethod = "claimDue" | "recordAttempts" | "nextDueAt"

/** Claims and attempts of the delivery queue. */
const attemptMethods = (db: Database): Pick<Store, AttemptMethod> => {
  const tx = db.transact
  return {
    claimDue: (limit, now, leaseUntil) =>
      tx((t) =>
        [...t.webhookDeliveries.values()]
          .filter((d) =>
            d.status === "pending" && d.next_attempt_at.getTime() <= now.getTime() &&
            t.webhookEndpoints.get(d.endpoint_id)?.enabled === true
          )
          .sort((a, b) => ascending(a.next_attempt_at, b.next_attempt_at))
          .slice(0, limit)
          .flatMap((d): Array<ClaimedDelivery> => {
            const message = messageOf(t, d)
            const e = t.webhookEndpoints.get(d.endpoint_id)!
            if (message === null) return []
            d.next_attempt_at = leaseUntil
            d.updated_at = now
            return [{
              ...message,
              id: d.id,
              endpointId: d.endpoint_id,
              event: d.event,
              attempts: d.attempts,
              url: e.url,
              secret: e.secret,
              payload: d.payload ?? null
            }]
          })
      ),
    recordAttempts: (records, now, policy, notificationIds) =>
      records.length === 0 ? Effect.succeed({ disabledEndpoints: [] }) : withIds(
        db,
        notificationIds,
        (t) => 2 * healthAfter(t, records, policy).justDisabled.length,
        (t, ids) => {
          const { health, justDisabled } = healthAfter(t, records, policy)
          for (const r of records) {
            t.webhookAttempts.push({ ...r, id: t.webhookAttempts.length + 1 })
            const d = t.webhookDeliveries.get(r.deliveryId)
            if (d === undefined) continue
            const wasPending = d.status === "pending"
            d.attempts = Math.max(d.attempts, r.attempt)
            d.status = r.outcome === "success"
              ? "succeeded"
              : !wasPending
              ? d.status
              : r.nextAttemptAt === null
              ? "failed"
              : "pending"
            d.next_attempt_at = r.nextAttemptAt ?? d.next_attempt_at
            d.last_status = r.responseStatus
            d.last_error = r.error
            d.updated_at = now
            if (r.outcome === "success" || (r.nextAttemptAt === null && wasPending)) d.completed_at = now
          }
          for (const [id, h] of health) {
            const e = t.webhookEndpoints.get(id)!
            if (e.consecutive_failures === h.consecutiveFailures && e.enabled === !h.disabled) continue
            if (h.disabled && e.enabled) {
              e.disabled_at = now
              e.disabled_reason = `${h.consecutiveFailures} consecutive failed attempts`
            }
            e.consecutive_failures = h.consecutiveFailures
            e.enabled = !h.disabled
            e.updated_at = now
          }
          skipPending(t, justDisabled, "endpoint disabled after consecutive failures", now)
          justDisabled.forEach((endpointId, i) => {
            const notice = {
              endpoint_id: endpointId,
              account_id: t.webhookEndpoints.get(endpointId)!.account_id,
              status: "pending" as const,
              next_attempt_at: now,
              attempts: 0,
              reference: null,
              last_error: null,
              created_at: now,
              sent_at: null
            }
            ;(["email", "sms"] as const).forEach((channel, c) => {
              const id = ids[2 * i + c]!
              t.webhookNotifications.set(id, { ...notice, id, channel })
            })
          })
          return { disabledEndpoints: justDisabled }
        }
      ),
    nextDueAt: tx((t) => {
      let min: Date | null = null
      for (const d of t.webhookDeliveries.values()) {
        if (d.status === "pending" && (min === null || d.next_attempt_at < min)) min = d.next_attempt_at
      }
      return min
    })
  }
}

/** Redeliveries and the owed notifications (e-mail/SMS notices of disabled endpoints). */
const redeliveryMethods = (db: Database): Omit<Store, EndpointMethod | AttemptMethod> => {
  const tx = db.transact
  return {
    redeliver: (endpointId, select, now, newId) => {
      const sourcesOf = (t: Tables): ReadonlyArray<WebhookDeliveryRecord> => {
        const endpoint = endpointId.toLowerCase()
        if ("deliveryId" in select) {
          const d = t.webhookDeliveries.get(select.deliveryId.toLowerCase())
          return d !== undefined && d.endpoint_id === endpoint && d.event !== WEBHOOK_TEST_EVENT ? [d] : []
        }
        // the first delivery of each message final since `since`
        const first = new Map<string, WebhookDeliveryRecord>()
        for (const d of t.webhookDeliveries.values()) {
          if (d.endpoint_id !== endpoint || d.final_at.getTime() < select.since.getTime()) continue
          if (d.event === WEBHOOK_TEST_EVENT) continue
          const held = first.get(d.message_id)
          if (held === undefined || d.created_at.getTime() < held.created_at.getTime()) first.set(d.message_id, d)
        }
        return [...first.values()]
      }
      return withIds(db, newId, (t) => sourcesOf(t).length, (t, ids) =>
        sourcesOf(t).map((s, i) => {
          const id = uuid(ids[i]!)
          check(!t.webhookDeliveries.has(id), "webhook_deliveries", `duplicate key: delivery ${id} exists`)
          t.webhookDeliveries.set(id, {
            ...s,
            id,
            status: "pending",
            attempts: 0,
            next_attempt_at: now,
            last_status: null,
            last_error: null,
            redelivery_of: s.id,
            created_at: now,
            updated_at: now,
            completed_at: null
          })
          return id
        }))
    },
    recordTest: (test, now) =>
      tx((t) => {
        const endpoint = t.webhookEndpoints.get(test.endpointId.toLowerCase())
        if (endpoint === undefined) return false
        const id = uuid(test.id)
        check(!t.webhookDeliveries.has(id), "webhook_deliveries", `duplicate key: delivery ${id} exists`)
        t.webhookDeliveries.set(id, {
          id,
          endpoint_id: endpoint.id,
          message_id: id,
          event: WEBHOOK_TEST_EVENT,
          status: test.outcome === "success" ? "succeeded" : "failed",
          attempts: 1,
          next_attempt_at: test.attemptedAt,
          final_at: test.attemptedAt,
          last_status: test.responseStatus,
          last_error: test.error,
          redelivery_of: null,
          created_at: test.attemptedAt,
          updated_at: now,
          completed_at: now,
          payload: test.body
        })
        const { body: _b, id: _i, endpointId: _e, ...attempt } = test
        t.webhookAttempts.push({
          ...attempt,
          id: t.webhookAttempts.length + 1,
          deliveryId: id,
          endpointId: endpoint.id,
          attempt: 1,
          nextAttemptAt: null
        })
        return true
      }),
    claimNotifications: (limit, now, leaseUntil) =>
      tx((t) =>
        [...t.webhookNotifications.values()]
          .filter((n) => n.status === "pending" && n.next_attempt_at.getTime() <= now.getTime())
          .sort((a, b) => ascending(a.next_attempt_at, b.next_attempt_at))
          .slice(0, limit)
          .flatMap((n): Array<ClaimedNotification> => {
            const e = t.webhookEndpoints.get(n.endpoint_id)
            const a = t.accounts.get(n.account_id)
            if (e === undefined || a === undefined) return []
            n.next_attempt_at = leaseUntil
            n.attempts += 1
            return [{
              id: n.id,
              endpointId: n.endpoint_id,
              channel: n.channel,
              attempts: n.attempts,
              url: e.url,
              consecutiveFailures: e.consecutive_failures,
              disabledAt: e.disabled_at,
              accountId: a.id,
              accountName: a.name,
              accountEmail: a.email,
              accountPhone: a.phone
            }]
          })
      ),
    completeNotification: (id, result) =>
      tx((t) => {
        const n = t.webhookNotifications.get(id.toLowerCase())
        if (n === undefined) return
        if (result._tag === "Sent") {
          n.status = "sent"
          n.reference = result.reference
          n.sent_at = result.now
          n.last_error = null
        } else if (result.retryAt === null) {
          n.status = "failed"
          n.last_error = result.error
        } else {
          n.next_attempt_at = result.retryAt
          n.last_error = result.error
        }
      })
  }
}

/** The memory `WebhookStore` over the context's `MemoryDatabase`. */
export const make = Effect.map(
  MemoryDatabase,
  (db) => WebhookStore.of({ ...endpointMethods(db), ...attemptMethods(db), ...redeliveryMethods(db) })
)

/** `WebhookStore` in memory (needs the shared `MemoryDatabase`). */
export const layerMemory: Layer.Layer<WebhookStore, never, MemoryDatabase> = Layer.effect(WebhookStore, make)
