/**
 * 0209 — no per-endpoint private flag (issue 9 item 11): whether a webhook may reach a private or
 * loopback address is decided by the operator allow-list alone (`TUMA_WEBHOOK_ALLOW`), at
 * registration and at every delivery. An endpoint that relied on the flag now needs its address
 * on the allow-list (`tuma serve --demo-webhook` puts the demo URL's addresses there itself).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql.unsafe(`ALTER TABLE webhook_endpoints DROP COLUMN IF EXISTS allow_private;`)
)
