/**
 * A page that fails while rendering shows a message in the customer's language in its place, the
 * navigation stays usable, and the next page renders (the shell is not unmounted to a blank screen).
 * The failure is made by the browser itself: `Intl.NumberFormat#format` throws on the Balance page.
 * The operator console has the same guard: its accounts list is answered with a row that is not an
 * account, the page fails while rendering and the console's navigation still works.
 */
import { Secret, TOTP } from "otpauth"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Serve } from "./harness.js"
import { hasChromium, launchBrowser, newContext, signIn, startServe } from "./harness.js"

describe.skipIf(!hasChromium)("a page that fails to render", () => {
  let serve: Serve
  let browser: Browser

  beforeAll(async () => {
    ;[serve, browser] = await Promise.all([startServe("pglite"), launchBrowser()])
  })
  afterAll(async () => {
    await browser?.close()
    await serve?.close()
  })

  for (const lang of ["en", "sw"] as const) {
    it(`shows a message in its place and leaves the navigation working (${lang}, phone)`, async () => {
      const context = await newContext(browser, { phone: true })
      await context.addInitScript(() => {
        const g = globalThis as any
        const proto = g.Intl.NumberFormat.prototype
        const original = Object.getOwnPropertyDescriptor(proto, "format")!.get!
        Object.defineProperty(proto, "format", {
          configurable: true,
          get() {
            if (String(g.location.pathname).endsWith("/balance")) throw new Error("made to fail on the Balance page")
            return original.call(this)
          }
        })
      })
      const page = await context.newPage()
      const logged: Array<string> = []
      page.on("console", (m) => {
        if (m.type() === "error") logged.push(m.text())
      })
      await signIn(page, serve.url, serve.login.email, serve.login.password)
      if (lang === "sw") {
        await page.evaluate(() => (globalThis as any).localStorage.setItem("tuma.lang", "sw"))
        await page.reload()
      }
      const [failed, menu, profile] = lang === "en"
        ? ["This page could not be shown", "Profile", "Profile"]
        : ["Ukurasa huu haukuweza kuonyeshwa", "Wasifu", "Wasifu"]
      await page.goto(`${serve.url}/portal/balance`)
      await page.getByRole("heading", { level: 1, name: failed }).waitFor()
      expect(await page.getByRole("alert").filter({ hasText: failed }).count()).toBe(1)
      expect(logged.some((l) => l.startsWith("tuma: a page failed"))).toBe(true)
      if (process.env.TUMA_I18N_SHOTS !== undefined) {
        await page.screenshot({ path: `${process.env.TUMA_I18N_SHOTS}/page-failed-${lang}-phone.png` })
      }
      // the shell is still there: the next page renders
      const nav = page.getByRole("navigation").first()
      if (!(await nav.isVisible())) await page.getByRole("button", { name: lang === "en" ? "Menu" : "Menyu" }).click()
      await page.getByRole("link", { name: menu, exact: true }).first().click()
      await page.getByRole("heading", { level: 1, name: profile }).waitFor()
      await context.close()
    })
  }

  it("the console: a page that fails shows the message in its place and the navigation works (en, sw; phone)", async () => {
    const context = await newContext(browser, { phone: true })
    const page = await context.newPage()
    const logged: Array<string> = []
    page.on("console", (m) => {
      if (m.type() === "error") logged.push(m.text())
    })
    // a row that is not an account: the page throws while rendering it
    await page.route(
      /\/console\/api\/accounts(\?.*)?$/,
      (route) =>
        route.fulfill({
          status: 200,
          contentType: "application/json",
          body: JSON.stringify({ success: true, data: [null] })
        })
    )
    const [, email, password] = /demo console login: (\S+) (\S+)/.exec(serve.output())!
    await page.goto(`${serve.url}/console/`)
    await page.getByRole("textbox", { name: "Email" }).fill(email)
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: "Sign in" }).click()
    const secret = await page.getByRole("textbox", { name: "Secret" }).inputValue()
    await page.getByRole("textbox", { name: "Authentication code" }).fill(
      new TOTP({ secret: Secret.fromBase32(secret) }).generate()
    )
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("button", { name: "I have saved them" }).click()
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor()
    for (const lang of ["en", "sw"] as const) {
      if (lang === "sw") {
        await page.evaluate(() => (globalThis as any).localStorage.setItem("tuma.lang", "sw"))
      }
      const [failed, menu, heading] = lang === "en"
        ? ["This page could not be shown", "Menu", "Operators"]
        : ["Ukurasa huu haukuweza kuonyeshwa", "Menyu", "Wahudumu"]
      await page.goto(`${serve.url}/console/accounts`)
      await page.getByRole("heading", { level: 1, name: failed }).waitFor()
      expect(await page.getByRole("alert").filter({ hasText: failed }).count()).toBe(1)
      expect(logged.some((l) => l.startsWith("tuma: a page failed"))).toBe(true)
      if (process.env.TUMA_I18N_SHOTS !== undefined) {
        await page.screenshot({ path: `${process.env.TUMA_I18N_SHOTS}/console-page-failed-${lang}-phone.png` })
      }
      const nav = page.getByRole("navigation").first()
      if (!(await nav.isVisible())) await page.getByRole("button", { name: menu }).click()
      await page.getByRole("link", { name: heading, exact: true }).first().click()
      await page.getByRole("heading", { level: 1, name: heading }).waitFor()
    }
    await context.close()
  })
})
