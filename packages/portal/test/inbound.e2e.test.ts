/**
 * Two-way SMS in a real browser (chromium through playwright-core) against one `tuma serve --demo`:
 *
 * - the portal Inbox, on a desktop and on a phone: the demo number writes to the answering test
 *   recipient, whose reply arrives; the conversation shows both directions; opening it brings the
 *   unread count to zero; the customer types a reply, sees its preview (encoding, cost), sends it,
 *   and the conversation shows it (and the handset's next answer);
 * - the console's Inbound numbers page: assign a keyword with aliases on a short code, a conflict
 *   said in words (not the API's text), a bad number in words, change, remove (confirmed); the
 *   unrouted messages (a reply to an alphanumeric sender: no assignment) with from, to, text and
 *   time; the page in Kiswahili (no English word) and at 390×844 (no horizontal scroll).
 *
 * - the portal's "Send test event": the test listed under its endpoint's deliveries, en and sw.
 *
 * Writes docs/screenshots/console-inbound{,-sw}{,-phone}.png, inbox-conversation{,-phone}.png and
 * webhooks-test-event-{en,sw}-phone.png.
 */
import { mkdirSync } from "node:fs"
import { createServer } from "node:http"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { englishIn, visibleText } from "./english.js"
import type { Browser, Page, Serve } from "./harness.js"
import {
  ADMIN_TOKEN,
  drivers,
  enrolConsoleOperator,
  hasChromium,
  http,
  launchBrowser,
  newContext,
  PHONE,
  signIn,
  startServe
} from "./harness.js"

const SHOTS = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url))
const DEMO_NUMBER = "+255700123456"
const ANSWERING = "+255700000500"

/** The page is no wider than its viewport (nothing scrolls sideways). */
const fitsWidth = async (page: Page, what: string) => {
  const { scroll, inner } = await page.evaluate(() => {
    const { document, innerWidth } = globalThis as any
    return { scroll: document.documentElement.scrollWidth as number, inner: innerWidth as number }
  })
  expect(scroll, `${what}: ${scroll} px wide at ${inner} px`).toBeLessThanOrEqual(inner)
}

/** Reloads `page` until `ready` answers true (a message the simulated handset sends a second later). */
const reloadUntil = async (page: Page, ready: () => Promise<boolean>, what: string) => {
  for (let i = 0; i < 60; i++) {
    await page.waitForLoadState("networkidle") // the page's data loaded
    if (await ready()) return
    await page.waitForTimeout(500)
    await page.reload()
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe.skipIf(!hasChromium).each(drivers)("two-way SMS in chromium (%s)", (driver) => {
  let serve: Serve
  let browser: Browser

  beforeAll(async () => {
    ;[serve, browser] = await Promise.all([startServe(driver), launchBrowser()])
    mkdirSync(SHOTS, { recursive: true })
  })
  afterAll(async () => {
    await browser?.close()
    await serve?.close()
  })

  for (const device of ["desktop", "phone"] as const) {
    it(`a reply arrives in the Inbox, is read, answered with a preview, and the conversation shows both ways (${device})`, async () => {
      const page = await (await newContext(browser, { phone: device === "phone" })).newPage()
      await signIn(page, serve.url, serve.login.email, serve.login.password)
      const asked = `Are you coming today? (${device})`
      const sent = await http(serve.url, "POST", "/v1/sms/messages", {
        bearer: serve.liveKey,
        body: { recipient: ANSWERING, sender_id: DEMO_NUMBER, body: asked }
      })
      expect(sent.status).toBe(202)
      const answer = `Asante! Got your message: ${asked}`

      await page.goto(`${serve.url}/portal/inbox`)
      const conversation = page.getByRole("listitem").filter({ hasText: answer })
      await reloadUntil(page, () => conversation.getByText(/unread/).isVisible(), "the handset's answer, unread")
      await page.getByRole("status").getByText(/^Unread messages: [1-9]/).waitFor()
      await conversation.getByRole("link", { name: `${ANSWERING} → ${DEMO_NUMBER}` }).click()

      await page.getByRole("heading", { level: 1, name: `Conversation with ${ANSWERING}` }).waitFor()
      const thread = page.getByRole("list", { name: "Messages" })
      await thread.getByRole("listitem").filter({ hasText: answer }).getByText(/^Received/).waitFor()
      await thread.getByRole("listitem").filter({ hasText: asked }).filter({ hasNotText: "Asante" })
        .getByText(/^Sent/).waitFor()
      // opened: nothing unread any more, in the list and in the navigation
      await page.getByRole("link", { name: "Back to the inbox" }).click()
      await page.getByRole("status").getByText("Unread messages: 0").waitFor()
      const nav = page.getByRole("navigation", { name: "Main" })
      if (device === "phone") await page.getByRole("button", { name: "Menu" }).click()
      await nav.getByRole("link", { name: "Inbox", exact: true }).waitFor()
      if (device === "phone") await page.getByRole("button", { name: "Menu" }).click()
      expect(await conversation.getByText(/unread/).count()).toBe(0)

      // the reply, with its preview, from the number the message came to
      await conversation.getByRole("link", { name: `${ANSWERING} → ${DEMO_NUMBER}` }).click()
      await page.getByText(`Reply from ${DEMO_NUMBER}`).waitFor()
      const reply = `Yes, see you at 4 — karibu! (${device})`
      const sentAs = reply.replace("—", "-") // GSM-7 has no em dash: the preview says what is sent
      await page.getByRole("textbox", { name: "Reply" }).fill(reply)
      const preview = page.getByRole("region", { name: "Encoding preview" })
      await preview.getByText("Segments").waitFor()
      await page.getByText(/^Sent as:/).filter({ hasText: sentAs }).waitFor()
      await page.getByLabel("Cost").first().waitFor()
      if (device === "phone") await fitsWidth(page, "a conversation with a reply typed")
      await page.screenshot({
        path: `${SHOTS}inbox-conversation${device === "phone" ? "-phone" : ""}.png`,
        fullPage: true
      })
      await page.getByRole("button", { name: "Send reply" }).click()
      await thread.getByRole("listitem").filter({ hasText: sentAs }).filter({ hasNotText: "Asante" })
        .getByText(/^Sent/).waitFor()
      expect(await page.getByRole("textbox", { name: "Reply" }).inputValue()).toBe("")
      // the handset answers the reply too: both directions, newest first
      await reloadUntil(
        page,
        () => thread.getByRole("listitem").filter({ hasText: `Got your message: ${sentAs}` }).isVisible(),
        "the answer to the reply"
      )
      const texts = await thread.getByRole("listitem").allTextContents()
      const at = (s: string) => texts.findIndex((x) => x.includes(s))
      const mine = texts.findIndex((x) => x.includes(sentAs) && !x.includes("Asante"))
      expect(at(`Got your message: ${sentAs}`)).toBeLessThan(mine)
      expect(mine).toBeLessThan(at(answer))
      await page.context().close()
    })
  }

  it("the portal's test event is listed under its endpoint's deliveries, in English and Kiswahili (phone)", async () => {
    const received: Array<string> = []
    const receiver = createServer((req, res) => {
      let body = ""
      req.on("data", (c: Buffer) => void (body += c.toString()))
      req.on("end", () => {
        received.push(body)
        res.writeHead(204).end()
      })
    })
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()))
    const address = receiver.address()
    const url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hook`
    try {
      const page = await (await newContext(browser, { phone: true })).newPage()
      await signIn(page, serve.url, serve.login.email, serve.login.password)
      await page.goto(`${serve.url}/portal/webhooks`)
      await page.getByRole("textbox", { name: "URL" }).fill(url)
      await page.getByRole("button", { name: "Create webhook" }).click()
      const article = page.getByRole("article", { name: url })
      await article.getByRole("button", { name: "Send test event" }).click()
      await article.getByRole("status").getByText(/Test event delivered: HTTP 204/).waitFor()
      expect(received.some((b) => b.includes("webhook.test"))).toBe(true)
      const row = article.getByRole("table", { name: "Recent deliveries" }).getByRole("row").nth(1)
      await row.getByRole("cell", { name: "Test event" }).waitFor()
      await row.getByText("Succeeded").first().waitFor()
      await fitsWidth(page, "webhooks with a test event")
      await article.screenshot({ path: `${SHOTS}webhooks-test-event-en-phone.png` })
      await page.getByRole("combobox", { name: "Language" }).selectOption("sw")
      await article.getByRole("table", { name: "Uwasilishaji wa hivi karibuni" }).getByRole("row").nth(1)
        .getByRole("cell", { name: "Tukio la majaribio" }).waitFor()
      expect(englishIn(await visibleText(page)), "English on the Kiswahili Webhooks page").toEqual([])
      await article.screenshot({ path: `${SHOTS}webhooks-test-event-sw-phone.png` })
      await page.context().close()
    } finally {
      receiver.close()
    }
  })

  it("console: numbers assigned, a conflict and a bad number in words, changed, removed; unrouted messages; sw and phone", async () => {
    const page = await (await newContext(browser)).newPage()
    await enrolConsoleOperator(page, serve)
    // a reply to an alphanumeric sender ID reaches no assigned address: unrouted, kept
    const sent = await http(serve.url, "POST", "/v1/sms/messages", {
      bearer: serve.liveKey,
      body: { recipient: ANSWERING, sender_id: "TUMA", body: "Habari za leo" }
    })
    expect(sent.status).toBe(202)
    const numbers = (await http(serve.url, "GET", "/admin/v1/inbound-numbers", { bearer: ADMIN_TOKEN })).body.data
    const demo = { uid: numbers.find((n: any) => n.number === DEMO_NUMBER).account_uid as string }

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Inbound numbers" }).click()
    await page.getByRole("heading", { level: 1, name: "Inbound numbers" }).waitFor()
    const assigned = page.getByRole("table", { name: "Assigned numbers" })
    await assigned.getByRole("row").filter({ hasText: DEMO_NUMBER }).getByText("the whole number").waitFor()

    const form = page.getByRole("region", { name: "Assign a number" })
    const fill = async (number: string, keyword: string, aliases: string) => {
      await form.getByRole("textbox", { name: "Number or short code" }).fill(number)
      await form.getByRole("textbox", { name: "Keyword (optional)" }).fill(keyword)
      await form.getByRole("textbox", { name: "Aliases" }).fill(aliases)
      await form.getByRole("button", { name: "Assign", exact: true }).click()
    }
    await fill("15500", "vote", "kura")
    await form.getByRole("alert").getByText("Choose an account.").waitFor()
    await form.getByRole("combobox", { name: "Account" }).selectOption(demo.uid)
    await form.getByRole("button", { name: "Assign", exact: true }).click()
    await page.getByRole("status").getByText("15500 assigned.").waitFor()
    const row = assigned.getByRole("row").filter({ hasText: "VOTE" })
    await row.getByText("KURA").waitFor()
    // the alias of another assignment on the same short code: refused (409), said in words
    await form.getByRole("combobox", { name: "Account" }).selectOption(demo.uid)
    await fill("15500", "kura", "")
    const conflict = form.getByRole("alert")
    await conflict.getByText(/This number is already taken/).waitFor()
    expect(await conflict.textContent()).not.toMatch(/The address|inbound_number|409/)
    // the whole number of another account: refused too; a bad number: said in words
    await fill(DEMO_NUMBER, "", "")
    await conflict.getByText(/This number is already taken/).waitFor()
    await fill("12", "", "")
    await conflict.getByText(/international format/).waitFor()
    await page.screenshot({ path: `${SHOTS}console-inbound.png`, fullPage: true })

    // change: a second alias
    await row.getByRole("button", { name: "Change 15500" }).click()
    const change = page.getByRole("region", { name: "Change 15500" })
    await change.getByRole("textbox", { name: "Aliases" }).fill("kura, chagua")
    await change.getByRole("button", { name: "Save changes" }).click()
    await page.getByRole("status").getByText("15500 changed.").waitFor()
    await row.getByText("KURA, CHAGUA").waitFor()

    // the unrouted message, with enough to act on it
    const unrouted = page.getByRole("region", { name: "Unrouted messages" })
    await reloadUntil(
      page,
      () => unrouted.getByRole("row").filter({ hasText: "Got your message: Habari za leo" }).isVisible(),
      "the unrouted reply"
    )
    const message = unrouted.getByRole("row").filter({ hasText: "Habari za leo" })
    await message.getByText(ANSWERING).waitFor()
    await message.getByText("TUMA", { exact: true }).waitFor()
    expect(await message.locator("time").count()).toBe(1)

    // in Kiswahili, at a phone's size: no English, nothing wider than the screen
    await page.setViewportSize(PHONE)
    await fitsWidth(page, "console inbound (en)")
    await page.screenshot({ path: `${SHOTS}console-inbound-phone.png`, fullPage: true })
    await page.getByRole("combobox", { name: "Language" }).selectOption("sw")
    await page.getByRole("heading", { level: 1, name: "Namba za kupokea" }).waitFor()
    const kabidhi = page.getByRole("region", { name: "Kabidhi namba" })
    await kabidhi.getByRole("combobox", { name: "Akaunti" }).selectOption(demo.uid)
    await kabidhi.getByRole("textbox", { name: "Namba au namba fupi" }).fill("15500")
    await kabidhi.getByRole("textbox", { name: "Neno kuu (si lazima)" }).fill("chagua")
    await kabidhi.getByRole("button", { name: "Kabidhi", exact: true }).click()
    await kabidhi.getByRole("alert").getByText(/Namba hii tayari imechukuliwa/).waitFor()
    expect(englishIn(await visibleText(page)), "English on the Kiswahili Inbound page").toEqual([])
    await fitsWidth(page, "console inbound (sw)")
    await page.screenshot({ path: `${SHOTS}console-inbound-sw-phone.png`, fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.screenshot({ path: `${SHOTS}console-inbound-sw.png`, fullPage: true })

    // remove, confirmed: its row goes
    const zilizokabidhiwa = page.getByRole("table", { name: "Namba zilizokabidhiwa" })
    page.once("dialog", (d) => void d.accept())
    await zilizokabidhiwa.getByRole("row").filter({ hasText: "VOTE" }).getByRole("button", { name: "Ondoa 15500" })
      .click()
    await page.getByRole("status").getByText("15500 VOTE imeondolewa.").waitFor()
    await zilizokabidhiwa.getByRole("row").filter({ hasText: "VOTE" }).waitFor({ state: "detached" })
    const left = (await http(serve.url, "GET", "/admin/v1/inbound-numbers", { bearer: ADMIN_TOKEN })).body.data
    expect(left.map((n: any) => n.number)).toEqual([DEMO_NUMBER])

    // the portal's test event (test above) among its endpoint's deliveries, inspected: not redeliverable
    await page.getByRole("combobox", { name: "Lugha" }).selectOption("en")
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhook deliveries" }).click()
    await page.getByRole("combobox", { name: "Account" }).selectOption(demo.uid)
    await page.getByRole("button", { name: /^Deliveries of http:\/\/127\.0\.0\.1/ }).first().click()
    const test = page.getByRole("region", { name: "Deliveries" }).getByRole("row").filter({ hasText: "Test event" })
    await test.getByRole("button", { name: "Inspect" }).click()
    const delivery = page.getByRole("region", { name: "Delivery" })
    await delivery.getByText(/"event":"webhook.test"/).waitFor()
    expect(await delivery.getByRole("button", { name: "Redeliver" }).count()).toBe(0)
    await page.context().close()
  })
})
