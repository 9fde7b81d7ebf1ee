/** Scheduled messages (and their campaigns) that came due, moved to the queue. */
import type { DispatchStore } from "@tuma/core/ports/DispatchStore"
import { Effect, Schema } from "effect"
import { findOne } from "../rows.js"
import { Campaign, CampaignTarget, inList, Message, MessageTarget } from "../statusConditions.js"
import { type Db, field } from "./query.js"

const count = findOne(Schema.Struct({ n: Schema.Number }))

export const promoteScheduled = ({ q }: Db): DispatchStore["Type"]["promoteScheduled"] => (now, limit) =>
  count(q(
    `WITH due AS (
  SELECT id FROM messages WHERE ${inList("status", Message.scheduled)} AND scheduled_at <= $1
  ORDER BY scheduled_at LIMIT $2 FOR UPDATE SKIP LOCKED
), moved AS (
  UPDATE messages m SET status = ${MessageTarget.due}, queued_at = GREATEST($1, m.created_at), updated_at = $1
  FROM due WHERE m.id = due.id
  RETURNING m.id, m.account_id, m.campaign_id
), queued AS (
  INSERT INTO dispatch_queue (message_id, account_id, available_at, created_at)
  SELECT id, account_id, $1, $1 FROM moved
  ON CONFLICT (message_id) DO NOTHING
), camp AS (
  UPDATE campaigns SET status = ${CampaignTarget.due}, updated_at = $1
  WHERE ${inList("status", Campaign.scheduled)} AND id IN (SELECT campaign_id FROM moved WHERE campaign_id IS NOT NULL)
)
SELECT count(*)::int AS n FROM moved`,
    [now, limit]
  )).pipe(Effect.map((row) => field(row, "n", 0)), Effect.orDie)
