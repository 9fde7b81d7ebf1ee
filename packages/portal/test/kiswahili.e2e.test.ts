/**
 * No English on a Kiswahili page (issue 26): in a real browser against `tuma serve --demo` with a little
 * traffic, the portal in Kiswahili — every page of the navigation, a message and a campaign, the pages
 * without a session, and the typical errors (an invalid number on Send, a bad row in a campaign, a
 * sender-ID request with a short sample, SMPP settings with a bad address, a wrong password) — at 1280×800 and at 390×844. The visible
 * text (and placeholders, labels for assistive technology, titles) is read word by word; a word that
 * is English (a word of the portal's English texts or of the server's message catalogue that no
 * Kiswahili text uses, or a common English word) fails the test, unless it is a name, a brand or a
 * technical token (allow-list) or sits in what the customer wrote (`translate="no"`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sw } from "../src/sw.js"
import { englishIn, visibleText } from "./english.js"
import type { Browser, Page, Serve } from "./harness.js"
import { ADMIN_TOKEN, hasChromium, http, launchBrowser, newContext, startServe } from "./harness.js"
import type { Traffic } from "./traffic.js"
import { makeTraffic, PORTAL_PAGES } from "./traffic.js"

/** English found on the pages walked so far, by page (all are reported at the end of a walk). */
const found: Array<string> = []

const expectKiswahili = async (page: Page, where: string) => {
  await page.waitForLoadState("networkidle")
  await page.waitForTimeout(150)
  expect(await page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe("sw")
  for (const w of englishIn(await visibleText(page))) found.push(`${where}: ${w}`)
  // TUMA_I18N_SHOTS=/dir keeps a screenshot of every state checked (to look at the wording)
  const dir = process.env.TUMA_I18N_SHOTS
  if (dir !== undefined) {
    const size = page.viewportSize()?.width ?? 0
    await page.screenshot({ path: `${dir}/${where.replace(/[^a-z0-9]+/gi, "-")}-${size}.png`, fullPage: true })
  }
}

/** What the pages threw and logged as errors (said when an expected alert never comes). */
const pageErrors: Array<string> = []
const watchErrors = (page: Page) => {
  page.on("pageerror", (e) => pageErrors.push(`pageerror: ${e.stack ?? e.message}`))
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(`console: ${m.text()}`)
  })
}

/** Waits for the page's alert (a screenshot in TUMA_I18N_SHOTS when it never comes). */
const alertOn = async (page: Page, what: string) => {
  try {
    // a loaded CI machine answers a refused action in seconds, not 30
    await page.getByRole("alert").first().waitFor({ timeout: 30_000 })
  } catch (e) {
    const dir = process.env.TUMA_I18N_SHOTS
    if (dir !== undefined) await page.screenshot({ path: `${dir}/no-alert-${what}.png`, fullPage: true })
    throw new Error(
      `no alert after ${what} at ${page.url()}; the page read: ${(await visibleText(page)).slice(0, 600)}; ` +
        `errors: ${pageErrors.join(" | ").slice(0, 2000)}`,
      {
        cause: e
      }
    )
  }
}

const visit = async (page: Page, url: string) => {
  await page.goto(url)
  await page.getByRole("heading", { level: 1 }).waitFor()
}

describe.skipIf(!hasChromium)("no English on a Kiswahili page", () => {
  let serve: Serve
  let browser: Browser
  let traffic: Traffic

  beforeAll(async () => {
    ;[serve, browser] = await Promise.all([startServe("pglite"), launchBrowser()])
    traffic = await makeTraffic(serve)
    // SMPP credentials granted by the operator, to open their settings form on the SMPP page
    const accounts = (await http(serve.url, "GET", "/admin/v1/accounts", { bearer: ADMIN_TOKEN })).body.data
    await http(serve.url, "POST", "/admin/v1/smpp-accounts", {
      bearer: ADMIN_TOKEN,
      body: { account_uid: accounts[0].uid, system_id: "sw-edit" }
    })
  })
  afterAll(async () => {
    traffic?.close()
    await browser?.close()
    await serve?.close()
  })

  it("the detector finds an English sentence and passes a Kiswahili one", () => {
    expect(englishIn("The recipient must be in international format")).not.toEqual([])
    expect(englishIn("Namba ya mpokeaji lazima iwe kwa muundo wa kimataifa, TUMA, Tanzania")).toEqual([])
  })

  for (const phone of [false, true]) {
    it(`every portal page and its typical errors read in Kiswahili (${phone ? "390×844" : "1280×800"})`, async () => {
      const context = await newContext(browser, { phone })
      const page = await context.newPage()
      watchErrors(page)
      if (!phone) await page.setViewportSize({ width: 1280, height: 800 })
      await page.goto(`${serve.url}/portal/`)
      await page.evaluate(() => (globalThis as any).localStorage.setItem("tuma.lang", "sw"))
      // a wrong password
      await page.reload()
      await page.getByRole("textbox", { name: "Barua pepe" }).fill(serve.login.email)
      await page.getByLabel("Nenosiri").fill("not the password")
      await page.getByRole("button", { name: "Ingia" }).click()
      await alertOn(page, "sign-in")
      await expectKiswahili(page, "sign-in with a wrong password")
      await page.getByLabel("Nenosiri").fill(serve.login.password)
      await page.getByRole("button", { name: "Ingia" }).click()
      await page.getByRole("heading", { name: "Dashibodi", level: 1 }).waitFor()
      const pages = [
        ...PORTAL_PAGES,
        ["message", `/messages/${traffic.messages[2]}`],
        ["campaign", `/campaigns/${traffic.campaign}`]
      ]
      for (const [name, path] of pages) {
        await visit(page, `${serve.url}/portal${path}`)
        await expectKiswahili(page, name)
      }
      // an invalid number on Send
      await visit(page, `${serve.url}/portal/send`)
      await page.getByRole("textbox", { name: "Mpokeaji" }).fill("+255 12")
      await page.getByRole("textbox", { name: "Ujumbe" }).fill("Habari “rafiki” — karibu…")
      await page.getByRole("button", { name: "Tuma", exact: true }).click()
      await alertOn(page, "send")
      await expectKiswahili(page, "Send with an invalid number")
      // a bad row in a campaign
      await visit(page, `${serve.url}/portal/campaigns`)
      await page.getByRole("textbox", { name: "Jina la kampeni" }).fill("Novemba")
      await page.getByRole("textbox", { name: "Wapokeaji" }).fill("+255712000010\n+255 12\n+255712000011")
      await page.getByRole("textbox", { name: "Ujumbe" }).fill("Habari, karibu dukani")
      await page.getByRole("button", { name: "Onyesha bei" }).click()
      await page.getByRole("alert").or(page.getByRole("table", { name: "Wapokeaji waliokataliwa" })).first().waitFor()
      await expectKiswahili(page, "a campaign with a bad row")
      // a sender-ID request with a sample that is too short
      await visit(page, `${serve.url}/portal/sender-ids`)
      await page.getByRole("textbox", { name: "Kitambulisho cha mtumaji" }).fill("DUKA")
      await page.getByRole("textbox", { name: "Ujumbe wa mfano" }).fill("Habari")
      await page.getByRole("textbox", { name: "Ujumbe wa mfano" }).evaluate((e: any) => e.removeAttribute("required"))
      await page.getByRole("button", { name: "Omba kitambulisho" }).click()
      await alertOn(page, "sender-id")
      await expectKiswahili(page, "a sender-ID request with a short sample")
      // the settings of SMPP credentials with an address that is not one
      await visit(page, `${serve.url}/portal/smpp`)
      await page.getByRole("button", { name: "Hariri sw-edit" }).click()
      const smppForm = page.getByRole("form", { name: "Mipangilio ya sw-edit" })
      await smppForm.getByRole("textbox", { name: "Anwani za IP zinazoruhusiwa" }).fill("10.0.0.300")
      await smppForm.getByRole("button", { name: "Hifadhi mabadiliko" }).click()
      await alertOn(page, "smpp-edit")
      await expectKiswahili(page, "SMPP settings with a bad address")
      // the pages without a session
      await context.clearCookies()
      for (const path of ["/accept-invitation?token=made-up", "/reset-password?token=made-up"]) {
        await visit(page, `${serve.url}/portal${path}`)
        await expectKiswahili(page, path)
      }
      await context.close()
      expect(found.splice(0), "English on a Kiswahili page").toEqual([])
      // a page that failed to render shows its message in Kiswahili too, but is a failure of the walk
      expect(pageErrors.splice(0).filter((e) => e.startsWith("pageerror") || e.includes("tuma: a page failed")))
        .toEqual([])
    })
  }

  it("a page with a string missing from sw.ts fails the check", () => {
    // what the check sees when an entry is missing: the English of the Send page's hint
    const hint = "e.g. 0712 345 678, or +255712345678 for another country"
    expect(sw[hint]).toBeDefined()
    expect(englishIn(hint)).not.toEqual([])
    expect(englishIn(sw[hint] ?? "")).toEqual([])
  })
})
