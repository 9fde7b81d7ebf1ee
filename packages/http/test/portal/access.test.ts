/**
 * Who may do what, over HTTP on a socket, on PGlite and PostgreSQL: members send and read but do
 * not manage keys, webhooks, team or sender IDs; one account never reaches another's data (its
 * ids answer 404); invitations and password resets arrive by e-mail at a real SMTP server and
 * their links work once; the admin API invites a new account's owner; the last owner stays.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, unique } from "../harness.js"
import type { PortalServer } from "./harness.js"
import {
  accountWithUser,
  addUser,
  ADMIN_TOKEN,
  Agent,
  drivers,
  linkFrom,
  PASSWORD,
  signedIn,
  startPortal
} from "./harness.js"

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!

describe.each(drivers)("portal access (%s)", (driver) => {
  let server: PortalServer
  beforeAll(async () => {
    server = await startPortal(driver)
  })
  afterAll(() => server?.close())

  it("a member sends and reads but cannot manage keys, webhooks, team or sender IDs", async () => {
    const owner = await accountWithUser(server, "owner")
    const member = await addUser(server, owner.account.id, "member")
    const agent = await signedIn(server, member.email)
    const sent = await agent.post("/portal/api/sms", { recipient: "+255712345678", sender_id: "TUMA", body: "hi" })
    expect(sent.status).toBe(202)
    expect((await agent.get("/portal/api/messages")).body.data.length).toBe(1)
    expect((await agent.get("/portal/api/api-keys")).status).toBe(200)
    const refused = [
      await agent.post("/portal/api/api-keys", { name: "m", mode: "live" }),
      await agent.post(`/portal/api/api-keys/${owner.liveId}/revoke`),
      await agent.post("/portal/api/webhooks", { api_key_uid: owner.liveId, url: "https://example.com/hook" }),
      await agent.post("/portal/api/team/invitations", { email: "x@example.com", role: "member" }),
      await agent.patch(`/portal/api/team/members/${owner.userId}`, { role: "member" }),
      await agent.del(`/portal/api/team/members/${owner.userId}`),
      await agent.post("/portal/api/sender-ids", {
        sender_id: "SHOP",
        sample_message: "Your order is ready for pickup today",
        purpose: "transactional"
      })
    ]
    for (const r of refused) {
      expect(r.status).toBe(403)
      expect(r.body.error_code).toBe("OWNER_REQUIRED")
    }
    // the live key still works: nothing was revoked
    const balance = await call(server, "GET", "/v1/balance", { key: owner.live })
    expect(balance.status).toBe(200)
  })

  it("one account never reaches another's data: its ids answer 404", async () => {
    const a = await accountWithUser(server, "owner")
    const b = await accountWithUser(server, "owner")
    const agentA = await signedIn(server, a.email)
    const agentB = await signedIn(server, b.email)
    const msg = await agentA.post("/portal/api/sms", { recipient: "+255712345678", sender_id: "TUMA", body: "A's" })
    expect(msg.status).toBe(202)
    const campaign = await agentA.post("/portal/api/campaigns", {
      recipients: ["+255712345670", "+255712345671"],
      message: "A's campaign",
      sender_id: "TUMA"
    })
    expect(campaign.status).toBe(202)
    const hook = await agentA.post("/portal/api/webhooks", { api_key_uid: a.liveId, url: "https://example.com/a" })
    expect(hook.status).toBe(201)
    const inv = await agentA.post("/portal/api/team/invitations", {
      email: `${unique("i")}@example.com`,
      role: "member"
    })
    expect(inv.status).toBe(201)

    const uid = msg.body.data.uid
    const hookId = hook.body.data.endpoint.uid
    expect((await agentB.get(`/portal/api/messages/${uid}`)).status).toBe(404)
    expect((await agentB.get(`/portal/api/campaigns/${campaign.body.data.uid}`)).status).toBe(404)
    expect((await agentB.post(`/portal/api/api-keys/${a.liveId}/revoke`)).status).toBe(404)
    expect((await agentB.post("/portal/api/webhooks", { api_key_uid: a.liveId, url: "https://example.com/b" })).status)
      .toBe(404)
    for (const path of ["secret", "enable", "disable", "test"]) {
      expect((await agentB.post(`/portal/api/webhooks/${hookId}/${path}`)).status).toBe(404)
    }
    expect((await agentB.get(`/portal/api/webhooks/${hookId}/deliveries`)).status).toBe(404)
    expect((await agentB.patch(`/portal/api/team/members/${a.userId}`, { role: "member" })).status).toBe(404)
    expect((await agentB.del(`/portal/api/team/members/${a.userId}`)).status).toBe(404)
    expect((await agentB.del(`/portal/api/team/invitations/${inv.body.data.uid}`)).status).toBe(404)
    // lists are the account's own
    expect((await agentB.get("/portal/api/messages")).body.data).toEqual([])
    expect((await agentB.get("/portal/api/campaigns")).body.data).toEqual([])
    expect((await agentB.get("/portal/api/webhooks")).body.data).toEqual([])
    expect((await agentB.get("/portal/api/api-keys")).body.data.map((k: any) => k.uid)).not.toContain(a.liveId)
    expect((await agentB.get("/portal/api/team")).body.data.members.map((m: any) => m.uid)).toEqual([b.userId])
    const csv = await agentB.get("/portal/api/messages/export.csv")
    expect(csv.text).not.toContain(uid)
    // and A's key and webhook are untouched
    expect((await call(server, "GET", "/v1/balance", { key: a.live })).status).toBe(200)
    expect((await agentA.get("/portal/api/webhooks")).body.data[0].enabled).toBe(true)
  })

  it("an invitation arrives by e-mail; its link makes the user once; the last owner stays", async () => {
    const owner = await accountWithUser(server, "owner")
    const agent = await signedIn(server, owner.email)
    const email = `${unique("invitee")}@example.com`
    const inv = await agent.post("/portal/api/team/invitations", { email, role: "member" })
    expect(inv.status).toBe(201)
    expect((await agent.get("/portal/api/team")).body.data.invitations.map((i: any) => i.email)).toContain(email)
    const link = await linkFrom(server.mails, email, "/portal/accept-invitation")
    expect(link.startsWith(`${server.url}/portal/accept-invitation?token=`)).toBe(true)
    const token = tokenOf(link)
    const invitee = new Agent(server)
    const preview = await invitee.get(`/portal/api/invitations/${token}`)
    expect(preview.status).toBe(200)
    expect(preview.body.data).toMatchObject({ email, role: "member", account_name: "Test Co" })
    await invitee.preSession()
    const short = await invitee.post("/portal/api/invitations/accept", { token, password: "short" })
    expect(short.status).toBe(422)
    expect(short.body.errors.password).toBeDefined()
    const accepted = await invitee.post("/portal/api/invitations/accept", { token, password: PASSWORD, name: "Neema" })
    expect(accepted.status).toBe(200)
    expect(accepted.body.data.user).toMatchObject({ email, role: "member", name: "Neema" })
    invitee.csrf = accepted.body.data.csrf_token
    expect((await invitee.get("/portal/api/session")).status).toBe(200)
    // used once
    const second = new Agent(server)
    await second.preSession()
    expect((await second.post("/portal/api/invitations/accept", { token, password: PASSWORD })).status).toBe(404)
    expect((await second.get(`/portal/api/invitations/${token}`)).status).toBe(404)
    // the owner promotes, then the only other owner cannot be removed/demoted while last
    const members = (await agent.get("/portal/api/team")).body.data.members
    const newUser = members.find((m: any) => m.email === email)
    expect((await agent.patch(`/portal/api/team/members/${owner.userId}`, { role: "member" })).status).toBe(409)
    expect((await agent.del(`/portal/api/team/members/${owner.userId}`)).status).toBe(409)
    expect((await agent.patch(`/portal/api/team/members/${newUser.uid}`, { role: "owner" })).status).toBe(200)
    expect((await agent.patch(`/portal/api/team/members/${owner.userId}`, { role: "member" })).status).toBe(200)
    // removing a member ends their sessions
    const remover = await signedIn(server, email)
    expect((await remover.del(`/portal/api/team/members/${owner.userId}`)).status).toBe(200)
    expect((await agent.get("/portal/api/session")).status).toBe(401)
  })

  it("a password reset arrives by e-mail, sets the password once and ends every session", async () => {
    const { email } = await accountWithUser(server, "owner")
    const before = await signedIn(server, email)
    const agent = new Agent(server)
    await agent.preSession()
    expect((await agent.post("/portal/api/password-reset", { email })).status).toBe(202)
    // an unknown address answers the same, and nothing is sent
    expect((await agent.post("/portal/api/password-reset", { email: "nobody@example.com" })).status).toBe(202)
    const link = await linkFrom(server.mails, email, "/portal/reset-password")
    const token = tokenOf(link)
    const newPassword = "a brand new passphrase"
    expect((await agent.post("/portal/api/password-reset/complete", { token, password: newPassword })).status).toBe(200)
    expect((await agent.post("/portal/api/password-reset/complete", { token, password: "another one here" })).status)
      .toBe(404)
    expect((await before.get("/portal/api/session")).status).toBe(401)
    expect((await new Agent(server).signIn(email, PASSWORD)).status).toBe(401)
    expect((await new Agent(server).signIn(email, newPassword)).status).toBe(200)
    expect(server.mails.some((m) => m.to.includes("nobody@example.com"))).toBe(false)
  })

  it("the admin API invites a new account's owner by e-mail", async () => {
    const ownerEmail = `${unique("boss")}@example.com`
    const created = await call(server, "POST", "/admin/v1/accounts", {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name: "New Co", email: `${unique("acct")}@example.com`, owner_email: ownerEmail }
    })
    expect(created.status).toBe(201)
    expect(created.body.data.owner_invitation.email).toBe(ownerEmail)
    const link = await linkFrom(server.mails, ownerEmail, "/portal/accept-invitation")
    expect(created.body.data.owner_invitation.link).toBe(link)
    const agent = new Agent(server)
    await agent.preSession()
    const accepted = await agent.post("/portal/api/invitations/accept", { token: tokenOf(link), password: PASSWORD })
    expect(accepted.status).toBe(200)
    expect(accepted.body.data.user.role).toBe("owner")
    expect(accepted.body.data.account.uid).toBe(created.body.data.uid)
    const bad = await call(server, "POST", "/admin/v1/accounts", {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name: "Bad Co", email: `${unique("acct")}@example.com`, owner_email: "not-an-email" }
    })
    expect(bad.status).toBe(422)
    const rows = await server.run(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1 FROM accounts WHERE name = 'Bad Co'`)
    )
    expect(rows.length).toBe(0)
  })

  it("profile: locale and time zone are remembered; the password changes with the current one", async () => {
    const { email } = await accountWithUser(server, "owner")
    const agent = await signedIn(server, email)
    const other = await signedIn(server, email)
    const bad = await agent.patch("/portal/api/profile", { time_zone: "Mars/Olympus" })
    expect(bad.status).toBe(422)
    const ok = await agent.patch("/portal/api/profile", { locale: "sw", time_zone: "Africa/Nairobi", name: "Juma" })
    expect(ok.status).toBe(200)
    const profile = await agent.get("/portal/api/profile")
    expect(profile.body.data.user).toMatchObject({ locale: "sw", time_zone: "Africa/Nairobi", name: "Juma" })
    expect(profile.body.data.account.balances[0].country).toBe("TZ")
    expect(
      (await agent.post("/portal/api/profile/password", {
        current_password: "wrong one!",
        new_password: "x".repeat(12)
      }))
        .status
    ).toBe(422)
    expect(
      (await agent.post("/portal/api/profile/password", { current_password: PASSWORD, new_password: "y".repeat(12) }))
        .status
    ).toBe(200)
    expect((await agent.get("/portal/api/session")).status).toBe(200)
    expect((await other.get("/portal/api/session")).status).toBe(401)
  })
})
