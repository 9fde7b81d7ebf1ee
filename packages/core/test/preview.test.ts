/**
 * The preview use cases (`Preview.previewOf`, `Preview.campaignPreviewOf`) on the memory adapters:
 * the figures the portal answers, and that a preview stores and charges nothing.
 */
import { expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { Admin, Ids, Memory, Operator, Preview, Send } from "../src/index.js"

const app = Layer.mergeAll(Send.layer, Operator.layer, Admin.layer).pipe(
  Layer.provideMerge(Memory.layer),
  Layer.provideMerge(Ids.layer)
)

/** An account that can send in Tanzania with `units` of credit. */
const accountWith = (units: number) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(Date.parse("2026-03-01T10:00:00Z"))
    const op = yield* Operator
    const account = yield* op.createAccount({ name: "Duka Ltd", email: "owner@duka.example" })
    yield* op.purchaseCredits({ accountId: account.id, country: "TZ", units })
    yield* op.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255712000000" })
    yield* op.grantSenderId({ accountId: account.id, senderId: "Duka", country: "TZ" })
    yield* op.addProvider({ name: "sim", routes: [{ country: "TZ", credit: 1000 }] })
    return { accountId: account.id, apiKeyId: null, channel: "web" as const }
  })

const campaign = {
  sender_id: "Duka",
  campaign_name: "Reminders",
  message: "Hi {name}, you owe {= amount - paid }",
  recipients: [
    { to: "+255712345671", name: "Amina", amount: 1500, paid: 1000 },
    { to: "+255712345672", name: "Baraka", amount: 700, paid: 700 },
    "+255712345671",
    { to: "+255712345673", name: "Chausiku", amount: 10, paid: 1 },
    { to: "+255712345674", name: "Daudi", amount: 10, paid: 2 }
  ]
}

it.effect("a campaign's price per country against its wallet, with the first texts; nothing stored", () =>
  Effect.gen(function*() {
    const caller = yield* accountWith(5)
    const preview = yield* Preview.campaignPreviewOf(caller, campaign)
    expect(preview).toMatchObject({
      recipients: 5,
      sendable: 4,
      units: 4,
      countries: [{ country: "TZ", recipients: 4, units: 4, balance: 5, sufficient: true }],
      sufficient: true,
      failures: [{ index: 2, recipient: "+255712345671", error_code: "DUPLICATE_RECIPIENT" }]
    })
    // the first three recipients' texts that would be sent, as rendered: the refused duplicate is not shown
    expect(preview.samples.map((s) => [s.recipient, s.text, s.units, s.encoding.final])).toEqual([
      ["+255712345671", "Hi Amina, you owe 500", 1, "GSM-7"],
      ["+255712345672", "Hi Baraka, you owe 0", 1, "GSM-7"],
      ["+255712345673", "Hi Chausiku, you owe 9", 1, "GSM-7"]
    ])

    const { tables } = yield* Memory.MemoryDatabase
    expect(tables.messages.size).toBe(0)
    expect(tables.campaigns.size).toBe(0)
    expect([...tables.wallets.values()].map((w) => w.balance)).toEqual([5])
  }).pipe(Effect.provide(app)))

it.effect("more units than the wallet holds: the country and the whole preview are not sufficient", () =>
  Effect.gen(function*() {
    const caller = yield* accountWith(3)
    const preview = yield* Preview.campaignPreviewOf(caller, campaign)
    expect(preview).toMatchObject({
      units: 4,
      sufficient: false,
      countries: [{ country: "TZ", recipients: 4, units: 4, balance: 3, sufficient: false }]
    })
  }).pipe(Effect.provide(app)))

it.effect("a request the send would refuse fails as the send does", () =>
  Effect.gen(function*() {
    const caller = yield* accountWith(5)
    const invalid = yield* Effect.flip(
      Preview.campaignPreviewOf(caller, { ...campaign, recipients: [...campaign.recipients, "not a phone"] })
    )
    expect(invalid._tag).toBe("ValidationFailed")
    const unknownSender = yield* Effect.flip(Preview.campaignPreviewOf(caller, { ...campaign, sender_id: "Other" }))
    expect(unknownSender.error_code).toBe("SENDER_ID_NOT_APPROVED")
  }).pipe(Effect.provide(app)))

it.effect("a text's encoding, parts and units, and for a recipient its country and what the wallet can spend", () =>
  Effect.gen(function*() {
    const { accountId } = yield* accountWith(1)
    const quoted = yield* Preview.previewOf(accountId, { body: "Habari \u201cmteja\u201d", recipient: "+255712345678" })
    expect(quoted).toMatchObject({
      text: "Habari \"mteja\"",
      parts: ["Habari \"mteja\""],
      units: 1,
      country: "TZ",
      balance: 1,
      sufficient: true,
      recipient_error: null
    })
    const long = yield* Preview.previewOf(accountId, { body: "x".repeat(200), recipient: "+255712345678" })
    expect([long.parts.length, long.units, long.sufficient]).toEqual([2, 2, false])
    const bad = yield* Preview.previewOf(accountId, { body: "hi", recipient: "12" })
    expect([bad.country, bad.balance, bad.sufficient, typeof bad.recipient_error]).toEqual([null, null, null, "string"])
    const none = yield* Preview.previewOf(accountId, { body: "hi" })
    expect([none.country, none.balance, none.sufficient, none.recipient_error]).toEqual([null, null, null, null])
  }).pipe(Effect.provide(app)))
