/**
 * `tuma serve --demo`: a console admin, `operator@tuma.example`, whose password is derived from
 * the demo account's random id (the same on every start of the same data directory), printed as
 * `demo console login: <email> <password>`. Being an admin, it enrols TOTP at its first sign-in.
 */
import { SqlClient } from "@effect/sql"
import { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { DEMO_EMAIL } from "../cli/Demo.js"

/** The demo console admin's e-mail. */
export const DEMO_OPERATOR_EMAIL = "operator@tuma.example"

/** Ensures the demo console admin; undefined when the store has no demo account. */
export const seedDemoOperator = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [account] = yield* sql<{ id: string }>`SELECT id FROM accounts WHERE email = ${DEMO_EMAIL}`.pipe(Effect.orDie)
  if (account === undefined) return undefined
  const password = `console-${
    createHash("sha256").update(`${account.id}:tuma-demo-console`).digest("base64url").slice(0, 16)
  }`
  const access = yield* OperatorAccess
  yield* Effect.orDie(access.ensure({ email: DEMO_OPERATOR_EMAIL, role: "admin", password, name: "Demo Operator" }))
  return { email: DEMO_OPERATOR_EMAIL, password }
})
