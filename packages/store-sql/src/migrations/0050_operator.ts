/**
 * 0050 — operator surface (store range 0001–0099): the reason an operator gave when suspending a
 * sender ID (decisions §18; a rejection's reason stays in `rejection_reason`), and the index the
 * operator's account search and sender-ID review queue read.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE sender_ids ADD COLUMN suspension_reason text;
CREATE INDEX sender_ids_status_requested_idx ON sender_ids (status, requested_at DESC);
CREATE INDEX sender_ids_account_requested_idx ON sender_ids (account_id, requested_at DESC);
`))
