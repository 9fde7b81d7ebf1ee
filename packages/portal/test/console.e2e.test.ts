/**
 * The operator console (issue 15) in a real browser (Debian's chromium through playwright-core)
 * against one real `tuma serve --demo` child process per database (PGlite; PostgreSQL when
 * TUMA_TEST_DATABASE_URL is set), its mail going to an SMTP sink. Controls are found by role and
 * accessible name. The scenarios build on each other (one server per database, for the CI budget):
 * the demo admin signs in with TOTP (enrolment, recovery codes); invites a reviewer and a support
 * operator by e-mail; a customer's portal request is approved (and another rejected with a reason)
 * by the reviewer; credit is topped up; a provider added while the server runs takes traffic; the
 * support operator cannot approve or top up (UI and API 403); the audit log names each operator.
 * Screenshots of every console page go to docs/screenshots/console-*.png.
 */
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { deflateSync } from "node:zlib"
import { Secret, TOTP } from "otpauth"
import type { Locator } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { englishIn, visibleText } from "./english.js"
import type { Browser, Page, Serve } from "./harness.js"
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

const PASSWORD = "correct horse battery"
/** A one-page PDF with a line of text (objects, cross-reference table and trailer as the format wants). */
const pdf = (text: string) => {
  const content = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
  ]
  let body = "%PDF-1.4\n"
  const offsets = objects.map((o, i) => {
    const at = body.length
    body += `${i + 1} 0 obj\n${o}\nendobj\n`
    return at
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("") +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(body, "latin1")
}
const PDF = pdf("Trademark certificate: DUKA BORA")
const SHOTS = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url))

/** A PNG of `width`×`height`: a white page with grey lines of "text" (a scanned document). */
const png = (width: number, height: number) => {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (b: Buffer) => {
    let c = 0xffffffff
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data])
    const out = Buffer.alloc(12 + data.length)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc(body), 8 + data.length)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale
  const rows = Buffer.alloc((width + 1) * height, 255)
  for (let y = 0; y < height; y++) {
    rows[y * (width + 1)] = 0
    const line = y > 20 && y < height - 20 && y % 14 < 5
    for (let x = 20; line && x < width - 20 - (y * 7) % 60; x++) rows[y * (width + 1) + 1 + x] = 140
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0))
  ])
}

const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate()

/** A console API call from inside a signed-in page (its cookies; the session's CSRF token). */
const fromConsole = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(async ({ body, method, path }) => {
    const session = (await (await fetch("/console/api/session")).json()) as any
    const r = await fetch(`/console/api${path}`, {
      method,
      headers: { "content-type": "application/json", "x-csrf-token": session.data?.csrf_token ?? "" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: r.status, body: (await r.json()) as any }
  }, { method, path, body })

/** Clicks `button` once and waits for `done` (a decision of the review panel). */
const clickOnce = async (button: Locator, done: Locator) => {
  await button.click()
  await done.waitFor()
}

/** Clicks a link of the console's navigation and waits for its page. */
const open = async (page: Page, name: string) => {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).click()
  await page.getByRole("heading", { level: 1, name }).waitFor()
}

/** Signs in through the console's sign-in page (code empty when not enrolled). */
const consoleSignIn = async (page: Page, url: string, email: string, password: string, code = "") => {
  await page.goto(`${url}/console/`)
  await page.getByRole("textbox", { name: "Email" }).fill(email)
  await page.getByLabel("Password").fill(password)
  await page.getByRole("textbox", { name: "Authentication code" }).fill(code)
  await page.getByRole("button", { name: "Sign in" }).click()
}

describe.skipIf(!hasChromium).each(drivers)("operator console in chromium (%s)", (driver) => {
  let serve: Serve
  let browser: Browser
  let admin: Page
  let reviewer: Page
  let support: Page
  let customer: Page
  let accountUid: string
  const reviewerEmail = `reviewer-${driver}@example.com`
  const supportEmail = `support-${driver}@example.com`

  beforeAll(async () => {
    ;[serve, browser] = await Promise.all([startServe(driver), launchBrowser()])
    admin = await (await newContext(browser)).newPage()
    customer = await (await newContext(browser)).newPage()
  })
  afterAll(async () => {
    await browser?.close()
    await serve?.close()
  })

  /** The customer requests `name` in the portal, with every required document and a protection document. */
  const request = async (
    name: string,
    protection: { readonly name: string; readonly mimeType: string; readonly buffer: Buffer }
  ) => {
    const reqs = await http(serve.url, "GET", "/v1/sender-ids/requirements", { bearer: serve.liveKey })
    await go(customer, "Sender IDs")
    await customer.getByRole("textbox", { name: "Sender ID" }).fill(name)
    await customer.getByRole("textbox", { name: "Sample message" }).fill(
      `Your order 1234 is ready for pickup at ${name}, Kariakoo. Thank you!`
    )
    for (const d of reqs.body.data.documents as Array<{ name: string; is_required: boolean }>) {
      if (d.is_required) {
        await customer.getByLabel(d.name).setInputFiles({
          name: "licence.pdf",
          mimeType: "application/pdf",
          buffer: PDF
        })
      }
    }
    // a document to review in every case: the protection request's
    await customer.getByRole("checkbox", { name: /Protect the name/ }).check()
    await customer.getByLabel("Protection document").setInputFiles(protection)
    await customer.getByRole("button", { name: "Request sender ID" }).click()
    const refused = customer.getByRole("alert")
    await Promise.race([
      customer.getByRole("row").filter({ hasText: name.toUpperCase() }).waitFor(),
      refused.waitFor().then(async () => {
        throw new Error(`the request was refused: ${await refused.textContent()}`)
      })
    ])
  }

  it("the admin signs in with TOTP: enrols at the first sign-in, gets recovery codes; a wrong code is refused", async () => {
    const [, email, password] = /demo console login: (\S+) (\S+)/.exec(serve.output())!
    await consoleSignIn(admin, serve.url, email, password)
    const secret = await admin.getByRole("textbox", { name: "Secret" }).inputValue()
    expect(await admin.getByRole("textbox", { name: "Authenticator URI" }).inputValue()).toMatch(/^otpauth:\/\/totp\//)
    await admin.getByRole("textbox", { name: "Authentication code" }).fill("000000")
    await admin.getByRole("button", { name: "Sign in" }).click()
    await admin.getByRole("alert").getByText(/not correct/).waitFor()
    await admin.getByRole("textbox", { name: "Authentication code" }).fill(codeOf(secret))
    await admin.getByRole("button", { name: "Sign in" }).click()
    const codes = admin.getByRole("region", { name: "Recovery codes" })
    await codes.waitFor()
    expect(await codes.getByRole("listitem").count()).toBe(10)
    await admin.getByRole("button", { name: "I have saved them" }).click()
    await admin.getByRole("heading", { name: "Overview", level: 1 }).waitFor()
    for (const name of ["Overview", "Accounts", "Credit", "Sender ID review", "Providers", "Audit log"]) {
      await admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).waitFor()
    }
    // the password alone no longer signs in
    const again = await (await newContext(browser)).newPage()
    await consoleSignIn(again, serve.url, email, password)
    await again.getByRole("alert").getByText(/authentication code/).waitFor()
    await again.context().close()
  })

  it("the admin invites a reviewer and a support operator; they set their password from the e-mail", async () => {
    await open(admin, "Operators")
    for (const [email, role] of [[reviewerEmail, "reviewer"], [supportEmail, "support"]] as const) {
      await admin.getByRole("textbox", { name: "Operator email" }).fill(email)
      await admin.getByRole("combobox", { name: "Role" }).selectOption(role)
      await admin.getByRole("button", { name: "Invite operator" }).click()
      await admin.getByRole("status").getByText(`${email} is invited as ${role} by e-mail.`).waitFor()
    }
    const pages: Array<Page> = []
    for (const email of [reviewerEmail, supportEmail]) {
      const page = await (await newContext(browser)).newPage()
      await page.goto(await linkIn(serve.mails, email, "/console/accept-invitation"))
      await page.getByLabel("Password").fill(PASSWORD)
      await page.getByRole("button", { name: "Set password" }).click()
      await page.getByRole("status").getByText("Your password is set.").waitFor()
      await consoleSignIn(page, serve.url, email, PASSWORD)
      await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor()
      pages.push(page)
    }
    ;[reviewer, support] = pages
    // Operators is an admin's page: the server refuses it to others
    expect((await fromConsole(reviewer, "GET", "/operators")).status).toBe(403)
  })

  it("a customer requests a sender ID in the portal; the reviewer approves it; the customer sends with it", async () => {
    await signIn(customer, serve.url, serve.login.email, serve.login.password)
    const trademark = { name: "trademark.pdf", mimeType: "application/pdf", buffer: PDF }
    await request("Duka Bora", trademark)
    await request("Soko Kuu", trademark)

    await open(reviewer, "Sender ID review")
    await reviewer.getByRole("button", { name: "Open SOKO KUU" }).waitFor()
    // the queue, oldest first
    expect(await reviewer.getByRole("button", { name: /^Open / }).allTextContents()).toEqual([
      "Open DUKA BORA",
      "Open SOKO KUU"
    ])
    await reviewer.getByRole("button", { name: "Open DUKA BORA" }).click()
    const panel = reviewer.getByRole("region", { name: "Sender ID DUKA BORA" })
    // the document is previewed inline
    // drawn by pdf.js into canvases (no browser PDF viewer), with a link to the whole document
    const preview = panel.getByRole("img", { name: "Document trademark.pdf" })
    await panel.locator("[role=img][data-state=ready] canvas").first().waitFor()
    expect(Number(await preview.locator("canvas").first().getAttribute("width"))).toBeGreaterThan(0)
    const src = await panel.getByRole("link", { name: "Open trademark.pdf" }).getAttribute("href")
    const doc = await reviewer.evaluate(async (src) => {
      const r = await fetch(src!)
      return { status: r.status, type: r.headers.get("content-type"), frame: r.headers.get("x-frame-options") }
    }, src)
    expect(doc).toEqual({ status: 200, type: "application/pdf", frame: "SAMEORIGIN" })
    await clickOnce(
      panel.getByRole("button", { name: "Approve" }),
      reviewer.getByRole("status").filter({ hasText: "DUKA BORA is approved" })
    )

    const sent = await http(serve.url, "POST", "/v1/sms/messages", {
      bearer: serve.liveKey,
      body: { recipient: "+255712345601", sender_id: "DUKA BORA", body: "Karibu Duka Bora" }
    })
    expect(sent.status).toBe(202)
    // the customer is told by e-mail
    const deadline = Date.now() + 20_000
    const told = () => serve.mails.some((m) => m.to === "demo@tuma.example" && /DUKA BORA is approved/.test(m.raw))
    while (!told() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    expect(told()).toBe(true)
  })

  it("the reviewer rejects with a reason; the customer sees the reason in the portal", async () => {
    await reviewer.getByRole("button", { name: "Open SOKO KUU" }).click()
    const panel = reviewer.getByRole("region", { name: "Sender ID SOKO KUU" })
    await panel.getByRole("textbox", { name: "Reason" }).waitFor()
    // without a reason: refused (422), nothing changes
    await clickOnce(
      panel.getByRole("button", { name: "Reject" }),
      panel.getByRole("alert").getByText("A reason is required to reject a sender ID.", { exact: true })
    )
    await panel.getByRole("textbox", { name: "Reason" }).fill("The licence does not name Soko Kuu.")
    await clickOnce(
      panel.getByRole("button", { name: "Reject" }),
      reviewer.getByRole("status").filter({ hasText: "SOKO KUU is rejected" })
    )
    await customer.reload()
    await customer.getByRole("row").filter({ hasText: "SOKO KUU" }).getByText("The licence does not name Soko Kuu.")
      .waitFor()
    // and is told by e-mail, with the reason
    await expect.poll(
      () =>
        serve.mails.some((m) =>
          m.to === "demo@tuma.example" && /SOKO KUU was not approved/.test(m.raw) &&
          /The licence does not name Soko Kuu\./.test(m.raw)
        ),
      { timeout: 20_000 }
    ).toBe(true)
  })

  it("the admin tops up credit with a reference; the customer's balance moves", async () => {
    const balance = async () =>
      Number(
        ((await http(serve.url, "GET", "/v1/balance", { bearer: serve.liveKey })).body.data.countries as Array<any>)
          .find((w) => w.country === "TZ")?.balance
      )
    const before = await balance()
    await open(admin, "Credit")
    const accounts = await fromConsole(admin, "GET", "/accounts")
    accountUid = accounts.body.data.find((a: any) => a.email === "demo@tuma.example").uid
    await admin.getByRole("combobox", { name: "Account" }).selectOption(accountUid)
    const topUp = admin.getByRole("region", { name: "Top up" })
    await topUp.getByRole("spinbutton", { name: "Units" }).fill("500")
    await topUp.getByRole("textbox", { name: "Reference" }).fill("INV-2026-001")
    await topUp.getByRole("textbox", { name: "Amount paid" }).fill("150000")
    await topUp.getByRole("button", { name: "Top up" }).click()
    await topUp.getByRole("status").getByText(/500 units added to TZ/).waitFor()
    // the form is ready for the next top-up: "Amount paid" is cleared with the units and reference
    expect(await topUp.getByRole("textbox", { name: "Amount paid" }).inputValue()).toBe("")
    await admin.getByRole("cell", { name: "INV-2026-001" }).waitFor()
    expect(await balance()).toBe(before + 500)
  })

  it("the admin corrects credit with a ledger row of its own; never below 0; the customer's ledger shows it", async () => {
    const balance = async () =>
      Number(
        ((await http(serve.url, "GET", "/v1/balance", { bearer: serve.liveKey })).body.data.countries as Array<any>)
          .find((w) => w.country === "TZ")?.balance
      )
    const before = await balance()
    const fix = admin.getByRole("region", { name: "Correction" })
    // "Corrects entry" offers purchases and adjustments only, never a message's debit
    const ledgerNow = (await fromConsole(admin, "GET", `/accounts/${accountUid}/ledger`)).body.data
    expect(ledgerNow.some((l: any) => l.kind === "debit")).toBe(true)
    const offered = await fix.getByRole("combobox", { name: "Corrects entry" }).locator("option").allTextContents()
    expect(offered.length).toBeGreaterThan(1)
    expect(offered.filter((o) => / (debit|refund) /i.test(o))).toEqual([])
    // below 0: refused with the reason, nothing changes
    await fix.getByRole("spinbutton", { name: "Units" }).fill(String(-(before + 1)))
    await fix.getByRole("textbox", { name: "Reason" }).fill("Too much")
    await fix.getByRole("button", { name: "Record correction" }).click()
    // the error names its field ("Units: …") when the sentence does not
    await fix.getByRole("alert").getByText(/^Units: The correction would make the TZ wallet negative/).waitFor()
    expect(await balance()).toBe(before)
    // the top-up was 200 units too many
    const entry = (await fromConsole(admin, "GET", `/accounts/${accountUid}/ledger`)).body.data
      .find((l: any) => l.reference === "INV-2026-001").id
    await fix.getByRole("spinbutton", { name: "Units" }).fill("-200")
    await fix.getByRole("textbox", { name: "Reason" }).fill("INV-2026-001 was for 300 units")
    await fix.getByRole("combobox", { name: "Corrects entry" }).selectOption(entry)
    await fix.getByRole("button", { name: "Record correction" }).click()
    await fix.getByRole("status").getByText(/Correction of -200 units to TZ recorded/).waitFor()
    await admin.getByRole("cell", { name: `INV-2026-001 was for 300 units (corrects #${entry})` }).waitFor()
    expect(await balance()).toBe(before - 200)
    // the top-up's own row is unchanged
    const rows = (await fromConsole(admin, "GET", `/accounts/${accountUid}/ledger`)).body.data
    expect(rows.find((l: any) => l.id === entry)).toMatchObject({ kind: "purchase", units: 500 })
    // the customer's portal ledger shows the correction and its reason
    await go(customer, "Balance")
    await customer.getByRole("row").filter({ hasText: "INV-2026-001 was for 300 units" }).getByText("-200").waitFor()
  })

  it("a provider added while the server runs takes traffic once first in the routing order", async () => {
    await open(admin, "Providers")
    await admin.getByRole("textbox", { name: "Provider name" }).fill("console-sim")
    await admin.getByRole("spinbutton", { name: "Initial credit" }).fill("1000")
    await admin.getByRole("button", { name: "Add provider" }).click()
    await admin.getByRole("cell", { name: "console-sim", exact: true }).waitFor()
    await admin.getByRole("button", { name: "Move console-sim up" }).click()
    await admin.getByRole("region", { name: "Routing order" }).getByRole("listitem").first().getByText(/console-sim/)
      .waitFor()
    const sent = await http(serve.url, "POST", "/v1/sms/messages", {
      bearer: serve.liveKey,
      body: { recipient: "+255712345602", sender_id: "DUKA BORA", body: "Through the new provider" }
    })
    expect(sent.status).toBe(202)
    const deadline = Date.now() + 30_000
    let credit = 1000
    while (Date.now() < deadline && credit === 1000) {
      const providers = await fromConsole(admin, "GET", "/providers")
      credit = providers.body.data.find((p: any) => p.name === "console-sim").credits[0].balance
      if (credit === 1000) await new Promise((r) => setTimeout(r, 250))
    }
    expect(credit).toBeLessThan(1000)
  })

  it("the overview is live: a message sent while it is open shows without a reload", async () => {
    await open(admin, "Overview")
    const row = admin.getByRole("region", { name: "Provider credit" }).getByRole("row").filter({
      hasText: "console-sim"
    })
    const units = async () => Number((await row.getByRole("cell").nth(2).textContent())?.replace(/\D/g, ""))
    await expect.poll(units).toBeGreaterThan(0)
    const before = await units()
    const sent = await http(serve.url, "POST", "/v1/sms/messages", {
      bearer: serve.liveKey,
      body: { recipient: "+255712345603", sender_id: "DUKA BORA", body: "Seen on the overview" }
    })
    expect(sent.status).toBe(202)
    await expect.poll(units, { timeout: 20_000 }).toBeLessThan(before)
  })

  it("SMPP credentials are write-only: no answer and no audit entry shows the password", async () => {
    const password = `pw-${driver}-${Date.now().toString(36)}`
    const created = await fromConsole(admin, "POST", "/providers", {
      name: `smpp-${driver}`,
      kind: "smpp",
      enabled: false,
      config: { host: "127.0.0.1", port: 2775, system_id: "tuma", password },
      country: "TZ",
      credit: 0
    })
    expect(created.status).toBe(200)
    expect(JSON.stringify(created.body)).not.toContain(password)
    expect(JSON.stringify((await fromConsole(admin, "GET", "/providers")).body)).not.toContain(password)
    const audit = await fromConsole(admin, "GET", "/audit-log?action=provider.create")
    expect(audit.body.data.length).toBeGreaterThan(0)
    expect(JSON.stringify(audit.body)).not.toContain(password)
  })

  it("a document sent as an image is previewed inline as an image (the pending queue, oldest first)", async () => {
    await request("Mama Lishe", { name: "licence-scan.png", mimeType: "image/png", buffer: png(480, 300) })
    await reviewer.reload()
    await reviewer.getByRole("heading", { level: 1, name: "Sender ID review" }).waitFor()
    const panel = reviewer.getByRole("region", { name: "Sender ID MAMA LISHE" })
    const image = panel.getByRole("img", { name: "Document licence-scan.png" })
    await image.waitFor()
    await expect.poll(() => image.evaluate((img) => Reflect.get(img, "naturalWidth"))).toBe(480)
    await panel.getByRole("button", { name: "Approve" }).waitFor()
    await panel.getByRole("button", { name: "Reject" }).waitFor()
    await panel.getByRole("textbox", { name: "Reason" }).waitFor()
    // who asked (the account's name, a link to it) and whether protection was requested
    const demo = (await fromConsole(reviewer, "GET", "/accounts")).body.data.find((a: any) =>
      a.email === "demo@tuma.example"
    )
    const facts = panel.locator("dl.facts")
    await facts.getByRole("link", { name: demo.name, exact: true }).waitFor()
    expect(await facts.locator("div").filter({ hasText: /^Protection/ }).locator("dd").textContent()).toBe(
      "Yes, requested"
    )
    const queueRow = reviewer.getByRole("row").filter({ hasText: "MAMA LISHE" })
    await queueRow.getByRole("cell", { name: demo.name }).waitFor()
    await queueRow.getByRole("cell", { name: "Yes, requested", exact: true }).waitFor()
  })

  it("a support operator cannot approve or top up: no controls, and the API answers 403", async () => {
    await open(support, "Sender ID review")
    // a pending sender ID (MAMA LISHE): no Approve, no Reject, no Reason
    const pendingPanel = support.getByRole("region", { name: "Sender ID MAMA LISHE" })
    await pendingPanel.getByRole("img", { name: "Document licence-scan.png" }).waitFor()
    for (const name of ["Approve", "Reject"]) expect(await support.getByRole("button", { name }).count()).toBe(0)
    expect(await support.getByRole("textbox", { name: "Reason" }).count()).toBe(0)
    await support.getByRole("combobox", { name: "Status" }).selectOption("approved")
    await support.getByRole("region", { name: /^Sender ID / }).waitFor()
    expect(await support.getByRole("button", { name: "Suspend" }).count()).toBe(0)
    await open(support, "Credit")
    await support.getByRole("combobox", { name: "Account" }).selectOption(accountUid)
    await support.getByRole("region", { name: "Ledger" }).waitFor()
    expect(await support.getByRole("button", { name: "Top up" }).count()).toBe(0)
    expect(await support.getByRole("button", { name: "Record correction" }).count()).toBe(0)
    const pending = await fromConsole(support, "GET", "/sender-ids?status=pending")
    const approve = await fromConsole(support, "POST", `/sender-ids/${pending.body.data[0].uid}/approve`)
    expect(approve.status).toBe(403)
    expect(approve.body.error_code).toBe("ROLE_FORBIDDEN")
    expect((await fromConsole(support, "GET", "/sender-ids?status=pending")).body.data.length).toBe(
      pending.body.data.length
    )
    const topUp = await fromConsole(support, "POST", `/accounts/${accountUid}/top-ups`, {
      country: "TZ",
      units: 1000,
      reference: "support"
    })
    expect(topUp.status).toBe(403)
    const correction = await fromConsole(support, "POST", `/accounts/${accountUid}/corrections`, {
      country: "TZ",
      units: 5,
      reason: "support"
    })
    expect(correction.status).toBe(403)
    expect(correction.body.error_code).toBe("ROLE_FORBIDDEN")
    const ledger = await fromConsole(support, "GET", `/accounts/${accountUid}/ledger`)
    expect(ledger.body.data.some((l: any) => l.reference === "support" || l.reason === "support")).toBe(false)
  })

  it("the audit log shows each action with the operator who did it", async () => {
    await open(admin, "Audit log")
    const row = (action: string) => admin.getByRole("row").filter({ hasText: action })
    await admin.getByRole("searchbox", { name: "Actor" }).fill(reviewerEmail)
    await row("sender_id.approve").first().getByText(reviewerEmail).waitFor()
    await row("sender_id.reject").first().getByText(reviewerEmail).waitFor()
    await admin.getByRole("searchbox", { name: "Actor" }).fill("operator@tuma.example")
    await row("wallet.top_up").first().waitFor()
    await row("wallet.correct").first().getByText(/operator@tuma\.example/).waitFor()
    const fixes = await fromConsole(admin, "GET", "/audit-log?action=wallet.correct")
    expect(fixes.body.data.map((e: any) => [e.actor_name, e.after.entry.reason])).toEqual([
      ["operator@tuma.example", "INV-2026-001 was for 300 units"]
    ])
    await row("provider.create").first().waitFor()
    await row("operator.create").first().waitFor()
    // targets by name, not by id; a customer acting in the portal by e-mail, not "portal:… (system)"
    await admin.getByRole("searchbox", { name: "Actor" }).fill("")
    await admin.getByRole("searchbox", { name: "Action" }).fill("provider.create")
    await row("provider.create").filter({ hasText: "Provider: console-sim" }).first().waitFor()
    await admin.getByRole("searchbox", { name: "Action" }).fill("operator.create")
    await row("operator.create").filter({ hasText: `Operator: ${reviewerEmail}` }).first().waitFor()
    await admin.getByRole("searchbox", { name: "Action" }).fill("wallet.top_up")
    const demoName = (await fromConsole(admin, "GET", `/accounts/${accountUid}`)).body.data.account.name
    await row("wallet.top_up").filter({ hasText: `Account: ${demoName}` }).first().waitFor()
    const raw = await fromConsole(admin, "GET", "/audit-log?action=provider.create")
    expect(raw.body.data.map((e: any) => e.target_name)).toContain("console-sim")
    await admin.getByRole("searchbox", { name: "Action" }).fill("")
    // nothing was recorded for the support operator's refused attempts
    await admin.getByRole("searchbox", { name: "Actor" }).fill(supportEmail)
    await admin.getByRole("heading", { name: "Audit log", level: 1 }).waitFor()
    const entries = await fromConsole(admin, "GET", `/audit-log?actor=${encodeURIComponent(supportEmail)}`)
    expect(entries.body.data).toEqual([])
  })

  it("disabling the last carrier of a market asks for confirmation; the overview warns until one is enabled", async () => {
    const providers = (await fromConsole(admin, "GET", "/providers")).body.data as Array<any>
    const enabled = providers.filter((p) => p.enabled && p.routes?.some((r: any) => r.country === "TZ" && r.enabled))
    expect(enabled.map((p) => p.name)).toContain("console-sim")
    const last = enabled.find((p) => p.name !== "console-sim")
    await open(admin, "Providers")
    // another carrier serves Tanzania: no confirmation
    await admin.getByRole("button", { name: "Disable console-sim" }).click()
    await admin.getByRole("button", { name: "Enable console-sim" }).waitFor()
    // the last one: a confirmation, and nothing changes until it is given
    await admin.getByRole("button", { name: `Disable ${last.name}` }).click()
    const dialog = admin.getByRole("alertdialog", { name: `Disable ${last.name}?` })
    await dialog.getByText(`${last.name} is the only carrier of TZ.`, { exact: false }).waitFor()
    await dialog.getByRole("button", { name: `Keep ${last.name} enabled` }).click()
    await dialog.waitFor({ state: "detached" })
    expect((await fromConsole(admin, "GET", "/providers")).body.data.find((p: any) => p.uid === last.uid).enabled)
      .toBe(true)
    // the API refuses it without the flag, with the markets it would leave (one rule, in core)
    const refused = await fromConsole(admin, "POST", `/providers/${last.uid}/disable`)
    expect(refused.status).toBe(409)
    expect(refused.body.details.message).toEqual({
      code: "provider.last_carrier",
      params: { provider: last.name, markets: "TZ" }
    })
    await admin.getByRole("button", { name: `Disable ${last.name}` }).click()
    await dialog.getByRole("button", { name: `Disable ${last.name} anyway` }).click()
    await admin.getByRole("button", { name: `Enable ${last.name}` }).waitFor()
    // the overview warns: Tanzania has no carrier
    await open(admin, "Overview")
    const warnings = admin.getByRole("region", { name: "Warnings" })
    await warnings.getByText(/^Tanzania has no enabled carrier/).waitFor()
    // enabled again: the warning goes
    await open(admin, "Providers")
    await admin.getByRole("button", { name: "Enable console-sim" }).click()
    await admin.getByRole("button", { name: `Enable ${last.name}` }).click()
    await admin.getByRole("button", { name: `Disable ${last.name}` }).waitFor()
    await open(admin, "Overview")
    await admin.getByRole("list", { name: "Now" }).waitFor()
    await expect.poll(() => warnings.count()).toBe(0)
  })

  it("webhook deliveries are found by account name (a picker), not an account id", async () => {
    const keys = await http(serve.url, "GET", `/admin/v1/accounts/${accountUid}/api-keys`, { bearer: ADMIN_TOKEN })
    const key = (keys.body.data as Array<any>).find((k) => k.mode === "live")
    const url = `http://127.0.0.1:9/hooks/${driver}`
    const created = await http(serve.url, "POST", "/admin/v1/webhooks", {
      bearer: ADMIN_TOKEN,
      body: { api_key_uid: key.uid, url }
    })
    expect([200, 201, 409]).toContain(created.status)
    await open(admin, "Webhook deliveries")
    expect(await admin.getByRole("textbox", { name: "Account ID" }).count()).toBe(0)
    const demoName = (await fromConsole(admin, "GET", `/accounts/${accountUid}`)).body.data.account.name
    const picker = admin.getByRole("combobox", { name: "Account" })
    await picker.selectOption({ label: `${demoName} (demo@tuma.example)` })
    await admin.getByRole("button", { name: /^Deliveries of http/ }).first().waitFor()
  })

  it.runIf(driver === "pglite")("screenshots of every console page", async () => {
    mkdirSync(SHOTS, { recursive: true })
    const pages: ReadonlyArray<readonly [string, string]> = [
      ["Overview", "overview"],
      ["Accounts", "accounts"],
      ["Credit", "credit"],
      ["Sender ID review", "sender-id-review"],
      ["Routes and markets", "routes-and-markets"],
      ["Providers", "providers"],
      ["Spam rules and opt-outs", "spam-rules-and-opt-outs"],
      ["Webhook deliveries", "webhook-deliveries"],
      ["Audit log", "audit-log"],
      ["Operators", "operators"]
    ]
    for (const [name, file] of pages) {
      await open(admin, name)
      if (name === "Credit") await admin.getByRole("combobox", { name: "Account" }).selectOption(accountUid)
      if (name === "Sender ID review") {
        // the pending queue with its open item: the document, Approve, Reject and the Reason
        const panel = admin.getByRole("region", { name: "Sender ID MAMA LISHE" })
        await panel.getByRole("img", { name: "Document licence-scan.png" }).waitFor()
        await panel.getByRole("button", { name: "Approve" }).waitFor()
      }
      await admin.waitForTimeout(300)
      await admin.screenshot({ path: `${SHOTS}console-${file}.png`, fullPage: true })
    }
    const signInPage = await (await newContext(browser)).newPage()
    await signInPage.goto(`${serve.url}/console/`)
    await signInPage.getByRole("button", { name: "Sign in" }).waitFor()
    await signInPage.screenshot({ path: `${SHOTS}console-sign-in.png` })
    await signInPage.context().close()
  })

  it("the console in Kiswahili: the switch, every page and its typical errors", async () => {
    const found: Array<string> = []
    const check = async (page: Page, where: string) => {
      await page.waitForLoadState("networkidle")
      await page.waitForTimeout(150)
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe("sw")
      for (const w of englishIn(await visibleText(page))) found.push(`${where}: ${w}`)
      const dir = process.env.TUMA_I18N_SHOTS
      if (dir !== undefined) {
        await page.screenshot({ path: `${dir}/console-${where.replace(/\W+/g, "-")}.png`, fullPage: true })
      }
    }
    const visit = async (path: string) => {
      await admin.goto(`${serve.url}/console${path}`)
      await admin.getByRole("heading", { level: 1 }).waitFor()
    }
    await visit("/")
    // the language switch of the top bar
    await admin.getByRole("combobox", { name: "Language" }).selectOption("sw")
    await admin.getByRole("heading", { name: "Muhtasari", level: 1 }).waitFor()
    const nav = admin.getByRole("navigation", { name: "Kuu" })
    await nav.getByRole("link", { name: "Watoa huduma", exact: true }).waitFor()
    for (
      const path of [
        "/",
        "/accounts",
        `/accounts/${accountUid}`,
        "/markets",
        "/spam",
        "/audit-log",
        "/operators",
        "/outbox",
        "/inbound"
      ]
    ) {
      await visit(path)
      await check(admin, path)
    }
    // credit of an account, and a top-up without its reference
    await visit("/credit")
    await admin.getByRole("combobox", { name: "Akaunti" }).selectOption(accountUid)
    const topUp = admin.getByRole("region", { name: "Ongeza salio" })
    await topUp.getByRole("spinbutton", { name: "Uniti" }).fill("10")
    await topUp.getByRole("button", { name: "Ongeza salio" }).click()
    await topUp.getByRole("alert").waitFor()
    await check(admin, "credit with a top-up without reference")
    // the review queue with its open request (account, protection, document)
    await visit("/sender-ids")
    await admin.getByRole("region", { name: "Kitambulisho cha mtumaji MAMA LISHE" }).getByRole("img").first().waitFor()
    await check(admin, "sender-id review")
    // providers, and the confirmation of disabling the last carrier
    await visit("/providers")
    const last = ((await fromConsole(admin, "GET", "/providers")).body.data as Array<any>).find((p) =>
      p.enabled && p.name !== "console-sim"
    )
    await admin.getByRole("button", { name: "Zima console-sim" }).click()
    await admin.getByRole("button", { name: `Zima ${last.name}` }).click()
    await admin.getByRole("alertdialog").waitFor()
    await check(admin, "providers, the confirmation of the last carrier")
    await admin.getByRole("button", { name: `Mwache ${last.name} akiwa amewashwa` }).click()
    await admin.getByRole("button", { name: "Washa console-sim" }).click()
    await admin.getByRole("button", { name: "Zima console-sim" }).waitFor()
    // webhook deliveries of an account's endpoint
    await visit("/webhooks")
    await admin.getByRole("combobox", { name: "Akaunti" }).selectOption(accountUid)
    await admin.getByRole("button", { name: /^Uwasilishaji wa http/ }).first().click()
    await admin.getByRole("region", { name: "Uwasilishaji" }).waitFor()
    await check(admin, "webhook deliveries")
    // SMPP: credentials created on the page (the password shown once), their row, binds and audit entries
    await visit("/smpp")
    const newSmpp = admin.getByRole("region", { name: "Vitambulisho vipya vya SMPP" })
    await newSmpp.getByRole("combobox", { name: "Akaunti" }).selectOption(accountUid)
    await newSmpp.getByRole("textbox", { name: "System ID" }).fill("sw-walk")
    await newSmpp.getByRole("button", { name: "Unda vitambulisho vya SMPP" }).click()
    await admin.getByRole("button", { name: "Nakili nenosiri" }).waitFor()
    await admin.getByRole("button", { name: "Badilisha nenosiri la sw-walk" }).waitFor()
    await admin.getByRole("region", { name: "Maingizo ya ukaguzi ya SMPP" }).getByText("smpp_account.create").waitFor()
    await check(admin, "smpp with new credentials")
    // their edit form, refused: no binds at all
    await admin.getByRole("button", { name: "Hariri sw-walk" }).click()
    const editSmpp = admin.getByRole("region", { name: "Hariri sw-walk" })
    await editSmpp.getByRole("textbox", { name: "Bind za juu" }).fill("0")
    await editSmpp.getByRole("button", { name: "Hifadhi mabadiliko" }).click()
    await editSmpp.getByRole("alert").waitFor()
    await check(admin, "smpp edit refused")
    // an account without a name
    await visit("/accounts")
    await admin.getByRole("button", { name: "Fungua akaunti" }).click()
    await admin.getByRole("alert").waitFor()
    await check(admin, "create an account without a name")
    // the pages without a session: a wrong password, a made-up invitation
    const anonymous = await (await newContext(browser)).newPage()
    await anonymous.goto(`${serve.url}/console/`)
    await anonymous.getByRole("combobox", { name: "Language" }).selectOption("sw")
    await anonymous.getByRole("textbox", { name: "Barua pepe" }).fill("nobody@tuma.example")
    await anonymous.getByLabel("Nenosiri").fill("not the password")
    await anonymous.getByRole("button", { name: "Ingia" }).click()
    await anonymous.getByRole("alert").waitFor()
    await check(anonymous, "sign-in with a wrong password")
    await anonymous.goto(`${serve.url}/console/accept-invitation?token=made-up`)
    await anonymous.getByRole("alert").waitFor()
    await check(anonymous, "a made-up invitation")
    await anonymous.context().close()
    // back to English with the switch
    await visit("/")
    await admin.getByRole("combobox", { name: "Lugha" }).selectOption("en")
    await admin.getByRole("heading", { name: "Overview", level: 1 }).waitFor()
    expect(found, "English on a Kiswahili console page").toEqual([])
  })
})
