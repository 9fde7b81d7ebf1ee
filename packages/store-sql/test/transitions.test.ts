/**
 * The SQL statements agree with the domain's transition tables (stateMachines.ts), on every SQL
 * driver: for every message status and every store operation that performs an event, a message is
 * put in that status and the operation run on it; the row must change exactly when the table allows
 * the operation's event (or its documented path of events) from that status, and then into the
 * state the table gives that event. The same for the
 * campaign `due` of `promoteScheduled`. A status condition written by hand in a statement, or one
 * that drifted from the table, fails here; the table itself is pinned by domain's
 * stateMachines.test.ts, so dropping or adding an allowed source fails there.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { CampaignStore } from "@tuma/core/ports/CampaignStore"
import type { DispatchBatch } from "@tuma/core/ports/DispatchStore"
import { DispatchStore } from "@tuma/core/ports/DispatchStore"
import type { CampaignStatus, MessageEvent } from "@tuma/domain"
import { MessageStatus, messageTransitions, sourcesOf, transitionCampaign, transitionMessage } from "@tuma/domain"
import { CampaignStatus as CampaignStatusSchema } from "@tuma/domain"
import { Effect, Either, Layer } from "effect"
import { MARKET_IDS } from "../src/migrations/0002_markets.js"
import * as SqlCampaignStore from "../src/SqlCampaignStore.js"
import * as SqlDispatchStore from "../src/SqlDispatchStore.js"
import * as fixtures from "./fixtures.js"
import { forEachDriver, type SqlDriverName } from "./harness.js"

/** The send stack (accounts, providers) with the SQL `DispatchStore` and the client, over one database. */
const stack = (db: Layer.Layer<SqlClient.SqlClient>, driver: SqlDriverName) =>
  Layer.mergeAll(
    fixtures.stack.sql(db, driver),
    Layer.merge(SqlDispatchStore.layer, SqlCampaignStore.layer).pipe(Layer.provide(db)),
    db
  )

/** Where the events, in order, lead from `status` (a path through the message table), if allowed. */
const follow = (status: MessageStatus, ...events: ReadonlyArray<MessageEvent>): MessageStatus | undefined => {
  let s: MessageStatus = status
  for (const e of events) {
    const next = transitionMessage(s, e)
    if (Either.isLeft(next)) return undefined
    s = next.right
  }
  return s
}

/** True when the events, in order, are allowed from `status`. */
const allows = (status: MessageStatus, ...events: ReadonlyArray<MessageEvent>): boolean =>
  follow(status, ...events) !== undefined

/** Before any provider accepted it: `accept` is still ahead (directly, or after `claim`). */
const beforeAcceptance = (s: MessageStatus) => allows(s, "accept") || allows(s, "claim", "accept")

interface Case {
  readonly operation: string
  /** Whether the table allows the operation from `status` (the event, or the documented path). */
  readonly allowed: (status: MessageStatus) => boolean
  /** The event whose target the table gives: the status the row must have when it changed. */
  readonly event: MessageEvent
  readonly run: (
    m: { readonly id: string; readonly providerId: string; readonly ref: string },
    now: Date
  ) => Effect.Effect<
    unknown,
    never,
    DispatchStore
  >
}

const apply = (batch: (now: Date) => Partial<DispatchBatch>) => (now: Date) =>
  Effect.flatMap(DispatchStore, (store) => store.apply({ ...fixtures.emptyBatch(now, "transitions"), ...batch(now) }))

const receipt = (state: "delivered" | "failed") => (m: { providerId: string; ref: string }, now: Date) =>
  apply(() => ({
    receipts: [{
      providerId: m.providerId,
      candidates: [m.ref],
      state,
      deliveryStatus: state === "delivered" ? "DELIVRD" : "UNDELIV",
      errorCode: null,
      failureReason: state === "failed" ? "Absent subscriber" : null,
      receivedAt: now
    }]
  }))(now)

const cases: ReadonlyArray<Case> = [
  {
    operation: "promoteScheduled (due)",
    event: "due",
    allowed: (s) => allows(s, "due"),
    run: (_, now) => Effect.flatMap(DispatchStore, (store) => store.promoteScheduled(now, 10_000))
  },
  {
    operation: "claim (claim, or release then claim when a lease expired)",
    event: "claim",
    allowed: (s) => allows(s, "claim") || allows(s, "release", "claim"),
    run: (_, now) =>
      Effect.flatMap(
        DispatchStore,
        (store) =>
          store.claim({ owner: "transitions", limit: 10_000, now, leaseUntil: new Date(now.getTime() + 60_000) })
      )
  },
  {
    operation: "apply requeued (release)",
    event: "release",
    allowed: (s) => allows(s, "release"),
    run: (m, now) => apply(() => ({ requeued: [{ messageId: m.id, availableAt: now, lastError: "busy" }] }))(now)
  },
  {
    operation: "apply sent (accept, after claim when still queued)",
    event: "accept",
    allowed: beforeAcceptance,
    run: (m, now) =>
      apply(() => ({
        sent: [{
          messageId: m.id,
          providerId: m.providerId,
          parts: [{ index: 0, providerMessageId: m.ref, ref: m.ref, state: "enroute" }],
          failureReason: null,
          unknown: null
        }]
      }))(now)
  },
  {
    operation: "apply failed (fail before acceptance)",
    event: "fail",
    allowed: (s) => allows(s, "fail") && beforeAcceptance(s),
    run: (m, now) =>
      apply(() => ({ failed: [{ messageId: m.id, reason: "No route", code: "NO_ROUTE", refund: false }] }))(now)
  },
  {
    operation: "apply receipts, delivered (deliver)",
    event: "deliver",
    allowed: (s) => allows(s, "deliver"),
    run: receipt("delivered")
  },
  {
    operation: "apply receipts, failed (fail after acceptance)",
    event: "fail",
    allowed: (s) => allows(s, "fail") && allows(s, "deliver"),
    run: receipt("failed")
  },
  {
    operation: "failUnconfirmed (fail after acceptance)",
    event: "fail",
    allowed: (s) => allows(s, "fail") && allows(s, "deliver"),
    run: (m, now) =>
      Effect.flatMap(DispatchStore, (store) => store.failUnconfirmed([{ messageId: m.id, reason: "Unconfirmed" }], now))
  }
]

forEachDriver(stack, (it) => {
  /** A message of the account in `status`, with a due queue row, a provider ref and a past schedule. */
  const seed = (
    accountId: string,
    providerId: string,
    status: MessageStatus,
    now: Date,
    campaignId: string | null = null
  ) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const id = crypto.randomUUID()
      const ref = fixtures.unique("ref")
      const past = new Date(now.getTime() - 60_000)
      yield* sql`INSERT INTO messages ${
        sql.insert({
          id,
          account_id: accountId,
          campaign_id: campaignId,
          market_id: MARKET_IDS.TZ,
          country: "TZ",
          recipient: fixtures.TZ1,
          sender_id: "TUMA",
          text: "hello",
          encoding: "GSM-7",
          parts: 1,
          units: 1,
          channel: "api",
          status,
          provider_id: providerId,
          provider_ref: ref,
          scheduled_at: past,
          created_at: past,
          queued_at: past,
          sent_at: past,
          updated_at: past
        })
      }`
      yield* sql`INSERT INTO dispatch_queue (message_id, account_id, available_at, created_at)
        VALUES (${id}, ${accountId}, ${past}, ${past})`
      return { id, providerId, ref, seededAt: past }
    }).pipe(Effect.orDie)

  const campaignStatus = (id: string) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ status: string }>`SELECT status FROM campaigns WHERE id = ${id}`)
      .pipe(
        Effect.map((rows) => rows[0]!.status),
        Effect.orDie
      )

  const statusOf = (id: string) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ status: string }>`SELECT status FROM messages WHERE id = ${id}`)
      .pipe(
        Effect.map((rows) => rows[0]!.status),
        Effect.orDie
      )

  const updatedAt = (id: string) =>
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ updated_at: Date }>`SELECT updated_at FROM messages WHERE id = ${id}`
    ).pipe(
      Effect.map((rows) => new Date(rows[0]!.updated_at)),
      Effect.orDie
    )

  /** No queue row is left due for the next case (claim takes every due row). */
  const clearQueue = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM dispatch_queue`).pipe(Effect.orDie)

  for (const c of cases) {
    it.effect(`${c.operation}: changes a message exactly from the statuses the table allows`, () =>
      Effect.gen(function*() {
        const { account, providerId } = yield* fixtures.setupAccount({ balances: { TZ: 100 }, sender: "TUMA" })
        const changed: Array<MessageStatus> = []
        const target = messageTransitions[sourcesOf(messageTransitions, c.event)[0]!][c.event]
        for (const status of MessageStatus.literals) {
          yield* clearQueue
          const now = new Date()
          const m = yield* seed(account.id, providerId!, status, now)
          yield* c.run(m, now)
          // every transition stamps updated_at (a re-claim keeps the status `processing`)
          if ((yield* updatedAt(m.id)).getTime() !== m.seededAt.getTime()) {
            changed.push(status)
            // …into the state the table's event leads to
            expect(yield* statusOf(m.id), `${c.operation} from ${status}`).toBe(target)
          }
        }
        yield* clearQueue
        expect(changed).toEqual(MessageStatus.literals.filter(c.allowed))
      }))
  }

  const insertCampaign = (accountId: string, status: CampaignStatus, now: Date) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const campaignId = crypto.randomUUID()
      yield* sql`INSERT INTO campaigns ${
        sql.insert({
          id: campaignId,
          account_id: accountId,
          api_version: "v1",
          name: "c",
          sender_id: "TUMA",
          status,
          recipient_count: 1,
          queued_count: 1,
          failed_count: 0,
          units: 1,
          scheduled_at: now,
          created_at: now,
          updated_at: now
        })
      }`.pipe(Effect.orDie)
      return campaignId
    })

  it.effect("cancel: changes a campaign exactly from the statuses the campaign table allows `cancel` from", () =>
    Effect.gen(function*() {
      const store = yield* CampaignStore
      const { account } = yield* fixtures.setupAccount({ balances: { TZ: 100 }, sender: "TUMA" })
      const changed: Array<CampaignStatus> = []
      for (const status of CampaignStatusSchema.literals) {
        const now = new Date()
        const campaignId = yield* insertCampaign(account.id, status, now)
        yield* store.cancel(account.id, campaignId, now)
        const after = yield* campaignStatus(campaignId)
        if (after !== status) {
          changed.push(status)
          expect(after).toBe(Either.getOrThrow(transitionCampaign(status, "cancel")))
        }
      }
      expect(changed).toEqual(
        CampaignStatusSchema.literals.filter((s) => Either.isRight(transitionCampaign(s, "cancel")))
      )
    }))

  it.effect("cancel: changes a cancelled campaign's messages exactly from the statuses the table allows `cancel` from", () =>
    Effect.gen(function*() {
      const store = yield* CampaignStore
      const { account, providerId } = yield* fixtures.setupAccount({ balances: { TZ: 100 }, sender: "TUMA" })
      const now = new Date()
      const campaignId = yield* insertCampaign(account.id, "scheduled", now)
      const seeded: Array<{ status: MessageStatus; id: string; seededAt: Date }> = []
      for (const status of MessageStatus.literals) {
        const m = yield* seed(account.id, providerId!, status, now, campaignId)
        seeded.push({ status, id: m.id, seededAt: m.seededAt })
      }
      yield* clearQueue
      yield* store.cancel(account.id, campaignId, now)
      const changed: Array<MessageStatus> = []
      for (const m of seeded) {
        if ((yield* updatedAt(m.id)).getTime() !== m.seededAt.getTime()) {
          changed.push(m.status)
          expect(yield* statusOf(m.id)).toBe(messageTransitions[m.status].cancel)
        }
      }
      expect(changed).toEqual(sourcesOf(messageTransitions, "cancel"))
    }))

  it.effect("promoteScheduled: starts a campaign exactly from the statuses the campaign table allows `due` from", () =>
    Effect.gen(function*() {
      const store = yield* DispatchStore
      const { account, providerId } = yield* fixtures.setupAccount({ balances: { TZ: 100 }, sender: "TUMA" })
      const changed: Array<CampaignStatus> = []
      for (const status of CampaignStatusSchema.literals) {
        yield* clearQueue
        const now = new Date()
        const campaignId = yield* insertCampaign(account.id, status, now)
        yield* seed(account.id, providerId!, "scheduled", now, campaignId)
        yield* store.promoteScheduled(now, 10_000)
        if ((yield* campaignStatus(campaignId)) !== status) changed.push(status)
      }
      yield* clearQueue
      expect(changed).toEqual(CampaignStatusSchema.literals.filter((s) => Either.isRight(transitionCampaign(s, "due"))))
    }))
})
