/**
 * Differential test of core's memory adapters against the SQL ones: one scripted session through
 * every use case with memory adapters (`Admin`, `Operator`, `Send`, `Reads`, `SenderIds`) —
 * accounts, keys, wallets and the ledger, routes, markets, sender IDs and documents, opt-outs, spam
 * rules, providers and routes, single and bulk sends, message lists — runs on a fresh store of
 * each driver with sequential ids and a fixed clock, and every answer (successes and refusals alike)
 * must be the same on memory as on PGlite (and PostgreSQL when TUMA_TEST_DATABASE_URL is set).
 */
import { expect, it } from "@effect/vitest"
import { Admin, Ids, Memory, Operator, Reads, Send, SenderIds } from "@tuma/core"
import { Effect, Layer, TestClock } from "effect"
import * as SqlAdminStore from "../src/SqlAdminStore.js"
import * as SqlAuditStore from "../src/SqlAuditStore.js"
import * as SqlContentCounter from "../src/SqlContentCounter.js"
import * as SqlOperatorStore from "../src/SqlOperatorStore.js"
import * as SqlReadStore from "../src/SqlReadStore.js"
import * as SqlSenderIdStore from "../src/SqlSenderIdStore.js"
import * as SqlSendStore from "../src/SqlSendStore.js"
import { databaseLayer, drivers } from "./harness.js"
import { PDF, PNG, SAMPLE } from "./operatorFixtures.js"

const services = Layer.mergeAll(Send.layer, Operator.layer, Reads.layer, SenderIds.layer, Admin.layer)

const sqlStack = (driver: "pglite" | "postgres") =>
  services.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        SqlSendStore.layer,
        SqlOperatorStore.layer,
        SqlReadStore.layer,
        SqlSenderIdStore.layer,
        SqlAuditStore.layer,
        SqlAdminStore.layer,
        SqlContentCounter.layer
      )
    ),
    Layer.provideMerge(Ids.layerSequential()),
    Layer.provideMerge(databaseLayer(driver))
  )

const memoryStack = services.pipe(
  Layer.provideMerge(Memory.layerMemory),
  Layer.provideMerge(Ids.layerSequential())
)

const T0 = Date.parse("2026-04-01T09:00:00Z")

/**
 * An answer as plain JSON: random parts (the API key itself and its prefix) replaced by a
 * placeholder, bytes as a list of numbers (node-postgres answers a `Buffer`, PGlite and memory a
 * `Uint8Array`: the same bytes).
 */
const stable = (value: unknown): unknown =>
  value === undefined ? "<void>" : JSON.parse(JSON.stringify(value, function(this: Record<string, unknown>, k, v) {
    const raw = this[k]
    return raw instanceof Uint8Array
      ? Array.from(raw)
      : (k === "key" || k === "prefix") && typeof v === "string"
      ? "<random>"
      : v
  }))

/** The session: every answer in order, refusals as their tag, code and message. */
const session = Effect.gen(function*() {
  const admin = yield* Admin
  const op = yield* Operator
  const send = yield* Send
  const reads = yield* Reads
  const senderIds = yield* SenderIds
  const out: Array<unknown> = []
  const record = <A, E>(label: string, eff: Effect.Effect<A, E>) =>
    Effect.flatMap(Effect.either(eff), (r) =>
      Effect.sync(() => {
        out.push([label, r._tag === "Right" ? stable(r.right) : stable(r.left)])
        return r
      }))
  const tick = TestClock.adjust("1 second")
  yield* TestClock.setTime(T0)

  // accounts
  const a = yield* admin.createAccount({ name: "Duka Ltd", email: "Owner@Duka.example", phone: "+255712000001" })
  out.push(["account", stable(a)])
  yield* tick
  const b = yield* admin.createAccount({ name: "beta shop", email: "ops@beta.example", phone_verified: true })
  yield* tick
  const c = yield* admin.createAccount({ name: "Alpha Co", email: "ops@alpha.example", country: "KE" })
  yield* record("duplicate e-mail", admin.createAccount({ name: "X", email: "OWNER@duka.example" }))
  yield* record("list all", admin.listAccounts())
  yield* record("search", admin.listAccounts({ search: "SHOP" }))
  yield* record("search underscore", admin.listAccounts({ search: "_" }))
  yield* record("suspend", admin.suspendAccount(c.uid))
  yield* record("list active", admin.listAccounts({ active: true, limit: 1, offset: 1 }))

  // API keys
  yield* tick
  const k1 = yield* admin.issueApiKey({ account_uid: a.uid, name: "backend" })
  yield* record("k1", Effect.succeed(k1))
  const k2 = yield* admin.issueApiKey({ account_uid: a.uid, mode: "test", scopes: ["sms:read"] })
  yield* record("update key", admin.updateApiKey(k2.api_key.uid, { allowed_ips: ["10.0.0.0/8"], name: " ci " }))
  yield* record("empty update", admin.updateApiKey(k2.api_key.uid, {}))
  yield* record("revoke", admin.revokeApiKey(k2.api_key.uid))
  yield* tick
  yield* record("revoke again", admin.revokeApiKey(k2.api_key.uid.toUpperCase()))
  yield* record("list keys", admin.listApiKeys(a.uid))
  yield* record("one key", admin.getApiKey(k1.api_key.uid))

  // wallets, ledger, routes, markets
  yield* record("purchase", admin.purchaseCredits({ account_uid: a.uid, country: "TZ", units: 700, amount: "14000" }))
  yield* record(
    "purchase 2",
    admin.purchaseCredits({ account_uid: a.uid, country: "tz", units: 300, amount: "12.5", reference: "INV-2" })
  )
  yield* record("purchase KE", admin.purchaseCredits({ account_uid: a.uid, country: "KE", units: 50 }))
  yield* record("operator purchase", op.purchaseCredits({ accountId: b.uid, country: "TZ", units: 10, amount: "7" }))
  // an amount numeric(14, 2) refuses: a defect on both (the error itself differs), nothing written
  yield* record(
    "bad amount",
    op.purchaseCredits({ accountId: b.uid, country: "TZ", units: 1, amount: "7,5" }).pipe(
      Effect.catchAllDefect(() => Effect.succeed("defect"))
    )
  )
  yield* record("ledger", admin.ledger(a.uid))
  yield* record("ledger TZ, 1", admin.ledger(a.uid, { country: "TZ", limit: 1 }))
  yield* record("disable KE", admin.setWalletEnabled(a.uid, "KE", false))
  yield* record("no wallet", admin.setWalletEnabled(a.uid, "UG", false))
  yield* record("wallets", admin.listWallets(a.uid))
  yield* record("balance", reads.balance(a.uid))
  yield* record("route", admin.verifyRoute({ account_uid: a.uid, country: "TZ", phone: "+255 712 000 009" }))
  yield* record("route KE", admin.verifyRoute({ account_uid: a.uid, country: "KE", phone: "+254712000009" }))
  yield* tick
  yield* record("route again", admin.verifyRoute({ account_uid: a.uid, country: "TZ", phone: "+255712000010" }))
  yield* record("remove KE", admin.removeRoute(a.uid, "KE"))
  yield* record("remove KE again", admin.removeRoute(a.uid, "KE"))
  yield* record("routes", admin.listRoutes(a.uid))
  yield* record("profile", reads.profile(a.uid))
  yield* record("profile c", reads.profile(c.uid))
  yield* record("open UG", admin.setMarketOpen("ug", true))
  yield* record("markets", admin.listMarkets)
  yield* record("account detail", admin.getAccount(a.uid))

  // providers and routes
  yield* tick
  yield* record("provider b", admin.createProvider({ name: "beta", credits: [{ country: "TZ", credit: 5 }] }))
  yield* record(
    "provider A",
    admin.createProvider({
      name: "Alpha",
      kind: "smpp",
      config: { z: 1, a: [2], host: "smsc.example", port: 2775, system_id: "tuma", password: "x" },
      credits: [{ country: "TZ", credit: 100 }, { country: "UG", credit: 0 }]
    })
  )
  yield* record("provider a", admin.createProvider({ name: "alpha" }))
  yield* record("provider dup", admin.createProvider({ name: "beta" }))
  const providers = yield* admin.listProviders
  out.push(["providers", stable(providers)])
  yield* record("credit add", admin.creditProvider(providers[0].uid, { country: "TZ", units: -500 }))
  yield* record("credit set", admin.creditProvider(providers[2].uid, { country: "RW", units: 9, operation: "set" }))
  yield* record("routes TZ", admin.countryRoutes("TZ"))
  yield* record(
    "set routes",
    admin.setCountryRoutes("TZ", { provider_uids: [providers[1].uid, providers[0].uid.toUpperCase()] })
  )
  yield* record("disable provider", admin.setProviderEnabled(providers[1].uid, false))
  yield* record("routes TZ after", admin.countryRoutes("TZ"))
  yield* record("set routes again", admin.setCountryRoutes("TZ", { provider_uids: [providers[2].uid] }))
  yield* record("provider", admin.getProvider(providers[2].uid))
  yield* record("op provider", op.addProvider({ name: "gamma", routes: [{ country: "TZ", credit: 1_000 }] }))

  // sender IDs, requirements and documents
  yield* tick
  const licence = yield* admin.createRequirement({ name: "Licence", is_required: false, accepted_formats: ["pdf"] })
  out.push(["requirement", stable(licence)])
  yield* record("requirement TZ", admin.createRequirement({ name: "TIN", country: "TZ", accepted_formats: ["png"] }))
  yield* record("requirements", admin.listRequirements())
  yield* record("sender requirements", senderIds.requirements(a.uid))
  yield* record("grant", admin.grantSenderId({ account_uid: a.uid, sender_id: " Duka  Bora ", country: "TZ" }))
  yield* record("grant again", admin.grantSenderId({ account_uid: a.uid, sender_id: "duka bora", country: "TZ" }))
  yield* record("op grant", op.grantSenderId({ accountId: a.uid, senderId: "Shop", country: "TZ", isDefault: true }))
  yield* record("op grant moves", op.grantSenderId({ accountId: a.uid, senderId: "SHOP", country: "TZ" }))
  yield* tick
  const requested = yield* senderIds.request(a.uid, {
    sender_id: "Habari",
    sample_message: SAMPLE,
    purpose: "Transactional",
    documents: [{ requirement_uid: licence.uid, filename: "l.pdf", bytes: PDF(100) }],
    protection_requested: true,
    protection_documents: [{ filename: "tm.png", bytes: PNG(80) }]
  })
  out.push(["request", stable(requested)])
  yield* admin.purchaseCredits({ account_uid: b.uid, country: "TZ", units: 990 })
  yield* admin.verifyRoute({ account_uid: b.uid, country: "TZ", phone: "+255712000002" })
  yield* record(
    "request taken",
    senderIds.request(b.uid, { sender_id: "habari", sample_message: SAMPLE, purpose: "Other" })
  )
  yield* record(
    "request not eligible",
    senderIds.request(b.uid, { sender_id: "Other", sample_message: SAMPLE, purpose: "Other" })
  )
  yield* record("sender ids", senderIds.list(a.uid))
  yield* record("admin sender ids", admin.listSenderIds({ status: "approved", limit: 2 }))
  yield* record("sender id", admin.getSenderId(requested.data.uid))
  yield* record("document", admin.getSenderIdDocument(requested.data.submitted_document_uids[1]))
  yield* record("approve", admin.approveSenderId(requested.data.uid))
  yield* record("approve again", admin.approveSenderId(requested.data.uid))
  yield* record("suspend", admin.suspendSenderId(requested.data.uid, "  "))
  yield* record("delete requirement", admin.deleteRequirement(licence.uid))
  yield* record("requirements all", admin.listRequirements({ include_inactive: true }))

  // opt-outs and spam rules
  yield* tick
  yield* record("opt-out", admin.addOptOut({ account_uid: a.uid, recipient: "+255 713 000 001", reason: "STOP" }))
  yield* record("opt-out 2", admin.addOptOut({ account_uid: a.uid, recipient: "+255713000000" }))
  yield* record("opt-out again", admin.addOptOut({ account_uid: a.uid, recipient: "+255713000000", reason: "x" }))
  yield* record("opt-outs", admin.listOptOuts(a.uid))
  yield* record("remove opt-out", admin.removeOptOut(a.uid, "+255713000000"))
  yield* record("spam rule", admin.addSpamRule({ account_uid: a.uid, kind: "blocked_phrase", pattern: "free money" }))
  yield* record("spam global", admin.addSpamRule({ kind: "blocked_domain", pattern: "spam.example" }))
  const rules = yield* admin.listSpamRules()
  out.push(["rules", stable(rules)])
  yield* record("switch builtin off", admin.setSpamRuleEnabled(rules[0].uid, false))
  yield* record("switch rule off", admin.setSpamRuleEnabled(rules[rules.length - 1].uid, false))
  yield* record("rules of a", admin.listSpamRules({ account_uid: a.uid }))

  // sends and reads
  yield* tick
  const caller = { accountId: a.uid, apiKeyId: k1.api_key.uid, mode: "live" as const }
  yield* record(
    "single",
    send.single(caller, { recipient: "+255 712 345 678", sender_id: "DUKA BORA", body: "Habari!" })
  )
  yield* record("opted out", send.single(caller, { recipient: "+255713000001", sender_id: "SHOP", body: "Hi" }))
  yield* record("spam", send.single(caller, { recipient: "+255713000002", sender_id: "SHOP", body: "free money" }))
  yield* record(
    "keyed",
    send.single({ ...caller, idempotencyKey: "k-1" }, { recipient: "+255713000003", sender_id: "SHOP", body: "One" })
  )
  yield* record(
    "replay",
    send.single({ ...caller, idempotencyKey: "k-1" }, { recipient: "+255713000003", sender_id: "SHOP", body: "One" })
  )
  yield* tick
  yield* record(
    "bulk v1",
    send.bulkV1(caller, {
      recipients: ["+255713000004", "+255713000004", "+255713000001", "+254712000001", "+255713000005"],
      sender_id: "Shop",
      message: "Sale {name}",
      campaign_name: "Promo"
    })
  )
  yield* record(
    "bulk v2",
    send.bulkV2({ ...caller, channel: "web" }, {
      recipients: [{ to: "+255713000006", name: "Asha" }, "+255713000007"],
      message: "Hi {name} 🙂",
      sender_id: "SHOP",
      scheduled_at: new Date(T0 + 86_400_000).toISOString()
    })
  )
  yield* record(
    "suspended",
    send.bulkV1(caller, { recipients: ["+255713000004"], sender_id: "Habari", message: "Sale" })
  )
  yield* record(
    "too long",
    send.bulkV2(caller, { recipients: ["+255713000008"], message: "x".repeat(2000), sender_id: "SHOP" })
  )
  const page = yield* reads.listMessages(a.uid, { per_page: 3 })
  out.push(["page 1", stable(page)])
  yield* record("page 2", reads.listMessages(a.uid, { per_page: 3, page: 2 }))
  yield* record("web", reads.listMessages(a.uid, { channel: "web", status: "scheduled" }))
  yield* record("dated", reads.listMessages(a.uid, { from: "2026-04-01", to: "2026-04-01" }))
  yield* record("one", reads.getMessage(a.uid, page.data[0].uid.toUpperCase()))
  yield* record("another's", reads.getMessage(b.uid, page.data[0].uid))
  yield* record("balance after", reads.balance(a.uid))
  yield* record("ledger after", admin.ledger(a.uid, { limit: 4 }))
  yield* record("provider after", admin.listProviders)
  return out
})

const run = (stack: Layer.Layer<Send | Operator | Reads | SenderIds | Admin>) => Effect.provide(session, stack)

for (const driver of drivers()) {
  it.effect(
    `one session through every use case answers the same on memory as on ${driver}`,
    () =>
      Effect.gen(function*() {
        const onSql = yield* run(sqlStack(driver))
        const onMemory = yield* run(memoryStack)
        expect(onMemory.length).toBe(onSql.length)
        for (let i = 0; i < onSql.length; i++) expect(onMemory[i]).toEqual(onSql[i])
      }),
    { timeout: 120_000 }
  )
}
