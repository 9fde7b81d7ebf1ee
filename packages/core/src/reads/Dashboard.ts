/**
 * The portal's dashboard, as a use case: an account's figures in a time zone — the credit balance
 * per country, the counts per message status today and on each of the last seven days (local days
 * of that zone), the delivery rate over those days, and the newest failures. Any backend that embeds
 * core gets the same figures as the portal.
 *
 *   dashboardOf(accountId, timeZone) — the figures; `ValidationFailed` on `tz` for an unknown zone
 */
import { MessageStatus } from "@tuma/domain/stateMachines"
import { validationFailed } from "@tuma/domain/validation"
import { Clock, Effect } from "effect"
import { isTimeZone } from "../portal/PortalAccess.js"
import { PortalReadStore } from "../ports/PortalReadStore.js"

/** Messages per status, and their total. */
export type StatusCounts = { readonly [K in MessageStatus | "total"]: number }

/** The counts of each status (a missing status is 0) and their total. */
export const countsOf = (by: Readonly<Record<string, number>>): StatusCounts => {
  const c: { -readonly [K in keyof StatusCounts]: number } = {
    scheduled: 0,
    queued: 0,
    processing: 0,
    sent: 0,
    delivered: 0,
    failed: 0,
    total: 0
  }
  for (const s of MessageStatus.literals) {
    c[s] = by[s] ?? 0
    c.total += c[s]
  }
  return c
}

/** `YYYY-MM-DD` of an instant in a zone. */
const localDay = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at)

const minusDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10)

/** Delivered and failed over the days, and the delivered share (4 decimals; null when none). */
const deliveryRate = (days: ReadonlyArray<{ readonly counts: StatusCounts }>) => {
  let delivered = 0
  let failed = 0
  for (const d of days) {
    delivered += d.counts.delivered
    failed += d.counts.failed
  }
  const rate = delivered + failed === 0 ? null : Math.round((delivered / (delivered + failed)) * 10_000) / 10_000
  return { delivered, failed, rate }
}

/** The dashboard of an account in a time zone (an IANA name), as of the clock's now. */
export const dashboardOf = (accountId: string, timeZone: string) =>
  Effect.gen(function*() {
    if (!isTimeZone(timeZone)) {
      return yield* Effect.fail(validationFailed({ tz: ["The tz must be an IANA time zone."] }))
    }
    const store = yield* PortalReadStore
    const now = new Date(yield* Clock.currentTimeMillis)
    const rows = yield* store.dashboard(accountId, timeZone, now)
    const today = localDay(now, timeZone)
    const byDay = new Map<string, Record<string, number>>()
    for (const r of rows.counts) {
      const m = byDay.get(r.day) ?? {}
      m[r.status] = r.n
      byDay.set(r.day, m)
    }
    const last7 = [6, 5, 4, 3, 2, 1, 0].map((n) => minusDays(today, n))
      .map((date) => ({ date, counts: countsOf(byDay.get(date) ?? {}) }))
    return {
      time_zone: timeZone,
      balances: rows.balances,
      today: countsOf(byDay.get(today) ?? {}),
      last_7_days: last7,
      delivery_rate: deliveryRate(last7),
      recent_failures: rows.failures.map((f) => ({
        uid: f.id,
        recipient: f.recipient,
        sender_id: f.sender_id,
        failure_reason: f.failure_reason,
        failed_at: f.failed_at === null ? null : f.failed_at.toISOString(),
        created_at: f.created_at.toISOString()
      }))
    }
  })
