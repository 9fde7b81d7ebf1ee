/**
 * 0003 — idempotency responses as `json`, not `jsonb`: `json` keeps the text as written, so a
 * replay answers exactly the bytes of the first answer (jsonb would reorder the keys).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`ALTER TABLE idempotency_records ALTER COLUMN response TYPE json USING response::json`
)
