/**
 * Contract suite of the read use cases (spec §4.1, §4.3, §4.4, §4.10; §2.3, §2.5, §2.8) on PGlite,
 * on PostgreSQL when TUMA_TEST_DATABASE_URL is set, and on core's memory adapters.
 */
import { expect } from "@effect/vitest"
import { Admin } from "@tuma/core"
import { MESSAGE_NOT_FOUND_TEXT, Reads } from "@tuma/core"
import { Effect, Either } from "effect"
import { forEachDriver } from "./harness.js"
import { newAccount, operatorStack, seedCampaign, seedMessage } from "./operatorFixtures.js"
import { Probe } from "./probe.js"

const at = (iso: string) => new Date(iso)

forEachDriver(operatorStack, (it) => {
  it.effect("list: newest first with the pagination meta of §2.3 on every page", () =>
    Effect.gen(function*() {
      const reads = yield* Reads
      const account = yield* newAccount()
      const ids: Array<string> = []
      for (let i = 0; i < 7; i++) {
        ids.push(yield* seedMessage({ accountId: account.uid, createdAt: new Date(Date.UTC(2026, 0, 1, 10, i)) }))
      }
      const newest = [...ids].reverse()
      const p1 = yield* reads.listMessages(account.uid, { per_page: 3, page: 1 })
      expect(p1.data.map((m) => m.uid)).toEqual(newest.slice(0, 3))
      expect(p1.meta).toEqual({ current_page: 1, per_page: 3, total: 7, last_page: 3 })
      const p3 = yield* reads.listMessages(account.uid, { per_page: 3, page: 3 })
      expect(p3.data.map((m) => m.uid)).toEqual(newest.slice(6))
      expect(p3.meta).toEqual({ current_page: 3, per_page: 3, total: 7, last_page: 3 })
      const beyond = yield* reads.listMessages(account.uid, { per_page: 3, page: 9 })
      expect(beyond.data).toEqual([])
      expect(beyond.meta).toEqual({ current_page: 9, per_page: 3, total: 7, last_page: 3 })
      // defaults: per_page 50, page 1
      const all = yield* reads.listMessages(account.uid, {})
      expect(all.meta).toEqual({ current_page: 1, per_page: 50, total: 7, last_page: 1 })
      expect(all.data.map((m) => m.uid)).toEqual(newest)
      // per_page capped at 100, raised to 1
      expect((yield* reads.listMessages(account.uid, { per_page: 500 })).meta.per_page).toBe(100)
      expect((yield* reads.listMessages(account.uid, { per_page: 0 })).meta.per_page).toBe(1)
    }))

  it.effect("list: an empty list has total 0 and last_page 1; ties on created_at order by id", () =>
    Effect.gen(function*() {
      const reads = yield* Reads
      const account = yield* newAccount()
      expect(yield* reads.listMessages(account.uid, {})).toEqual({
        data: [],
        meta: { current_page: 1, per_page: 50, total: 0, last_page: 1 }
      })
      const same = at("2026-02-01T00:00:00Z")
      const a = yield* seedMessage({
        accountId: account.uid,
        createdAt: same,
        id: "00000000-0000-4000-8000-00000000000a"
      })
      const b = yield* seedMessage({
        accountId: account.uid,
        createdAt: same,
        id: "00000000-0000-4000-8000-00000000000b"
      })
      const page = yield* reads.listMessages(account.uid, {})
      expect(page.data.map((m) => m.uid)).toEqual([b, a])
    }))

  it.effect("list: filters status, channel and from/to (inclusive UTC days), and only the account's messages", () =>
    Effect.gen(function*() {
      const reads = yield* Reads
      const account = yield* newAccount()
      const other = yield* newAccount()
      const before = yield* seedMessage({ accountId: account.uid, createdAt: at("2026-03-09T23:59:59.999Z") })
      const first = yield* seedMessage({ accountId: account.uid, createdAt: at("2026-03-10T00:00:00.000Z") })
      const webSent = yield* seedMessage({
        accountId: account.uid,
        createdAt: at("2026-03-11T12:00:00Z"),
        channel: "web",
        status: "sent"
      })
      const last = yield* seedMessage({
        accountId: account.uid,
        createdAt: at("2026-03-12T23:59:59.999Z"),
        status: "delivered"
      })
      const after = yield* seedMessage({ accountId: account.uid, createdAt: at("2026-03-13T00:00:00.000Z") })
      yield* seedMessage({ accountId: other.uid, createdAt: at("2026-03-11T00:00:00Z") })
      const uids = (p: { data: ReadonlyArray<{ uid: string }> }) => p.data.map((m) => m.uid)

      expect(uids(yield* reads.listMessages(account.uid, {}))).toEqual([after, last, webSent, first, before])
      expect(uids(yield* reads.listMessages(account.uid, { from: "2026-03-10", to: "2026-03-12" }))).toEqual([
        last,
        webSent,
        first
      ])
      expect(uids(yield* reads.listMessages(account.uid, { from: "2026-03-13" }))).toEqual([after])
      expect(uids(yield* reads.listMessages(account.uid, { to: "2026-03-09" }))).toEqual([before])
      expect(uids(yield* reads.listMessages(account.uid, { status: "sent" }))).toEqual([webSent])
      expect(uids(yield* reads.listMessages(account.uid, { status: "delivered" }))).toEqual([last])
      expect(uids(yield* reads.listMessages(account.uid, { status: "queued" }))).toEqual([after, first, before])
      expect(uids(yield* reads.listMessages(account.uid, { channel: "web" }))).toEqual([webSent])
      const combined = yield* reads.listMessages(account.uid, {
        channel: "api",
        status: "queued",
        from: "2026-03-10",
        to: "2026-03-13"
      })
      expect(uids(combined)).toEqual([after, first])
      expect(combined.meta.total).toBe(2)
    }))

  it.effect("list: malformed dates and to before from are 422 by field", () =>
    Effect.gen(function*() {
      const reads = yield* Reads
      const account = yield* newAccount()
      const bad = yield* Effect.either(reads.listMessages(account.uid, { from: "2026-02-30", to: "yesterday" }))
      expect(Either.isLeft(bad) && bad.left._tag).toBe("ValidationFailed")
      if (Either.isLeft(bad)) expect(Object.keys(bad.left.errors).sort()).toEqual(["from", "to"])
      const reversed = yield* Effect.either(reads.listMessages(account.uid, { from: "2026-03-02", to: "2026-03-01" }))
      expect(Either.isLeft(reversed) && Object.keys(reversed.left.errors)).toEqual(["to"])
    }))

  it.effect("read one: the account's own message with its campaign; another account's or unknown → not found", () =>
    Effect.gen(function*() {
      const reads = yield* Reads
      const account = yield* newAccount()
      const other = yield* newAccount()
      const campaign = yield* seedCampaign(account.uid, "March promo", at("2026-03-01T00:00:00Z"))
      const id = yield* seedMessage({
        accountId: account.uid,
        createdAt: at("2026-03-01T08:00:00Z"),
        campaignId: campaign
      })
      const plain = yield* seedMessage({ accountId: account.uid, createdAt: at("2026-03-01T09:00:00Z") })
      const entry = yield* reads.getMessage(account.uid, id)
      expect(entry).toMatchObject({
        uid: id,
        recipient: "+255712345678",
        sender_id: "TUMA",
        units: 1,
        channel: "api",
        status: "queued",
        queued_at: "2026-03-01T08:00:00.000Z",
        sent_at: null,
        delivered_at: null,
        failure_reason: null,
        campaign_uid: campaign,
        campaign_name: "March promo",
        failure_context: null,
        delivery_report: { checked_at: null, status: null, delivery_status: null }
      })
      expect("campaign_uid" in (yield* reads.getMessage(account.uid, plain))).toBe(false)

      const foreign = yield* Effect.flip(reads.getMessage(other.uid, id))
      expect(foreign._tag).toBe("MessageNotFound")
      expect(foreign.message).toBe(MESSAGE_NOT_FOUND_TEXT)
      const unknown = yield* Effect.flip(reads.getMessage(account.uid, "7d1b2c3a-0000-4000-8000-000000000000"))
      expect(unknown._tag).toBe("MessageNotFound")
      const malformed = yield* Effect.flip(reads.getMessage(account.uid, "not-a-uuid"))
      expect(malformed._tag).toBe("MessageNotFound")
    }))

  it.effect("balance: string figures; the total and countries cover enabled wallets only", () =>
    Effect.gen(function*() {
      const reads = yield* Reads
      const admin = yield* Admin
      const empty = yield* newAccount()
      expect(yield* reads.balance(empty.uid)).toEqual({ balance: "0", currency: "SMS", countries: [] })

      const account = yield* newAccount({ purchases: { TZ: 1000, KE: 250, UG: 40 } })
      yield* admin.setWalletEnabled(account.uid, "UG", false)
      const balance = yield* reads.balance(account.uid)
      const wallets = yield* admin.listWallets(account.uid)
      expect(balance).toEqual({
        balance: "1250",
        currency: "SMS",
        countries: [
          {
            wallet_uid: wallets.find((w) => w.country === "KE")!.wallet_uid,
            country: "KE",
            calling_code: "254",
            balance: "250"
          },
          {
            wallet_uid: wallets.find((w) => w.country === "TZ")!.wallet_uid,
            country: "TZ",
            calling_code: "255",
            balance: "1000"
          }
        ]
      })
      // a debit of the wallet lowers the figure
      yield* Effect.flatMap(Probe, (probe) => probe.adjustWallet(account.uid, "TZ", -1))
      expect((yield* reads.balance(account.uid)).balance).toBe("1249")
    }))

  it.effect("profile: §2.8 fields with country, balances (integers) and verified routes", () =>
    Effect.gen(function*() {
      const reads = yield* Reads
      const account = yield* newAccount({ purchases: { TZ: 500 }, routes: ["TZ"] })
      const profile = yield* reads.profile(account.uid)
      expect(profile).toMatchObject({
        uid: account.uid,
        name: "Acme Ltd",
        email: account.email,
        phone: "+255712000001",
        country: { iso2: "TZ", calling_code: "255", name: "Tanzania" },
        balances: [{ country: "TZ", calling_code: "255", balance: 500, currency: "SMS" }],
        routes: [{ country: "TZ", country_name: "Tanzania", calling_code: "255", phone: "+255712000001" }]
      })
      expect(typeof profile.phone_verified_at).toBe("string")
      expect(profile.balances[0].country_uid).toBe(profile.country!.uid)
      expect(profile.routes[0].country_uid).toBe(profile.country!.uid)
    }))
})
