/**
 * The portal's contacts, groups, imports and templates over HTTP on a socket, on PGlite and
 * PostgreSQL: an import's dry run and import (per-row errors with row numbers, repeats merged,
 * national numbers read in the account's country, opted-out contacts counted), the recipients of a
 * campaign sent to a group (opted-out left out) sent as a campaign whose tags are the contacts'
 * fields; the owner/member split (a member adds, edits and sends; deleting and importing are the
 * owner's: 403 `OWNER_REQUIRED`); another account's rows are 404; a campaign CSV's unreadable rows
 * by row number; a duplicate of a campaign starts from its template, sender ID and recipients.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "../harness.js"
import type { PortalServer } from "./harness.js"
import { accountWithUser, addUser, ADMIN_TOKEN, drivers, signedIn, startPortal } from "./harness.js"

describe.each(drivers)("portal contacts (%s)", (driver) => {
  let server: PortalServer
  beforeAll(async () => {
    server = await startPortal(driver)
  })
  afterAll(() => server?.close())

  it("import → group → campaign: bad rows by row number, opted-out skipped, fields as tags", async () => {
    const { account, email } = await accountWithUser(server, "owner", { balances: { TZ: 100 } })
    const owner = await signedIn(server, email)
    const optOut = await call(server, "POST", "/admin/v1/opt-outs", {
      key: ADMIN_TOKEN,
      body: { account_uid: account.id, recipient: "+255714345601" }
    })
    expect(optOut.status, optOut.text).toBeLessThan(300)
    const group = await owner.post("/portal/api/contact-groups", { name: "Wateja" })
    expect(group.status, group.text).toBe(201)
    const groupUid = group.body.data.uid
    const payload = {
      rows: [
        { row: 2, cells: ["0712 345 601", "Asha", "12000"] },
        { row: 3, cells: ["hello", "Bad", "1"] },
        { row: 4, cells: ["+255713345601", "Baraka", "5000"] },
        { row: 5, cells: ["0713345601", "", "5500"] },
        { row: 6, cells: ["0714345601", "Opted", "1"] }
      ],
      mapping: { phone: 0, name: 1, fields: [{ column: 2, key: "amount" }] },
      group_uid: groupUid
    }
    const dry = await owner.post("/portal/api/contacts/import", { ...payload, dry_run: true })
    expect(dry.status, dry.text).toBe(200)
    expect(dry.body.data).toMatchObject({
      dry_run: true,
      added: 3,
      updated: 0,
      duplicates: 1,
      invalid: 1,
      opted_out: 1
    })
    expect(dry.body.data.problems.map((p: any) => [p.row, p.kind])).toEqual([[3, "invalid"], [5, "duplicate"]])
    expect((await owner.get("/portal/api/contacts")).body.meta.total).toBe(0)

    const done = await owner.post("/portal/api/contacts/import", payload)
    expect(done.body.data).toMatchObject({ dry_run: false, added: 3, invalid: 1, duplicates: 1, opted_out: 1 })
    const list = (await owner.get(`/portal/api/contacts?group_uid=${groupUid}`)).body
    expect(list.meta.total).toBe(3)
    const opted = list.data.find((c: any) => c.phone === "+255714345601")
    expect(opted.opted_out).toBe(true)
    const baraka = list.data.find((c: any) => c.phone === "+255713345601")
    expect(baraka).toMatchObject({ name: "Baraka", fields: { amount: "5500" }, groups: [{ uid: groupUid }] })
    expect((await owner.get("/portal/api/contact-groups")).body.data).toMatchObject([
      { uid: groupUid, name: "Wateja", contacts: 3, opted_out: 1 }
    ])

    const recipients = await owner.post("/portal/api/contact-groups/recipients", { group_uids: [groupUid] })
    expect(recipients.body.data).toMatchObject({ contacts: 3, opted_out: 1 })
    expect(recipients.body.data.recipients).toHaveLength(2)
    const campaign = await owner.post("/portal/api/campaigns", {
      recipients: recipients.body.data.recipients,
      message: "Habari {name}, deni lako ni {amount}",
      sender_id: "TUMA",
      campaign_name: "Madeni"
    })
    expect(campaign.status, campaign.text).toBe(202)
    const texts = (await owner.get(`/portal/api/messages/export.csv?campaign_uid=${campaign.body.data.uid}`)).text
    expect(texts).toContain("Habari Asha, deni lako ni 12000")
    expect(texts).toContain("Habari Baraka, deni lako ni 5500")
    expect(texts).not.toContain("+255714345601")

    // a duplicate starts from the template, the sender ID and the recipients
    const copy = await owner.get(`/portal/api/campaigns/${campaign.body.data.uid}/copy`)
    expect(copy.body.data).toMatchObject({
      name: "Madeni",
      sender_id: "TUMA",
      message: "Habari {name}, deni lako ni {amount}"
    })
    expect([...copy.body.data.recipients].sort()).toEqual(["+255712345601", "+255713345601"])
  })

  it("members add, edit and use; deleting and importing are the owner's; another account's rows are 404", async () => {
    const { account, email } = await accountWithUser(server, "owner")
    const owner = await signedIn(server, email)
    const member = await signedIn(server, (await addUser(server, account.id, "member")).email)
    const stranger = await signedIn(server, (await accountWithUser(server, "owner")).email)

    const created = await member.post("/portal/api/contacts", {
      phone: "0754 123 456",
      name: "Neema",
      fields: { First_Name: "Neema" }
    })
    expect(created.status, created.text).toBe(201)
    expect(created.body.data).toMatchObject({ phone: "+255754123456", fields: { first_name: "Neema" } })
    const uid = created.body.data.uid
    const again = await member.post("/portal/api/contacts", { phone: "+255754123456" })
    expect(again.status).toBe(409)
    const invalid = await member.post("/portal/api/contacts", { phone: "12" })
    expect(invalid.status).toBe(422)
    expect(invalid.body.errors.phone).toBeDefined()
    const group = await member.post("/portal/api/contact-groups", { name: "Staff" })
    const edited = await member.patch(`/portal/api/contacts/${uid}`, {
      phone: "+255754123456",
      name: "Neema J.",
      group_uids: [group.body.data.uid]
    })
    expect(edited.status, edited.text).toBe(200)
    expect(edited.body.data.groups).toEqual([{ uid: group.body.data.uid, name: "Staff" }])

    for (
      const [method, path, body] of [
        ["DELETE", `/portal/api/contacts/${uid}`, undefined],
        ["DELETE", `/portal/api/contact-groups/${group.body.data.uid}`, undefined],
        ["POST", "/portal/api/contacts/import", { rows: [], mapping: { phone: 0 } }]
      ] as const
    ) {
      const refused = await member.request(method, path, body === undefined ? {} : { body })
      expect(refused.status, `${method} ${path}`).toBe(403)
      expect(refused.body.error_code).toBe("OWNER_REQUIRED")
    }
    // templates are every user's
    const template = await member.post("/portal/api/templates", { name: "Karibu", body: "Karibu {first_name}!" })
    expect(template.status, template.text).toBe(201)
    const broken = await member.post("/portal/api/templates", { name: "Bad", body: "{= 2 * }" })
    expect(broken.status).toBe(422)
    expect((await member.get("/portal/api/templates")).body.data.map((t: any) => t.name)).toEqual(["Karibu"])

    // another account: nothing to see, nothing to reach
    expect((await stranger.get("/portal/api/contacts")).body.meta.total).toBe(0)
    expect((await stranger.get(`/portal/api/contacts/${uid}`)).status).toBe(404)
    expect((await stranger.patch(`/portal/api/contacts/${uid}`, { phone: "+255754123457" })).status).toBe(404)
    expect((await stranger.del(`/portal/api/contacts/${uid}`)).status).toBe(404)
    expect((await stranger.del(`/portal/api/templates/${template.body.data.uid}`)).status).toBe(404)
    const theirs = await stranger.post("/portal/api/contact-groups/recipients", { group_uids: [group.body.data.uid] })
    expect(theirs.status).toBe(404)

    expect((await member.del(`/portal/api/templates/${template.body.data.uid}`)).status).toBe(200)
    expect((await owner.del(`/portal/api/contact-groups/${group.body.data.uid}`)).status).toBe(200)
    expect((await owner.get(`/portal/api/contacts/${uid}`)).body.data.groups).toEqual([])
    expect((await owner.del(`/portal/api/contacts/${uid}`)).status).toBe(200)
    expect((await owner.get(`/portal/api/contacts/${uid}`)).status).toBe(404)
  })

  it("a campaign CSV's unreadable numbers are named by row, national numbers read in the account's country", async () => {
    const { email } = await accountWithUser(server, "member")
    const agent = await signedIn(server, email)
    const r = await agent.post("/portal/api/campaigns/check-recipients", {
      rows: [{ row: 2, to: "0712345678" }, { row: 3, to: "07123" }, { row: 4, to: "+255713345678" }, {
        row: 5,
        to: "abc"
      }]
    })
    expect(r.status, r.text).toBe(200)
    expect(r.body.data.problems.map((p: any) => [p.row, p.to])).toEqual([[3, "07123"], [5, "abc"]])
    expect(r.body.data.problems[0].message).toBeTruthy()
  })
})
