/**
 * A page that fails while rendering shows a message in the customer's language in its place, the
 * navigation stays usable, and the next page renders (the shell is not unmounted to a blank screen).
 * The failure is made by the browser itself: `Intl.NumberFormat#format` throws on the Balance page.
 * The operator console has the same guard: its accounts list is answered with a row that is not an
 * account, the page fails while rendering and the console's navigation still works.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page, Serve } from "./harness.js"
import { enrolConsoleOperator, hasChromium, launchBrowser, newContext, signIn, startServe } from "./harness.js"

/**
 * The page now open failed: its message is shown once in its place and the failure was logged; then
 * the shell still works: `link` in the navigation (behind the menu button on a phone) opens a page
 * whose heading is `heading`. With TUMA_I18N_SHOTS set, the failed page is saved as `shot`-LANG-phone.png.
 */
const failsThenNavigates = async (
  page: Page,
  logged: ReadonlyArray<string>,
  o: { lang: "en" | "sw"; failed: string; link: string; heading: string; shot: string }
) => {
  await page.getByRole("heading", { level: 1, name: o.failed }).waitFor()
  expect(await page.getByRole("alert").filter({ hasText: o.failed }).count()).toBe(1)
  expect(logged.some((l) => l.startsWith("tuma: a page failed"))).toBe(true)
  if (process.env.TUMA_I18N_SHOTS !== undefined) {
    await page.screenshot({ path: `${process.env.TUMA_I18N_SHOTS}/${o.shot}-${o.lang}-phone.png` })
  }
  const nav = page.getByRole("navigation").first()
  if (!(await nav.isVisible())) await page.getByRole("button", { name: o.lang === "en" ? "Menu" : "Menyu" }).click()
  await page.getByRole("link", { name: o.link, exact: true }).first().click()
  await page.getByRole("heading", { level: 1, name: o.heading }).waitFor()
}

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
      await failsThenNavigates(page, logged, { lang, failed, link: menu, heading: profile, shot: "page-failed" })
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
    await enrolConsoleOperator(page, serve)
    for (const lang of ["en", "sw"] as const) {
      if (lang === "sw") {
        await page.evaluate(() => (globalThis as any).localStorage.setItem("tuma.lang", "sw"))
      }
      const [failed, heading] = lang === "en"
        ? ["This page could not be shown", "Operators"]
        : ["Ukurasa huu haukuweza kuonyeshwa", "Wahudumu"]
      await page.goto(`${serve.url}/console/accounts`)
      await failsThenNavigates(page, logged, { lang, failed, link: heading, heading, shot: "console-page-failed" })
    }
    await context.close()
  })
})
