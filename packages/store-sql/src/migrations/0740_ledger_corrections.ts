/**
 * 0740 — credit corrections (issue 15; numbered above every earlier migration): a correction is an
 * `adjustment` row of the wallet ledger like any other balance change (never an edit of a row), with
 * the operator's `reason` and, optionally, the row it corrects (`corrects_id`, a row of the same
 * wallet: `Admin.correctCredits` checks it). Runs on PostgreSQL 15+ and PGlite.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE wallet_ledger ADD COLUMN reason text;
ALTER TABLE wallet_ledger ADD COLUMN corrects_id bigint REFERENCES wallet_ledger (id);
`))
