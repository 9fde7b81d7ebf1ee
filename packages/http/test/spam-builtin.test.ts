/**
 * The built-in spam phrase list through `/admin/v1/spam-rules` and the `tuma spam-rules` commands:
 * listed (marked built in), switched off and on again (stored; the next send of every process
 * applies it, tested with two servers on one PostgreSQL database), never removed. Stored rules
 * switch the same way. PGlite, and PostgreSQL when TUMA_TEST_DATABASE_URL is set.
 */
import { DEFAULT_BLOCKED_PHRASES } from "@tuma/domain"
import * as Database from "@tuma/store-sql/Database"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { commands } from "../src/cli/Cli.js"
import type { TestServer } from "./harness.js"
import { call, setupAccount, startServer, startServerOnPostgres, testDatabaseUrl } from "./harness.js"

const ADMIN = "spam-admin-secret"

const drivers: Array<"pglite" | "postgres"> = testDatabaseUrl ? ["pglite", "postgres"] : ["pglite"]

for (const driver of drivers) {
  describe(`built-in spam phrases (${driver})`, () => {
    // `a` takes the operator's changes; `b` sends (the same server on PGlite, another process's
    // stand-in — its own pool and caches — on PostgreSQL)
    let a: TestServer
    let b: TestServer
    let key = ""
    beforeAll(async () => {
      if (driver === "pglite") {
        a = await startServer({ adminToken: ADMIN })
        b = a
      } else {
        const first = await startServerOnPostgres({ adminToken: ADMIN })
        a = first
        b = await startServer({ adminToken: ADMIN }, Database.postgres(first.databaseUrl, { maxConnections: 4 }))
      }
      key = (await a.run(setupAccount())).live
    })
    afterAll(async () => {
      if (b !== a) await b.close()
      await a.close()
    })

    const admin = (method: string, path: string) =>
      call(a, method, `/admin/v1${path}`, { headers: { authorization: `Bearer ${ADMIN}` } })
    const send = (body: string) =>
      call(b, "POST", "/v1/sms/messages", { key, body: { recipient: "+255712345678", sender_id: "TUMA", body } })

    it("lists every built-in phrase, marked built in and enabled", async () => {
      const list = await admin("GET", "/spam-rules")
      expect(list.status).toBe(200)
      const builtin = list.body.data.filter((r: any) => r.builtin)
      expect(builtin.map((r: any) => r.pattern)).toEqual([...DEFAULT_BLOCKED_PHRASES])
      expect(builtin[0]).toEqual({
        uid: "builtin-you-have-won",
        account_uid: null,
        kind: "blocked_phrase",
        pattern: "you have won",
        description: expect.stringMatching(/built in/),
        enabled: true,
        builtin: true,
        created_at: null
      })
      expect(new Set(builtin.map((r: any) => r.uid)).size).toBe(builtin.length)
      // one account's own rules do not repeat the global built-in list
      const own = await admin("GET", `/spam-rules?account_uid=00000000-0000-4000-8000-000000000000`)
      expect(own.body.data).toEqual([])
    })

    it("an entry switched off stops blocking on the next send everywhere, and blocks again when on", async () => {
      const text = "Congratulations, you have won a phone"
      expect((await send(text)).body.error_code).toBe("SPAM_POLICY")

      const off = await admin("POST", "/spam-rules/builtin-you-have-won/disable")
      expect(off.status).toBe(200)
      expect(off.body.data).toMatchObject({ uid: "builtin-you-have-won", enabled: false, builtin: true })
      expect((await send(text)).status).toBe(202)
      // the other entries still apply
      expect((await send("Claim your prize today")).body.error_code).toBe("SPAM_POLICY")
      const listed = (await admin("GET", "/spam-rules")).body.data.find((r: any) => r.uid === "builtin-you-have-won")
      expect(listed.enabled).toBe(false)

      const on = await admin("POST", "/spam-rules/builtin-you-have-won/enable")
      expect(on.body.data).toMatchObject({ enabled: true })
      expect((await send(text)).body.error_code).toBe("SPAM_POLICY")
    })

    it("a built-in entry cannot be removed; unknown uids are 404", async () => {
      const removed = await admin("DELETE", "/spam-rules/builtin-free-money")
      expect(removed.status).toBe(422)
      expect(removed.body.message).toMatch(/built in.*switch it off/)
      expect((await send("Get free money now")).body.error_code).toBe("SPAM_POLICY")
      expect((await admin("POST", "/spam-rules/builtin-no-such-phrase/disable")).status).toBe(404)
      expect((await admin("POST", "/spam-rules/00000000-0000-4000-8000-000000000000/disable")).status).toBe(404)
    })

    it("stored rules switch off and on the same way", async () => {
      const rule = await call(a, "POST", "/admin/v1/spam-rules", {
        headers: { authorization: `Bearer ${ADMIN}` },
        body: { kind: "blocked_phrase", pattern: "mega discount" }
      })
      expect(rule.body.data).toMatchObject({ enabled: true, builtin: false })
      const uid = rule.body.data.uid
      expect((await send("A mega discount for you")).body.error_code).toBe("SPAM_POLICY")
      expect((await admin("POST", `/spam-rules/${uid}/disable`)).body.data).toMatchObject({ uid, enabled: false })
      expect((await send("A mega discount for you")).status).toBe(202)
      expect((await admin("POST", `/spam-rules/${uid}/enable`)).body.data.enabled).toBe(true)
      expect((await send("A mega discount for you")).body.error_code).toBe("SPAM_POLICY")
      expect((await admin("DELETE", `/spam-rules/${uid}`)).status).toBe(200)
    })

    it("the CLI commands: spam-rules disable / enable / list", async () => {
      const cli = (name: string, args: Array<string>) => a.run(commands[name]!.run({}, args) as any) as Promise<any>
      expect(commands["spam-rules disable"]).toBeDefined()
      const off = await cli("spam-rules disable", ["builtin-double-your-money"])
      expect(off).toMatchObject({ uid: "builtin-double-your-money", enabled: false, builtin: true })
      expect((await send("Double your money in a week")).status).toBe(202)
      const list = await cli("spam-rules list", [])
      expect(list.find((r: any) => r.uid === "builtin-double-your-money").enabled).toBe(false)
      await cli("spam-rules enable", ["builtin-double-your-money"])
      expect((await send("Double your money in a week")).body.error_code).toBe("SPAM_POLICY")
    })
  })
}
