/**
 * The portal in a real browser (Debian's chromium through playwright-core) against a real
 * `tuma serve --demo` child process, on PGlite and on PostgreSQL. Every control is found by its
 * role and accessible name, as a user (or a screen reader) finds it.
 */
import { createHmac } from "node:crypto"
import { createServer } from "node:http"
import type { IncomingHttpHeaders, Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "./harness.js"
import {
  ADMIN_TOKEN,
  drivers,
  go,
  hasChromium,
  http,
  launchBrowser,
  linkIn,
  newContext,
  signIn,
  startServe
} from "./harness.js"
import type { Serve } from "./harness.js"

const PASSWORD = "correct horse battery"
const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")

/** A local webhook receiver: records each POST; answers `status()`. */
const startReceiver = async () => {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = []
  let status = 200
  const server: Server = createServer((req, res) => {
    let body = ""
    req.on("data", (d: Buffer) => (body += d.toString("utf8")))
    req.on("end", () => {
      received.push({ headers: req.headers, body })
      res.writeHead(status).end("ok")
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answer: (s: number) => void (status = s),
    close: () => new Promise<void>((r) => server.close(() => r()))
  }
}

const until = async (f: () => Promise<boolean>, timeoutMs = 30_000, what = "condition") => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await f()) return
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Accepts an invitation link in a fresh browser profile and lands signed in. */
const acceptInvitation = async (browser: Browser, link: string, name: string) => {
  const context = await newContext(browser)
  const page = await context.newPage()
  await page.goto(link)
  await page.getByRole("heading", { name: "Accept the invitation" }).waitFor()
  await page.getByRole("textbox", { name: "Name" }).fill(name)
  await page.getByLabel("Password").fill(PASSWORD)
  await page.getByRole("button", { name: "Accept and sign in" }).click()
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor()
  return page
}

/** A portal API request from inside the signed-in page (its cookies, same origin). */
const fromPage = (page: Page, method: string, path: string, body?: unknown, csrf?: string | null) =>
  page.evaluate(async ({ method, path, body, csrf }) => {
    const headers: Record<string, string> = { "content-type": "application/json" }
    if (csrf !== null && csrf !== undefined) headers["x-csrf-token"] = csrf
    const r = await fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    return { status: r.status, body: await r.text() }
  }, { method, path, body, csrf })

const csrfOf = async (page: Page) =>
  JSON.parse((await fromPage(page, "GET", "/portal/api/session")).body).data.csrf_token

describe.skipIf(!hasChromium).each(drivers)("portal in chromium (%s)", (driver) => {
  let serve: Serve
  let browser: Browser
  let owner: Page

  beforeAll(async () => {
    ;[serve, browser] = await Promise.all([startServe(driver), launchBrowser()])
    owner = await (await newContext(browser)).newPage()
  })
  afterAll(async () => {
    await browser?.close()
    await serve?.close()
  })

  it("serves the built app under /portal: hashed assets cached a year, the page for any app path, 404s", async () => {
    const index = await fetch(`${serve.url}/portal/messages/some-uid?x=1`)
    expect(index.status).toBe(200)
    expect(index.headers.get("content-type")).toMatch(/^text\/html/)
    expect(index.headers.get("cache-control")).toBe("no-cache")
    expect(index.headers.get("content-security-policy")).toMatch(/script-src 'self'/)
    expect(index.headers.get("x-frame-options")).toBe("DENY")
    const html = await index.text()
    const asset = /src="(\/portal\/assets\/[^"]+\.js)"/.exec(html)![1]
    const js = await fetch(`${serve.url}${asset}`, { headers: { "accept-encoding": "gzip" } })
    expect(js.status).toBe(200)
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/)
    expect(js.headers.get("content-encoding")).toBe("gzip")
    expect((await js.text()).length).toBeGreaterThan(1000)
    const missing = await fetch(`${serve.url}/portal/assets/nope-123.js`)
    expect(missing.status).toBe(404)
    const api = await fetch(`${serve.url}/portal/api/no-such-endpoint`)
    expect(api.status).toBe(404)
    expect(((await api.json()) as any).success).toBe(false)
  })

  it("serve --demo prints the portal login and URL; the sign-in page refuses a wrong password, then signs in", async () => {
    expect(serve.output()).toMatch(/portal: http:\/\/127\.0\.0\.1:\d+\/portal/)
    await owner.goto(`${serve.url}/portal/`)
    await owner.getByRole("textbox", { name: "Email" }).fill(serve.login.email)
    await owner.getByLabel("Password").fill("not the password")
    await owner.getByRole("button", { name: "Sign in" }).click()
    await expect.poll(() => owner.getByRole("alert").textContent()).toBeTruthy()
    expect(await owner.getByRole("heading", { name: "Dashboard" }).count()).toBe(0)

    await signIn(owner, serve.url, serve.login.email, serve.login.password)
    const nav = owner.getByRole("navigation", { name: "Main" })
    for (
      const name of ["Dashboard", "Send SMS", "Campaigns", "Messages", "Sender IDs", "API keys", "Webhooks", "Balance"]
    ) {
      expect(await nav.getByRole("link", { name, exact: true }).count()).toBe(1)
    }
    // the dashboard: the demo's TZ wallet, the chart
    await owner.getByRole("heading", { name: "Balance per country" }).waitFor()
    expect(await owner.getByRole("img", { name: /Messages over 7 days by status/ }).count()).toBe(1)
  })

  it("sends a web SMS with its encoding and cost previewed, and watches it reach delivered", async () => {
    await go(owner, "Send SMS")
    await owner.getByRole("textbox", { name: "Recipient" }).fill("+255712345678")
    await expect.poll(() => owner.getByRole("combobox", { name: "Sender ID" }).inputValue()).toBe("TUMA")
    await owner.getByRole("textbox", { name: "Message" }).fill("Karibu “Tuma” — ok")
    const preview = owner.getByRole("region", { name: "Encoding preview" })
    await preview.getByRole("cell", { name: /U\+201C/ }).waitFor()
    expect(await preview.getByRole("cell", { name: "LEFT DOUBLE QUOTATION MARK" }).count()).toBe(1)
    expect(await preview.getByRole("cell", { name: "EM DASH" }).count()).toBe(1)
    expect(await preview.getByRole("definition").allTextContents()).toEqual(["GSM-7", "1", "18", "160"])
    await owner.getByLabel("Cost").getByText(/Cost: 1 unit from the TZ wallet/).waitFor()
    // a Unicode body: 70 per SMS
    await owner.getByRole("textbox", { name: "Message" }).fill("Привет")
    await expect.poll(() => preview.getByRole("definition").allTextContents()).toEqual(["Unicode", "1", "6", "70"])
    expect(await preview.getByText(/counted as several SMS/).count()).toBe(0)
    // a long body: the preview says how it is counted
    await owner.getByRole("textbox", { name: "Message" }).fill("Habari ".repeat(30).trim())
    await expect.poll(() => preview.getByRole("definition").allTextContents()).toEqual(["GSM-7", "2", "209", "160"])
    await preview.getByText(
      "A message longer than 160 characters is counted as several SMS: this one as 2. Each SMS costs one unit."
    ).waitFor()
    await owner.getByRole("textbox", { name: "Message" }).fill("Karibu “Tuma” — ok")
    await owner.getByRole("button", { name: "Send", exact: true }).click()
    const status = owner.getByRole("status")
    await status.getByText("Message accepted.").waitFor()
    await status.getByText("Delivered").waitFor({ timeout: 45_000 })
    await status.getByRole("link", { name: "Open the message" }).click()
    await owner.getByRole("heading", { name: "Timeline" }).waitFor()
    expect(await owner.getByLabel("Message text").textContent()).toBe("Karibu \"Tuma\" - ok")
    await owner.getByRole("listitem").filter({ hasText: "Delivered" }).first().waitFor()
  })

  it("preselects the account's default sender ID, not the last approved one", async () => {
    const accounts = (await http(serve.url, "GET", "/admin/v1/accounts", { bearer: ADMIN_TOKEN })).body.data as Array<
      any
    >
    const demo = accounts.find((a) => a.name === "Demo Company") ?? accounts[0]
    const grant = async (sender_id: string, is_default: boolean) =>
      http(serve.url, "POST", "/admin/v1/sender-ids", {
        bearer: ADMIN_TOKEN,
        body: { account_uid: demo.uid, sender_id, country: "TZ", is_default }
      })
    expect((await grant("DUKA", true)).status).toBeLessThan(300)
    expect((await grant("ZZLAST", false)).status).toBeLessThan(300)
    await go(owner, "Send SMS")
    await expect.poll(() => owner.getByRole("combobox", { name: "Sender ID" }).inputValue()).toBe("DUKA")
  })

  it("takes a local number (0712…) as the account's country; a bad one is said once, without the API's field name", async () => {
    await go(owner, "Send SMS")
    await owner.getByRole("textbox", { name: "Recipient" }).fill("0712 34")
    await owner.getByRole("combobox", { name: "Sender ID" }).selectOption("TUMA")
    await owner.getByRole("textbox", { name: "Message" }).fill("Habari")
    await owner.getByRole("button", { name: "Send", exact: true }).click()
    const alert = owner.getByRole("alert")
    await alert.waitFor()
    const text = (await alert.textContent()) ?? ""
    expect(text).not.toContain("recipient:")
    expect(text.split("not a valid phone number").length - 1).toBe(1)
    await owner.getByRole("textbox", { name: "Recipient" }).fill("0712 345 699")
    await owner.getByLabel("Cost").getByText(/from the TZ wallet/).waitFor()
    await owner.getByRole("button", { name: "Send", exact: true }).click()
    await owner.getByRole("status").getByText("Message accepted.").waitFor()
    const list = await http(serve.url, "GET", "/v1/sms/messages?per_page=5", { bearer: serve.liveKey })
    expect((list.body.data as Array<any>).map((m) => m.recipient)).toContain("+255712345699")
  })

  it("runs a CSV campaign whose columns become tags, the price shown before it can be sent", async () => {
    await go(owner, "Campaigns")
    await owner.getByRole("textbox", { name: "Campaign name" }).fill("Madeni Novemba")
    await owner.getByLabel("Upload CSV").setInputFiles({
      name: "debts.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(
        "phone,name,amount,paid\r\n+255712000011,Asha,12000,2000\r\n\"+255712000012\",\"Baraka, Jr\",5000,1500\r\n"
      )
    })
    await owner.getByRole("status").getByText("2 recipients from debts.csv.").waitFor()
    expect(await owner.getByRole("status").textContent()).toContain("{name} {amount} {paid}")
    await owner.getByRole("textbox", { name: "Message" }).fill("Hi {name}, you owe {= amount - paid } TZS")
    const send = owner.getByRole("button", { name: "Send campaign" })
    expect(await send.isDisabled()).toBe(true)
    await owner.getByRole("button", { name: "Preview price" }).click()
    const price = owner.getByRole("table", { name: "Price per country" })
    await price.waitFor()
    const tzRow = price.getByRole("row").filter({ has: owner.getByRole("cell", { name: "TZ", exact: true }) })
    expect(await tzRow.getByRole("cell").allTextContents()).toEqual(["TZ", "2", "2", expect.any(String), "Yes"])
    const region = owner.getByRole("region", { name: "Campaign preview" })
    expect(await region.getByText("Hi Asha, you owe 10000 TZS").count()).toBe(1)
    expect(await region.getByText("Hi Baraka, Jr, you owe 3500 TZS").count()).toBe(1)
    expect(await send.isDisabled()).toBe(false)
    // a change after the preview needs a new preview
    await owner.getByRole("textbox", { name: "Message" }).fill("Hi {name}, you owe {= amount - paid } TZS.")
    expect(await send.isDisabled()).toBe(true)
    await owner.getByRole("button", { name: "Preview price" }).click()
    await region.getByText("Hi Asha, you owe 10000 TZS.").waitFor()
    await send.click()
    await owner.getByRole("status").getByText("Campaign accepted.").waitFor()
    const history = owner.getByRole("region", { name: "History" })
    const row = history.getByRole("row").filter({ hasText: "Madeni Novemba" })
    await row.waitFor()
    await until(
      async () => {
        await owner.reload()
        await owner.getByRole("heading", { level: 1, name: "Campaigns" }).waitFor()
        return (await row.textContent())?.includes("2 delivered, 0 failed of 2") ?? false
      },
      45_000,
      "the campaign's two messages delivered"
    )
    // every message final: the campaign is finished, not queued
    expect(await row.getByRole("cell").nth(2).textContent()).toBe("Finished")
    // the form was emptied after sending (no double send by a second click)
    expect(await owner.getByRole("textbox", { name: "Campaign name" }).inputValue()).toBe("")
    // the messages carry the campaign's name, and its charge is in the ledger
    const list = await http(serve.url, "GET", "/v1/sms/messages?per_page=10", { bearer: serve.liveKey })
    const names = (list.body.data as Array<any>).filter((m) => m.campaign_name === "Madeni Novemba")
    expect(names.map((m) => m.recipient).sort()).toEqual(["+255712000011", "+255712000012"])
    // its page lists its recipients
    await row.getByRole("link", { name: "Madeni Novemba" }).click()
    const recipients = owner.getByRole("table", { name: "2 recipients, newest first" })
    await recipients.waitFor()
    expect(await recipients.getByRole("row").count()).toBe(3)
  })

  it("cancels a scheduled campaign from its page; its units come back", async () => {
    const created = await http(serve.url, "POST", "/v2/sms/send-bulk", {
      bearer: serve.liveKey,
      body: {
        recipients: ["+255712000021"],
        message: "Later",
        sender_id: "TUMA",
        campaign_name: "Kesho asubuhi",
        scheduled_at: new Date(Date.now() + 86_400_000).toISOString()
      }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(202)
    await go(owner, "Campaigns")
    await owner.getByRole("region", { name: "History" }).getByRole("link", { name: "Kesho asubuhi" }).click()
    await owner.getByText("Scheduled", { exact: true }).first().waitFor()
    owner.once("dialog", (d) => void d.accept())
    await owner.getByRole("button", { name: "Cancel campaign" }).click()
    await owner.getByRole("status").getByText(/1 units are back in your balance/).waitFor()
    await owner.getByText("Cancelled", { exact: true }).first().waitFor()
    expect(await owner.getByRole("button", { name: "Cancel campaign" }).count()).toBe(0)
  })

  it("requests a sender ID with a PDF document", async () => {
    const reqs = await http(serve.url, "GET", "/v1/sender-ids/requirements", { bearer: serve.liveKey })
    await go(owner, "Sender IDs")
    await owner.getByRole("heading", { name: "Request a sender ID" }).waitFor()
    await owner.getByRole("textbox", { name: "Sender ID" }).fill("Duka Bora")
    await owner.getByRole("textbox", { name: "Sample message" }).fill(
      "Your order 1234 is ready for pickup at Duka Bora, Kariakoo. Thank you!"
    )
    for (const d of reqs.body.data.documents as Array<{ name: string; is_required: boolean }>) {
      if (d.is_required) {
        await owner.getByLabel(d.name).setInputFiles({ name: "licence.pdf", mimeType: "application/pdf", buffer: PDF })
      }
    }
    await owner.getByRole("checkbox", { name: /Protect the name/ }).check()
    await owner.getByLabel("Protection document").setInputFiles({
      name: "trademark.pdf",
      mimeType: "application/pdf",
      buffer: PDF
    })
    await owner.getByRole("button", { name: "Request sender ID" }).click()
    const said = (await owner.getByRole("status").textContent()) ?? ""
    expect(said).toContain("An operator reviews it")
    expect(said).not.toContain("GET /v1")
    // the form starts again empty: no ticked box, no file kept
    expect(await owner.getByRole("checkbox", { name: /Protect the name/ }).isChecked()).toBe(false)
    expect(await owner.getByRole("textbox", { name: "Sender ID" }).inputValue()).toBe("")
    const row = owner.getByRole("row").filter({ hasText: "DUKA BORA" })
    await row.waitFor()
    expect(await row.getByText("Pending").count()).toBe(1)
    const list = await http(serve.url, "GET", "/v1/sender-ids", { bearer: serve.liveKey })
    const record = (list.body.data as Array<any>).find((s) => s.sender_id === "DUKA BORA")
    expect(record.status).toBe("pending")
    expect(record.submitted_document_uids.length).toBeGreaterThan(0)
  })

  it("creates an API key shown once, uses it on the REST API, revokes it and gets 401", async () => {
    owner.on("dialog", (d) => void d.accept())
    await go(owner, "API keys")
    await owner.getByRole("textbox", { name: "Key name" }).fill("ci key")
    await owner.getByRole("button", { name: "Create API key" }).click()
    const field = owner.getByRole("textbox", { name: "New API key" })
    await field.waitFor()
    const key = await field.inputValue()
    expect(key).toMatch(/^tuma_live_[A-Za-z0-9]{40}$/)
    expect((await http(serve.url, "GET", "/v1/balance", { bearer: key })).status).toBe(200)
    // listed by prefix only; the full key is nowhere else on the page
    const row = owner.getByRole("row").filter({ hasText: "ci key" })
    await row.waitFor()
    expect(await owner.getByText(key, { exact: true }).count()).toBe(0)
    await owner.getByRole("button", { name: "Revoke ci key" }).click()
    await row.getByText("Revoked").waitFor()
    expect((await http(serve.url, "GET", "/v1/balance", { bearer: key })).status).toBe(401)
    // after a reload the key is not shown again
    await owner.reload()
    await owner.getByRole("heading", { level: 1, name: "API keys" }).waitFor()
    expect(await owner.getByRole("textbox", { name: "New API key" }).count()).toBe(0)
  })

  it("webhooks: created with a secret shown once, a signed delivery reaches a local receiver, disabled by failures, re-enabled", async () => {
    const receiver = await startReceiver()
    try {
      await go(owner, "API keys")
      await owner.getByRole("textbox", { name: "Key name" }).fill("hooks key")
      await owner.getByRole("button", { name: "Create API key" }).click()
      const key = await owner.getByRole("textbox", { name: "New API key" }).inputValue()
      await go(owner, "Webhooks")
      const keys = owner.getByRole("combobox", { name: "API key", exact: true })
      const label = (await keys.getByRole("option").allTextContents()).find((o) => o.startsWith("hooks key"))!
      await keys.selectOption({ label })
      await owner.getByRole("textbox", { name: "URL" }).fill(receiver.url)
      await owner.getByRole("button", { name: "Create webhook" }).click()
      const secret = await owner.getByRole("textbox", { name: "Webhook secret" }).inputValue()
      expect(secret.length).toBeGreaterThan(20)

      const send = (body: string) =>
        http(serve.url, "POST", "/v1/sms/messages", {
          bearer: key,
          body: { recipient: "+255712345679", sender_id: "TUMA", body }
        })
      expect((await send("hook me")).status).toBe(202)
      await until(async () => receiver.received.length > 0, 45_000, "a webhook delivery")
      const first = receiver.received[0]
      const expected = createHmac("sha256", secret).update(first.body).digest("hex")
      expect(first.headers["x-service-signature"]).toBe(expected)
      expect(JSON.parse(first.body)).toMatchObject({ event: "sms.delivered", status: "delivered" })

      // the receiver fails: with TUMA_WEBHOOK_DISABLE_AFTER=3 the endpoint is disabled
      receiver.answer(500)
      for (let i = 0; i < 3; i++) expect((await send(`fail ${i}`)).status).toBe(202)
      const article = owner.getByRole("article", { name: receiver.url })
      await until(
        async () => {
          await owner.reload()
          await article.waitFor()
          return (await article.getByText("Disabled").count()) > 0
        },
        60_000,
        "the endpoint disabled"
      )
      // the deliveries with their failed attempts
      await article.getByRole("table", { name: "Recent deliveries" }).getByRole("row").nth(2).waitFor()
      receiver.answer(200)
      await article.getByRole("button", { name: "Re-enable" }).click()
      await article.getByText("Enabled").waitFor()
      const before = receiver.received.length
      await article.getByRole("button", { name: "Send test event" }).click()
      await article.getByRole("status").getByText(/Test event delivered: HTTP 200/).waitFor()
      const test = receiver.received.slice(before).find((r) => r.body.includes("webhook.test"))!
      expect(test.headers["x-service-signature"]).toBe(createHmac("sha256", secret).update(test.body).digest("hex"))
      // recorded under the endpoint's deliveries, with its outcome and its one attempt
      const recorded = article.getByRole("table", { name: "Recent deliveries" }).getByRole("row").nth(1)
      await recorded.getByRole("cell", { name: "Test event" }).waitFor()
      await recorded.getByText("Succeeded").first().waitFor()
      // a regenerated secret signs what follows
      await article.getByRole("button", { name: "Regenerate secret" }).click()
      const secret2 = await article.getByRole("textbox", { name: "Webhook secret" }).inputValue()
      expect(secret2).not.toBe(secret)
    } finally {
      await receiver.close()
    }
  })

  it("message bodies, campaign names and sender-ID rejection reasons render as text", async () => {
    const evil = "<img src=x onerror=\"window.__xss=1\">"
    const sent = await http(serve.url, "POST", "/v1/sms/messages", {
      bearer: serve.liveKey,
      body: { recipient: "+255712345670", sender_id: "TUMA", body: evil }
    })
    expect(sent.status).toBe(202)
    const bulk = await http(serve.url, "POST", "/v2/sms/send-bulk", {
      bearer: serve.liveKey,
      body: {
        recipients: ["+255712345671"],
        sender_id: "TUMA",
        message: "hi",
        campaign_name: "<img src=y onerror=window.__xss=2>"
      }
    })
    expect(bulk.status).toBe(202)
    await owner.goto(`${serve.url}/portal/messages/${sent.body.data.uid}`)
    await owner.getByRole("heading", { name: "Timeline" }).waitFor()
    expect(await owner.getByLabel("Message text").textContent()).toBe(evil)
    await go(owner, "Campaigns")
    await owner.getByRole("link", { name: "<img src=y onerror=window.__xss=2>" }).waitFor()
    await go(owner, "Messages")
    await owner.getByRole("cell", { name: "<img src=y onerror=window.__xss=2>" }).waitFor()
    // a sender ID's name is letters, digits and spaces only; the free text shown with it is the
    // operator's rejection reason (the "requests a sender ID" test above made DUKA BORA)
    const ids = await http(serve.url, "GET", "/v1/sender-ids", { bearer: serve.liveKey })
    const duka = (ids.body.data as Array<any>).find((x) => x.sender_id === "DUKA BORA")
    expect(duka?.status).toBe("pending")
    const reason = "<img src=z onerror=window.__xss=3> & not yours"
    const rejected = await http(serve.url, "POST", `/admin/v1/sender-ids/${duka.uid}/reject`, {
      bearer: ADMIN_TOKEN,
      body: { reason }
    })
    expect(rejected.status).toBe(200)
    await go(owner, "Sender IDs")
    await owner.getByRole("row").filter({ hasText: "DUKA BORA" }).getByRole("cell", { name: reason }).waitFor()
    expect(await owner.evaluate(() => (globalThis as any).__xss)).toBeUndefined()
    expect(await owner.getByRole("img").count()).toBe(0)
  })

  it("a member cannot manage keys; another account never sees this one's data", async () => {
    // the owner invites a member from Team; the member accepts the e-mailed link
    await go(owner, "Team")
    const memberEmail = `member-${driver}@example.com`
    await owner.getByRole("textbox", { name: "Email", exact: true }).fill(memberEmail)
    await owner.getByRole("combobox", { name: "Role", exact: true }).selectOption("member")
    await owner.getByRole("button", { name: "Invite" }).click()
    await owner.getByRole("status").getByText(`An invitation was sent to ${memberEmail}.`).waitFor()
    const member = await acceptInvitation(
      browser,
      await linkIn(serve.mails, memberEmail, "/portal/accept-invitation"),
      "Mwanachama"
    )
    await go(member, "API keys")
    await member.getByText("Only owners of the account create and revoke API keys.").waitFor()
    await member.getByRole("table", { name: "Keys" }).waitFor()
    expect(await member.getByRole("button", { name: "Create API key" }).count()).toBe(0)
    expect(await member.getByRole("button", { name: /^Revoke/ }).count()).toBe(0)
    // the member reads the account's keys but the API refuses a key made by hand
    await member.getByRole("row").filter({ hasText: "ci key" }).waitFor()
    const refused = await fromPage(
      member,
      "POST",
      "/portal/api/api-keys",
      { name: "sneaky", mode: "live" },
      await csrfOf(member)
    )
    expect(refused.status).toBe(403)
    await go(member, "Send SMS") // members send

    // a second account (admin API; its owner is invited by e-mail)
    const created = await http(serve.url, "POST", "/admin/v1/accounts", {
      bearer: ADMIN_TOKEN,
      body: { name: "Other Company", email: `other-${driver}@example.com` }
    })
    expect(created.status).toBe(201)
    const other = await acceptInvitation(
      browser,
      await linkIn(serve.mails, `other-${driver}@example.com`, "/portal/accept-invitation"),
      "Other Owner"
    )
    await go(other, "Messages")
    await other.getByRole("table", { name: "0 messages, newest first" }).waitFor()
    await go(other, "API keys")
    await other.getByRole("table", { name: "Keys" }).waitFor()
    expect(await other.getByRole("row").count()).toBe(1) // the header: no key of the first account
    await go(other, "Campaigns")
    await other.getByText("No campaigns yet.").waitFor()
    expect(await other.getByText("Madeni Novemba").count()).toBe(0)
    // a message uid of the first account: not found, in the page and from the API
    const mine = await http(serve.url, "GET", "/v1/sms/messages?per_page=1", { bearer: serve.liveKey })
    const uid = mine.body.data[0].uid
    await other.goto(`${serve.url}/portal/messages/${uid}`)
    await other.getByRole("alert").waitFor()
    expect((await fromPage(other, "GET", `/portal/api/messages/${uid}`)).status).toBe(404)
  })

  it("CSRF and session fixation attempts fail", async () => {
    const csrf = await csrfOf(owner)
    // no token, a wrong token: refused, nothing created
    expect((await fromPage(owner, "POST", "/portal/api/api-keys", { name: "csrf-1", mode: "live" })).status).toBe(403)
    expect((await fromPage(owner, "POST", "/portal/api/api-keys", { name: "csrf-2", mode: "live" }, "x" + csrf)).status)
      .toBe(403)
    // another site's page posting with the victim's browser (a form, and a no-cors fetch)
    const evil = createServer((_, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html>
<form method="POST" action="${serve.url}/portal/api/api-keys" enctype="text/plain">
<input name='{"name":"csrf-3","mode":"live","x":"' value='"}'></form>
<script>
fetch("${serve.url}/portal/api/api-keys", { method: "POST", mode: "no-cors", credentials: "include",
  headers: { "content-type": "text/plain" }, body: JSON.stringify({ name: "csrf-4", mode: "live" }) })
  .finally(() => document.forms[0].submit())
</script>`)
    })
    await new Promise<void>((r) => evil.listen(0, "127.0.0.1", r))
    try {
      const port = (evil.address() as AddressInfo).port
      const attacker = await owner.context().newPage()
      // localhost is another site than 127.0.0.1 for the browser
      await attacker.goto(`http://localhost:${port}/`)
      await attacker.waitForURL(/\/portal\/api\/api-keys/, { timeout: 15_000 }).catch(() => undefined)
      await attacker.close()
    } finally {
      await new Promise<void>((r) => evil.close(() => r()))
    }
    const keys = JSON.parse((await fromPage(owner, "GET", "/portal/api/api-keys")).body).data as Array<{ name: string }>
    expect(keys.map((k) => k.name).filter((n) => n.startsWith("csrf-"))).toEqual([])

    // session fixation: a session id planted before sign-in is never the signed-in session
    const context = await newContext(browser)
    const host = new URL(serve.url).hostname
    await context.addCookies([{
      name: "tuma_portal_session",
      value: "attacker-chosen-id",
      domain: host,
      path: "/portal"
    }])
    const victim = await context.newPage()
    await signIn(victim, serve.url, serve.login.email, serve.login.password)
    const cookie = (await context.cookies()).find((c) => c.name === "tuma_portal_session")!
    expect(cookie.value).not.toBe("attacker-chosen-id")
    expect(cookie.httpOnly).toBe(true)
    expect(cookie.sameSite).toBe("Lax")
    // the attacker's own session, planted in the victim's browser, is replaced at sign-in
    const attackerContext = await newContext(browser)
    const attackerPage = await attackerContext.newPage()
    await signIn(attackerPage, serve.url, serve.login.email, serve.login.password)
    const planted = (await attackerContext.cookies()).find((c) => c.name === "tuma_portal_session")!
    const victim2Context = await newContext(browser)
    const victim2 = await victim2Context.newPage()
    await victim2.goto(`${serve.url}/portal/`)
    await victim2.getByRole("textbox", { name: "Email" }).fill(serve.login.email)
    await victim2.getByLabel("Password").fill(serve.login.password)
    await victim2Context.addCookies([{ ...planted }])
    await victim2.getByRole("button", { name: "Sign in" }).click()
    await victim2.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor()
    const after = (await victim2Context.cookies()).find((c) => c.name === "tuma_portal_session")!
    expect(after.value).not.toBe(planted.value)
    // the planted session was ended by that sign-in: the attacker's copy no longer works
    expect((await fromPage(attackerPage, "GET", "/portal/api/session")).status).toBe(401)
    expect((await fromPage(victim2, "GET", "/portal/api/session")).status).toBe(200)
    await Promise.all([context.close(), attackerContext.close(), victim2Context.close()])
  })

  it("switches to Kiswahili and remembers it; shows times in the user's zone, not the browser's", async () => {
    const context = await newContext(browser, { timezoneId: "America/New_York" })
    const page = await context.newPage()
    await signIn(page, serve.url, serve.login.email, serve.login.password)
    await page.getByRole("combobox", { name: "Language" }).selectOption("sw")
    const nav = page.getByRole("navigation", { name: "Kuu" })
    await nav.getByRole("link", { name: "Tuma SMS" }).waitFor()
    await page.reload()
    await page.getByRole("heading", { level: 1, name: "Dashibodi" }).waitFor()
    await nav.getByRole("link", { name: "Jumbe", exact: true }).click()
    await page.getByRole("heading", { level: 1, name: "Jumbe" }).waitFor()
    await page.getByRole("columnheader", { name: "Hali" }).first().waitFor()
    await page.getByRole("combobox", { name: "Lugha" }).selectOption("en")
    await page.getByRole("heading", { level: 1, name: "Messages" }).waitFor()
    // the newest message's queued time, in Africa/Dar_es_Salaam (the user's zone), not New York
    const newest = (await http(serve.url, "GET", "/v1/sms/messages?per_page=1", { bearer: serve.liveKey })).body.data[0]
    const format = (timeZone: string) =>
      new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone }).format(
        new Date(newest.queued_at)
      )
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: newest.recipient }) }).first()
    await row.getByRole("cell", { name: format("Africa/Dar_es_Salaam"), exact: true }).waitFor()
    expect(await row.getByRole("cell", { name: format("America/New_York"), exact: true }).count()).toBe(0)
    // and in the zone the user picks on Profile
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Profile", exact: true }).click()
    await page.getByRole("combobox", { name: "Time zone" }).selectOption("Asia/Tokyo")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByRole("status").getByText("Saved.").waitFor()
    await go(page, "Messages")
    await row.getByRole("cell", { name: format("Asia/Tokyo"), exact: true }).waitFor()
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Profile", exact: true }).click()
    await page.getByRole("combobox", { name: "Time zone" }).selectOption("Africa/Dar_es_Salaam")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByRole("status").getByText("Saved.").waitFor()
    await context.close()
  })
})
