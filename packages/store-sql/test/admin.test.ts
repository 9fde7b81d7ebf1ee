/**
 * Contract suite of the operator service `Admin` (issue 4 "Operator surface") on PGlite, on
 * PostgreSQL when TUMA_TEST_DATABASE_URL is set, and on core's memory adapters: accounts, wallets and the ledger, routes, markets,
 * sender IDs through the state machine of decisions §18 (every legal and illegal move), requirement
 * documents, opt-outs, spam rules, providers with credit and ordered routes — and that what an
 * operator does is what a send sees.
 */
import { expect } from "@effect/vitest"
import type { ContentCounter, SendStore } from "@tuma/core"
import { Admin, Memory, Send, SenderIds } from "@tuma/core"
import type { SenderIdStatus } from "@tuma/domain"
import { senderIdTransitions } from "@tuma/domain"
import { Effect, Either, Layer } from "effect"
import * as SqlContentCounter from "../src/SqlContentCounter.js"
import * as SqlSendStore from "../src/SqlSendStore.js"
import type { DriverLayers } from "./harness.js"
import { forEachDriver } from "./harness.js"
import type { OperatorStack } from "./operatorFixtures.js"
import { newAccount, operatorStack, SAMPLE, unique } from "./operatorFixtures.js"
import { Probe } from "./probe.js"

const stack: DriverLayers<Send | SendStore | ContentCounter | OperatorStack> = {
  sql: (db, driver) =>
    Send.layer.pipe(
      Layer.provideMerge(Layer.merge(SqlSendStore.layer, SqlContentCounter.layer)),
      Layer.provideMerge(Layer.merge(operatorStack.sql(db, driver), db))
    ),
  // one database: a layer used twice in one build is built once (as `db` above)
  memory: () => Send.layer.pipe(Layer.provideMerge(Layer.merge(operatorStack.memory(), Memory.layerMemory)))
}

const errorsOf = (e: unknown) => Object.keys((e as { errors?: Record<string, unknown> }).errors ?? {}).sort()

forEachDriver(stack, (it) => {
  it.effect("accounts: create (validated, e-mail unique case-insensitively), read, list, suspend, activate", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const email = `${unique("Owner")}@Example.com`
      const created = yield* admin.createAccount({
        name: "  Duka Ltd ",
        email,
        phone: "+255 712 000 002",
        country: "tz"
      })
      expect(created).toMatchObject({
        name: "Duka Ltd",
        email,
        phone: "+255712000002",
        active: true,
        phone_verified_at: null
      })
      const dup = yield* Effect.flip(admin.createAccount({ name: "Other", email: email.toUpperCase() }))
      expect(dup._tag).toBe("ResourceConflict")
      const bad = yield* Effect.flip(admin.createAccount({ name: " ", email: "nope", phone: "12" }))
      expect(errorsOf(bad)).toEqual(["email", "name", "phone"])
      const badCountry = yield* Effect.flip(
        admin.createAccount({ name: "X", email: `${unique("x")}@e.com`, country: "ZZ" })
      )
      expect(errorsOf(badCountry)).toEqual(["country"])

      expect((yield* admin.suspendAccount(created.uid)).active).toBe(false)
      expect((yield* admin.listAccounts({ search: email.slice(0, 12).toLowerCase() })).map((a) => a.uid)).toEqual([
        created.uid
      ])
      expect((yield* admin.listAccounts({ search: email.slice(0, 12), active: true })).length).toBe(0)
      expect((yield* admin.activateAccount(created.uid)).active).toBe(true)
      const detail = yield* admin.getAccount(created.uid)
      expect(detail).toMatchObject({ account: { uid: created.uid }, wallets: [], routes: [], api_keys: [] })
      for (const id of ["0a8f6f1e-0000-4000-8000-000000000000", "x"]) {
        expect((yield* Effect.flip(admin.getAccount(id)))._tag).toBe("ResourceNotFound")
        expect((yield* Effect.flip(admin.suspendAccount(id)))._tag).toBe("ResourceNotFound")
      }
    }))

  it.effect("wallets: purchases per country write the ledger; the balance always equals the ledger", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const probe = yield* Probe
      const account = yield* newAccount()
      const first = yield* admin.purchaseCredits({
        account_uid: account.uid,
        country: "TZ",
        units: 700,
        amount: "14000.00",
        currency: "TZS",
        reference: "INV-1"
      })
      expect(first.wallet).toMatchObject({ country: "TZ", balance: 700, enabled: true })
      expect(first.entry).toMatchObject({
        kind: "purchase",
        units: 700,
        balance_after: 700,
        amount: "14000.00",
        currency: "TZS",
        reference: "INV-1",
        country: "TZ",
        wallet_uid: first.wallet.wallet_uid
      })
      const second = yield* admin.purchaseCredits({ account_uid: account.uid, country: "TZ", units: 300 })
      expect(second.wallet.balance).toBe(1000)
      expect(second.entry.balance_after).toBe(1000)
      yield* admin.purchaseCredits({ account_uid: account.uid, country: "KE", units: 50 })
      expect((yield* admin.ledger(account.uid, { country: "TZ" })).map((e) => e.units)).toEqual([300, 700])
      expect((yield* admin.ledger(account.uid)).length).toBe(3)
      expect(yield* probe.ledgerMismatches(account.uid)).toBe(0)

      for (const units of [0, -5, 1.5]) {
        const e = yield* Effect.flip(admin.purchaseCredits({ account_uid: account.uid, country: "TZ", units }))
        expect(errorsOf(e)).toEqual(["units"])
      }
      expect(errorsOf(yield* Effect.flip(admin.purchaseCredits({ account_uid: account.uid, country: "XX", units: 1 }))))
        .toEqual(["country"])
      expect(
        (yield* Effect.flip(
          admin.purchaseCredits({ account_uid: "0a8f6f1e-0000-4000-8000-000000000000", country: "TZ", units: 1 })
        ))._tag
      ).toBe("ResourceNotFound")
    }))

  it.effect("wallets: corrections are adjustment rows (never edits); the wallet never goes below 0", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const probe = yield* Probe
      const account = yield* newAccount()
      const topUp = yield* admin.purchaseCredits({
        account_uid: account.uid,
        country: "TZ",
        units: 500,
        reference: "INV-7"
      })
      const ke = yield* admin.purchaseCredits({ account_uid: account.uid, country: "KE", units: 20 })
      const fix = yield* admin.correctCredits({
        account_uid: account.uid,
        country: "tz",
        units: -200,
        reason: "  INV-7 was for 300 units  ",
        corrects: topUp.entry.id
      })
      expect(fix.wallet).toMatchObject({ country: "TZ", balance: 300 })
      expect(fix.entry).toMatchObject({
        kind: "adjustment",
        units: -200,
        balance_after: 300,
        reason: "INV-7 was for 300 units",
        corrects: topUp.entry.id,
        reference: null,
        amount: null,
        country: "TZ"
      })
      const plus = yield* admin.correctCredits({
        account_uid: account.uid,
        country: "TZ",
        units: 25,
        reason: "goodwill"
      })
      expect(plus.entry).toMatchObject({ units: 25, balance_after: 325, corrects: null, reason: "goodwill" })
      // the top-up row is unchanged: the corrections are rows of their own
      const ledger = yield* admin.ledger(account.uid, { country: "TZ" })
      expect(ledger.map((e) => [e.kind, e.units, e.balance_after])).toEqual([
        ["adjustment", 25, 325],
        ["adjustment", -200, 300],
        ["purchase", 500, 500]
      ])
      expect(ledger[2]).toEqual(topUp.entry)

      // refusals write nothing
      const below = yield* Effect.flip(
        admin.correctCredits({ account_uid: account.uid, country: "TZ", units: -326, reason: "too much" })
      )
      expect(errorsOf(below)).toEqual(["units"])
      expect(JSON.stringify(below)).toContain("negative: its balance is 325, the correction -326")
      const otherWallet = yield* Effect.flip(admin.correctCredits({
        account_uid: account.uid,
        country: "TZ",
        units: -1,
        reason: "wrong row",
        corrects: ke.entry.id
      }))
      expect(errorsOf(otherWallet)).toEqual(["corrects"])
      expect(
        errorsOf(
          yield* Effect.flip(admin.correctCredits({ account_uid: account.uid, country: "UG", units: 5, reason: "x" }))
        )
      ).toEqual(["country"])
      for (
        const [input, field] of [
          [{ units: 0, reason: "r" }, "units"],
          [{ units: 1.5, reason: "r" }, "units"],
          [{ units: 5, reason: "   " }, "reason"],
          [{ units: 5, reason: "r", corrects: "abc" }, "corrects"],
          [{ units: 5, reason: "r", corrects: "99999999999999999999" }, "corrects"]
        ] as const
      ) {
        const e = yield* Effect.flip(admin.correctCredits({ account_uid: account.uid, country: "TZ", ...input }))
        expect(errorsOf(e)).toEqual([field])
      }
      expect((yield* admin.ledger(account.uid)).length).toBe(4)
      expect((yield* admin.listWallets(account.uid)).find((w) => w.country === "TZ")!.balance).toBe(325)
      expect(yield* probe.ledgerMismatches(account.uid)).toBe(0)
      // down to exactly 0 is allowed
      const zero = yield* admin.correctCredits({
        account_uid: account.uid,
        country: "TZ",
        units: -325,
        reason: "closed"
      })
      expect(zero.wallet.balance).toBe(0)
      expect(yield* probe.ledgerMismatches(account.uid)).toBe(0)
    }))

  it.effect("routes and markets: verify (E.164), list, remove; open and close a market", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const account = yield* newAccount()
      const route = yield* admin.verifyRoute({ account_uid: account.uid, country: "TZ", phone: "0255 712 000 003" })
        .pipe(Effect.either)
      expect(Either.isLeft(route)).toBe(true) // national format without country context is refused
      const ok = yield* admin.verifyRoute({ account_uid: account.uid, country: "TZ", phone: "+255 712 000 003" })
      expect(ok).toMatchObject({ country: "TZ", phone: "+255712000003" })
      expect((yield* admin.listRoutes(account.uid)).map((r) => r.country)).toEqual(["TZ"])
      yield* admin.removeRoute(account.uid, "TZ")
      expect(yield* admin.listRoutes(account.uid)).toEqual([])
      expect((yield* Effect.flip(admin.removeRoute(account.uid, "TZ")))._tag).toBe("ResourceNotFound")

      const markets = yield* admin.listMarkets
      expect(markets.find((m) => m.iso2 === "TZ")).toMatchObject({ open: true, calling_code: "255" })
      expect(yield* admin.setMarketOpen("ug", true)).toMatchObject({ iso2: "UG", open: true })
      expect((yield* admin.setMarketOpen("UG", false)).open).toBe(false)
      expect((yield* Effect.flip(admin.setMarketOpen("ZZ", true)))._tag).toBe("ResourceNotFound")
    }))

  it.effect("sender IDs: every move of decisions §18 through the state machine; illegal ones refused", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const senderIds = yield* SenderIds
      const account = yield* newAccount({ purchases: { TZ: 1000 }, routes: ["TZ"] })
      const statuses: ReadonlyArray<SenderIdStatus> = ["pending", "approved", "rejected", "suspended"]
      const events = ["approve", "reject", "suspend", "reinstate"] as const
      let n = 0
      /** A record in `status`, reached by legal moves from a fresh request. */
      const inStatus = (status: SenderIdStatus) =>
        Effect.gen(function*() {
          const created = yield* senderIds.request(account.uid, {
            sender_id: `SM${(n++).toString(36).toUpperCase()}${unique("").slice(-4).toUpperCase()}`,
            sample_message: SAMPLE,
            purpose: "Alerts & Reminders"
          })
          const id = created.data.uid
          if (status === "approved" || status === "suspended") yield* admin.approveSenderId(id)
          if (status === "suspended") yield* admin.suspendSenderId(id, "complaints")
          if (status === "rejected") yield* admin.rejectSenderId(id, "no licence")
          return id
        })
      const act = (id: string, event: (typeof events)[number]) => {
        switch (event) {
          case "approve":
            return admin.approveSenderId(id)
          case "reject":
            return admin.rejectSenderId(id, "Trade name not proven")
          case "suspend":
            return admin.suspendSenderId(id, "Spam reports")
          case "reinstate":
            return admin.reinstateSenderId(id)
        }
      }
      for (const from of statuses) {
        for (const event of events) {
          const id = yield* inStatus(from)
          const result = yield* Effect.either(act(id, event))
          const expected = senderIdTransitions[from][event]
          if (expected === undefined) {
            expect(Either.isLeft(result) && result.left._tag, `${from} + ${event}`).toBe("IllegalTransition")
            expect((yield* admin.getSenderId(id)).sender_id.status, `${from} + ${event} leaves it`).toBe(from)
          } else {
            expect(Either.isRight(result) && result.right.status, `${from} + ${event}`).toBe(expected)
            const view = (yield* admin.getSenderId(id)).sender_id
            expect(view.status).toBe(expected)
            expect(view.is_usable).toBe(expected === "approved")
            if (event === "reject") expect(view.rejection_reason).toBe("Trade name not proven")
            if (event === "suspend") expect(view.suspension_reason).toBe("Spam reports")
            if (event === "reinstate") expect(view.suspension_reason).toBeNull()
          }
        }
      }
      // a rejection needs a reason
      const pending = yield* inStatus("pending")
      const noReason = yield* Effect.flip(admin.rejectSenderId(pending, "  "))
      expect(noReason._tag).toBe("ValidationFailed")
      expect((yield* admin.getSenderId(pending)).sender_id.status).toBe("pending")
      // the customer sees the reason
      yield* admin.rejectSenderId(pending, "Name belongs to another company")
      const listed = (yield* senderIds.list(account.uid)).find((r) => r.uid === pending)!
      expect(listed).toMatchObject({
        status: "rejected",
        is_usable: false,
        rejection_reason: "Name belongs to another company"
      })
      expect((yield* Effect.flip(admin.approveSenderId("0a8f6f1e-0000-4000-8000-000000000000")))._tag).toBe(
        "ResourceNotFound"
      )
    }))

  it.effect("sender IDs: two operators deciding at once — exactly one move wins", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const senderIds = yield* SenderIds
      const account = yield* newAccount({ purchases: { TZ: 1000 }, routes: ["TZ"] })
      for (let round = 0; round < 5; round++) {
        const { data } = yield* senderIds.request(account.uid, {
          sender_id: `RACE${round}${unique("").slice(-4).toUpperCase()}`,
          sample_message: SAMPLE,
          purpose: "Other"
        })
        const [a, b] = yield* Effect.all([
          Effect.either(admin.approveSenderId(data.uid)),
          Effect.either(admin.rejectSenderId(data.uid, "duplicate"))
        ], { concurrency: "unbounded" })
        expect([a, b].filter(Either.isRight).length).toBe(1)
        const loser = [a, b].find(Either.isLeft)!
        expect(Either.isLeft(loser) && loser.left._tag).toBe("IllegalTransition")
        const final = (yield* admin.getSenderId(data.uid)).sender_id.status
        expect(final).toBe(Either.isRight(a) ? "approved" : "rejected")
      }
    }))

  it.effect("grant directly, then the send follows the sender ID's status (suspend → refused, reinstate → sent)", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const send = yield* Send
      const account = yield* newAccount({ purchases: { TZ: 100 }, routes: ["TZ"] })
      yield* admin.createProvider({ name: unique("prov"), credits: [{ country: "TZ", credit: 1000 }] })
      const key = yield* admin.issueApiKey({ account_uid: account.uid })
      const granted = yield* admin.grantSenderId({ account_uid: account.uid, sender_id: " Duka  Bora ", country: "TZ" })
      expect(granted).toMatchObject({
        sender_id: "DUKA BORA",
        display_name: "Duka Bora",
        status: "approved",
        is_usable: true
      })
      const again = yield* Effect.flip(
        admin.grantSenderId({ account_uid: account.uid, sender_id: "DUKA BORA", country: "TZ" })
      )
      expect(again._tag).toBe("SenderIdAlreadyRequested")
      expect(
        errorsOf(yield* Effect.flip(admin.grantSenderId({ account_uid: account.uid, sender_id: "A!", country: "TZ" })))
      )
        .toEqual(["sender_id"])
      // operators may grant a reserved name
      expect((yield* admin.grantSenderId({ account_uid: account.uid, sender_id: "BANK", country: "TZ" })).status).toBe(
        "approved"
      )

      const caller = { accountId: account.uid, apiKeyId: key.api_key.uid, mode: "live" as const }
      const message = { recipient: "+255712345678", sender_id: "Duka Bora", body: "Karibu!" }
      const ok = yield* send.single(caller, message)
      expect(ok.data.status).toBe("queued")
      yield* admin.suspendSenderId(granted.uid, "Complaints")
      const refused = yield* Effect.flip(send.single(caller, message))
      expect(refused._tag).toBe("SenderIdNotApproved")
      yield* admin.reinstateSenderId(granted.uid)
      expect((yield* send.single(caller, message)).data.status).toBe("queued")
      // and an opt-out added by the operator is honoured
      yield* admin.addOptOut({ account_uid: account.uid, recipient: "255 712 345 678", reason: "STOP" })
      expect((yield* Effect.flip(send.single(caller, message)))._tag).toBe("RecipientOptedOut")
    }))

  it.effect("opt-outs: normalised to E.164, listed, removed; unknown → 404", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const account = yield* newAccount()
      const added = yield* admin.addOptOut({
        account_uid: account.uid,
        recipient: "+255 (712) 111-222",
        reason: "asked"
      })
      expect(added).toMatchObject({ account_uid: account.uid, recipient: "+255712111222", reason: "asked" })
      yield* admin.addOptOut({ account_uid: account.uid, recipient: "+255712111222" }) // again: no error
      expect((yield* admin.listOptOuts(account.uid)).map((o) => o.recipient)).toEqual(["+255712111222"])
      expect(errorsOf(yield* Effect.flip(admin.addOptOut({ account_uid: account.uid, recipient: "hello" })))).toEqual([
        "recipient"
      ])
      yield* admin.removeOptOut(account.uid, "255712111222")
      expect(yield* admin.listOptOuts(account.uid)).toEqual([])
      expect((yield* Effect.flip(admin.removeOptOut(account.uid, "+255712111222")))._tag).toBe("ResourceNotFound")
    }))

  it.effect("spam rules: add (kind checked), list by account or global, remove", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const account = yield* newAccount()
      const own = yield* admin.addSpamRule({ account_uid: account.uid, kind: "blocked_phrase", pattern: " win big " })
      expect(own).toMatchObject({ account_uid: account.uid, kind: "blocked_phrase", pattern: "win big", enabled: true })
      const global = yield* admin.addSpamRule({ kind: "blocked_domain", pattern: unique("spam") + ".example" })
      expect(global.account_uid).toBeNull()
      expect(errorsOf(yield* Effect.flip(admin.addSpamRule({ kind: "regex", pattern: "" })))).toEqual([
        "kind",
        "pattern"
      ])
      expect((yield* admin.listSpamRules({ account_uid: account.uid })).map((r) => r.uid)).toEqual([own.uid])
      expect((yield* admin.listSpamRules({ account_uid: null })).map((r) => r.uid)).toContain(global.uid)
      yield* admin.removeSpamRule(own.uid)
      yield* admin.removeSpamRule(global.uid)
      expect(yield* admin.listSpamRules({ account_uid: account.uid })).toEqual([])
      expect((yield* Effect.flip(admin.removeSpamRule(own.uid)))._tag).toBe("ResourceNotFound")
    }))

  it.effect("requirements: create (formats and size checked), list, delete", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      const bad = yield* Effect.flip(
        admin.createRequirement({ name: "", accepted_formats: ["pdf", "gif"], max_size_kb: 0 })
      )
      expect(errorsOf(bad)).toEqual(["accepted_formats.1", "max_size_kb", "name"])
      const r = yield* admin.createRequirement({
        name: "TIN certificate",
        accepted_formats: ["PDF", "jpeg"],
        country: "TZ"
      })
      expect(r).toMatchObject({
        name: "TIN certificate",
        accepted_formats: ["pdf", "jpeg"],
        max_size_kb: 5120,
        active: true
      })
      expect((yield* admin.listRequirements()).map((x) => x.uid)).toContain(r.uid)
      yield* admin.deleteRequirement(r.uid)
      expect((yield* admin.listRequirements()).map((x) => x.uid)).not.toContain(r.uid)
      expect((yield* admin.listRequirements({ include_inactive: true })).find((x) => x.uid === r.uid)?.active).toBe(
        false
      )
      expect((yield* Effect.flip(admin.deleteRequirement(r.uid)))._tag).toBe("ResourceNotFound")
    }))

  it.effect("providers: create with credit, unique name, credit per country (add/set), routes per country in order", () =>
    Effect.gen(function*() {
      const admin = yield* Admin
      // a market of its own so other tests' providers do not interfere
      const a = yield* admin.createProvider({
        name: unique("alpha"),
        kind: "smpp",
        config: { host: "smsc.example", port: 2775, system_id: "tuma", password: "s3cret" },
        credits: [{ country: "RW", credit: 100 }]
      })
      expect(a).toMatchObject({ kind: "smpp", enabled: true, credits: [{ country: "RW", balance: 100 }] })
      expect(JSON.stringify(a)).not.toContain("s3cret")
      const b = yield* admin.createProvider({ name: unique("beta"), credits: [{ country: "RW", credit: 5 }] })
      const c = yield* admin.createProvider({ name: unique("gamma") })
      expect((yield* Effect.flip(admin.createProvider({ name: a.name })))._tag).toBe("ResourceConflict")
      expect(
        errorsOf(yield* Effect.flip(admin.createProvider({ name: "x", credits: [{ country: "QQ", credit: -1 }] })))
      )
        .toEqual(["credits.0.country", "credits.0.credit"])

      // initial credits became routes in creation order
      expect((yield* admin.countryRoutes("RW")).routes.map((r) => [r.provider_uid, r.priority, r.credit])).toEqual([
        [a.uid, 0, 100],
        [b.uid, 1, 5]
      ])
      expect((yield* admin.creditProvider(b.uid, { country: "RW", units: 20 })).credits).toMatchObject([
        { country: "RW", balance: 25 }
      ])
      expect((yield* admin.creditProvider(b.uid, { country: "RW", units: -100 })).credits[0].balance).toBe(0)
      expect((yield* admin.creditProvider(b.uid, { country: "RW", units: 40, operation: "set" })).credits[0].balance)
        .toBe(40)
      expect(errorsOf(yield* Effect.flip(admin.creditProvider(b.uid, { country: "RW", units: -1, operation: "set" }))))
        .toEqual(["units"])

      // reorder: c first, then a; b is dropped (disabled)
      const routes = yield* admin.setCountryRoutes("RW", { provider_uids: [c.uid, a.uid] })
      expect(routes.routes.map((r) => [r.provider_uid, r.priority, r.enabled])).toEqual([
        [c.uid, 0, true],
        [a.uid, 1, true],
        [b.uid, 1, false]
      ])
      const bad = yield* Effect.flip(
        admin.setCountryRoutes("RW", { provider_uids: [a.uid, a.uid, "0a8f6f1e-0000-4000-8000-000000000000"] })
      )
      expect(errorsOf(bad)).toEqual(["provider_uids.1", "provider_uids.2"])
      expect((yield* admin.setProviderEnabled(c.uid, false)).enabled).toBe(false)
      expect((yield* admin.listProviders).map((p) => p.uid)).toEqual(expect.arrayContaining([a.uid, b.uid, c.uid]))
      expect((yield* Effect.flip(admin.getProvider("0a8f6f1e-0000-4000-8000-000000000000")))._tag).toBe(
        "ResourceNotFound"
      )
    }))
})
