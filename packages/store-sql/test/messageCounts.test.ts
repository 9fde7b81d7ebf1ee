/**
 * The count rollup (migration 0980, `messageCounts.ts`) against `count(*)` over `messages`, on PGlite
 * and PostgreSQL: after inserts in one statement and many, status moves (one row, a batch, an update
 * that moves nothing), deletes, before and after a fold, for every filter the list and the dashboard
 * ask. A rollup that missed a write, counted a no-op update or lost a delta in the fold fails here.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { PortalReadStore } from "@tuma/core/ports/PortalReadStore"
import type { MessageListFilter } from "@tuma/core/ports/ReadStore"
import { ReadStore } from "@tuma/core/ports/ReadStore"
import { Effect, Layer, Schema } from "effect"
import * as MessageCounts from "../src/messageCounts.js"
import * as SqlPortalReadStore from "../src/SqlPortalReadStore.js"
import type { SqlLayerFor } from "./harness.js"
import { forEachDriver } from "./harness.js"
import type { OperatorStack } from "./operatorFixtures.js"
import { newAccount, operatorStack, seedCampaign, seedMessage } from "./operatorFixtures.js"

const stack: SqlLayerFor<OperatorStack | PortalReadStore | SqlClient.SqlClient> = (db, driver) =>
  SqlPortalReadStore.layer.pipe(Layer.provideMerge(Layer.merge(operatorStack.sql(db, driver), db)))

const STATUSES = ["queued", "processing", "sent", "delivered", "failed"] as const
const CHANNELS = ["api", "web"] as const
const day = (d: number, h = 0) => new Date(Date.UTC(2026, 4, d, h))

/** `count(*)` over `messages` for `f` (the reference). */
const counted = (f: MessageListFilter) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const clauses = [sql`account_id = ${f.accountId}`]
    if (f.status !== undefined) clauses.push(sql`status = ${f.status}`)
    if (f.channel !== undefined) clauses.push(sql`channel = ${f.channel}`)
    if (f.createdFrom !== undefined) clauses.push(sql`created_at >= ${f.createdFrom}`)
    if (f.createdBefore !== undefined) clauses.push(sql`created_at < ${f.createdBefore}`)
    const rows = yield* sql<{ n: string | number }>`SELECT count(*) AS n FROM messages WHERE ${sql.and(clauses)}`
    return Number(rows[0].n)
  })

const deltaRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ n: string | number }>`SELECT count(*) AS n FROM message_count_deltas`
  return Number(rows[0].n)
})

/** Every filter of the list over the seeded days, checked against `count(*)`. */
const expectAllFiltersExact = (accountId: string) =>
  Effect.gen(function*() {
    const store = yield* ReadStore
    const filters: Array<MessageListFilter> = [{ accountId }]
    for (const status of STATUSES) filters.push({ accountId, status })
    for (const channel of [...CHANNELS, "smpp" as const]) filters.push({ accountId, channel })
    filters.push({ accountId, status: "delivered", channel: "web" })
    filters.push({ accountId, createdFrom: day(2), createdBefore: day(4) })
    filters.push({ accountId, status: "failed", createdFrom: day(3) })
    filters.push({ accountId, createdBefore: day(3), channel: "api" })
    for (const f of filters) {
      expect(MessageCounts.countable(f)).toBe(true)
      expect({ f, n: yield* store.countMessages(f) }).toEqual({ f, n: yield* counted(f) })
    }
    return filters.length
  })

forEachDriver(stack, (it) => {
  it.effect("meta.total from the rollup equals count(*) after inserts, status moves and deletes, folded or not", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const account = yield* newAccount()
      const other = yield* newAccount()
      const accountId = account.uid
      // one message at a time, over four days and several hours, every status and channel
      for (let i = 0; i < 24; i++) {
        yield* seedMessage({
          accountId,
          createdAt: day(1 + (i % 4), (i * 5) % 24),
          status: STATUSES[i % STATUSES.length],
          channel: CHANNELS[i % CHANNELS.length]
        })
      }
      yield* seedMessage({ accountId: other.uid, createdAt: day(2), status: "delivered" })
      expect(yield* expectAllFiltersExact(accountId)).toBeGreaterThan(10)

      // a batch moves in one statement (the delivery writer's shape), and an update that moves nothing
      yield* sql`UPDATE messages SET status = 'sent' WHERE account_id = ${accountId} AND status = 'processing'`
      yield* sql`UPDATE messages SET status = 'delivered' WHERE account_id = ${accountId} AND status = 'sent'
        AND channel <> 'web'`
      const before = yield* deltaRows
      yield* sql`UPDATE messages SET updated_at = updated_at WHERE account_id = ${accountId}`
      expect(yield* deltaRows).toBe(before) // no status moved: no delta
      yield* expectAllFiltersExact(accountId)

      // folded: the deltas are gone, the counts unchanged
      expect(yield* MessageCounts.fold(sql)).toBeGreaterThan(0)
      expect(yield* deltaRows).toBe(0)
      yield* expectAllFiltersExact(accountId)

      // more moves after the fold, and a delete, read across both tables
      yield* sql`UPDATE messages SET status = 'failed' WHERE account_id = ${accountId} AND status = 'queued'`
      yield* sql`DELETE FROM messages WHERE account_id = ${accountId} AND channel = 'web' AND status = 'failed'`
      yield* expectAllFiltersExact(accountId)
      yield* MessageCounts.fold(sql)
      yield* expectAllFiltersExact(accountId)
      // the other account's counts are its own
      expect(yield* (yield* ReadStore).countMessages({ accountId: other.uid })).toBe(1)
    }))

  it.effect("a campaign, or bounds inside an hour, are counted over the messages, exactly", () =>
    Effect.gen(function*() {
      const store = yield* ReadStore
      const account = yield* newAccount()
      const accountId = account.uid
      const campaignId = yield* seedCampaign(accountId, "Week", day(1))
      yield* seedMessage({ accountId, campaignId, createdAt: day(1, 10) })
      yield* seedMessage({ accountId, createdAt: new Date(day(1, 10).getTime() + 30 * 60_000) })
      const inHour: MessageListFilter = {
        accountId,
        createdFrom: new Date(day(1, 10).getTime() + 60_000)
      }
      expect(MessageCounts.countable(inHour)).toBe(false)
      expect(yield* store.countMessages(inHour)).toBe(1)
      const byCampaign: MessageListFilter = { accountId, campaignId }
      expect(MessageCounts.countable(byCampaign)).toBe(false)
      expect(yield* store.countMessages(byCampaign)).toBe(1)
    }))

  it.effect("the dashboard's week from the rollup equals its count(*) in a whole-hour zone and a half-hour one", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const reads = yield* PortalReadStore
      const account = yield* newAccount()
      const accountId = account.uid
      // the week is the database's current one: the rollup keeps the last ten days as hours
      const now = new Date(Math.floor(Date.now() / 60_000) * 60_000)
      for (let i = 0; i < 30; i++) {
        yield* seedMessage({
          accountId,
          createdAt: new Date(now.getTime() - ((i * 7) % (8 * 24)) * 3_600_000 - ((i * 13) % 60) * 60_000),
          status: STATUSES[i % STATUSES.length]
        })
      }
      yield* MessageCounts.fold(sql)
      yield* sql`UPDATE messages SET status = 'delivered' WHERE account_id = ${accountId} AND status = 'sent'`
      const Week = Schema.Array(Schema.Struct({ day: Schema.String, status: Schema.String, n: Schema.Number }))
      for (const zone of ["Africa/Dar_es_Salaam", "UTC", "America/New_York", "Asia/Kolkata"]) {
        const reference = yield* sql<{ day: string; status: string; n: number }>`
          SELECT to_char((created_at AT TIME ZONE ${zone})::date, 'YYYY-MM-DD') AS day, status, count(*)::int AS n
          FROM messages WHERE account_id = ${accountId}
            AND created_at >= ((((${now}::timestamptz AT TIME ZONE ${zone})::date - 6)::timestamp) AT TIME ZONE ${zone})
          GROUP BY 1, 2`
        const key = (r: { day: string; status: string }) => `${r.day} ${r.status}`
        const sorted = (rows: ReadonlyArray<{ day: string; status: string; n: number }>) =>
          [...Schema.decodeUnknownSync(Week)(rows)].sort((a, b) => key(a).localeCompare(key(b)))
        expect({ zone, counts: sorted((yield* reads.dashboard(accountId, zone, now)).counts) })
          .toEqual({ zone, counts: sorted(reference) })
        // the rollup answers every whole-hour zone; a half-hour one is counted
        expect(yield* MessageCounts.weekInRollup(sql, zone, now)).toBe(zone !== "Asia/Kolkata")
      }
      // a week older than the rollup's hours is counted over the messages, not read from days
      expect(yield* MessageCounts.weekInRollup(sql, "UTC", new Date(now.getTime() - 30 * 86_400_000))).toBe(false)
    }))

  it.effect("hours older than ten days become one row per day, and counts of whole days stay exact", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const store = yield* ReadStore
      const account = yield* newAccount()
      const accountId = account.uid
      const today = Math.floor(Date.now() / 86_400_000) * 86_400_000
      const old = today - 40 * 86_400_000
      const ids: Array<string> = []
      for (let i = 0; i < 12; i++) {
        ids.push(yield* seedMessage({ accountId, createdAt: new Date(old + (i * 5 + 1) * 3_600_000 + i * 60_000) }))
      }
      yield* seedMessage({ accountId, createdAt: new Date(today + 3_600_000), status: "sent" })
      yield* MessageCounts.fold(sql)
      const rows = yield* sql<{ hour: Date; n: string | number }>`SELECT hour, n FROM message_counts
        WHERE account_id = ${accountId} ORDER BY hour`
      // 12 messages over 3 old days: three day rows at midnight; today's message keeps its hour
      expect(rows.map((r) => new Date(r.hour).getUTCHours())).toEqual([0, 0, 0, 1])
      const filters: Array<MessageListFilter> = [
        { accountId },
        { accountId, status: "queued" },
        { accountId, createdFrom: new Date(old + 86_400_000) },
        { accountId, createdFrom: new Date(old), createdBefore: new Date(old + 2 * 86_400_000) }
      ]
      const exact = Effect.forEach(filters, (f) =>
        Effect.gen(function*() {
          expect({ f, n: yield* store.countMessages(f) }).toEqual({ f, n: yield* counted(f) })
        }))
      yield* exact
      // a late receipt moves an old message: its delta folds into its day
      yield* sql`UPDATE messages SET status = 'delivered' WHERE id IN ${sql.in(ids.slice(0, 5))}`
      yield* exact
      yield* MessageCounts.fold(sql)
      yield* exact
      expect(
        (yield* sql`SELECT 1 FROM message_counts WHERE account_id = ${accountId}
        AND hour < ${new Date(today - 10 * 86_400_000)}::timestamptz AT TIME ZONE 'UTC'
        AND hour <> date_trunc('day', hour)`).length
      ).toBe(0)
      // an hour bound is not a whole day: counted over the messages
      expect(MessageCounts.countable({ accountId, createdFrom: new Date(old + 3_600_000) })).toBe(false)
    }))
})
