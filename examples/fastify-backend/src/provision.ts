/**
 * Creating an organisation's Tuma account. In production Tuma's operators (admin API or the
 * `tuma` CLI) buy credit, verify routes and approve sender IDs; the example does it through the
 * `Operator` use cases so it runs on its own.
 */
import { Operator } from "@tuma/core"
import { Effect } from "effect"
import type { Organisation } from "./users.js"

export const provisionOrganisation = (input: {
  readonly name: string
  readonly email: string
  readonly credits: number
  readonly senderId: string
}): Effect.Effect<Organisation, unknown, Operator> =>
  Effect.gen(function*() {
    const operator = yield* Operator
    const account = yield* operator.createAccount({ name: input.name, email: input.email })
    const key = yield* operator.issueApiKey({ accountId: account.id, mode: "live", name: "fastify-backend" })
    if (input.credits > 0) {
      yield* operator.purchaseCredits({ accountId: account.id, country: "TZ", units: input.credits })
    }
    yield* operator.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255700000001" })
    yield* operator.grantSenderId({ accountId: account.id, senderId: input.senderId, country: "TZ" })
    return { name: input.name, tumaAccountId: account.id, tumaApiKeyId: key.id, senderId: input.senderId }
  })

/** A carrier route with credit for Tanzania (once per store). */
export const provisionCarrier = Effect.flatMap(
  Operator,
  (operator) => operator.addProvider({ name: `carrier-${Date.now()}`, routes: [{ country: "TZ", credit: 100_000 }] })
)
