/**
 * `tuma serve --demo`: on an empty store, a demo account ready to send to Tanzania — route
 * verified, 1,000 TZ credits, approved sender ID `TUMA`, a simulated provider with credit — and a
 * live and a sandbox key, returned once (they are never stored in clear); its inbound number
 * `DEMO_NUMBER` (two-way SMS).
 */
import { SqlClient } from "@effect/sql"
import { Operator } from "@tuma/core"
import { Effect } from "effect"

export interface DemoKeys {
  readonly accountId: string
  readonly liveKey: string
  readonly sandboxKey: string
}

export const DEMO_EMAIL = "demo@tuma.example"

/** The demo account's inbound number (two-way SMS). */
export const DEMO_NUMBER = "+255700123456"

/** Seeds the demo account if the store has no account yet; `undefined` when it already had one. */
export const seedDemo: Effect.Effect<DemoKeys | undefined, unknown, Operator | SqlClient.SqlClient> = Effect.gen(
  function*() {
    const sql = yield* SqlClient.SqlClient
    const [{ exists }] = yield* sql<{ exists: boolean }>`SELECT EXISTS (SELECT 1 FROM accounts) AS exists`
    if (exists) return undefined
    const operator = yield* Operator
    const account = yield* operator.createAccount({
      name: "Demo Company",
      email: DEMO_EMAIL,
      phone: "+255700000001",
      country: "TZ",
      phoneVerified: true
    })
    yield* operator.setMarketOpen("TZ", true)
    yield* operator.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255700000001" })
    yield* operator.purchaseCredits({
      accountId: account.id,
      country: "TZ",
      units: 1000,
      amount: "0.00",
      currency: "TZS",
      reference: "demo"
    })
    yield* operator.grantSenderId({ accountId: account.id, senderId: "TUMA", country: "TZ", isDefault: true })
    yield* operator.addProvider({
      name: "demo-simulated",
      kind: "simulated",
      routes: [{ country: "TZ", credit: 1_000_000 }]
    })
    // two-way SMS: the demo account's own number (send from it to +255700000500: the simulated
    // handset answers a second later, docs/inbound.md)
    yield* sql`INSERT INTO inbound_numbers (id, account_id, number, address_key, created_at, updated_at)
      VALUES (gen_random_uuid(), ${account.id}, ${DEMO_NUMBER}, ${DEMO_NUMBER.slice(1)}, now(), now())`
    const live = yield* operator.issueApiKey({ accountId: account.id, mode: "live", name: "demo live" })
    const sandbox = yield* operator.issueApiKey({ accountId: account.id, mode: "test", name: "demo sandbox" })
    return { accountId: account.id, liveKey: live.key, sandboxKey: sandbox.key }
  }
)
