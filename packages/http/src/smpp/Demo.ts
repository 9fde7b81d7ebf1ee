/**
 * `tuma serve --demo --smpp-port N`: SMPP credentials of the demo account, system_id `demo` (live, the
 * default throughput), printed as `demo smpp login: demo <password>`. The password is stored hashed only,
 * so a later start rotates it and prints the new one: every start prints a login that works.
 */
import { SmppAccounts } from "@tuma/core"
import { Effect } from "effect"
import { demoAccountId } from "../runtime/WebhookWorkers.js"

/** The demo's system_id. */
export const DEMO_SMPP_SYSTEM_ID = "demo"

/** Ensures the demo account's SMPP credentials; their login, or undefined when the store has no demo account. */
export const seedDemoSmpp = Effect.gen(function*() {
  const accountId = yield* demoAccountId
  if (accountId === undefined) return undefined
  const accounts = yield* SmppAccounts
  const existing = (yield* accounts.list(accountId)).find((a) => a.system_id === DEMO_SMPP_SYSTEM_ID)
  const login = existing === undefined
    ? yield* accounts.create({ account_uid: accountId, system_id: DEMO_SMPP_SYSTEM_ID, mode: "live" })
    : yield* accounts.rotatePassword(existing.uid)
  return { systemId: login.system_id, password: login.password }
}).pipe(Effect.orDie)
