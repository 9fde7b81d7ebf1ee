/**
 * SQL adapter of `CampaignStore` (core/src/ports/CampaignStore.ts), PostgreSQL and PGlite: cancelling
 * a scheduled campaign in one transaction. The campaign row is taken first (`FOR UPDATE`), so the
 * scheduler promoting it at the same moment and a cancellation never both win: the scheduler's
 * statement takes the messages `FOR UPDATE SKIP LOCKED` and only moves messages still `scheduled`;
 * whatever it moved first is no longer cancellable and is not refunded here. Status conditions and
 * the states set come from the domain's tables (statusConditions.ts).
 */
import { SqlClient } from "@effect/sql"
import { CampaignStore, CancelCampaignOutcome } from "@tuma/core/ports/CampaignStore"
import { Effect, Layer, Schema } from "effect"
import * as Query from "./dispatch/query.js"
import { refund } from "./dispatch/results.js"
import { decoders, findAll, isUuid } from "./rows.js"
import { transaction } from "./SqlRetry.js"
import { Campaign, CampaignTarget, inList, Message, MessageTarget } from "./statusConditions.js"

const campaignRow = findAll(Schema.Struct({ status: Schema.String }))
const Cancelled = decoders(Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  market_id: Schema.String,
  units: Schema.Number
}))

/** The failure a cancelled campaign's messages carry. */
export const CANCELLED_REASON = "The campaign was cancelled before its scheduled time."

/** The SQL `CampaignStore` over the context's `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const db = yield* Query.make

  const cancel = (accountId: string, campaignId: string, now: Date) =>
    Effect.gen(function*() {
      const found = yield* campaignRow(db.q(
        `SELECT status FROM campaigns WHERE id = $1 AND account_id = $2 FOR UPDATE`,
        [campaignId, accountId]
      ))
      if (found.length === 0) return CancelCampaignOutcome.NotFound()
      const status = found[0].status
      if (!Campaign.cancellable.some((s) => s === status)) return CancelCampaignOutcome.NotCancellable({ status })
      yield* db.q(
        `UPDATE campaigns SET status = ${CampaignTarget.cancel}, updated_at = $2 WHERE id = $1 AND ${
          inList("status", Campaign.cancellable)
        }`,
        [campaignId, now]
      )
      const rows = yield* Cancelled.all(db.q(
        `UPDATE messages m SET status = ${MessageTarget.cancel}, failed_at = GREATEST($2, m.created_at),
  failure_reason = $3,
  failure_context = jsonb_build_object('error_code', 'CANCELLED', 'acceptance_state', 'DEFINITELY_NOT_ACCEPTED'),
  updated_at = $2
WHERE m.campaign_id = $1 AND ${inList("m.status", Message.cancellable)}
RETURNING m.id, m.account_id, m.market_id, m.units`,
        [campaignId, now, CANCELLED_REASON]
      ))
      yield* refund(db)(rows, now, "campaign cancelled")
      yield* db.q(`DELETE FROM dispatch_queue WHERE message_id = ANY($1::uuid[])`, [rows.map((r) => r.id)])
      return CancelCampaignOutcome.Cancelled({
        messages: rows.length,
        units: rows.reduce((n, r) => n + r.units, 0)
      })
    })

  return CampaignStore.of({
    cancel: (accountId, campaignId, now) =>
      !isUuid(campaignId)
        ? Effect.succeed(CancelCampaignOutcome.NotFound())
        : transaction(5)(cancel(accountId, campaignId, now)).pipe(
          Effect.provideService(SqlClient.SqlClient, sql),
          Effect.orDie
        )
  })
})

/** `CampaignStore` on SQL. */
export const layer: Layer.Layer<CampaignStore, never, SqlClient.SqlClient> = Layer.effect(CampaignStore, make)
