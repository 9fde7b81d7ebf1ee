/**
 * U+0000 in any stored text (issue 9 item 9): PostgreSQL refuses the byte, so it must be refused
 * before anything is stored — 422 by field path (`DEFINITELY_NOT_ACCEPTED` on sends), never a 503
 * UNKNOWN that repeats on every retry. Over the socket, on PGlite and on PostgreSQL.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Answer, TestServer } from "./harness.js"
import {
  call,
  expectFirstFieldErrorMessage,
  setupAccount,
  startServer,
  startServerOnPostgres,
  testDatabaseUrl,
  unique
} from "./harness.js"

const NUL = "\u0000"
const ADMIN = "nul-admin-secret"

const drivers: ReadonlyArray<[string, () => Promise<TestServer>, boolean]> = [
  ["pglite", () => startServer({ adminToken: ADMIN }), true],
  ["postgres", () => startServerOnPostgres({ adminToken: ADMIN }), testDatabaseUrl !== undefined]
]

for (const [driver, start, enabled] of drivers) {
  describe.skipIf(!enabled)(`U+0000 is a 422 by field path (${driver})`, () => {
    let server: TestServer
    let acct: any
    beforeAll(async () => {
      server = await start()
      acct = await server.run(setupAccount())
    })
    afterAll(() => server?.close())

    const stored = () =>
      server.run(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ messages: number; campaigns: number; balance: number }>`
          SELECT (SELECT count(*)::int FROM messages WHERE account_id = ${acct.account.id}) AS messages,
                 (SELECT count(*)::int FROM campaigns WHERE account_id = ${acct.account.id}) AS campaigns,
                 (SELECT COALESCE(sum(balance), 0)::int FROM wallets WHERE account_id = ${acct.account.id}) AS balance`
        return rows[0]
      }))

    const refusedAt = (answer: Answer, path: string, send = true) => {
      expect(answer.status, answer.text).toBe(422)
      expect(answer.body.error_code).toBe("VALIDATION_FAILED")
      expect(answer.body.errors[path]?.[0]).toMatch(/NUL character \(U\+0000\)/)
      if (send) expect(answer.body.acceptance_state).toBe("DEFINITELY_NOT_ACCEPTED")
      expectFirstFieldErrorMessage(answer)
    }

    it("sends: body, sender_id, campaign_name, tag values — every retry the same 422, nothing stored", async () => {
      const before = await stored()
      const cases: Array<[string, unknown, string]> = [
        ["/v1/sms/messages", { recipient: "+255712345678", sender_id: "TUMA", body: `Hi${NUL}there` }, "body"],
        ["/v1/sms/messages", { recipient: "+255712345678", sender_id: `TU${NUL}MA`, body: "Hi" }, "sender_id"],
        [
          "/v1/sms/send-bulk",
          { recipients: ["+255712345678"], sender_id: "TUMA", message: "Hi", campaign_name: `C${NUL}` },
          "campaign_name"
        ],
        [
          "/v2/sms/send-bulk",
          { recipients: ["+255712345678"], sender_id: "TUMA", message: "Hi", campaign_name: `C${NUL}` },
          "campaign_name"
        ],
        [
          "/v2/sms/send-bulk",
          { recipients: [{ to: "+255712345678", name: `A${NUL}` }], sender_id: "TUMA", message: "Hi {name}" },
          "recipients.0.name"
        ]
      ]
      for (const [path, body, field] of cases) {
        for (const attempt of [1, 2]) {
          const answer = await call(server, "POST", path, {
            key: acct.live,
            body,
            headers: { "idempotency-key": `nul-${field}-${path.length}` }
          })
          refusedAt(answer, field)
          expect(attempt).toBeGreaterThan(0)
        }
      }
      expect(await stored()).toEqual(before)
    })

    it("a sender-ID request's text fields", async () => {
      const answer = await call(server, "POST", "/v1/sender-ids", {
        key: acct.live,
        body: {
          sender_id: "NULTEST",
          sample_message: `${"A real sample message for our customers ".repeat(2)}${NUL}`,
          purpose: "transactional"
        }
      })
      refusedAt(answer, "sample_message", false)
    })

    const admin = (method: string, path: string, body?: unknown) =>
      call(server, method, `/admin/v1${path}`, {
        headers: { authorization: `Bearer ${ADMIN}` },
        ...(body !== undefined ? { body } : {})
      })

    it("admin inputs: an account, a provider's config at any depth, a spam rule, a webhook URL", async () => {
      refusedAt(
        await admin("POST", "/accounts", { name: `Acme${NUL}`, email: `${unique("n")}@acme.example` }),
        "name",
        false
      )
      refusedAt(
        await admin("POST", "/providers", {
          name: unique("p"),
          kind: "simulated",
          config: { smpp: { password: `se${NUL}cret` } }
        }),
        "config.smpp.password",
        false
      )
      refusedAt(
        await admin("POST", "/spam-rules", { kind: "blocked_phrase", pattern: `win${NUL}` }),
        "pattern",
        false
      )
      refusedAt(
        await admin("POST", "/webhooks", { api_key_uid: acct.liveId, url: `https://example.com/h${NUL}ook` }),
        "url",
        false
      )
      // path and query parameters of the admin API reach SQL too
      refusedAt(await admin("POST", "/markets/%00/open"), "country", false)
      refusedAt(await admin("GET", "/accounts?search=%00"), "search", false)
      // the same inputs without the byte are accepted
      expect((await admin("POST", "/accounts", { name: "Acme", email: `${unique("n")}@acme.example` })).status)
        .toBe(201)
    })
  })
}
