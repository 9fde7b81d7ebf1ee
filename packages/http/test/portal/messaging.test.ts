/**
 * Sending from the portal over HTTP on a socket, on PGlite and PostgreSQL, with the delivery
 * workers running (simulated carrier): the encoding/cost preview, a web SMS reaching `delivered` through the simulated
 * carrier (timeline, dashboard), the API's refusals for web sends, the campaign price preview
 * (balance per country, personalised samples, nothing stored), a scheduled campaign and its
 * history, the message list and CSV export, and a sender-ID request with a PDF (multipart).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, unique } from "../harness.js"
import type { PortalServer } from "./harness.js"
import { accountWithUser, ADMIN_TOKEN, drivers, signedIn, startPortal } from "./harness.js"

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n")

const waitFor = async (f: () => Promise<boolean>, ms = 30_000) => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await f()) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error("timed out")
}

describe.each(drivers)("portal messaging (%s)", (driver) => {
  let server: PortalServer
  let sender: { readonly email: string }
  beforeAll(async () => {
    server = await startPortal(driver)
    // the workers load the providers that exist when they start: this account's first
    sender = await accountWithUser(server, "member")
    await server.startWorkers()
  })
  afterAll(() => server?.close())

  it("previews encoding, changed characters, parts and cost against the wallet", async () => {
    const { email } = await accountWithUser(server, "owner", { balances: { TZ: 1 } })
    const agent = await signedIn(server, email)
    const r = await agent.post("/portal/api/preview", { body: "Habari \u201cmteja\u201d", recipient: "+255712345678" })
    expect(r.status).toBe(200)
    expect(r.body.data.encoding.final).toBe("GSM-7")
    expect(r.body.data.encoding.changes.map((c: any) => c.character)).toEqual(
      expect.arrayContaining(["U+201C", "U+201D"])
    )
    expect(r.body.data.text).toBe("Habari \"mteja\"")
    expect(r.body.data).toMatchObject({ units: 1, country: "TZ", balance: 1, sufficient: true })
    const long = await agent.post("/portal/api/preview", { body: "x".repeat(200), recipient: "+255712345678" })
    expect(long.body.data).toMatchObject({ units: 2, sufficient: false })
    expect(long.body.data.parts.length).toBe(2)
    const bad = await agent.post("/portal/api/preview", { body: "hi", recipient: "12" })
    expect(bad.body.data.recipient_error).toBeTruthy()
  })

  it("a web SMS reaches delivered; its timeline and the dashboard show it", async () => {
    const agent = await signedIn(server, sender.email)
    const sent = await agent.post("/portal/api/sms", { recipient: "+255712345678", sender_id: "TUMA", body: "Karibu" })
    expect(sent.status).toBe(202)
    expect(sent.body.data.channel).toBe("web")
    const uid = sent.body.data.uid
    await waitFor(async () => (await agent.get(`/portal/api/messages/${uid}`)).body.data.message.status === "delivered")
    const detail = (await agent.get(`/portal/api/messages/${uid}`)).body.data
    expect(detail.text).toBe("Karibu")
    expect(detail.country).toBe("TZ")
    expect(detail.timeline.map((e: any) => e.event)).toEqual(
      expect.arrayContaining(["created", "queued", "sent", "delivered"])
    )
    const dash = (await agent.get("/portal/api/dashboard")).body.data
    expect(dash.time_zone).toBe("Africa/Dar_es_Salaam")
    expect(dash.today.delivered).toBe(1)
    expect(dash.last_7_days).toHaveLength(7)
    expect(dash.last_7_days[6].counts.delivered).toBe(1)
    expect(dash.delivery_rate).toEqual({ delivered: 1, failed: 0, rate: 1 })
    expect(dash.balances).toEqual([{ country: "TZ", calling_code: "255", balance: 999, enabled: true }])
    const list = (await agent.get("/portal/api/messages?channel=web")).body
    expect(list.data.map((m: any) => m.uid)).toEqual([uid])
    const csv = await agent.get("/portal/api/messages/export.csv")
    expect(csv.status).toBe(200)
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/)
    expect(csv.text.split("\r\n")[0]).toBe(
      "uid,recipient,sender_id,status,channel,units,queued_at,sent_at,delivered_at,failure_reason,campaign_uid,campaign_name," +
        "text,time_zone,queued_local,sent_local,delivered_local"
    )
    // the text, and the times in the user's zone (Dar es Salaam is UTC+3)
    const row = csv.text.split("\r\n")[1].split(",")
    expect(row.slice(12, 14)).toEqual(["Karibu", "Africa/Dar_es_Salaam"])
    const queuedUtc = new Date(row[6])
    expect(row[14]).toBe(new Date(queuedUtc.getTime() + 3 * 3600_000).toISOString().slice(0, 19).replace("T", " "))
    expect(csv.text).toContain(`${uid},+255712345678,TUMA,delivered,web,1`)
  })

  it("web sends follow the API's rules: sender ID, balance, validation", async () => {
    const { email } = await accountWithUser(server, "owner", { balances: { TZ: 1 } })
    const agent = await signedIn(server, email)
    const sender = await agent.post("/portal/api/sms", { recipient: "+255712345678", sender_id: "NOPE", body: "hi" })
    expect(sender.status).toBe(422)
    expect(sender.body).toMatchObject({
      error_code: "SENDER_ID_NOT_APPROVED",
      acceptance_state: "DEFINITELY_NOT_ACCEPTED"
    })
    const broke = await agent.post("/portal/api/sms", {
      recipient: "+255712345678",
      sender_id: "TUMA",
      body: "x".repeat(200)
    })
    expect(broke.status).toBe(422)
    expect(broke.body.error_code).toBe("INSUFFICIENT_BALANCE")
    const invalid = await agent.post("/portal/api/sms", { recipient: "abc", sender_id: "TUMA", body: "" })
    expect(invalid.status).toBe(422)
    expect(Object.keys(invalid.body.errors)).toEqual(expect.arrayContaining(["recipient", "body"]))
    expect((await agent.get("/portal/api/messages")).body.data).toEqual([])
  })

  it("prices a tagged campaign per country against the wallets before sending, storing nothing", async () => {
    const { account, email } = await accountWithUser(server, "owner", { balances: { TZ: 3 } })
    const agent = await signedIn(server, email)
    const body = {
      recipients: [
        { to: "+255712345671", name: "Amina", amount: 1500, paid: 1000 },
        { to: "+255712345672", name: "Baraka", amount: 700, paid: 700 },
        "not a phone"
      ],
      message: "Hi {name}, you owe {= amount - paid }",
      sender_id: "TUMA",
      campaign_name: "Reminders"
    }
    const bad = await agent.post("/portal/api/campaigns/preview", body)
    expect(bad.status).toBe(422)
    body.recipients.pop()
    const r = await agent.post("/portal/api/campaigns/preview", body)
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({
      recipients: 2,
      sendable: 2,
      units: 2,
      sufficient: true,
      countries: [{ country: "TZ", recipients: 2, units: 2, balance: 3, sufficient: true }]
    })
    expect(r.body.data.samples.map((s: any) => s.text)).toEqual(["Hi Amina, you owe 500", "Hi Baraka, you owe 0"])
    // more than the wallet holds: the preview says so, per country
    const many = {
      ...body,
      recipients: Array.from({ length: 4 }, (_, i) => ({ to: `+25571234568${i}`, name: "X", amount: 1, paid: 0 }))
    }
    const short = await agent.post("/portal/api/campaigns/preview", many)
    expect(short.body.data).toMatchObject({ sufficient: false, countries: [{ country: "TZ", balance: 3, units: 4 }] })
    // nothing was stored or charged by previews
    expect((await agent.get("/portal/api/campaigns")).body.data).toEqual([])
    const wallets = (await agent.get("/portal/api/wallets")).body.data
    expect(wallets[0].balance).toBe(3)
    void account
  })

  it("schedules a campaign for later; the history shows its delivery figures", async () => {
    const { email } = await accountWithUser(server, "member")
    const agent = await signedIn(server, email)
    const at = new Date(Date.now() + 3_600_000).toISOString()
    const created = await agent.post("/portal/api/campaigns", {
      recipients: [{ to: "+255712345601", name: "A" }, { to: "+255712345602", name: "B" }],
      message: "Hello {name}",
      sender_id: "TUMA",
      campaign_name: "Later",
      scheduled_at: at
    })
    expect(created.status).toBe(202)
    expect(created.body.data.status).toBe("scheduled")
    const list = (await agent.get("/portal/api/campaigns")).body
    expect(list.meta.total).toBe(1)
    expect(list.data[0]).toMatchObject({
      uid: created.body.data.uid,
      name: "Later",
      channel: "web",
      api_version: "v2",
      recipient_count: 2,
      units: 2,
      delivery: { scheduled: 2, total: 2 }
    })
    const one = (await agent.get(`/portal/api/campaigns/${created.body.data.uid}`)).body.data
    expect(one.failures).toEqual([])
    expect((await agent.get("/portal/api/ledger?kind=debit")).body.data[0].units).toBe(-2)
  })

  it("a campaign goes sending → finished once every message is final; its recipients list and export by campaign", async () => {
    const { email } = await accountWithUser(server, "member")
    const agent = await signedIn(server, email)
    const created = await agent.post("/portal/api/campaigns", {
      // the simulated carrier's failing test number and two that deliver
      recipients: [{ to: "+255712345611" }, { to: "+255712345612" }, { to: "+255700000100" }],
      message: "Sale on Saturday",
      sender_id: "TUMA",
      campaign_name: "Saturday"
    })
    expect(created.status).toBe(202)
    const uid = created.body.data.uid
    const stage = async () => (await agent.get(`/portal/api/campaigns/${uid}`)).body.data
    expect(["sending", "finished"]).toContain((await stage()).stage)
    await waitFor(async () => (await stage()).stage === "finished")
    const done = await stage()
    expect(done.delivery).toMatchObject({ delivered: 2, failed: 1, total: 3 })
    expect((await agent.get("/portal/api/campaigns")).body.data[0]).toMatchObject({ uid, stage: "finished" })
    // another message outside the campaign is not in its list
    expect((await agent.post("/portal/api/sms", { recipient: "+255712345613", sender_id: "TUMA", body: "x" })).status)
      .toBe(202)
    const mine = (await agent.get(`/portal/api/messages?campaign_uid=${uid}`)).body
    expect(mine.meta.total).toBe(3)
    const failed = (await agent.get(`/portal/api/messages?campaign_uid=${uid}&status=failed`)).body.data
    expect(failed.map((m: any) => m.recipient)).toEqual(["+255700000100"])
    const csv = await agent.get(`/portal/api/messages/export.csv?campaign_uid=${uid}`)
    expect(csv.text.trim().split("\r\n")).toHaveLength(4)
    const bad = await agent.get("/portal/api/messages?campaign_uid=nope")
    expect(bad.status).toBe(422)
    expect(bad.body.errors.campaign_uid).toBeDefined()
  })

  it("local numbers (0712…) are read in the account's country in the portal; the API still wants international ones", async () => {
    const { email, live } = await accountWithUser(server, "member")
    const agent = await signedIn(server, email)
    const preview = await agent.post("/portal/api/preview", { body: "Habari", recipient: "0712 345 641" })
    expect(preview.body.data.country).toBe("TZ")
    expect(preview.body.data.recipient_error).toBeNull()
    const sent = await agent.post("/portal/api/sms", { recipient: "0712 345 641", sender_id: "TUMA", body: "Habari" })
    expect(sent.status, sent.text).toBe(202)
    expect(sent.body.data.recipient).toBe("+255712345641")
    const campaign = await agent.post("/portal/api/campaigns", {
      recipients: [{ to: "0712345642", name: "Asha" }, "0713-345-643"],
      message: "Hi {name}",
      sender_id: "TUMA",
      campaign_name: "Local"
    })
    expect(campaign.status, campaign.text).toBe(202)
    const mine = (await agent.get(`/portal/api/messages?campaign_uid=${campaign.body.data.uid}`)).body.data
    expect(mine.map((m: any) => m.recipient).sort()).toEqual(["+255712345642", "+255713345643"])
    // the REST API keeps the specification's international format
    const api = await call(server, "POST", "/v1/sms/messages", {
      key: live,
      body: { recipient: "0712 345 641", sender_id: "TUMA", body: "Habari" }
    })
    expect(api.status).toBe(422)
  })

  it("cancels a scheduled campaign: units back, messages failed CANCELLED; a started one answers 409", async () => {
    const { email } = await accountWithUser(server, "member", { balances: { TZ: 10 } })
    const agent = await signedIn(server, email)
    const other = await signedIn(server, (await accountWithUser(server, "owner")).email)
    const created = await agent.post("/portal/api/campaigns", {
      recipients: [{ to: "+255712345621" }, { to: "+255712345622" }],
      message: "Later",
      sender_id: "TUMA",
      campaign_name: "Cancel me",
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString()
    })
    const uid = created.body.data.uid
    expect((await agent.get("/portal/api/wallets")).body.data[0].balance).toBe(8)
    // another account cannot see or cancel it
    expect((await other.post(`/portal/api/campaigns/${uid}/cancel`, {})).status).toBe(404)
    const cancelled = await agent.post(`/portal/api/campaigns/${uid}/cancel`, {})
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.body.data).toEqual({ messages: 2, units: 2 })
    expect((await agent.get("/portal/api/wallets")).body.data[0].balance).toBe(10)
    const one = (await agent.get(`/portal/api/campaigns/${uid}`)).body.data
    expect(one).toMatchObject({ status: "cancelled", stage: "cancelled", delivery: { failed: 2, total: 2 } })
    const again = await agent.post(`/portal/api/campaigns/${uid}/cancel`, {})
    expect(again.status).toBe(409)
    expect(again.body.error_code).toBe("ILLEGAL_TRANSITION")
    const refunds = (await agent.get("/portal/api/ledger?kind=refund")).body.data
    expect(refunds.map((r: any) => r.units)).toEqual([1, 1])
    // a campaign sent at once has started: 409, nothing refunded
    const now = await agent.post("/portal/api/campaigns", {
      recipients: [{ to: "+255712345623" }],
      message: "Now",
      sender_id: "TUMA",
      campaign_name: "Now"
    })
    const late = await agent.post(`/portal/api/campaigns/${now.body.data.uid}/cancel`, {})
    expect(late.status).toBe(409)
    expect((await agent.get("/portal/api/wallets")).body.data[0].balance).toBe(9)
  })

  it("the dashboard lists a failed message with its reason; the status filter finds only it", async () => {
    const { email } = await accountWithUser(server, "owner")
    const agent = await signedIn(server, email)
    // the simulated carrier's test number for a failed receipt (README, Test numbers)
    const failed = await agent.post("/portal/api/sms", { recipient: "+255700000100", sender_id: "TUMA", body: "Fail" })
    expect(failed.status).toBe(202)
    const ok = await agent.post("/portal/api/sms", { recipient: "+255712345678", sender_id: "TUMA", body: "Fine" })
    expect(ok.status).toBe(202)
    const uid = failed.body.data.uid
    await waitFor(async () => (await agent.get(`/portal/api/messages/${uid}`)).body.data.message.status === "failed")
    await waitFor(async () =>
      (await agent.get(`/portal/api/messages/${ok.body.data.uid}`)).body.data.message.status === "delivered"
    )
    const dash = (await agent.get("/portal/api/dashboard")).body.data
    expect(dash.recent_failures).toHaveLength(1)
    expect(dash.recent_failures[0]).toMatchObject({ uid, recipient: "+255700000100", sender_id: "TUMA" })
    expect(dash.recent_failures[0].failure_reason).toBeTruthy()
    expect(dash.delivery_rate).toEqual({ delivered: 1, failed: 1, rate: 0.5 })
    const onlyFailed = (await agent.get("/portal/api/messages?status=failed")).body.data
    expect(onlyFailed.map((m: any) => m.uid)).toEqual([uid])
    const onlyDelivered = (await agent.get("/portal/api/messages?status=delivered")).body.data
    expect(onlyDelivered.map((m: any) => m.uid)).toEqual([ok.body.data.uid])
  })

  it("purchases list what the operator sold the account, newest first, and nothing else", async () => {
    const { account, email } = await accountWithUser(server, "owner", { balances: { TZ: 10 } })
    const admin = (body: unknown) =>
      call(server, "POST", "/admin/v1/purchases", { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body })
    const bought = await admin({
      account_uid: account.id,
      country: "TZ",
      units: 25,
      amount: "5000",
      currency: "TZS",
      reference: "INV-7"
    })
    expect(bought.status).toBe(201)
    const agent = await signedIn(server, email)
    const sent = await agent.post("/portal/api/sms", {
      recipient: "+255712345678",
      sender_id: "TUMA",
      body: "Spend one"
    })
    expect(sent.status).toBe(202)
    const purchases = (await agent.get("/portal/api/purchases")).body.data
    expect(purchases.map((p: any) => [p.kind, p.units, p.reference])).toEqual([["purchase", 25, "INV-7"], [
      "purchase",
      10,
      null
    ]])
    expect(purchases[0]).toMatchObject({ country: "TZ", amount: "5000.00", currency: "TZS", balance_after: 35 })
    expect((await agent.get("/portal/api/wallets")).body.data[0].balance).toBe(34)
  })

  it("a rejected sender ID shows the operator's reason in the portal", async () => {
    const { email } = await accountWithUser(server, "owner", { sender: null })
    const agent = await signedIn(server, email)
    const name = `R${unique("").slice(-8).toUpperCase()}`
    const form = new FormData()
    form.append("sender_id", name)
    form.append("sample_message", "Your order 1234 has shipped and will arrive tomorrow. Thank you!")
    form.append("purpose", "Transactional")
    const r = await agent.request("POST", "/portal/api/sender-ids", { form })
    expect(r.status).toBe(201)
    const reason = "The <b>brand</b> is not yours & needs a licence"
    const rejected = await call(server, "POST", `/admin/v1/sender-ids/${r.body.data.uid}/reject`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { reason }
    })
    expect(rejected.status).toBe(200)
    const list = (await agent.get("/portal/api/sender-ids")).body.data
    expect(list.find((s: any) => s.sender_id === name)).toMatchObject({ status: "rejected", rejection_reason: reason })
  })

  it("requests a sender ID with a PDF (multipart), then lists it as pending", async () => {
    const { email } = await accountWithUser(server, "owner")
    const req = await call(server, "POST", "/admin/v1/requirements", {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { name: "Business licence", is_required: true, accepted_formats: ["pdf"], max_size_kb: 64, country: "TZ" }
    })
    expect(req.status).toBe(201)
    const agent = await signedIn(server, email)
    const requirements = (await agent.get("/portal/api/sender-ids/requirements")).body.data
    expect(requirements.documents.map((d: any) => d.uid)).toContain(req.body.data.uid)
    const name = `S${unique("").slice(-8).toUpperCase()}`
    const form = new FormData()
    form.append("sender_id", name)
    form.append("sample_message", "Your order 1234 has shipped and will arrive tomorrow. Thank you!")
    form.append("purpose", "Transactional")
    form.append(`documents[${req.body.data.uid}]`, new Blob([PDF]), "licence.pdf")
    const r = await agent.request("POST", "/portal/api/sender-ids", { form })
    expect(r.status).toBe(201)
    expect(r.body.data).toMatchObject({ sender_id: name, status: "pending" })
    expect(r.body.data.submitted_document_uids).toHaveLength(1)
    const list = (await agent.get("/portal/api/sender-ids")).body.data
    expect(list.find((s: any) => s.sender_id === name)).toMatchObject({ status: "pending", rejection_reason: null })
  })
})

describe.each(drivers)("portal web sends and the duplicate-content limit (%s)", (driver) => {
  let server: PortalServer
  beforeAll(async () => {
    server = await startPortal(driver, { server: { rateLimit: { duplicateLimit: 2 } } })
  })
  afterAll(() => server?.close())

  it("web and API sends of one text count together: the third answers 429 on either side", async () => {
    const acct = await accountWithUser(server, "owner")
    const agent = await signedIn(server, acct.email)
    const body = `Same text ${unique("t")}`
    const web = await agent.post("/portal/api/sms", { recipient: "+255712345678", sender_id: "TUMA", body })
    expect(web.status).toBe(202)
    const api = await call(server, "POST", "/v1/sms/messages", {
      key: acct.live,
      body: { recipient: "+255712345679", sender_id: "TUMA", body }
    })
    expect(api.status).toBe(202)
    const third = await agent.post("/portal/api/sms", { recipient: "+255712345670", sender_id: "TUMA", body })
    expect(third.status).toBe(429)
    expect(third.body.error_code).toBe("DUPLICATE_CONTENT_RATE_LIMITED")
    const fourth = await call(server, "POST", "/v1/sms/messages", {
      key: acct.live,
      body: { recipient: "+255712345670", sender_id: "TUMA", body }
    })
    expect(fourth.status).toBe(429)
    // another text from the same account is not limited
    const other = await agent.post("/portal/api/sms", {
      recipient: "+255712345670",
      sender_id: "TUMA",
      body: `${body}!`
    })
    expect(other.status).toBe(202)
  })
})
