/**
 * The audit log over a real socket (issue 15), on PGlite and, when TUMA_TEST_DATABASE_URL is set,
 * on PostgreSQL: what an operator does through `/admin/v1` shows in `GET /admin/v1/audit-log` with
 * the actor `admin-token` and the client's address (the socket's, or `X-Forwarded-For` from a
 * trusted proxy); filters and cursor paging; malformed filters answer 422 in the envelope; no
 * secret is ever answered; and the database itself refuses to change or remove an entry.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import {
  call,
  expectFirstFieldErrorMessage,
  setupAccount,
  startServer,
  startServerOnPostgres,
  testDatabaseUrl,
  unique
} from "./harness.js"

const ADMIN = "audit-admin-secret"
const overrides = { adminToken: ADMIN, auth: { trustedProxies: ["127.0.0.1/32", "::1/128"] } }

const drivers: ReadonlyArray<readonly [string, () => Promise<TestServer>]> = [
  ["pglite", () => startServer(overrides)],
  ...(testDatabaseUrl ? [["postgres", () => startServerOnPostgres(overrides)] as const] : [])
]

for (const [driver, start] of drivers) {
  describe(`audit log over HTTP (${driver})`, () => {
    let server: TestServer
    beforeAll(async () => {
      server = await start()
    }, 60_000)
    afterAll(async () => {
      await server?.close()
    })

    const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      call(server, method, `/admin/v1${path}`, {
        headers: { authorization: `Bearer ${ADMIN}`, ...headers },
        ...(body !== undefined ? { body } : {})
      })

    it("an admin-API action shows with actor admin-token and the client's address", async () => {
      const created = await admin("POST", "/accounts", { name: "Audit Ltd", email: `${unique("audit")}@example.com` })
      expect(created.status).toBe(201)
      const uid = created.body.data.uid
      // through a trusted proxy the client is X-Forwarded-For's address
      const top = await admin("POST", "/purchases", { account_uid: uid, country: "TZ", units: 700, reference: "R-1" }, {
        "x-forwarded-for": "203.0.113.50"
      })
      expect(top.status).toBe(201)
      expect((await admin("POST", `/accounts/${uid}/suspend`)).status).toBe(200)

      const log = await admin("GET", `/audit-log?target=${encodeURIComponent(`account:${uid}`)}`)
      expect(log.status).toBe(200)
      expect(log.body.success).toBe(true)
      expect(typeof log.body.request_uid).toBe("string")
      expect(log.body.data.map((e: any) => [e.action, e.actor_kind, e.actor_name, e.actor_id, e.ip])).toEqual([
        ["account.suspend", "admin-token", "admin-token", null, "127.0.0.1"],
        ["wallet.top_up", "admin-token", "admin-token", null, "203.0.113.50"],
        // the account's first owner is invited by the operator who created it
        ["portal.invitation.create", "admin-token", "admin-token", null, "127.0.0.1"],
        ["account.create", "admin-token", "admin-token", null, "127.0.0.1"]
      ])
      const [suspend, topUp] = log.body.data
      expect(suspend).toMatchObject({ target: `account:${uid}`, before: { active: true }, after: { active: false } })
      expect(new Date(suspend.at).toISOString()).toBe(suspend.at)
      expect(topUp.after).toMatchObject({ entry: { units: 700, reference: "R-1" }, wallet: { balance: 700 } })
      expect(log.body.meta).toEqual({ limit: 100, next_before: null })
    })

    it("a credit correction is a ledger row; below 0 it is refused (422, nothing changes); recorded for admin-token", async () => {
      const created = await admin("POST", "/accounts", { name: "Fix Ltd", email: `${unique("fix")}@example.com` })
      const uid = created.body.data.uid
      const top = await admin("POST", "/purchases", { account_uid: uid, country: "TZ", units: 300, reference: "R-9" })
      const fix = await admin("POST", "/corrections", {
        account_uid: uid,
        country: "TZ",
        units: -100,
        reason: "R-9 was 200 units",
        corrects: top.body.data.entry.id
      })
      expect(fix.status).toBe(201)
      expect(fix.body.data.entry).toMatchObject({
        kind: "adjustment",
        units: -100,
        balance_after: 200,
        reason: "R-9 was 200 units",
        corrects: top.body.data.entry.id
      })
      const refused = await admin("POST", "/corrections", { account_uid: uid, country: "TZ", units: -201, reason: "x" })
      expect(refused.status).toBe(422)
      expect(refused.body).toMatchObject({ success: false, error_code: "VALIDATION_FAILED" })
      expectFirstFieldErrorMessage(refused)
      expect(refused.body.errors.units[0]).toMatch(/would make the TZ wallet negative: its balance is 200/)
      const noReason = await admin("POST", "/corrections", { account_uid: uid, country: "TZ", units: 5, reason: " " })
      expect(noReason.status).toBe(422)
      expect(Object.keys(noReason.body.errors)).toEqual(["reason"])
      // nothing changed: the balance, the ledger (newest first) and the log
      expect((await admin("GET", `/accounts/${uid}/wallets`)).body.data[0].balance).toBe(200)
      expect((await admin("GET", `/accounts/${uid}/ledger`)).body.data.map((e: any) => [e.kind, e.units])).toEqual([
        ["adjustment", -100],
        ["purchase", 300]
      ])
      const log = await admin("GET", `/audit-log?target=${encodeURIComponent(`account:${uid}`)}&action=wallet.correct`)
      expect(log.body.data.map((e: any) => [e.action, e.actor_kind])).toEqual([["wallet.correct", "admin-token"]])
      expect(log.body.data[0]).toMatchObject({
        before: { balance: 300 },
        after: { wallet: { balance: 200 }, entry: { units: -100 } }
      })
    })

    it("filters by action (exact or prefix), actor, time; pages by cursor", async () => {
      const created = await admin("POST", "/accounts", { name: "Pager", email: `${unique("pager")}@example.com` })
      const uid = created.body.data.uid
      for (let i = 0; i < 5; i++) {
        await admin("POST", "/purchases", { account_uid: uid, country: "TZ", units: 10 + i })
      }
      const target = encodeURIComponent(`account:${uid}`)
      const first = await admin("GET", `/audit-log?target=${target}&action=wallet.top_up&limit=2`)
      expect(first.body.data.map((e: any) => e.after.entry.units)).toEqual([14, 13])
      expect(first.body.meta).toEqual({ limit: 2, next_before: first.body.data[1].id })
      const second = await admin(
        "GET",
        `/audit-log?target=${target}&action=wallet.top_up&limit=2&before=${first.body.meta.next_before}`
      )
      expect(second.body.data.map((e: any) => e.after.entry.units)).toEqual([12, 11])
      const third = await admin(
        "GET",
        `/audit-log?target=${target}&action=wallet.top_up&limit=2&before=${second.body.meta.next_before}`
      )
      expect(third.body.data.map((e: any) => e.after.entry.units)).toEqual([10])
      expect(third.body.meta.next_before).toBeNull()

      const prefix = await admin("GET", `/audit-log?target=${target}&action=${encodeURIComponent("account.*")}`)
      expect(prefix.body.data.map((e: any) => e.action)).toEqual(["account.create"])
      const byActor = await admin("GET", `/audit-log?actor=admin-token&target=${target}&limit=500`)
      // every entry of the account, its first owner's invitation included
      expect(byActor.body.data.length).toBe(7)
      expect((await admin("GET", `/audit-log?actor=someone-else&target=${target}`)).body.data).toEqual([])
      const future = new Date(Date.now() + 3_600_000).toISOString()
      expect((await admin("GET", `/audit-log?target=${target}&from=${future}`)).body.data).toEqual([])
      expect((await admin("GET", `/audit-log?target=${target}&to=${future}`)).body.data.length).toBe(7)
    })

    it("a malformed filter is a 422 in the envelope, by field", async () => {
      const bad = await admin("GET", "/audit-log?from=yesterday&limit=0&before=x1&action=DROP%20TABLE")
      expect(bad.status).toBe(422)
      expect(bad.body.success).toBe(false)
      expect(Object.keys(bad.body.errors).sort()).toEqual(["action", "before", "from", "limit"])
      expectFirstFieldErrorMessage(bad)
      expect((await admin("GET", "/audit-log?limit=501")).status).toBe(422)
      expect((await call(server, "GET", "/admin/v1/audit-log")).status).toBe(401)
    })

    it("no secret is answered: an issued key and a provider's SMPP password show as ***", async () => {
      const created = await admin("POST", "/accounts", { name: "Keys", email: `${unique("keys")}@example.com` })
      const key = await admin("POST", "/api-keys", { account_uid: created.body.data.uid, name: "ci" })
      expect(key.status).toBe(201)
      const provider = await admin("POST", "/providers", {
        name: unique("smsc"),
        kind: "smpp",
        config: { host: "127.0.0.1", port: 2775, system_id: "tuma", password: "very-secret-pw" }
      })
      expect(provider.status).toBe(201)
      const log = await admin("GET", `/audit-log?target=${encodeURIComponent(`provider:${provider.body.data.uid}`)}`)
      expect(log.body.data[0]).toMatchObject({
        action: "provider.create",
        after: { config: { system_id: "tuma", password: "***" } }
      })
      const keys = await admin("GET", `/audit-log?action=api_key.issue&limit=500`)
      expect(keys.body.data.some((e: any) => e.target === `api_key:${key.body.data.api_key.uid}`)).toBe(true)
      const everything = await admin("GET", "/audit-log?limit=500")
      expect(everything.text).not.toContain(key.body.data.key)
      expect(everything.text).not.toContain("very-secret-pw")
    })

    it("webhook endpoint changes and redeliveries are recorded; the secret is not", async () => {
      const { liveId } = await server.run(setupAccount())
      const created = await admin("POST", "/webhooks", { api_key_uid: liveId, url: "https://hooks.example.com/audit" })
      expect(created.status).toBe(201)
      const uid = created.body.data.endpoint.uid
      expect((await admin("POST", `/webhooks/${uid}/disable`, { reason: "maintenance" })).status).toBe(200)
      expect((await admin("POST", `/webhooks/${uid}/enable`)).status).toBe(200)
      const regenerated = await admin("POST", `/webhooks/${uid}/regenerate-secret`)
      expect(regenerated.status).toBe(200)
      const since = new Date(Date.now() - 60_000).toISOString()
      expect((await admin("POST", `/webhooks/${uid}/redeliver`, { since })).status).toBe(202)
      const log = await admin("GET", `/audit-log?target=${encodeURIComponent(`webhook:${uid}`)}`)
      expect(log.body.data.map((e: any) => [e.action, e.actor_name])).toEqual([
        ["webhook.redeliver_since", "admin-token"],
        ["webhook.regenerate_secret", "admin-token"],
        ["webhook.enable", "admin-token"],
        ["webhook.disable", "admin-token"],
        ["webhook.create", "admin-token"]
      ])
      expect(log.body.data[3]).toMatchObject({ before: { enabled: true }, after: { enabled: false } })
      expect(log.body.data[1].after).toEqual({ secret: "***" })
      expect(log.text).not.toContain(created.body.data.secret)
      expect(log.text).not.toContain(regenerated.body.data.secret)
    })

    it("the database refuses UPDATE, DELETE and TRUNCATE of audit_log", async () => {
      const before = await admin("GET", "/audit-log?limit=500")
      expect(before.body.data.length).toBeGreaterThan(0)
      const refused = (statement: string) =>
        server.run(
          Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
            Effect.match({ onFailure: (e) => String((e as any).cause ?? e), onSuccess: () => "changed" })
          )
        )
      expect(await refused("UPDATE audit_log SET actor_name = 'nobody'")).toMatch(/append-only: UPDATE/)
      expect(await refused("DELETE FROM audit_log")).toMatch(/append-only: DELETE/)
      expect(await refused("TRUNCATE audit_log")).toMatch(/append-only: TRUNCATE/)
      const after = await admin("GET", "/audit-log?limit=500")
      expect(after.body.data).toEqual(before.body.data.concat([]))
    })
  })
}
