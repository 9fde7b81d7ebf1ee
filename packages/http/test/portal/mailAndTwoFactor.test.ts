/**
 * Mail that says what happened, and two-factor sign-in, over HTTP:
 * - with a mail server (a real SMTP sink), an invitation answers `mail: "sent"` and no link, and the
 *   mail arrives; without one (as without TUMA_SMTP_URL) it answers `outbox` with the link to copy,
 *   nothing reaches any SMTP server, and the console's Outbox (admins only) shows the mail;
 * - a portal user turns TOTP on (QR address, a code confirms, ten recovery codes), then the
 *   password alone answers `code_required`, a code signs in once per step, a recovery code once;
 * - an owner requires it for the account: a member without it is given an enrolment at sign-in.
 */
import { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import * as Totp from "@tuma/domain/totp"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
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

const codeOf = (secret: string, at = Date.now()) => Totp.totpFor(secret, "", "").generate({ timestamp: at })

describe.each(drivers)("mail and two-factor sign-in (%s)", (driver) => {
  let smtp: PortalServer
  let demo: PortalServer
  beforeAll(async () => {
    ;[smtp, demo] = await Promise.all([startPortal(driver), startPortal(driver, { mail: "outbox" })])
  }, 180_000)
  afterAll(async () => {
    await Promise.all([smtp?.close(), demo?.close()])
  })

  it("an invitation says it was e-mailed only when the SMTP server took it", async () => {
    const { email } = await accountWithUser(smtp)
    const owner = await signedIn(smtp, email)
    const invitee = `sent-${driver}@example.com`
    const r = await owner.post("/portal/api/team/invitations", { email: invitee, role: "member" })
    expect(r.status).toBe(201)
    expect(r.body.data).toMatchObject({ email: invitee, mail: "sent", link: null })
    expect(await linkFrom(smtp.mails, invitee, "/portal/accept-invitation")).toContain("token=")
    // recorded in the audit log as the owner (issue 26 item 12), and so is the revocation
    const revoked = await owner.del(`/portal/api/team/invitations/${r.body.data.uid}`)
    expect(revoked.status).toBe(200)
    const log = await fetch(`${smtp.url}/admin/v1/audit-log?action=portal.invitation.*`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` }
    }).then((res): Promise<any> => res.json())
    const mine = log.data.filter((e: { after: { email?: string } | null; before: { uid?: string } | null }) =>
      e.after?.email === invitee || e.before?.uid === r.body.data.uid
    )
    expect(mine.map((e: { action: string; actor_name: string }) => [e.action, e.actor_name])).toEqual([
      ["portal.invitation.revoke", `portal:${email}`],
      ["portal.invitation.create", `portal:${email}`]
    ])
    expect(JSON.stringify(mine)).not.toContain("token")
  })

  it("without a mail server: the link to copy, nothing sent, the mail in the admins' Outbox", async () => {
    const { email } = await accountWithUser(demo)
    const owner = await signedIn(demo, email)
    const invitee = `outbox-${driver}@example.com`
    const r = await owner.post("/portal/api/team/invitations", { email: invitee, role: "member" })
    expect(r.status).toBe(201)
    expect(r.body.data.mail).toBe("outbox")
    expect(r.body.data.link).toMatch(/\/portal\/accept-invitation\?token=[A-Za-z0-9_-]+$/)
    expect(demo.mails).toHaveLength(0)
    // the link works
    const visitor = new Agent(demo)
    const token = new URL(r.body.data.link).searchParams.get("token")
    expect((await visitor.get(`/portal/api/invitations/${token}`)).body.data.email).toBe(invitee)

    // the console: an admin reads the outbox, a reviewer may not
    const adminEmail = `admin-${driver}@tuma.example`
    const reviewerEmail = `reviewer-${driver}@tuma.example`
    await demo.run(Effect.flatMap(OperatorAccess, (access) =>
      Effect.all([
        access.ensure({ email: adminEmail, role: "admin", password: PASSWORD }),
        access.ensure({ email: reviewerEmail, role: "reviewer", password: PASSWORD })
      ])))
    const console = async (who: string, enrol: boolean) => {
      const agent = new Agent(demo)
      agent.csrf = (await agent.request("GET", "/console/api/session/csrf")).body.data.csrf_token
      const body = { email: who, password: PASSWORD, code: "" }
      let s = await agent.request("POST", "/console/api/session", { body })
      if (enrol) {
        const secret = s.body.data.enrolment.secret
        s = await agent.request("POST", "/console/api/session", { body: { ...body, code: codeOf(secret) } })
      }
      expect(s.status).toBe(200)
      agent.csrf = s.body.data.csrf_token
      return agent
    }
    const admin = await console(adminEmail, true)
    const outbox = await admin.get("/console/api/outbox")
    expect(outbox.status).toBe(200)
    const mail = outbox.body.data.find((m: { to: string }) => m.to === invitee)
    expect(mail.subject).toContain("invited")
    expect(mail.text).toContain(r.body.data.link)
    const reviewer = await console(reviewerEmail, false)
    const refused = await reviewer.get("/console/api/outbox")
    expect(refused.status).toBe(403)
    expect(refused.body.error_code).toBe("ROLE_FORBIDDEN")
  })

  it("a user turns TOTP on; then sign-in asks for a code, a step once, a recovery code once", async () => {
    const { email } = await accountWithUser(smtp)
    const user = await signedIn(smtp, email)
    const start = await user.post("/portal/api/profile/two-factor")
    expect(start.status).toBe(200)
    const { secret, uri } = start.body.data
    expect(uri).toMatch(/^otpauth:\/\/totp\/Tuma:/)
    const wrong = await user.post("/portal/api/profile/two-factor/confirm", { code: "000000" })
    expect(wrong.status).toBe(422)
    // an earlier step than the confirming one, for the first sign-in below
    const confirmed = await user.post("/portal/api/profile/two-factor/confirm", { code: codeOf(secret) })
    expect(confirmed.status).toBe(200)
    const codes: Array<string> = confirmed.body.data.recovery_codes
    expect(codes).toHaveLength(10)
    expect((await user.get("/portal/api/profile/two-factor")).body.data).toMatchObject({
      enabled: true,
      unused_recovery_codes: 10
    })

    const again = new Agent(smtp)
    const password = await again.signIn(email)
    expect(password.status).toBe(200)
    expect(password.body.data).toEqual({ two_factor: "code_required" })
    expect(again.cookies.has("tuma_portal_session")).toBe(false)
    // the step used to confirm is spent: the same code is refused
    const replay = await again.request("POST", "/portal/api/session", {
      body: { email, password: PASSWORD, code: codeOf(secret) }
    })
    expect(replay.status).toBe(401)
    const recovery = await again.request("POST", "/portal/api/session", {
      body: { email, password: PASSWORD, code: codes[0] }
    })
    expect(recovery.status).toBe(200)
    expect(recovery.body.data.user.two_factor).toBe(true)
    expect(again.cookies.has("tuma_portal_session")).toBe(true)
    const later = new Agent(smtp)
    await later.preSession()
    const spent = await later.request("POST", "/portal/api/session", {
      body: { email, password: PASSWORD, code: codes[0] }
    })
    expect(spent.status).toBe(401)
  })

  it("an owner requires two-factor sign-in: a member without it enrols at the next sign-in", async () => {
    const { account, email } = await accountWithUser(smtp)
    const owner = await signedIn(smtp, email)
    const early = await owner.request("PUT", "/portal/api/team/two-factor", { body: { require_two_factor: true } })
    expect(early.status).toBe(422)
    const { secret } = (await owner.post("/portal/api/profile/two-factor")).body.data
    expect((await owner.post("/portal/api/profile/two-factor/confirm", { code: codeOf(secret) })).status).toBe(200)
    const on = await owner.request("PUT", "/portal/api/team/two-factor", { body: { require_two_factor: true } })
    expect(on.status).toBe(200)
    expect((await owner.get("/portal/api/team")).body.data.require_two_factor).toBe(true)

    const member = await addUser(smtp, account.id, "member")
    const agent = new Agent(smtp)
    const step = await agent.signIn(member.email)
    expect(step.body.data.two_factor).toBe("enrolment_required")
    const enrolment = step.body.data.enrolment
    expect(enrolment.uri).toContain(encodeURIComponent(member.email))
    const done = await agent.request("POST", "/portal/api/session", {
      body: { email: member.email, password: PASSWORD, code: codeOf(enrolment.secret) }
    })
    expect(done.status).toBe(200)
    expect(done.body.data.recovery_codes).toHaveLength(10)
    expect(done.body.data.user.two_factor).toBe(true)
    agent.csrf = done.body.data.csrf_token
    // while the account requires it, a member cannot turn it off; a member cannot change the rule
    const off = await agent.post("/portal/api/profile/two-factor/disable", { password: PASSWORD })
    expect(off.status).toBe(409)
    const rule = await agent.request("PUT", "/portal/api/team/two-factor", { body: { require_two_factor: false } })
    expect(rule.status).toBe(403)
  })
})
