/**
 * Cancelling a scheduled campaign (core `Campaigns.cancelCampaign` over `SqlCampaignStore`), on
 * PGlite and PostgreSQL: the campaign becomes `cancelled`, each scheduled message `failed` with
 * `CANCELLED`, every unit goes back to its wallet with a `refund` ledger entry (the ledger still sums
 * to the balance); a campaign that started, one already cancelled, another account's and an unknown
 * one change nothing. The campaign table decides (IllegalTransition, 409), the store applies.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Campaigns, Send } from "@tuma/core"
import { DispatchStore } from "@tuma/core/ports/DispatchStore"
import { Effect, Layer, TestClock } from "effect"
import * as SqlCampaignStore from "../src/SqlCampaignStore.js"
import * as SqlDispatchStore from "../src/SqlDispatchStore.js"
import { setupAccount, stack, stateOf, TZ1, TZ2, TZ3 } from "./fixtures.js"
import { forEachDriver, type SqlDriverName } from "./harness.js"
import { Probe } from "./probe.js"

const NOW = Date.parse("2026-03-01T10:00:00Z")

const layers = (db: Layer.Layer<SqlClient.SqlClient>, driver: SqlDriverName) =>
  Layer.mergeAll(
    stack.sql(db, driver),
    Layer.merge(SqlCampaignStore.layer, SqlDispatchStore.layer).pipe(Layer.provide(db)),
    db
  )

forEachDriver(layers, (it) => {
  const scheduledCampaign = (recipients: ReadonlyArray<string>, balance = 10) =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const send = yield* Send
      const setup = yield* setupAccount({ balances: { TZ: balance } })
      const out = yield* send.bulkV2(setup.caller, {
        recipients: [...recipients],
        message: "Sale on Saturday",
        sender_id: "TUMA",
        scheduled_at: new Date(NOW + 3600_000).toISOString()
      })
      return { ...setup, campaignId: out.data.uid }
    })

  const ledger = (accountId: string) =>
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql<{ kind: string; units: number; reference: string | null }>`SELECT kind, units, reference FROM wallet_ledger
        WHERE account_id = ${accountId} AND kind = 'refund' ORDER BY created_at`
    ).pipe(Effect.orDie)

  it.effect("a scheduled campaign: cancelled, its messages failed CANCELLED, every unit refunded", () =>
    Effect.gen(function*() {
      const { account, campaignId } = yield* scheduledCampaign([TZ1, TZ2, TZ3])
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 7 })
      const cancelled = yield* Campaigns.cancelCampaign(account.id, campaignId)
      expect(cancelled).toEqual({ messages: 3, units: 3 })
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 10, ledger: 10, negative: 0 })
      expect(yield* Effect.flatMap(Probe, (p) => p.ledgerMismatches(account.id))).toBe(0)
      expect((yield* ledger(account.id)).map((r) => [r.units, r.reference])).toEqual([
        [1, "campaign cancelled"],
        [1, "campaign cancelled"],
        [1, "campaign cancelled"]
      ])
      const messages = yield* Effect.flatMap(Probe, (p) => p.campaignMessages(campaignId))
      expect(messages.map((m) => m.status)).toEqual(["failed", "failed", "failed"])
      const sql = yield* SqlClient.SqlClient
      const [c] = yield* sql<{ status: string }>`SELECT status FROM campaigns WHERE id = ${campaignId}`
      expect(c.status).toBe("cancelled")
      const codes = yield* sql<{ code: string }>`SELECT failure_context->>'error_code' AS code FROM messages
        WHERE campaign_id = ${campaignId}`
      expect(codes.map((r) => r.code)).toEqual(["CANCELLED", "CANCELLED", "CANCELLED"])
      // its time comes: nothing is promoted any more
      yield* Effect.flatMap(DispatchStore, (d) => d.promoteScheduled(new Date(NOW + 7200_000), 100))
      expect(yield* stateOf(account.id)).toMatchObject({ queued: 0, balance: 10 })
    }).pipe(Effect.orDie))

  it.effect("twice, started, another account's, unknown: refused, nothing changes", () =>
    Effect.gen(function*() {
      const { account, campaignId } = yield* scheduledCampaign([TZ1, TZ2])
      const other = yield* setupAccount()
      const notFound = yield* Effect.flip(Campaigns.cancelCampaign(other.account.id, campaignId))
      expect(notFound.error_code).toBe("NOT_FOUND")
      expect((yield* Effect.flip(Campaigns.cancelCampaign(account.id, "not-a-uuid"))).error_code).toBe("NOT_FOUND")
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 8 })

      yield* Campaigns.cancelCampaign(account.id, campaignId)
      const again = yield* Effect.flip(Campaigns.cancelCampaign(account.id, campaignId))
      expect(again).toMatchObject({ error_code: "ILLEGAL_TRANSITION", from: "cancelled", event: "cancel" })
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 10, ledger: 10 })

      // a campaign whose time came (promoted to queued) can no longer be cancelled
      const started = yield* scheduledCampaign([TZ1], 5)
      yield* Effect.flatMap(DispatchStore, (d) => d.promoteScheduled(new Date(NOW + 7200_000), 100))
      const late = yield* Effect.flip(Campaigns.cancelCampaign(started.account.id, started.campaignId))
      expect(late).toMatchObject({ error_code: "ILLEGAL_TRANSITION", from: "queued" })
      expect(yield* stateOf(started.account.id)).toMatchObject({ balance: 4, queued: 1 })
    }).pipe(Effect.orDie))
})
