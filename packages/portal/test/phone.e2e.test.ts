/**
 * The portal and the console on a phone (390×844, touch; also 360 and 414 px wide) in a real
 * browser (Debian's chromium through playwright-core) against a real `tuma serve --demo` with a
 * little traffic and no mail server: every page, signed in, in English and Kiswahili (the console's
 * Kiswahili is walked by console.e2e.test.ts), fits the screen's width (no sideways scroll: wide tables scroll in their own box or stack their
 * rows) with controls at least 44 px tall; the menu button opens the navigation; exactly one link
 * is the current page's. At 1280×800 the sidebar shows as before. On the phone too: the console's
 * Outbox with an invitation that was not sent (its link opens the invitation), and the portal's
 * two-factor screens (enrolment with the QR code and a code, sign-in with a code, a recovery code
 * once). One server (PGlite): the layout does not depend on the database. Phone screenshots of the console go to
 * docs/screenshots/console-*-phone.png (the portal's: `pnpm screenshots`).
 */
import { mkdirSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import { Secret, TOTP } from "otpauth"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page, Serve } from "./harness.js"
import { ADMIN_TOKEN, hasChromium, http, launchBrowser, newContext, PHONE, signIn, startServe } from "./harness.js"
import type { Traffic } from "./traffic.js"
import { makeTraffic, PORTAL_PAGES } from "./traffic.js"

const SHOTS = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url))
// the `smpp` npm package (node-smpp, written by others) as the customer's ESME; a dependency of @tuma/http
const smpp = createRequire(new URL("../../http/package.json", import.meta.url))("smpp")

/** An ESME bound as a transceiver to the server's SMPP port; `unbound` resolves when Tuma unbinds it. */
const bindEsme = (serve: Serve, systemId: string, password: string) =>
  new Promise<{ readonly unbound: Promise<void>; readonly close: () => void }>((resolve, reject) => {
    const port = Number(/smpp listening on \S+:(\d+)/.exec(serve.output())![1])
    const session = smpp.connect({ url: `smpp://127.0.0.1:${port}` }, () => {
      session.bind_transceiver(
        { system_id: systemId, password },
        (pdu: { command_status: number }) =>
          pdu.command_status === 0
            ? resolve({ unbound, close: () => session.close() })
            : reject(new Error("bind refused"))
      )
    })
    const unbound = new Promise<void>((r) => session.on("unbind", () => r()))
    session.on("error", () => undefined)
  })
const WIDTHS = [360, PHONE.width, 414]

/** What sticks out of the screen's width, and the visible controls under 44 px tall. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const { document, innerWidth: width } = globalThis as any
    const describe = (e: any) =>
      `${e.tagName.toLowerCase()}${e.className === "" ? "" : `.${String(e.className).replace(/ /g, ".")}`} "${
        (e.textContent ?? "").trim().slice(0, 30)
      }"`
    const inScroller = (e: any) => e.closest(".table-wrap") !== null
    const wide = [...document.querySelectorAll("body *") as Array<any>]
      .filter((e) => e.getBoundingClientRect().right > width + 0.5 && !inScroller(e))
      .slice(0, 3)
      .map(describe)
    const small = [...document.querySelectorAll("button, select, .button, input") as Array<any>]
      .filter((e) => !["checkbox", "radio", "hidden"].includes(e.type ?? ""))
      .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().height < 43.5)
      .slice(0, 3)
      .map(describe)
    return { scrollWidth: document.documentElement.scrollWidth, width, wide, small }
  })

/** The page fits the phone at every width of WIDTHS: no sideways scroll, touch-sized controls. */
const expectFits = async (page: Page, what: string) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: PHONE.height })
    const m = await measure(page)
    // (a phone zooms out to show a page wider than the screen: innerWidth is then more than `width`)
    expect(m.scrollWidth, `${what} at ${width} px is ${m.scrollWidth} px wide: ${m.wide.join(", ")}`)
      .toBeLessThanOrEqual(width)
    expect(m.width).toBe(width)
    expect(m.small, `${what} at ${width} px: controls under 44 px`).toEqual([])
  }
  await page.setViewportSize(PHONE)
}

/** Opens `path` (under /portal or /console) and waits for its heading and its data. */
const visit = async (page: Page, url: string) => {
  await page.goto(url)
  await page.getByRole("heading", { level: 1 }).waitFor()
  await page.waitForLoadState("networkidle")
  await page.waitForTimeout(200)
}

/** The links marked as the current page's, by name. */
const currentLinks = (page: Page) =>
  page.locator("nav a[aria-current=\"page\"]").evaluateAll((links) => links.map((a) => a.textContent))

describe.skipIf(!hasChromium)("phone layout in chromium", () => {
  let serve: Serve
  let browser: Browser
  let traffic: Traffic
  let phone: Page
  /** The demo admin's TOTP secret (enrolled by the console pages' test). */
  let consoleSecret = ""

  /** Signs the demo admin in to the console (enrolled: with the code of the next time step, unused). */
  const consoleSignIn = async (page: Page) => {
    const [, email, password] = /demo console login: (\S+) (\S+)/.exec(serve.output())!
    await page.goto(`${serve.url}/console/`)
    await page.getByRole("textbox", { name: "Email" }).fill(email)
    await page.getByLabel("Password").fill(password)
    await page.getByRole("textbox", { name: "Authentication code" }).fill(
      new TOTP({ secret: Secret.fromBase32(consoleSecret) }).generate({ timestamp: Date.now() + 30_000 })
    )
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor()
  }

  beforeAll(async () => {
    // no mail server: invitations go to the console's Outbox (the Outbox test reads them there)
    ;[serve, browser] = await Promise.all([
      startServe("pglite", { TUMA_SMTP_URL: "", TUMA_SMPP_PORT: "0" }),
      launchBrowser()
    ])
    traffic = await makeTraffic(serve)
    phone = await (await newContext(browser, { phone: true })).newPage()
    await signIn(phone, serve.url, serve.login.email, serve.login.password)
  })
  afterAll(async () => {
    traffic?.close()
    await browser?.close()
    await serve?.close()
  })

  it("every portal page fits a phone's width, in English and in Kiswahili", async () => {
    const pages = [
      ...PORTAL_PAGES,
      ["message", `/messages/${traffic.messages[2]}`],
      ["campaign", `/campaigns/${traffic.campaign}`]
    ]
    for (const lang of ["en", "sw"] as const) {
      await phone.evaluate((l) => (globalThis as any).localStorage.setItem("tuma.lang", l), lang)
      for (const [name, path] of pages) {
        await visit(phone, `${serve.url}/portal${path}`)
        expect(await phone.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe(lang)
        await expectFits(phone, `${name} (${lang})`)
      }
      // the language stays on the top bar, the menu closed
      await phone.getByRole("combobox", { name: lang === "en" ? "Language" : "Lugha" }).waitFor()
    }
    await phone.evaluate(() => (globalThis as any).localStorage.setItem("tuma.lang", "en"))
    // the pages without a session
    const anonymous = await (await newContext(browser, { phone: true })).newPage()
    for (const path of ["/", "/accept-invitation?token=made-up", "/reset-password?token=made-up"]) {
      await visit(anonymous, `${serve.url}/portal${path}`)
      await expectFits(anonymous, path)
    }
    await anonymous.context().close()
  })

  it("the menu button opens the navigation; a link navigates and closes it; so does Escape", async () => {
    for (const [lang, menu, messages, main] of [["en", "Menu", "Messages", "Main"], ["sw", "Menyu", "Jumbe", "Kuu"]]) {
      await phone.evaluate((l) => (globalThis as any).localStorage.setItem("tuma.lang", l), lang)
      await visit(phone, `${serve.url}/portal/`)
      const button = phone.getByRole("button", { name: menu })
      const nav = phone.locator(`nav[aria-label="${main}"]`)
      expect(await button.getAttribute("aria-expanded")).toBe("false")
      expect(await button.getAttribute("aria-controls")).toBe(await nav.getAttribute("id"))
      expect(await nav.isVisible()).toBe(false)
      await button.click()
      expect(await button.getAttribute("aria-expanded")).toBe("true")
      await phone.getByRole("navigation", { name: main }).getByRole("link", { name: messages, exact: true }).click()
      await phone.getByRole("heading", { level: 1, name: messages }).waitFor()
      expect(await nav.isVisible()).toBe(false)
      expect(await button.getAttribute("aria-expanded")).toBe("false")
      // the keyboard: the button takes focus, Enter opens, Escape closes and gives the focus back
      await button.focus()
      await phone.keyboard.press("Enter")
      expect(await nav.isVisible()).toBe(true)
      // the account's controls are in the open menu
      await phone.getByRole("button", { name: lang === "en" ? "Sign out" : "Toka", exact: true }).waitFor()
      await expectFits(phone, `the open menu (${lang})`)
      await phone.keyboard.press("Escape")
      expect(await nav.isVisible()).toBe(false)
      expect(await button.evaluate((b) => b === (globalThis as any).document.activeElement)).toBe(true)
    }
    await phone.evaluate(() => (globalThis as any).localStorage.setItem("tuma.lang", "en"))
  })

  it("on /portal/sender-ids only 'Sender IDs' is the current page (not 'Send SMS'), on a phone and a desktop", async () => {
    await visit(phone, `${serve.url}/portal/sender-ids`)
    await phone.getByRole("button", { name: "Menu" }).click()
    expect(await currentLinks(phone)).toEqual(["Sender IDs"])
    expect(await phone.locator("[aria-current=\"page\"]").count()).toBe(1)
    await visit(phone, `${serve.url}/portal/send`)
    expect(await currentLinks(phone)).toEqual(["Send SMS"])
    await visit(phone, `${serve.url}/portal/messages/${traffic.messages[0]}`)
    expect(await currentLinks(phone)).toEqual(["Messages"])
  })

  it("at 1280×800 the sidebar shows beside the page and there is no menu button", async () => {
    const desktop = await (await newContext(browser)).newPage()
    await desktop.setViewportSize({ width: 1280, height: 800 })
    await signIn(desktop, serve.url, serve.login.email, serve.login.password)
    await visit(desktop, `${serve.url}/portal/sender-ids`)
    const nav = desktop.getByRole("navigation", { name: "Main" })
    const box = (await nav.boundingBox())!
    expect(box.width).toBe(200)
    expect(box.x).toBe(0)
    const main = (await desktop.getByRole("main").boundingBox())!
    expect(main.x).toBe(200)
    for (const name of ["Dashboard", "Send SMS", "Sender IDs", "Team"]) {
      expect(await nav.getByRole("link", { name, exact: true }).isVisible()).toBe(true)
    }
    expect(await desktop.getByRole("button", { name: "Menu" }).isVisible()).toBe(false)
    expect(await desktop.getByRole("button", { name: "Sign out", exact: true }).isVisible()).toBe(true)
    expect(await currentLinks(desktop)).toEqual(["Sender IDs"])
    await desktop.context().close()
  })

  it("the SMPP page: an owner creates credentials (password once), a real ESME binds, it is listed and unbound (en, sw; desktop, phone)", async () => {
    const desktop = await (await newContext(browser)).newPage()
    await signIn(desktop, serve.url, serve.login.email, serve.login.password)
    await visit(desktop, `${serve.url}/portal/smpp`)
    await desktop.getByText("How to connect").waitFor()
    await desktop.getByRole("textbox", { name: "System ID" }).fill("acme-ui")
    await desktop.getByRole("button", { name: "Create SMPP credentials" }).click()
    const password = await desktop.getByRole("textbox", { name: "SMPP password of acme-ui" }).inputValue()
    expect(password).toMatch(/^[A-Za-z0-9]{8}$/)
    await desktop.getByRole("button", { name: "Copy password" }).waitFor()
    const esme = await bindEsme(serve, "acme-ui", password)
    const unbind = desktop.getByRole("button", { name: /^Unbind acme-ui from / })
    // the list shows binds as of their process's last heartbeat (5 s)
    for (let i = 0; i < 40 && !(await unbind.isVisible()); i++) {
      await desktop.getByRole("button", { name: "Refresh" }).click()
      await desktop.waitForTimeout(250)
    }
    await desktop.screenshot({ path: `${SHOTS}portal-smpp.png`, fullPage: true })
    await desktop.evaluate(() => (globalThis as any).localStorage.setItem("tuma.lang", "sw"))
    await visit(desktop, `${serve.url}/portal/smpp`)
    await desktop.getByRole("heading", { level: 2, name: "Jinsi ya kuunganisha" }).waitFor()
    await desktop.screenshot({ path: `${SHOTS}portal-smpp-sw.png`, fullPage: true })
    await phone.evaluate(() => (globalThis as any).localStorage.setItem("tuma.lang", "sw"))
    await visit(phone, `${serve.url}/portal/smpp`)
    await expectFits(phone, "smpp with a bind (sw)")
    await phone.screenshot({ path: `${SHOTS}portal-smpp-phone-sw.png`, fullPage: true })
    await phone.evaluate(() => (globalThis as any).localStorage.setItem("tuma.lang", "en"))
    await desktop.evaluate(() => (globalThis as any).localStorage.setItem("tuma.lang", "en"))
    await visit(desktop, `${serve.url}/portal/smpp`)
    // a dismissed confirmation changes nothing; an accepted one unbinds
    desktop.once("dialog", (d) => void d.dismiss())
    await unbind.click()
    await desktop.waitForTimeout(300)
    desktop.once("dialog", (d) => void d.accept())
    await unbind.click()
    await esme.unbound
    esme.close()
    await desktop.getByText("Nothing is bound now.").waitFor({ timeout: 15_000 }).catch(async () => {
      await desktop.getByRole("button", { name: "Refresh" }).click()
      await desktop.getByText("Nothing is bound now.").waitFor()
    })
    await desktop.context().close()
  })

  it("every console page fits a phone's width; its menu opens the navigation", async () => {
    const page = await (await newContext(browser, { phone: true })).newPage()
    const [, email, password] = /demo console login: (\S+) (\S+)/.exec(serve.output())!
    await page.goto(`${serve.url}/console/`)
    await expectFits(page, "console sign-in")
    await page.getByRole("textbox", { name: "Email" }).fill(email)
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: "Sign in" }).click()
    // the admin's first sign-in: TOTP enrolment, then the recovery codes
    const secret = await page.getByRole("textbox", { name: "Secret" }).inputValue()
    consoleSecret = secret
    await expectFits(page, "console enrolment")
    await page.getByRole("textbox", { name: "Authentication code" }).fill(
      new TOTP({ secret: Secret.fromBase32(secret) }).generate()
    )
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("button", { name: "I have saved them" }).waitFor()
    await expectFits(page, "console recovery codes")
    await page.getByRole("button", { name: "I have saved them" }).click()
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor()

    const accounts = (await http(serve.url, "GET", "/admin/v1/accounts", { bearer: ADMIN_TOKEN })).body.data
    mkdirSync(SHOTS, { recursive: true })
    for (
      const [file, path] of [
        ["overview", "/"],
        ["accounts", "/accounts"],
        ["account", `/accounts/${accounts[0].uid}`],
        ["credit", "/credit"],
        ["sender-id-review", "/sender-ids"],
        ["routes-and-markets", "/markets"],
        ["providers", "/providers"],
        ["spam-rules-and-opt-outs", "/spam"],
        ["webhook-deliveries", "/webhooks"],
        ["audit-log", "/audit-log"],
        ["operators", "/operators"],
        ["outbox", "/outbox"],
        ["smpp", "/smpp"],
        ["inbound", "/inbound"]
      ]
    ) {
      await visit(page, `${serve.url}/console${path}`)
      if (file === "credit") await page.getByRole("combobox", { name: "Account" }).selectOption(accounts[0].uid)
      await page.waitForTimeout(200)
      await expectFits(page, `console ${path}`)
      await page.screenshot({ path: `${SHOTS}console-${file}-phone.png`, fullPage: true })
    }

    // SMPP: credentials created by the admin API, a real ESME bound, unbound from the console (confirmed)
    const created = await http(serve.url, "POST", "/admin/v1/smpp-accounts", {
      bearer: ADMIN_TOKEN,
      body: { account_uid: accounts[0].uid, system_id: "console-ui" }
    })
    const esme = await bindEsme(serve, "console-ui", created.body.data.password)
    await visit(page, `${serve.url}/console/smpp`)
    const unbind = page.getByRole("button", { name: /^Unbind console-ui from / })
    for (let i = 0; i < 40 && !(await unbind.isVisible()); i++) {
      await page.getByRole("button", { name: "Refresh" }).click()
      await page.waitForTimeout(250)
    }
    await expectFits(page, "console /smpp with a bind")
    await page.screenshot({ path: `${SHOTS}console-smpp-phone.png`, fullPage: true })
    page.once("dialog", (d) => void d.accept())
    await unbind.click()
    await esme.unbound
    esme.close()
    await page.getByRole("cell", { name: "smpp_bind.unbind" }).first().waitFor()

    await visit(page, `${serve.url}/console/sender-ids`)
    const button = page.getByRole("button", { name: "Menu" })
    await button.click()
    expect(await currentLinks(page)).toEqual(["Sender ID review"])
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Accounts", exact: true }).click()
    await page.getByRole("heading", { level: 1, name: "Accounts" }).waitFor()
    expect(await button.getAttribute("aria-expanded")).toBe("false")
    await page.context().close()
  })

  it("the console's Outbox shows a mail that was not sent, with its link, which works (no mail server)", async () => {
    const page = await (await newContext(browser, { phone: true })).newPage()
    await consoleSignIn(page)
    const email = `outbox-${Date.now().toString(36)}@duka.example`
    const created = await http(serve.url, "POST", "/admin/v1/accounts", {
      bearer: ADMIN_TOKEN,
      body: { name: "Duka la Mama", email, country: "TZ" }
    })
    expect(created.status).toBe(201)
    expect(created.body.data.owner_invitation.mail).toBe("outbox")
    await visit(page, `${serve.url}/console/outbox`)
    await page.getByRole("heading", { level: 1, name: "Outbox" }).waitFor()
    const mail = page.getByRole("region", { name: new RegExp(`— ${email.replace(/[.]/g, "\\.")}$`) })
    await mail.waitFor()
    const link = mail.getByRole("link", { name: /^Open link: .*\/portal\/accept-invitation\?token=/ })
    expect(await link.count()).toBe(1)
    await expectFits(page, "console outbox with a mail")
    await link.click()
    await page.getByRole("heading", { level: 1, name: "Accept the invitation" }).waitFor()
    await page.getByText("Duka la Mama", { exact: false }).first().waitFor()
    await page.context().close()
  })

  it("two-factor sign-in in the portal on a phone: enrol with the QR code and a code, sign in with a code, a recovery code works once", async () => {
    const page = await (await newContext(browser, { phone: true })).newPage()
    await signIn(page, serve.url, serve.login.email, serve.login.password)
    await visit(page, `${serve.url}/portal/profile`)
    const card = page.getByRole("region", { name: "Two-factor sign-in" })
    await card.getByRole("button", { name: "Set up two-factor sign-in" }).click()
    const qr = card.getByRole("img", { name: "QR code for your authenticator app" })
    await qr.waitFor()
    expect((await qr.boundingBox())!.width).toBeGreaterThan(100)
    const secret = await card.getByRole("textbox", { name: "Key to type if you cannot scan" }).inputValue()
    const totp = new TOTP({ secret: Secret.fromBase32(secret) })
    // a wrong code is refused; the right one turns it on and shows ten recovery codes once
    await card.getByRole("textbox", { name: "Authentication code" }).fill("000000")
    await card.getByRole("button", { name: "Turn on" }).click()
    await card.getByRole("alert").waitFor()
    await card.getByRole("textbox", { name: "Authentication code" }).fill(totp.generate())
    await card.getByRole("button", { name: "Turn on" }).click()
    const codes = page.getByRole("region", { name: "Recovery codes" })
    await codes.waitFor()
    const recovery = (await codes.getByRole("listitem").allTextContents()).map((c) => c.trim())
    expect(recovery).toHaveLength(10)
    await expectFits(page, "portal recovery codes")
    await codes.getByRole("button", { name: "I have saved them" }).click()
    await card.getByText(/^On: signing in asks for a code/).waitFor()
    const signInWith = async (code: string) => {
      await page.context().clearCookies()
      await page.goto(`${serve.url}/portal/`)
      await page.getByRole("textbox", { name: "Email" }).fill(serve.login.email)
      await page.getByLabel("Password").fill(serve.login.password)
      await page.getByRole("button", { name: "Sign in" }).click()
      // the password alone asks for the code
      await page.getByRole("textbox", { name: "Authentication code" }).fill(code)
      await page.getByRole("button", { name: "Sign in" }).click()
      await Promise.race([
        page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor(),
        page.getByRole("alert").waitFor()
      ])
      return (await page.getByRole("heading", { name: "Dashboard", level: 1 }).count()) === 1
    }
    // a code of the app (the next step's: the one that turned it on is used)
    expect(await signInWith(totp.generate({ timestamp: Date.now() + 30_000 }))).toBe(true)
    // a recovery code signs in once
    expect(await signInWith(recovery[0])).toBe(true)
    expect(await signInWith(recovery[0])).toBe(false)
    await page.getByRole("alert").getByText(/not correct/).waitFor()
    // off again (the other tests sign in with the password alone)
    expect(await signInWith(recovery[1])).toBe(true)
    await visit(page, `${serve.url}/portal/profile`)
    await card.getByLabel("Password").fill(serve.login.password)
    await card.getByRole("button", { name: "Turn off two-factor sign-in" }).click()
    await card.getByRole("button", { name: "Set up two-factor sign-in" }).waitFor()
    await page.context().close()
  })
})
