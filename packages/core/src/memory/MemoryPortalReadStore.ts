/**
 * In-memory adapter of the `PortalReadStore` port (the portal's dashboard, campaign history and
 * message timeline), over the shared `MemoryDatabase`, answering as `SqlPortalReadStore` does; every
 * read is bounded by the account. Webhook deliveries and endpoints are those `MemoryWebhookStore`
 * keeps (written by the final-state moves, `messageStates.ts`), with their attempts.
 *
 * The dashboard's days are the account's local days (`timeZone`): a message counts on the calendar
 * date its `created_at` has in that zone, over the seven local days ending today, as the SQL
 * `(created_at AT TIME ZONE tz)::date` does.
 */
import { Effect, Layer } from "effect"
import type {
  CampaignRow,
  DashboardRows,
  DayStatusCount,
  DeliveryWithAttempts,
  MessageTimelineRow
} from "../ports/PortalReadStore.js"
import { PortalReadStore } from "../ports/PortalReadStore.js"
import { ascending, jsonCopy, uuid } from "./internal.js"
import type { CampaignRecord, MessageRecord, Tables, WebhookDeliveryRecord } from "./MemoryDatabase.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DAY = 86_400_000

/** `YYYY-MM-DD` of `at` in `timeZone`. */
const localDate = (at: Date, timeZone: string): string =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at)

/** The calendar date `days` before `date` (`YYYY-MM-DD`). */
const daysBefore = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY).toISOString().slice(0, 10)

/** Newest first, then id descending (the SQL `ORDER BY created_at DESC, id DESC`). */
const newestFirst = (a: { created_at: Date; id: string }, b: { created_at: Date; id: string }) =>
  ascending(b.created_at.getTime(), a.created_at.getTime()) || ascending(b.id, a.id)

/**
 * The account's deliveries of a message (through its key's endpoints, oldest first) or of an
 * endpoint (newest first), as the SQL adapter selects them.
 */
const deliveriesOf = (
  t: Tables,
  accountId: string,
  by: { readonly messageId: string } | { readonly endpointId: string }
): Array<WebhookDeliveryRecord> => {
  const ours = (endpointId: string) => t.webhookEndpoints.get(endpointId)?.account_id === accountId
  if ("messageId" in by) {
    const m = UUID.test(by.messageId) ? t.messages.get(by.messageId.toLowerCase()) : undefined
    if (m === undefined || m.account_id !== accountId) return []
    return [...t.webhookDeliveries.values()]
      .filter((d) =>
        d.message_id === m.id && ours(d.endpoint_id) &&
        t.webhookEndpoints.get(d.endpoint_id)!.api_key_id === m.api_key_id &&
        d.created_at.getTime() >= m.created_at.getTime()
      )
      .sort((a, b) => newestFirst(b, a))
  }
  const endpointId = UUID.test(by.endpointId) ? by.endpointId.toLowerCase() : ""
  if (!ours(endpointId)) return []
  return [...t.webhookDeliveries.values()].filter((d) => d.endpoint_id === endpointId).sort(newestFirst)
}

/** A delivery with its recipient and its attempts, in attempt order. */
const deliveryRow = (t: Tables, d: WebhookDeliveryRecord): DeliveryWithAttempts => ({
  id: d.id,
  endpoint_id: d.endpoint_id,
  event: d.event,
  status: d.status,
  message_id: d.message_id,
  recipient: t.messages.get(d.message_id)?.recipient ?? "",
  attempts: d.attempts,
  next_attempt_at: d.status === "pending" ? d.next_attempt_at : null,
  last_status: d.last_status,
  last_error: d.last_error,
  completed_at: d.completed_at,
  attempt_log: t.webhookAttempts
    .filter((a) => a.deliveryId === d.id)
    .sort((a, b) => a.attempt - b.attempt)
    .map((a) => ({
      attempt: a.attempt,
      attempted_at: a.attemptedAt,
      outcome: a.outcome,
      response_status: a.responseStatus,
      latency_ms: a.latencyMs,
      error: a.error
    }))
})

const messagesOf = (t: Tables, accountId: string): Array<MessageRecord> => {
  const id = uuid(accountId)
  return [...t.messages.values()].filter((m) => m.account_id === id)
}

const campaignRow = (t: Tables, c: CampaignRecord): CampaignRow => {
  const delivery: Record<string, number> = {}
  for (const m of t.messages.values()) {
    if (m.campaign_id === c.id) delivery[m.status] = (delivery[m.status] ?? 0) + 1
  }
  return {
    id: c.id,
    name: c.name,
    sender_id: c.sender_id,
    api_version: c.api_version,
    api_key_id: c.api_key_id,
    status: c.status,
    recipient_count: c.recipient_count,
    queued_count: c.queued_count,
    failed_count: c.failed_count,
    units: c.units,
    failures: jsonCopy(c.failures),
    scheduled_at: c.scheduled_at,
    created_at: c.created_at,
    delivery
  }
}

const timelineRow = (m: MessageRecord): MessageTimelineRow => ({
  id: m.id,
  text: m.text,
  country: m.country,
  created_at: m.created_at,
  scheduled_at: m.scheduled_at,
  queued_at: m.queued_at,
  sent_at: m.sent_at,
  delivered_at: m.delivered_at,
  failed_at: m.failed_at,
  failure_reason: m.failure_reason,
  dr_checked_at: m.dr_checked_at,
  dr_status: m.dr_status,
  dr_delivery_status: m.dr_delivery_status
})

/** The memory `PortalReadStore` over the context's `MemoryDatabase`. */
export const make = Effect.map(MemoryDatabase, (db) =>
  PortalReadStore.of({
    dashboard: (accountId, timeZone, now) =>
      db.transact((t): DashboardRows => {
        const id = uuid(accountId)
        const balances = [...t.wallets.values()]
          .filter((w) => w.account_id === id)
          .flatMap((w) => {
            const m = t.markets.get(w.market_id)
            return m === undefined
              ? []
              : [{ country: m.iso2, calling_code: m.calling_code, balance: w.balance, enabled: w.enabled }]
          })
          .sort((a, b) => ascending(a.country, b.country))
        const from = daysBefore(localDate(now, timeZone), 6)
        const counts = new Map<string, DayStatusCount>()
        const messages = messagesOf(t, accountId)
        for (const m of messages) {
          const day = localDate(m.created_at, timeZone)
          if (day < from) continue
          const k = `${day} ${m.status}`
          const c = counts.get(k)
          counts.set(k, { day, status: m.status, n: (c?.n ?? 0) + 1 })
        }
        const failures = messages
          .filter((m) => m.status === "failed")
          .sort(newestFirst)
          .slice(0, 10)
          .map((m) => ({
            id: m.id,
            recipient: m.recipient,
            sender_id: m.sender_id,
            failure_reason: m.failure_reason,
            failed_at: m.failed_at,
            created_at: m.created_at
          }))
        return { balances, counts: [...counts.values()], failures }
      }),

    campaigns: (accountId, page, perPage) =>
      db.transact((t) => {
        const id = uuid(accountId)
        const all = [...t.campaigns.values()].filter((c) => c.account_id === id).sort(newestFirst)
        const offset = (page - 1) * perPage
        return { rows: all.slice(offset, offset + perPage).map((c) => campaignRow(t, c)), total: all.length }
      }),

    campaign: (accountId, campaignId) =>
      db.transact((t) => {
        if (!UUID.test(campaignId)) return undefined
        const c = t.campaigns.get(campaignId.toLowerCase())
        return c === undefined || c.account_id !== uuid(accountId) ? undefined : campaignRow(t, c)
      }),

    messageTimeline: (accountId, messageId) =>
      db.transact((t) => {
        if (!UUID.test(messageId)) return undefined
        const m = t.messages.get(messageId.toLowerCase())
        return m === undefined || m.account_id !== uuid(accountId) ? undefined : timelineRow(m)
      }),

    deliveries: (accountId, by, limit) =>
      db.transact((t) => deliveriesOf(t, uuid(accountId), by).slice(0, limit).map((d) => deliveryRow(t, d))),

    endpointSecret: (accountId, endpointId) =>
      db.transact((t) => {
        const e = UUID.test(endpointId) ? t.webhookEndpoints.get(endpointId.toLowerCase()) : undefined
        return e === undefined || e.account_id !== uuid(accountId) ? undefined : { url: e.url, secret: e.secret }
      })
  }))

/** `PortalReadStore` over the context's `MemoryDatabase`. */
export const layerMemory: Layer.Layer<PortalReadStore, never, MemoryDatabase> = Layer.effect(PortalReadStore, make)
