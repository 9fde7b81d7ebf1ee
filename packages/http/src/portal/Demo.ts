/**
 * `tuma serve --demo`: the demo account's portal owner, `demo@tuma.example`, whose password is
 * derived from the demo account's random id — the same on every start of the same data
 * directory, different for every new one — and printed as `demo portal login: <email> <password>`.
 */
import { SqlClient } from "@effect/sql"
import { PortalAccess } from "@tuma/core/portal/PortalAccess"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { DEMO_EMAIL } from "../cli/Demo.js"

export const demoPortalPassword = (accountId: string) =>
  `demo-${createHash("sha256").update(`${accountId}:tuma-demo-portal`).digest("base64url").slice(0, 16)}`

/** Ensures the demo portal owner; undefined when the store has no demo account. */
export const seedDemoPortalUser = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [account] = yield* sql<{ id: string }>`SELECT id FROM accounts WHERE email = ${DEMO_EMAIL}`.pipe(Effect.orDie)
  if (account === undefined) return undefined
  const access = yield* PortalAccess
  const password = demoPortalPassword(account.id)
  yield* access.ensureUser({ accountId: account.id, email: DEMO_EMAIL, password, role: "owner", name: "Demo Owner" })
  return { email: DEMO_EMAIL, password }
})
