/**
 * `pnpm screenshots`: every page of the portal in English and Kiswahili, on a desktop screen and on
 * a phone (390×844, touch), to docs/screenshots/ (`<page>-<lang>.png`, `<page>-<lang>-phone.png`,
 * and `menu-<lang>-phone.png`: the phone's menu open), and the console in Kiswahili
 * (`console-<page>-sw.png`, `console-<page>-sw-phone.png`), from a fresh `tuma serve --demo` with a
 * little traffic. Run it after a change to the pages and commit the pictures.
 */
import { ensureBuilt } from "@tuma/http/portal/Assets"
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Secret, TOTP } from "otpauth"
import type { Browser, Page, Serve } from "./harness.js"
import { launchBrowser, newContext, startServe } from "./harness.js"
import { makeTraffic, PORTAL_PAGES } from "./traffic.js"

const OUT = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url))

const settle = async (page: Page) => {
  await page.waitForLoadState("networkidle")
  await page.waitForTimeout(300)
}

/** The console's pages (English: console.e2e.test.ts and phone.e2e.test.ts write them). */
const CONSOLE_PAGES: ReadonlyArray<readonly [string, string]> = [
  ["overview", "/"],
  ["accounts", "/accounts"],
  ["credit", "/credit"],
  ["sender-id-review", "/sender-ids"],
  ["routes-and-markets", "/markets"],
  ["providers", "/providers"],
  ["spam-rules-and-opt-outs", "/spam"],
  ["webhook-deliveries", "/webhooks"],
  ["audit-log", "/audit-log"],
  ["operators", "/operators"],
  ["outbox", "/outbox"],
  ["inbound", "/inbound"]
]

/**
 * The console in Kiswahili, on a desktop and on a phone: `console-<page>-sw.png`,
 * `console-<page>-sw-phone.png` and the sign-in page. The demo admin enrols TOTP at the first sign-in.
 */
const consoleInKiswahili = async (serve: Serve, browser: Browser) => {
  const [, email, password] = /demo console login: (\S+) (\S+)/.exec(serve.output())!
  let totp: TOTP | undefined
  for (const [phone, step] of [[false, 0], [true, 1]] as const) {
    const context = await newContext(browser, { phone })
    const file = (name: string) => `${OUT}console-${name}-sw${phone ? "-phone" : ""}.png`
    await context.addInitScript(() => (globalThis as any).localStorage.setItem("tuma.lang", "sw"))
    const page = await context.newPage()
    await page.goto(`${serve.url}/console/`)
    await page.getByRole("heading", { level: 1 }).waitFor()
    await settle(page)
    await page.screenshot({ path: file("sign-in") })
    await page.getByRole("textbox", { name: "Barua pepe" }).fill(email)
    await page.getByLabel("Nenosiri").fill(password)
    if (totp === undefined) {
      await page.getByRole("button", { name: "Ingia" }).click()
      totp = new TOTP({
        secret: Secret.fromBase32(await page.getByRole("textbox", { name: "Siri", exact: true }).inputValue())
      })
    }
    // a code of another time step each time (a code is taken once)
    await page.getByRole("textbox", { name: "Msimbo wa uthibitisho" }).fill(
      totp.generate({ timestamp: Date.now() + step * 30_000 })
    )
    await page.getByRole("button", { name: "Ingia" }).click()
    if (step === 0) await page.getByRole("button", { name: "Nimeihifadhi" }).click()
    await page.getByRole("heading", { level: 1, name: "Muhtasari" }).waitFor()
    for (const [name, path] of CONSOLE_PAGES) {
      await page.goto(`${serve.url}/console${path}`)
      await page.getByRole("heading", { level: 1 }).waitFor()
      await settle(page)
      if (name === "credit") {
        await page.getByRole("combobox", { name: "Akaunti" }).selectOption({ index: 1 })
        await settle(page)
      }
      await page.screenshot({ path: file(name), fullPage: true })
    }
    await context.close()
  }
}

const main = async () => {
  await ensureBuilt()
  mkdirSync(OUT, { recursive: true })
  const serve = await startServe("pglite")
  const browser = await launchBrowser()
  // some traffic: a webhook endpoint on the demo key, single sends, a personalised campaign
  const traffic = await makeTraffic(serve)
  try {
    // the detail pages: one message's timeline (with its webhook attempts) and one campaign
    const details: ReadonlyArray<readonly [string, string]> = [
      ["message-timeline", `/messages/${traffic.messages[1]}`],
      ["campaign-detail", `/campaigns/${traffic.campaign}`]
    ]

    for (const [lang, phone] of [["en", false], ["sw", false], ["en", true], ["sw", true]] as const) {
      const context = await newContext(browser, { phone })
      const file = (name: string) => `${OUT}${name}-${lang}${phone ? "-phone" : ""}.png`
      await context.addInitScript((l) => (globalThis as any).localStorage.setItem("tuma.lang", l), lang)
      const page = await context.newPage()
      await page.goto(`${serve.url}/portal/`)
      await page.getByRole("button").first().waitFor()
      await settle(page)
      await page.screenshot({ path: file("sign-in") })
      // the pages of the e-mailed links (a made-up token: the form is what is shown)
      for (const [name, path] of [["accept-invitation", "/accept-invitation"], ["reset-password", "/reset-password"]]) {
        await page.goto(`${serve.url}/portal${path}?token=example-token-from-the-e-mail`)
        await page.getByRole("heading", { level: 1 }).waitFor()
        await settle(page)
        await page.screenshot({ path: file(name) })
      }
      await page.goto(`${serve.url}/portal/`)
      await page.getByRole("button").first().waitFor()
      await page.getByRole("textbox", { name: lang === "en" ? "Email" : "Barua pepe" }).fill(serve.login.email)
      await page.getByLabel(lang === "en" ? "Password" : "Nenosiri").fill(serve.login.password)
      await page.keyboard.press("Enter")
      await page.getByRole("heading", { level: 1, name: lang === "en" ? "Dashboard" : "Dashibodi" }).waitFor()
      for (const [name, path] of [...PORTAL_PAGES, ...details]) {
        await page.goto(`${serve.url}/portal${path === "/" ? "/" : path}`)
        await page.getByRole("heading", { level: 1 }).waitFor()
        await settle(page)
        if (name === "send-sms") {
          await page.getByRole("textbox").nth(0).fill("+255712345678")
          await page.getByRole("textbox").nth(1).fill("Karibu “Tuma” — bei ni 5,000… 😀")
          await page.waitForTimeout(1200)
        }
        if (name === "campaigns") {
          await page.getByRole("textbox").nth(0).fill("Madeni Desemba")
          await page.getByRole("textbox").nth(1).fill("+255712000006\n+255712000007")
          await page.getByRole("textbox").nth(2).fill("Habari, malipo yako ya mwezi huu yanasubiriwa.")
          await page.getByRole("button").filter({ hasText: lang === "en" ? "Preview price" : "Onyesha bei" }).click()
          await page.waitForTimeout(1200)
        }
        await page.screenshot({ path: file(name), fullPage: true })
      }
      if (phone) {
        // the phone's menu, open over the dashboard
        await page.goto(`${serve.url}/portal/`)
        await page.getByRole("heading", { level: 1 }).waitFor()
        await settle(page)
        await page.getByRole("button", { name: lang === "en" ? "Menu" : "Menyu" }).click()
        await page.screenshot({ path: file("menu") })
      }
      await context.close()
    }
    await consoleInKiswahili(serve, browser)
    console.log(`screenshots written to ${OUT}`)
  } finally {
    traffic.close()
    await browser.close()
    await serve.close()
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(e)
  process.exit(1)
})
