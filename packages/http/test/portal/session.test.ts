/**
 * Portal sessions over HTTP on a socket, on PGlite and PostgreSQL: sign in and out, wrong password,
 * lockout, CSRF refusals (missing/wrong token, foreign Origin, no pre-session cookie), session
 * fixation, idle and absolute expiry, sign out everywhere, cookie attributes.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SESSION_COOKIE } from "../../src/portal/Api.js"
import type { PortalServer } from "./harness.js"
import { accountWithUser, Agent, drivers, PASSWORD, signedIn, startPortal } from "./harness.js"

const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, any>) => Effect.flatMap(SqlClient.SqlClient, f)

describe.each(drivers)("portal sessions (%s)", (driver) => {
  let server: PortalServer
  beforeAll(async () => {
    server = await startPortal(driver, { settings: { lockoutThreshold: 3 } })
  })
  afterAll(() => server?.close())

  it("signs in with a HttpOnly SameSite=Lax cookie, answers me, signs out", async () => {
    const { account, email } = await accountWithUser(server)
    const agent = new Agent(server)
    expect((await agent.get("/portal/api/session")).status).toBe(401)
    await agent.preSession()
    const r = await agent.request("POST", "/portal/api/session", { body: { email, password: PASSWORD } })
    expect(r.status).toBe(200)
    expect(r.body.data.user.email).toBe(email)
    expect(r.body.data.user.role).toBe("owner")
    expect(r.body.data.account.uid).toBe(account.id)
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Path=\/portal/i)
    expect(cookie).not.toMatch(/Secure/i)
    agent.csrf = r.body.data.csrf_token
    const me = await agent.get("/portal/api/session")
    expect(me.status).toBe(200)
    expect(me.body.data.user.email).toBe(email)
    expect(me.body.data.csrf_token).toBe(agent.csrf)
    const out = await agent.del("/portal/api/session")
    expect(out.status).toBe(200)
    expect((await agent.get("/portal/api/session")).status).toBe(401)
  })

  it("sets Secure behind an https proxy only when the proxy is trusted", async () => {
    const { email } = await accountWithUser(server)
    const agent = new Agent(server)
    await agent.preSession()
    const r = await agent.request("POST", "/portal/api/session", {
      body: { email, password: PASSWORD },
      headers: { "x-forwarded-proto": "https" }
    })
    expect(r.status).toBe(200)
    // 127.0.0.1 is not a configured trusted proxy here: the header is not believed
    expect(r.headers.getSetCookie().find((c) => c.startsWith(SESSION_COOKIE))).not.toMatch(/Secure/i)
  })

  it("refuses a wrong password and an unknown e-mail alike (401)", async () => {
    const { email } = await accountWithUser(server)
    const a = await new Agent(server).signIn(email, "not the password")
    const b = await new Agent(server).signIn("nobody@example.com", "not the password")
    expect(a.status).toBe(401)
    expect(b.status).toBe(401)
    expect(a.body.message).toBe(b.body.message)
    expect(a.body.error_code).toBe("INVALID_CREDENTIALS")
  })

  it("a NUL character in a field is a 422 by field, never a database error", async () => {
    const { email } = await accountWithUser(server)
    const r = await new Agent(server).signIn("a\u0000b@example.com", PASSWORD)
    expect(r.status).toBe(422)
    expect(r.body.errors.email).toBeDefined()
    const agent = await signedIn(server, email)
    const invite = await agent.post("/portal/api/team/invitations", { email: "x\u0000@example.com", role: "member" })
    expect(invite.status).toBe(422)
    expect((await agent.patch("/portal/api/profile", { name: "a\u0000" })).status).toBe(422)
  })

  it("locks an e-mail after repeated failures, even for the right password, then lets it in again", async () => {
    const { email } = await accountWithUser(server)
    for (let i = 0; i < 2; i++) expect((await new Agent(server).signIn(email, "wrong password!")).status).toBe(401)
    const third = await new Agent(server).signIn(email, "wrong password!")
    expect(third.status).toBe(429)
    expect(third.body.error_code).toBe("LOGIN_LOCKED")
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0)
    const right = await new Agent(server).signIn(email)
    expect(right.status).toBe(429)
    // the lock ends (moved into the past here): the right password works again
    await server.run(sql((s) => s`UPDATE portal_login_failures SET locked_until = now() - interval '1 second'`))
    expect((await new Agent(server).signIn(email)).status).toBe(200)
  })

  it("refuses state changes without the CSRF token, with a wrong one, or from another origin (403)", async () => {
    const { email } = await accountWithUser(server)
    const agent = await signedIn(server, email)
    const body = { name: "x", mode: "live" }
    const none = await agent.request("POST", "/portal/api/api-keys", { body, csrf: false })
    expect(none.status).toBe(403)
    expect(none.body.error_code).toBe("CSRF_FAILED")
    const wrong = await agent.request("POST", "/portal/api/api-keys", {
      body,
      csrf: false,
      headers: { "x-csrf-token": "A".repeat(43) }
    })
    expect(wrong.status).toBe(403)
    const foreign = await agent.request("POST", "/portal/api/api-keys", { body, origin: "https://evil.example" })
    expect(foreign.status).toBe(403)
    const nullOrigin = await agent.request("POST", "/portal/api/api-keys", { body, origin: "null" })
    expect(nullOrigin.status).toBe(403)
    // nothing was created
    expect((await agent.get("/portal/api/api-keys")).body.data.filter((k: any) => k.name === "x")).toEqual([])
    // the same request with the token and its own origin works
    expect((await agent.post("/portal/api/api-keys", body)).status).toBe(201)
  })

  it("refuses a sign-in without the pre-session token (login CSRF)", async () => {
    const { email } = await accountWithUser(server)
    const agent = new Agent(server)
    const noCookie = await agent.request("POST", "/portal/api/session", {
      body: { email, password: PASSWORD },
      headers: { "x-csrf-token": "B".repeat(43) }
    })
    expect(noCookie.status).toBe(403)
    await agent.preSession()
    const foreign = await agent.request("POST", "/portal/api/session", {
      body: { email, password: PASSWORD },
      origin: "https://evil.example"
    })
    expect(foreign.status).toBe(403)
    expect(agent.cookies.has(SESSION_COOKIE)).toBe(false)
  })

  it("never keeps a session id the client brought (fixation)", async () => {
    const { email } = await accountWithUser(server)
    const attacker = await signedIn(server, (await accountWithUser(server)).email)
    const planted = attacker.cookies.get(SESSION_COOKIE)!
    // the victim's browser carries the attacker's (or any made-up) session id when signing in
    const victim = new Agent(server)
    victim.cookies.set(SESSION_COOKIE, planted)
    await victim.preSession()
    const r = await victim.request("POST", "/portal/api/session", { body: { email, password: PASSWORD } })
    expect(r.status).toBe(200)
    const issued = victim.cookies.get(SESSION_COOKIE)!
    expect(issued).not.toBe(planted)
    // the planted id signs in as nobody: it was ended
    const replay = new Agent(server)
    replay.cookies.set(SESSION_COOKIE, planted)
    expect((await replay.get("/portal/api/session")).status).toBe(401)
    // a made-up id is never accepted
    const madeUp = new Agent(server)
    madeUp.cookies.set(SESSION_COOKIE, "x".repeat(43))
    expect((await madeUp.get("/portal/api/session")).status).toBe(401)
  })

  it("ends a session after idle time and after its absolute lifetime", async () => {
    const { email, userId } = await accountWithUser(server)
    const idle = await signedIn(server, email)
    const absolute = await signedIn(server, email)
    expect((await idle.get("/portal/api/session")).status).toBe(200)
    const absoluteId = absolute.cookies.get(SESSION_COOKIE)!
    await server.run(sql((s) =>
      s`UPDATE portal_sessions SET last_seen_at = now() - interval '31 minutes'
        WHERE user_id = ${userId} AND absolute_expires_at > now() + interval '11 hours'
          AND id_hash <> ${hashOf(absoluteId)}`
    ))
    expect((await idle.get("/portal/api/session")).status).toBe(401)
    expect((await absolute.get("/portal/api/session")).status).toBe(200)
    await server.run(
      sql((s) =>
        s`UPDATE portal_sessions SET absolute_expires_at = now() - interval '1 second' WHERE id_hash = ${
          hashOf(absoluteId)
        }`
      )
    )
    expect((await absolute.get("/portal/api/session")).status).toBe(401)
  })

  it("signs out everywhere", async () => {
    const { email } = await accountWithUser(server)
    const one = await signedIn(server, email)
    const two = await signedIn(server, email)
    expect((await two.post("/portal/api/session/sign-out-everywhere")).status).toBe(200)
    expect((await one.get("/portal/api/session")).status).toBe(401)
    expect((await two.get("/portal/api/session")).status).toBe(401)
  })
})

describe("portal sessions behind a trusted https proxy", () => {
  let server: PortalServer
  beforeAll(async () => {
    server = await startPortal("pglite", { server: { auth: { trustedProxies: ["127.0.0.1/32"] } } })
  })
  afterAll(() => server?.close())

  it("marks the cookie Secure and checks the https origin the browser used", async () => {
    const { email } = await accountWithUser(server)
    const agent = new Agent(server)
    const proxied = { "x-forwarded-proto": "https" }
    const csrf = await agent.request("GET", "/portal/api/session/csrf", { headers: proxied })
    agent.csrf = csrf.body.data.csrf_token
    expect(csrf.headers.getSetCookie()[0]).toMatch(/Secure/)
    // the browser's origin is https: the plain-http origin is another site here
    const plain = await agent.request("POST", "/portal/api/session", {
      body: { email, password: PASSWORD },
      headers: proxied
    })
    expect(plain.status).toBe(403)
    const r = await agent.request("POST", "/portal/api/session", {
      body: { email, password: PASSWORD },
      headers: proxied,
      origin: server.url.replace("http:", "https:")
    })
    expect(r.status).toBe(200)
    expect(r.headers.getSetCookie().find((c) => c.startsWith(SESSION_COOKIE))).toMatch(/;\s*Secure/i)
  })
})

import { createHash } from "node:crypto"
const hashOf = (id: string) => createHash("sha256").update(id).digest("base64url")
