/**
 * `@tuma/core` with no database at all: the `Send` and `Operator` services on `Memory.layerMemory`.
 * (The memory adapters pass the full contract suites in packages/store-sql/test, driver `memory`.)
 */
import { expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { Ids, Memory, Operator, Reads, Send } from "../src/index.js"

const app = Layer.mergeAll(Send.layer, Operator.layer, Reads.layer).pipe(
  Layer.provideMerge(Memory.layerMemory),
  Layer.provideMerge(Ids.layer)
)

const NOW = Date.parse("2026-03-01T10:00:00Z")

it.effect("a message sent through Send on the memory adapters is stored, charged and queued", () =>
  Effect.gen(function*() {
    yield* TestClock.setTime(NOW)
    const op = yield* Operator
    const send = yield* Send
    const account = yield* op.createAccount({ name: "Duka Ltd", email: "owner@duka.example" })
    const key = yield* op.issueApiKey({ accountId: account.id })
    yield* op.purchaseCredits({ accountId: account.id, country: "TZ", units: 5, amount: "100" })
    yield* op.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255712000000" })
    yield* op.grantSenderId({ accountId: account.id, senderId: "Duka", country: "TZ" })
    yield* op.addProvider({ name: "sim", routes: [{ country: "TZ", credit: 1000 }] })
    const caller = { accountId: account.id, apiKeyId: key.id, mode: "live" as const }

    const out = yield* send.single(caller, { recipient: "+255 712 345 678", sender_id: "DUKA", body: "Karibu!" })
    expect(out.data).toMatchObject({
      recipient: "+255712345678",
      sender_id: "Duka",
      units: 1,
      status: "queued",
      queued_at: new Date(NOW).toISOString()
    })

    // read back through the read use cases, as GET /v1/sms/messages/{uid} would
    const reads = yield* Reads
    const { encoding: _, ...entry } = out.data
    expect(yield* reads.getMessage(account.id, out.data.uid)).toEqual(entry)

    const { tables } = yield* Memory.MemoryDatabase
    expect(tables.messages.get(out.data.uid)).toMatchObject({ account_id: account.id, text: "Karibu!", units: 1 })
    expect(tables.dispatchQueue.get(out.data.uid)?.available_at.getTime()).toBe(NOW)
    expect([...tables.wallets.values()].map((w) => w.balance)).toEqual([4])
    expect(tables.walletLedger.map((l) => [l.kind, l.units, l.balance_after, l.amount])).toEqual([
      ["purchase", 5, 5, "100.00"],
      ["debit", -1, 4, null]
    ])

    // the same checks as on SQL: an empty wallet refuses, and nothing is written
    yield* send.bulkV1(caller, { recipients: ["+255712345679"], sender_id: "DUKA", message: "Sale" }).pipe(
      Effect.repeatN(3)
    )
    const refused = yield* Effect.flip(
      send.single(caller, { recipient: "+255712345670", sender_id: "DUKA", body: "Hi" })
    )
    expect(refused.error_code).toBe("INSUFFICIENT_BALANCE")
    expect([...tables.wallets.values()].map((w) => w.balance)).toEqual([0])
    expect(tables.messages.size).toBe(5)
  }).pipe(Effect.provide(app)))

it.effect("each build of the layer is a fresh database (seeded markets only)", () =>
  Effect.gen(function*() {
    const { tables } = yield* Memory.MemoryDatabase
    expect(tables.accounts.size).toBe(0)
    expect([...tables.markets.values()].map((m) => [m.iso2, m.open])).toEqual([
      ["TZ", true],
      ["KE", false],
      ["UG", false],
      ["RW", false]
    ])
  }).pipe(Effect.provide(Memory.layerMemory)))
