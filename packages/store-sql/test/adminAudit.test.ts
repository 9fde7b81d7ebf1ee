/**
 * The audit trail of the operator use cases (issue 15), on PGlite, on PostgreSQL when
 * TUMA_TEST_DATABASE_URL is set, and on core's memory adapters: every `Admin` change and every
 * `Operator` step records its action, target, before/after values and the `Actor` who did it; a
 * refused change records nothing; no secret reaches the log.
 */
import { expect } from "@effect/vitest"
import type { ActorValue, AuditEntry } from "@tuma/core"
import { Actor, Admin, Audit, Operator, SenderIds } from "@tuma/core"
import { Effect, Either, Layer } from "effect"
import type { DriverLayers } from "./harness.js"
import { forEachDriver } from "./harness.js"
import type { OperatorStack } from "./operatorFixtures.js"
import { newAccount, operatorStack, SAMPLE, unique } from "./operatorFixtures.js"

const stack: DriverLayers<Audit | OperatorStack> = {
  sql: (db, driver) => Audit.layer.pipe(Layer.provideMerge(operatorStack.sql(db, driver))),
  memory: () => Audit.layer.pipe(Layer.provideMerge(operatorStack.memory()))
}

const operator = (): ActorValue => ({
  kind: "operator",
  operatorId: crypto.randomUUID(),
  name: `${unique("reviewer")}@tuma.example`,
  ip: "203.0.113.20"
})

/** The entries of one actor, oldest first, as [action, target]. */
const trail = (actor: ActorValue) =>
  Effect.gen(function*() {
    const rows = yield* (yield* Audit).search({ actor: actor.name, limit: 500 })
    return rows.slice().reverse()
  })
const pairs = (rows: ReadonlyArray<AuditEntry>) => rows.map((r) => [r.action, r.target])

forEachDriver(stack, (it) => {
  it.effect("every Admin change records its action, target and actor; reads record nothing", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const senderIds = yield* SenderIds
      const actor = operator()
      const as = Effect.provideService(Actor, actor)

      const account = yield* as(admin.createAccount({ name: "Duka", email: `${unique("duka")}@example.com` }))
      const acc = `account:${account.uid}`
      yield* as(admin.suspendAccount(account.uid))
      yield* as(admin.activateAccount(account.uid))
      const issued = yield* as(admin.issueApiKey({ account_uid: account.uid, name: "ci" }))
      const key = `api_key:${issued.api_key.uid}`
      yield* as(admin.updateApiKey(issued.api_key.uid, { name: "ci-2" }))
      yield* as(admin.revokeApiKey(issued.api_key.uid))
      yield* as(admin.purchaseCredits({ account_uid: account.uid, country: "TZ", units: 1000, reference: "INV-9" }))
      yield* as(admin.correctCredits({ account_uid: account.uid, country: "TZ", units: -400, reason: "INV-9 was 600" }))
      // refused (below 0): nothing recorded
      yield* Effect.flip(
        as(admin.correctCredits({ account_uid: account.uid, country: "TZ", units: -601, reason: "x" }))
      )
      yield* as(admin.setWalletEnabled(account.uid, "TZ", false))
      yield* as(admin.setWalletEnabled(account.uid, "TZ", true))
      yield* as(admin.verifyRoute({ account_uid: account.uid, country: "TZ", phone: "+255712000001" }))
      yield* as(admin.removeRoute(account.uid, "TZ"))
      yield* as(admin.verifyRoute({ account_uid: account.uid, country: "TZ", phone: "+255712000001" }))
      const keOpen = (yield* admin.listMarkets).find((m) => m.iso2 === "KE")!.open
      yield* as(admin.setMarketOpen("ke", !keOpen))
      yield* as(admin.setMarketOpen("KE", keOpen))
      const requested = yield* senderIds.request(account.uid, {
        sender_id: `AU${unique("").slice(-6).toUpperCase()}`,
        sample_message: SAMPLE,
        purpose: "Alerts & Reminders"
      })
      const sid = requested.data.uid
      yield* as(admin.approveSenderId(sid))
      yield* as(admin.suspendSenderId(sid, "complaints"))
      yield* as(admin.reinstateSenderId(sid))
      const other = yield* senderIds.request(account.uid, {
        sender_id: `RJ${unique("").slice(-6).toUpperCase()}`,
        sample_message: SAMPLE,
        purpose: "Other"
      })
      yield* as(admin.rejectSenderId(other.data.uid, "Trade name not proven"))
      const granted = yield* as(admin.grantSenderId({ account_uid: account.uid, sender_id: "GRANTED", country: "TZ" }))
      const req = yield* as(admin.createRequirement({ name: "Licence", country: "TZ" }))
      yield* as(admin.deleteRequirement(req.uid))
      yield* as(admin.addOptOut({ account_uid: account.uid, recipient: "+255 712 999 001", reason: "asked" }))
      yield* as(admin.removeOptOut(account.uid, "+255712999001"))
      const rule = yield* as(admin.addSpamRule({ account_uid: account.uid, kind: "blocked_phrase", pattern: "win" }))
      yield* as(admin.setSpamRuleEnabled(rule.uid, false))
      yield* as(admin.removeSpamRule(rule.uid))
      const provider = yield* as(admin.createProvider({
        name: unique("smsc"),
        kind: "smpp",
        config: { host: "127.0.0.1", port: 2775, system_id: "tuma", password: "s3cret-smpp" },
        credits: [{ country: "RW", credit: 10 }]
      }))
      const prov = `provider:${provider.uid}`
      yield* as(admin.setProviderEnabled(provider.uid, false))
      yield* as(admin.setProviderEnabled(provider.uid, true))
      yield* as(admin.creditProvider(provider.uid, { country: "RW", units: 5 }))
      yield* as(admin.setCountryRoutes("RW", { provider_uids: [provider.uid] }))
      // reads record nothing
      yield* as(admin.getAccount(account.uid))
      yield* as(admin.listProviders)
      yield* as(admin.ledger(account.uid))

      const rows = yield* trail(actor)
      expect(pairs(rows)).toEqual([
        ["account.create", acc],
        ["account.suspend", acc],
        ["account.activate", acc],
        ["api_key.issue", key],
        ["api_key.update", key],
        ["api_key.revoke", key],
        ["wallet.top_up", acc],
        ["wallet.correct", acc],
        ["wallet.disable", acc],
        ["wallet.enable", acc],
        ["route.verify", acc],
        ["route.remove", acc],
        ["route.verify", acc],
        [keOpen ? "market.close" : "market.open", "market:KE"],
        [keOpen ? "market.open" : "market.close", "market:KE"],
        ["sender_id.approve", `sender_id:${sid}`],
        ["sender_id.suspend", `sender_id:${sid}`],
        ["sender_id.reinstate", `sender_id:${sid}`],
        ["sender_id.reject", `sender_id:${other.data.uid}`],
        ["sender_id.grant", `sender_id:${granted.uid}`],
        ["requirement.create", `requirement:${req.uid}`],
        ["requirement.delete", `requirement:${req.uid}`],
        ["opt_out.add", acc],
        ["opt_out.remove", acc],
        ["spam_rule.add", `spam_rule:${rule.uid}`],
        ["spam_rule.disable", `spam_rule:${rule.uid}`],
        ["spam_rule.remove", `spam_rule:${rule.uid}`],
        ["provider.create", prov],
        ["provider.disable", prov],
        ["provider.enable", prov],
        ["provider.credit", prov],
        ["provider_routes.set", "market:RW"]
      ])
      for (const r of rows) {
        expect(r).toMatchObject({ actor_kind: "operator", actor_id: actor.operatorId, ip: "203.0.113.20" })
      }
      const byAction = (action: string) => rows.find((r) => r.action === action)!

      // before/after: the relevant values
      expect(byAction("account.suspend")).toMatchObject({ before: { active: true }, after: { active: false } })
      expect(byAction("wallet.top_up").before).toBeNull()
      expect(byAction("wallet.top_up").after).toMatchObject({
        wallet: { country: "TZ", balance: 1000 },
        entry: { kind: "purchase", units: 1000, reference: "INV-9" }
      })
      expect(byAction("wallet.correct")).toMatchObject({
        before: { country: "TZ", balance: 1000 },
        after: { wallet: { balance: 600 }, entry: { kind: "adjustment", units: -400, reason: "INV-9 was 600" } }
      })
      expect(byAction("wallet.disable")).toMatchObject({ before: { enabled: true }, after: { enabled: false } })
      expect(rows[13]).toMatchObject({ before: { open: keOpen }, after: { open: !keOpen } })
      expect(byAction("sender_id.approve")).toMatchObject({
        before: { status: "pending" },
        after: { status: "approved" }
      })
      expect(byAction("sender_id.reject")).toMatchObject({
        before: { status: "pending", rejection_reason: null },
        after: { status: "rejected", rejection_reason: "Trade name not proven" }
      })
      expect(byAction("api_key.update")).toMatchObject({ before: { name: "ci" }, after: { name: "ci-2" } })
      expect(byAction("opt_out.remove")).toMatchObject({ before: { recipient: "+255712999001" }, after: null })
      expect(byAction("provider.credit").before).toMatchObject({ credits: [{ country: "RW", balance: 10 }] })
      expect(byAction("provider.credit").after).toMatchObject({ credits: [{ country: "RW", balance: 15 }] })
      // secrets: the issued key and the SMPP password are never recorded
      expect(byAction("api_key.issue").after).toMatchObject({ uid: issued.api_key.uid, name: "ci" })
      expect(byAction("provider.create").after).toMatchObject({
        config: { host: "127.0.0.1", port: 2775, system_id: "tuma", password: "***" }
      })
      const all = JSON.stringify(rows)
      expect(all).not.toContain(issued.key)
      expect(all).not.toContain("s3cret-smpp")
    }))

  it.effect("a refused change records nothing; without an Actor the system is recorded", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const actor = operator()
      const as = Effect.provideService(Actor, actor)
      const account = yield* newAccount()
      const refused: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
        admin.purchaseCredits({ account_uid: account.uid, country: "TZ", units: 0 }),
        admin.purchaseCredits({ account_uid: "0a8f6f1e-0000-4000-8000-000000000000", country: "TZ", units: 5 }),
        admin.approveSenderId("0a8f6f1e-0000-4000-8000-000000000000"),
        admin.suspendAccount("not-a-uuid"),
        admin.createAccount({ name: "", email: "nope" }),
        admin.createAccount({ name: "Dup", email: account.email }),
        admin.setSpamRuleEnabled("0a8f6f1e-0000-4000-8000-000000000000", false),
        admin.setMarketOpen("QQ", true),
        // malformed ids answer 404/422 as before (the "before" read never reaches the store with them)
        admin.purchaseCredits({ account_uid: "nope", country: "TZ", units: 5 }),
        admin.correctCredits({ account_uid: "nope", country: "TZ", units: 5, reason: "r" }),
        admin.correctCredits({ account_uid: account.uid, country: "TZ", units: 5, reason: "no wallet yet" }),
        admin.setWalletEnabled("nope", "TZ", false),
        admin.verifyRoute({ account_uid: "nope", country: "TZ", phone: "+255712000001" }),
        admin.removeRoute("nope", "TZ"),
        admin.addOptOut({ account_uid: "nope", recipient: "+255712000009" }),
        admin.removeOptOut("nope", "+255712000009"),
        admin.revokeApiKey("nope"),
        admin.updateApiKey("nope", { name: "x" }),
        admin.rejectSenderId("nope", "reason"),
        admin.removeSpamRule("nope"),
        admin.setProviderEnabled("nope", false),
        admin.creditProvider("nope", { country: "TZ", units: 1 })
      ]
      for (const change of refused) {
        // a typed refusal (404/409/422), never a defect
        const result = yield* Effect.either(as(change))
        const tag = Either.isLeft(result) ? (result.left as { readonly _tag: string })._tag : "succeeded"
        expect(["ResourceNotFound", "ResourceConflict", "ValidationFailed"]).toContain(tag)
      }
      expect(yield* trail(actor)).toEqual([])

      // no Actor provided: recorded as the system
      const audit = yield* Audit
      const suspended = yield* admin.suspendAccount(account.uid)
      const [entry] = yield* audit.search({ target: `account:${suspended.uid}`, action: "account.suspend" })
      expect(entry).toMatchObject({ actor_kind: "system", actor_name: "system", actor_id: null, ip: null })
    }))

  it.effect("two operators deciding at once: only the move that won is recorded", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const senderIds = yield* SenderIds
      const audit = yield* Audit
      const account = yield* newAccount({ purchases: { TZ: 1000 }, routes: ["TZ"] })
      const a = operator()
      const b = operator()
      const { data } = yield* senderIds.request(account.uid, {
        sender_id: `RACE${unique("").slice(-4).toUpperCase()}`,
        sample_message: SAMPLE,
        purpose: "Other"
      })
      const [approved, rejected] = yield* Effect.all([
        Effect.either(admin.approveSenderId(data.uid).pipe(Effect.provideService(Actor, a))),
        Effect.either(admin.rejectSenderId(data.uid, "duplicate").pipe(Effect.provideService(Actor, b)))
      ], { concurrency: "unbounded" })
      const rows = yield* audit.search({ target: `sender_id:${data.uid}` })
      expect(rows.length).toBe(1)
      expect(rows[0]).toMatchObject(
        Either.isRight(approved)
          ? { action: "sender_id.approve", actor_name: a.name }
          : { action: "sender_id.reject", actor_name: b.name }
      )
      expect(Either.isRight(approved) !== Either.isRight(rejected)).toBe(true)
    }))

  it.effect("every Operator step (the tuma command's set-up) is recorded for the CLI actor", () =>
    Effect.gen(function*() {
      const op = yield* Operator
      const actor: ActorValue = { kind: "cli", operatorId: null, name: unique("cli:ops"), ip: null }
      const as = Effect.provideService(Actor, actor)
      const account = yield* as(op.createAccount({ name: "Cli Ltd", email: `${unique("cli")}@example.com` }))
      const acc = `account:${account.id}`
      yield* as(op.setAccountActive(account.id, false))
      const key = yield* as(op.issueApiKey({ accountId: account.id, name: "cli" }))
      yield* as(op.purchaseCredits({ accountId: account.id, country: "TZ", units: 50 }))
      yield* as(op.verifyRoute({ accountId: account.id, country: "TZ", phone: "+255712000001" }))
      const grant = yield* as(op.grantSenderId({ accountId: account.id, senderId: "CLIGRANT", country: "TZ" }))
      const provider = yield* as(op.addProvider({
        name: unique("cli-smsc"),
        kind: "smpp",
        config: { password: "pw-cli" },
        routes: [{ country: "UG", credit: 3 }]
      }))
      yield* as(op.setProviderCredit({ providerId: provider.id, country: "UG", credit: 9 }))
      yield* as(op.setMarketOpen("ug", true))
      yield* as(op.addOptOut(account.id, "+255712999002", "cli"))
      const rule = yield* as(op.addSpamRule({ accountId: null, kind: "blocked_domain", pattern: "spam.example" }))
      const rows = yield* trail(actor)
      expect(pairs(rows)).toEqual([
        ["account.create", acc],
        ["account.suspend", acc],
        ["api_key.issue", `api_key:${key.id}`],
        ["wallet.top_up", acc],
        ["route.verify", acc],
        ["sender_id.grant", `sender_id:${grant.id}`],
        ["provider.create", `provider:${provider.id}`],
        ["provider.credit", `provider:${provider.id}`],
        ["market.open", "market:UG"],
        ["opt_out.add", acc],
        ["spam_rule.add", `spam_rule:${rule.id}`]
      ])
      expect(rows.every((r) => r.actor_kind === "cli" && r.ip === null)).toBe(true)
      expect(rows[1]).toMatchObject({ before: { active: true }, after: { active: false } })
      const all = JSON.stringify(rows)
      expect(all).not.toContain(key.key)
      expect(all).not.toContain("pw-cli")
    }))
})
