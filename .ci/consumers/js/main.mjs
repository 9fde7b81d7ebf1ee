// Consumer 1: a plain Node ESM JavaScript program using the installed @tuma/core and @tuma/store-sql
// tarballs (no TypeScript, no tsx). It wires the embedded store, sets up an account, sends one SMS
// and a bulk-v2 campaign, prints what was charged and exits non-zero when a figure is not expected.
import { Ids, Operator, Reads, Send } from "@tuma/core"
import { Database, SqlContentCounter, SqlOperatorStore, SqlReadStore, SqlSendStore } from "@tuma/store-sql"
import { Effect, Layer, ManagedRuntime } from "effect"

const runtime = ManagedRuntime.make(
  Layer.mergeAll(Send.layer, Reads.layer, Operator.layer).pipe(
    Layer.provide(Layer.mergeAll(SqlSendStore.layer, SqlReadStore.layer, SqlOperatorStore.layer, SqlContentCounter.layer)),
    Layer.provide(Ids.layer),
    Layer.provide(Database.layer(Database.pglite("memory://")))
  )
)

const program = Effect.gen(function*() {
  const operator = yield* Operator
  const send = yield* Send
  const reads = yield* Reads
  const account = yield* operator.createAccount({ name: "Consumer Ltd", email: "ops@consumer.example" })
  const key = yield* operator.issueApiKey({ accountId: account.id, mode: "live" })
  const { balance: before } = yield* operator.purchaseCredits({ accountId: account.id, country: "TZ", units: 100 })
  yield* operator.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255712000001" })
  yield* operator.grantSenderId({ accountId: account.id, senderId: "CONSUMER", country: "TZ" })
  yield* operator.addProvider({ name: "carrier", routes: [{ country: "TZ", credit: 10_000 }] })
  const caller = { accountId: account.id, apiKeyId: key.id, mode: "live" }

  const single = yield* send.single(caller, {
    recipient: "+255712345678",
    sender_id: "CONSUMER",
    body: "Habari! Your code is 4821"
  })
  const campaign = yield* send.bulkV2(caller, {
    campaign_name: "reminders",
    sender_id: "CONSUMER",
    message: "Hi {name}, you owe {= amount - paid } TZS",
    recipients: [
      { to: "+255712000003", name: "Asha", amount: 12000, paid: 2000 },
      { to: "+255712000004", name: "Juma", amount: 5000, paid: 0 },
      "+255712000003"
    ]
  })
  const balance = yield* reads.balance(account.id)
  return { before, single: single.data, campaign: campaign.data, after: Number(balance.balance) }
})

const result = await runtime.runPromise(program).finally(() => runtime.dispose())
const { before, single, campaign, after } = result
console.log(`single ${single.uid}: ${single.status}, ${single.units} unit(s), ${single.encoding.final}`)
console.log(`campaign "${campaign.name}": ${campaign.queued_count} of ${campaign.recipient_count} queued`)
for (const f of campaign.failures) console.log(`  skipped #${f.index}: ${f.error_code}`)
for (const c of campaign.charges) console.log(`charged ${c.units} unit(s) to the ${c.country} wallet`)
console.log(`balance: ${before} -> ${after}`)

const expect = (label, actual, expected) => {
  if (actual !== expected) {
    console.error(`unexpected ${label}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`)
    process.exitCode = 1
  }
}
expect("single units", single.units, 1)
expect("campaign queued", campaign.queued_count, 2)
expect("campaign failures", campaign.failures.map((f) => f.error_code).join(), "DUPLICATE_RECIPIENT")
expect("campaign charges", JSON.stringify(campaign.charges), JSON.stringify([{ country: "TZ", units: 2 }]))
expect("balance", [before, after].join(" -> "), "100 -> 97")
