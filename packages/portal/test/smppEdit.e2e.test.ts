/**
 * Editing SMPP credentials in a real browser (Debian's chromium through playwright-core) against a real
 * `tuma serve --demo`: the console's edit form (throughput, burst, binds, addresses) and the portal
 * owner's (addresses; the limits read-only, the provider's), each in English and Kiswahili, at 1280×900
 * and at 390×844 (a phone). The form opens prefilled; a refused change says why under the field it concerns,
 * in the page's language, and changes nothing; a good one is saved and shown in the list. A Kiswahili
 * page shows no English (english.ts); a phone page does not scroll sideways. Screenshots of each state
 * go to TUMA_EDIT_SHOTS (default: the temporary directory's `shots-smppforms`).
 */
import { mkdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Secret, TOTP } from "otpauth"
import type { Locator } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { englishIn, visibleText } from "./english.js"
import type { Browser, Page, Serve } from "./harness.js"
import { ADMIN_TOKEN, hasChromium, http, launchBrowser, newContext, PHONE, signIn, startServe } from "./harness.js"

const SHOTS = process.env.TUMA_EDIT_SHOTS ?? join(tmpdir(), "shots-smppforms")

/** The texts each run reads, in its language. */
const TEXTS = {
  en: {
    edit: (id: string) => `Edit ${id}`,
    settings: (id: string) => `Settings of ${id}`,
    rate: "Throughput (parts per second)",
    burst: "Burst",
    binds: "Max binds",
    ips: "Allowed IP addresses",
    save: "Save changes",
    saved: (id: string) => `The settings of ${id} are saved.`,
    bindsRefused: "The number of binds must be a whole number from 1 to 100.",
    rateRefused: "The throughput must be a whole number of parts per second, from 1 to 10000.",
    addressRefused: (a: string) =>
      `${a} is not an IP address (like 196.41.2.10) or a range of addresses (like 196.41.2.0/24).`,
    limits: "20 parts per second, bursts up to 40"
  },
  sw: {
    edit: (id: string) => `Hariri ${id}`,
    settings: (id: string) => `Mipangilio ya ${id}`,
    rate: "Kasi (sehemu kwa sekunde)",
    burst: "Mlipuko",
    binds: "Bind za juu",
    ips: "Anwani za IP zinazoruhusiwa",
    save: "Hifadhi mabadiliko",
    saved: (id: string) => `Mipangilio ya ${id} imehifadhiwa.`,
    bindsRefused: "Idadi ya bind lazima iwe namba kamili kuanzia 1 hadi 100.",
    rateRefused: "Kasi lazima iwe namba kamili ya sehemu kwa sekunde, kuanzia 1 hadi 10000.",
    addressRefused: (a: string) => `${a} si anwani ya IP (kama 196.41.2.10) wala kundi la anwani (kama 196.41.2.0/24).`,
    limits: "Sehemu 20 kwa sekunde, mlipuko hadi 40"
  }
} as const

type Lang = keyof typeof TEXTS

describe.skipIf(!hasChromium)("editing SMPP credentials in chromium", () => {
  let serve: Serve
  let browser: Browser
  let accountUid: string

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    ;[serve, browser] = await Promise.all([
      startServe("pglite", { TUMA_SMTP_URL: "", TUMA_SMPP_PORT: "0" }),
      launchBrowser()
    ])
    accountUid = (await http(serve.url, "GET", "/admin/v1/accounts", { bearer: ADMIN_TOKEN })).body.data[0].uid
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await serve?.close()
  })

  /** Credentials of the demo account as the operator granted them: 20/s, burst 40, 3 binds, one range. */
  const grant = async (systemId: string) => {
    const created = await http(serve.url, "POST", "/admin/v1/smpp-accounts", {
      bearer: ADMIN_TOKEN,
      body: {
        account_uid: accountUid,
        system_id: systemId,
        throughput: { rate: 20, burst: 40 },
        max_binds: 3,
        allowed_ips: ["196.41.2.0/24"]
      }
    })
    expect(created.status).toBe(201)
    return created.body.data.uid as string
  }
  const stored = async (uid: string) =>
    (await http(serve.url, "GET", `/admin/v1/smpp-accounts/${uid}`, { bearer: ADMIN_TOKEN })).body.data

  /** A fresh page in `lang`, on a phone or a desktop. */
  const pageIn = async (lang: Lang, phone: boolean) => {
    const page = await (await newContext(browser, { phone })).newPage()
    await page.goto(`${serve.url}/portal/`)
    await page.evaluate((l) => (globalThis as any).localStorage.setItem("tuma.lang", l), lang)
    return page
  }

  /** The page reads in Kiswahili (no English word); on a phone it does not scroll sideways, the form's controls are ≥ 44 px. */
  const expectReadable = async (page: Page, form: Locator, lang: Lang, phone: boolean, what: string) => {
    await page.waitForLoadState("networkidle")
    await page.waitForTimeout(150)
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe(lang)
    if (lang === "sw") expect(englishIn(await visibleText(page)), `English on ${what}`).toEqual([])
    if (phone) {
      const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)
      expect(width, `${what} is wider than the phone`).toBeLessThanOrEqual(PHONE.width)
      // every control of the form is tall enough for a finger
      const small = await form.locator("button, input").evaluateAll((controls) =>
        controls.filter((c) => c.getBoundingClientRect().height < 43.5).map((c) => c.outerHTML.slice(0, 60))
      )
      expect(small, `${what}: controls under 44 px`).toEqual([])
    }
  }

  /** A screenshot of the form, and on a phone of the screen the form was scrolled into. */
  const shoot = async (page: Page, form: Locator, name: string, phone: boolean) => {
    await form.screenshot({ path: join(SHOTS, `${name}.png`) })
    if (phone) await page.screenshot({ path: join(SHOTS, `${name}-screen.png`) })
  }

  /** The field errors said under the input named `label` (of an invalid field). */
  const errorUnder = async (form: Locator, label: string) => {
    const input = form.getByRole("textbox", { name: label, exact: true })
    expect(await input.getAttribute("aria-invalid")).toBe("true")
    const ids = (await input.getAttribute("aria-describedby")) ?? ""
    return form.locator(`[id="${ids.split(" ")[0]}"]`).textContent()
  }

  /** Recovery codes of the demo admin, one per later sign-in (a TOTP code is good once per time step). */
  const recoveryCodes: Array<string> = []

  /** The demo admin in the console: enrols TOTP at the first sign-in, then signs in with a recovery code. */
  const consoleSignIn = async (page: Page) => {
    const [, email, password] = /demo console login: (\S+) (\S+)/.exec(serve.output())!
    await page.goto(`${serve.url}/console/`)
    await page.getByRole("textbox", { name: /^(Email|Barua pepe)$/ }).fill(email)
    await page.getByLabel(/^(Password|Nenosiri)$/).fill(password)
    const code = page.getByRole("textbox", { name: /^(Authentication code|Msimbo wa uthibitisho)$/ })
    const signInButton = page.getByRole("button", { name: /^(Sign in|Ingia)$/ })
    if (recoveryCodes.length === 0) {
      // the first run is in English: enrolment, then the recovery codes
      await signInButton.click()
      const secret = await page.getByRole("textbox", { name: "Secret" }).inputValue()
      await code.fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate())
      await signInButton.click()
      const codes = page.getByRole("region", { name: "Recovery codes" }).getByRole("listitem")
      await codes.first().waitFor()
      recoveryCodes.push(...(await codes.allTextContents()).map((c) => c.trim()))
      await page.getByRole("button", { name: "I have saved them" }).click()
    } else {
      await code.fill(recoveryCodes.pop()!)
      await signInButton.click()
    }
    await page.getByRole("heading", { level: 1, name: /^(Overview|Muhtasari)$/ }).waitFor()
  }

  for (const [lang, phone] of [["en", false], ["sw", false], ["en", true], ["sw", true]] as const) {
    const size = phone ? "phone" : "desktop"
    it(`the console: an operator edits the limits and addresses; a refusal is said under its field (${lang}, ${size})`, async () => {
      const x = TEXTS[lang]
      const systemId = `con-${lang}-${size}`
      const uid = await grant(systemId)
      const page = await pageIn(lang, phone)
      await consoleSignIn(page)
      await page.goto(`${serve.url}/console/smpp`)
      await page.getByRole("heading", { level: 1, name: "SMPP" }).waitFor()
      await page.getByRole("button", { name: x.edit(systemId) }).click()
      const form = page.getByRole("region", { name: x.edit(systemId) })
      const field = (name: string) => form.getByRole("textbox", { name, exact: true })
      expect(await field(x.rate).inputValue()).toBe("20")
      expect(await field(x.burst).inputValue()).toBe("40")
      expect(await field(x.binds).inputValue()).toBe("3")
      expect(await field(x.ips).inputValue()).toBe("196.41.2.0/24")
      await shoot(page, form, `console-edit-${lang}-${size}`, phone)
      // refused: a rate out of range, no binds, a bad address; nothing changes
      const before = await stored(uid)
      await field(x.rate).fill("20000")
      await field(x.binds).fill("0")
      await field(x.ips).fill("196.41.2.0/24, 10.0.0.300")
      await form.getByRole("button", { name: x.save }).click()
      await form.getByRole("alert").waitFor()
      expect(await errorUnder(form, x.binds)).toBe(x.bindsRefused)
      expect(await errorUnder(form, x.rate)).toBe(x.rateRefused)
      expect(await errorUnder(form, x.ips)).toBe(x.addressRefused("10.0.0.300"))
      expect(await stored(uid)).toEqual(before)
      await expectReadable(page, form, lang, phone, `the console's refused edit (${lang}, ${size})`)
      await shoot(page, form, `console-edit-refused-${lang}-${size}`, phone)
      // corrected: saved, the form closes, the row shows it
      await field(x.rate).fill("80")
      await field(x.burst).fill("120")
      await field(x.binds).fill("4")
      await field(x.ips).fill("196.41.2.0/24, 10.0.0.30")
      await form.getByRole("button", { name: x.save }).click()
      await page.getByRole("status").filter({ hasText: x.saved(systemId) }).waitFor()
      expect(await form.count()).toBe(0)
      expect(await stored(uid)).toMatchObject({
        throughput: { rate: 80, burst: 120 },
        max_binds: 4,
        allowed_ips: ["196.41.2.0/24", "10.0.0.30"]
      })
      await page.getByRole("row").filter({ hasText: systemId }).filter({ hasText: "196.41.2.0/24, 10.0.0.30" })
        .waitFor()
      await page.context().close()
    })

    it(`the portal: the owner changes the allowed addresses, the limits read-only; a bad address is refused (${lang}, ${size})`, async () => {
      const x = TEXTS[lang]
      const systemId = `web-${lang}-${size}`
      const uid = await grant(systemId)
      const page = await pageIn("en", phone)
      await signIn(page, serve.url, serve.login.email, serve.login.password)
      await page.evaluate((l) => (globalThis as any).localStorage.setItem("tuma.lang", l), lang)
      await page.goto(`${serve.url}/portal/smpp`)
      await page.getByRole("heading", { level: 1, name: "SMPP" }).waitFor()
      await page.getByRole("button", { name: x.edit(systemId) }).click()
      const form = page.getByRole("form", { name: x.settings(systemId) })
      const ips = form.getByRole("textbox", { name: x.ips, exact: true })
      expect(await ips.inputValue()).toBe("196.41.2.0/24")
      await form.getByText(x.limits).waitFor()
      // the limits are not fields: nothing to type them in
      expect(await form.getByRole("textbox").count()).toBe(1)
      await expectReadable(page, form, lang, phone, `the portal's edit form (${lang}, ${size})`)
      await shoot(page, form, `portal-edit-${lang}-${size}`, phone)
      const before = await stored(uid)
      await ips.fill("196.41.2.0/24, 196.41.2.300")
      await form.getByRole("button", { name: x.save }).click()
      await form.getByRole("alert").waitFor()
      expect(await errorUnder(form, x.ips)).toBe(x.addressRefused("196.41.2.300"))
      expect(await stored(uid)).toEqual(before)
      await expectReadable(page, form, lang, phone, `the portal's refused edit (${lang}, ${size})`)
      await shoot(page, form, `portal-edit-refused-${lang}-${size}`, phone)
      await ips.fill("196.41.2.0/24 196.41.3.7")
      await form.getByRole("button", { name: x.save }).click()
      await page.getByRole("status").filter({ hasText: x.saved(systemId) }).waitFor()
      expect(await stored(uid)).toMatchObject({
        allowed_ips: ["196.41.2.0/24", "196.41.3.7"],
        throughput: { rate: 20, burst: 40 },
        max_binds: 3
      })
      await page.getByRole("row").filter({ hasText: systemId }).filter({ hasText: "196.41.2.0/24, 196.41.3.7" })
        .waitFor()
      await page.context().close()
    })
  }
})
