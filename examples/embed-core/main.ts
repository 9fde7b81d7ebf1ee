/**
 * Tuma's rules inside your own backend, without the HTTP package: wire a store, set an account up
 * as an operator would, send a personalised campaign and print what was charged.
 *
 *   pnpm --filter @tuma/example-embed-core start          # embedded PGlite, in memory
 *   TUMA_DATA_DIR=./.tuma/embed pnpm --filter @tuma/example-embed-core start   # PGlite, persistent
 *   TUMA_STORE=memory pnpm --filter @tuma/example-embed-core start  # core's memory adapters, no database
 *
 * Swap `Database.pglite(...)` for `Database.postgres(url)` to run the same code on PostgreSQL.
 */
import { Ids, Memory, Operator, Send } from "@tuma/core"
import { Database, SqlContentCounter, SqlOperatorStore, SqlSendStore } from "@tuma/store-sql"
import { Effect, Layer } from "effect"

/** The services a backend needs: `Send` (use cases) and `Operator` (set-up), over one database. */
export const TumaLayer = (dataDir: string) =>
  Layer.mergeAll(Send.layer, Operator.layer).pipe(
    Layer.provide(Layer.mergeAll(SqlSendStore.layer, SqlOperatorStore.layer, SqlContentCounter.layer)),
    Layer.provide(Ids.layer),
    Layer.provide(Database.layer(Database.pglite(dataDir)))
  )

export const program = Effect.gen(function*() {
  const operator = yield* Operator
  const send = yield* Send

  // 1. an account ready to send in Tanzania: credit, a verified route, an approved sender ID, a carrier
  const account = yield* operator.createAccount({ name: "Duka la Mama", email: `owner+${Date.now()}@duka.example` })
  const key = yield* operator.issueApiKey({ accountId: account.id, mode: "live" })
  const purchase = yield* operator.purchaseCredits({ accountId: account.id, country: "TZ", units: 500 })
  yield* operator.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255712000001" })
  yield* operator.grantSenderId({ accountId: account.id, senderId: "DukaMama", country: "TZ" })
  yield* operator.addProvider({ name: `carrier-${Date.now()}`, routes: [{ country: "TZ", credit: 10_000 }] })

  // 2. a personalised campaign (bulk v2): tags, arithmetic, a duplicate number and an emoji
  const campaign = yield* send.bulkV2(
    { accountId: account.id, apiKeyId: key.id, mode: "live", idempotencyKey: "newsletter-2026-03" },
    {
      campaign_name: "March reminder",
      sender_id: "DukaMama",
      message: "Habari {name}! Deni lako ni {= total - paid } TZS. Asante 🙏",
      recipients: [
        { to: "+255 712 345 678", name: "Asha", total: 25000, paid: 5000 },
        { to: "+255713345678", name: "Juma", total: 12000, paid: 12000 },
        { to: "+255712345678", name: "Asha again" },
        "+255714345678"
      ]
    }
  ).pipe(Effect.catchTag("ValidationFailed", (e) => Effect.die(e)))

  return { account, startingBalance: purchase.balance, campaign: campaign.data }
})

/** The same services over core's in-memory adapters: no database at all (one process, nothing kept). */
export const TumaMemoryLayer = Layer.mergeAll(Send.layer, Operator.layer).pipe(
  Layer.provide(Memory.layer),
  Layer.provide(Ids.layer)
)

export const main = (dataDir = process.env.TUMA_DATA_DIR ?? "memory://", store = process.env.TUMA_STORE) =>
  program.pipe(Effect.provide(store === "memory" ? TumaMemoryLayer : TumaLayer(dataDir)))

if (import.meta.url === `file://${process.argv[1]}`) {
  Effect.runPromise(main()).then(({ campaign, startingBalance }) => {
    console.log(`Campaign "${campaign.name}" (${campaign.uid}): ${campaign.status}`)
    console.log(`  ${campaign.queued_count} of ${campaign.recipient_count} recipients queued`)
    for (const m of campaign.messages) console.log(`  ${m.recipient}  ${m.units} unit(s)  ${m.message_uid}`)
    for (const f of campaign.failures) {
      console.log(`  skipped #${f.index} ${f.recipient}: ${f.error_code} — ${f.reason}`)
    }
    for (const c of campaign.charges) console.log(`Charged ${c.units} unit(s) to the ${c.country} wallet`)
    console.log(`Balance: ${startingBalance} → ${startingBalance - campaign.units} units`)
  }, (e) => {
    console.error(e)
    process.exit(1)
  })
}
