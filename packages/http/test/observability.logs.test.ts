/**
 * Structured logs (issue 13): at info level, with the access log on, a whole Tuma is sent requests
 * carrying an API key (header and query string), the admin token, an SMPP password, webhook
 * secrets (created and regenerated) and a message body, and delivers the message and its webhook;
 * the log is then grepped: none of them appears. Every line is JSON with `request_uid` when written
 * in a request, and the send's line carries its `message_uid`. A portal user signs in (once with a
 * wrong password) and changes the password: no password, session id or CSRF token is logged, and a
 * bulk send's line carries its `campaign_uid`. Format and level are unit-checked.
 */
import { PortalAccess } from "@tuma/core/portal/PortalAccess"
import { Effect, Logger } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeLogger, parseFormat, parseLevel } from "../src/observability/Logger.js"
import { call } from "./harness.js"
import type { Tuma } from "./observabilityHarness.js"
import { defaultObservability, drivers, eventually, startTuma } from "./observabilityHarness.js"
import { Agent } from "./portal/harness.js"

const ADMIN = `admin-${randomBytes(12).toString("hex")}`

describe.each(drivers)("logs ($name)", ({ database }) => {
  let tuma: Tuma
  const lines: Array<string> = []

  beforeAll(async () => {
    tuma = await startTuma({
      database,
      accessLog: true,
      adminToken: ADMIN,
      observability: defaultObservability({
        log: { format: "json", level: parseLevel("info"), sink: (line) => lines.push(line) }
      })
    })
  }, 120_000)

  afterAll(async () => {
    await tuma?.close()
  })

  it("never writes keys, tokens, passwords, webhook secrets or message bodies at info level", async () => {
    const body = `Private body ${randomBytes(8).toString("hex")}`
    const password = `smpp-${randomBytes(8).toString("hex")}`
    const admin = (path: string, payload: unknown) =>
      call(tuma, "POST", `/admin/v1${path}`, { headers: { authorization: `Bearer ${ADMIN}` }, body: payload })

    const sent = await call(tuma, "POST", "/v1/sms/messages", {
      key: tuma.key,
      body: { recipient: "+255712345400", sender_id: "TUMA", body }
    })
    expect(sent.status).toBe(202)
    const uid: string = sent.body.data.uid
    // a refused one and an invalid one carry the body too
    expect(
      (await call(tuma, "POST", "/v1/sms/messages", {
        key: tuma.key,
        body: { recipient: "+255712345401", sender_id: "NOTMINE", body }
      })).status
    ).toBe(422)
    expect((await call(tuma, "POST", "/v1/sms/messages", { key: tuma.key, body: { recipient: "x", body } })).status)
      .toBe(422)
    // a key in the query string (some clients do it)
    await call(tuma, "GET", `/v1/sms/messages?api_key=${tuma.key}`, { key: tuma.key })
    await call(tuma, "GET", "/v1/sms/messages", { key: `${tuma.sandbox}x` })

    const provider = await admin("/providers", {
      name: `logtest-${randomBytes(4).toString("hex")}`,
      kind: "smpp",
      config: { host: "127.0.0.1", port: 1, systemId: "tuma", password },
      enabled: false
    })
    expect(provider.status).toBe(201)
    const hook = await admin("/webhooks", {
      api_key_uid: tuma.keyId,
      url: "http://127.0.0.1:9/tuma"
    })
    expect(hook.status).toBe(201)
    const regenerated = await admin(`/webhooks/${hook.body.data.endpoint.uid}/regenerate-secret`, {})
    expect(regenerated.status).toBe(200)
    const secrets = [hook.body.data.secret as string, regenerated.body.data.secret as string, tuma.webhookSecret]
    for (const s of secrets) expect(typeof s === "string" && s.length >= 16).toBe(true)

    // the message is delivered and its webhook posted (signed with the harness endpoint's secret)
    await eventually(
      async () => tuma.webhooks.some((w) => w.body.includes(uid)) ? true : undefined,
      "the webhook of the message"
    )

    const log = lines.join("\n")
    expect(lines.length).toBeGreaterThanOrEqual(8)
    for (
      const [what, secret] of [
        ["live key", tuma.key],
        ["sandbox key", tuma.sandbox],
        ["admin token", ADMIN],
        ["SMPP password", password],
        ["message body", body],
        ...secrets.map((s, i) => [`webhook secret ${i}`, s] as const)
      ] as const
    ) {
      expect(log.includes(secret), `${what} in the log`).toBe(false)
    }

    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    for (const p of parsed) {
      expect(typeof p.ts).toBe("string")
      expect(typeof p.level).toBe("string")
      expect(typeof p.msg).toBe("string")
    }
    const access = parsed.filter((p) => typeof p.route === "string")
    expect(access.length).toBeGreaterThanOrEqual(8)
    for (const p of access) expect(p.request_uid).toMatch(/^[0-9a-f-]{36}$/)
    const sendLine = access.find((p) => p.request_uid === sent.body.request_uid)!
    expect(sendLine).toMatchObject({ level: "INFO", route: "/v1/sms/messages", status: 202, message_uid: uid })
    expect(parsed.some((p) => p.level === "DEBUG")).toBe(false)
  })

  it("never writes portal passwords, session ids or CSRF tokens; a bulk send's line names its campaign", async () => {
    const email = `logs-${randomBytes(4).toString("hex")}@example.com`
    const password = `pw-${randomBytes(8).toString("hex")}`
    const next = `pw2-${randomBytes(8).toString("hex")}`
    await tuma.run(
      Effect.flatMap(PortalAccess, (a) => a.ensureUser({ accountId: tuma.accountId, email, password, role: "owner" }))
    )
    expect((await new Agent(tuma).signIn(email, `${password}x`)).status).toBe(401)
    const agent = new Agent(tuma)
    expect((await agent.signIn(email, password)).status).toBe(200)
    const changed = await agent.post("/portal/api/profile/password", { current_password: password, new_password: next })
    expect(changed.status).toBe(200)
    const again = new Agent(tuma)
    expect((await again.signIn(email, next)).status).toBe(200)
    const sessionIds = [...agent.cookies.values(), ...again.cookies.values()].filter((v) => v.length >= 16)
    expect(sessionIds.length).toBeGreaterThanOrEqual(2)
    const tokens = [agent.csrf!, again.csrf!]

    const bulk = await call(tuma, "POST", "/v2/sms/send-bulk", {
      key: tuma.key,
      body: { recipients: ["+255712345410", "+255712345411"], sender_id: "TUMA", message: "Bulk log test" }
    })
    expect(bulk.status).toBe(202)

    const log = lines.join("\n")
    for (const [what, secret] of [["password", password], ["new password", next], ["wrong password", `${password}x`]]) {
      expect(log.includes(secret), `${what} in the log`).toBe(false)
    }
    for (const s of [...sessionIds, ...tokens]) {
      expect(log.includes(s), "a session id or CSRF token in the log").toBe(false)
    }
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    const bulkLine = parsed.find((p) => p.request_uid === bulk.body.request_uid && typeof p.route === "string")
    expect(bulkLine).toMatchObject({ route: "/v2/sms/send-bulk", status: 202 })
    expect(bulkLine!.campaign_uid).toBe(bulk.body.data.uid ?? bulk.body.data.campaign_uid)
  })
})

describe("log format and level", () => {
  const capture = (format: "json" | "pretty", level: string, program: Effect.Effect<void>) => {
    const out: Array<string> = []
    Effect.runSync(program.pipe(
      Effect.provide(
        Logger.replace(Logger.defaultLogger, makeLogger({ format, level: parseLevel(level), sink: (l) => out.push(l) }))
      ),
      Logger.withMinimumLogLevel(parseLevel(level))
    ))
    return out
  }
  const program = Effect.all([
    Effect.logDebug("debug line"),
    Effect.logInfo("info line").pipe(Effect.annotateLogs({ campaign_uid: "c-1" })),
    Effect.logWarning("warning line")
  ])

  it("json: one object per line; pretty: one text line; the level filters", () => {
    const json = capture("json", "info", Effect.asVoid(program))
    expect(json.map((l) => JSON.parse(l).msg)).toEqual(["info line", "warning line"])
    expect(JSON.parse(json[0]!)).toMatchObject({ level: "INFO", campaign_uid: "c-1" })
    const pretty = capture("pretty", "debug", Effect.asVoid(program))
    expect(pretty).toHaveLength(3)
    expect(pretty[1]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z INFO {2}info line campaign_uid=c-1$/)
    expect(capture("pretty", "warn", Effect.asVoid(program))).toHaveLength(1)
    expect(capture("json", "none", Effect.asVoid(program))).toHaveLength(0)
  })

  it("refuses unknown formats and levels, and defaults to json off a terminal", () => {
    expect(() => parseFormat("xml", false)).toThrow(/json or pretty/)
    expect(() => parseLevel("loud")).toThrow(/TUMA_LOG_LEVEL/)
    expect(parseFormat(undefined, false)).toBe("json")
    expect(parseFormat(undefined, true)).toBe("pretty")
  })
})
