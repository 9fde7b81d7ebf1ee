/**
 * `pnpm screenshots`: every page of the portal in English and Kiswahili, to docs/screenshots/
 * (`<page>-<lang>.png`), from a fresh `tuma serve --demo` with a little traffic. Run it after a
 * change to the pages and commit the pictures.
 */
import { ensureBuilt } from "@tuma/http/portal/Assets"
import { mkdirSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import type { Page } from "./harness.js"
import { ADMIN_TOKEN, http, launchBrowser, newContext, startServe } from "./harness.js"

const OUT = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url))

const pages: ReadonlyArray<readonly [string, string]> = [
  ["dashboard", "/"],
  ["send-sms", "/send"],
  ["campaigns", "/campaigns"],
  ["messages", "/messages"],
  ["sender-ids", "/sender-ids"],
  ["api-keys", "/api-keys"],
  ["webhooks", "/webhooks"],
  ["balance", "/balance"],
  ["profile", "/profile"],
  ["team", "/team"]
]

const settle = async (page: Page) => {
  await page.waitForLoadState("networkidle")
  await page.waitForTimeout(300)
}

const main = async () => {
  await ensureBuilt()
  mkdirSync(OUT, { recursive: true })
  const serve = await startServe("pglite")
  const browser = await launchBrowser()
  // a webhook receiver that accepts everything, so the endpoint shows delivered attempts
  const receiver = createServer((req, res) => {
    req.resume()
    req.on("end", () => res.writeHead(200).end("ok"))
  })
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r))
  try {
    // some traffic: a webhook endpoint on the demo key, single sends, a personalised campaign
    const key = serve.liveKey
    const admin = (method: string, path: string, body?: unknown) =>
      http(serve.url, method, `/admin/v1${path}`, { bearer: ADMIN_TOKEN, ...(body !== undefined ? { body } : {}) })
    const accounts = (await admin("GET", "/accounts")).body.data as Array<{ uid: string; email: string }>
    const demo = accounts[0]!
    const keys = (await admin("GET", `/accounts/${demo.uid}/api-keys`)).body.data as Array<any>
    const liveKey = keys.find((k) => k.mode === "live" && k.status === "active")
    await admin("POST", "/webhooks", {
      api_key_uid: liveKey.uid,
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/tuma`
    })
    const uids: Array<string> = []
    for (
      const [to, body] of [
        ["+255712345678", "Habari! Your code is 4821"],
        ["+255712345679", "Karibu “Tuma” — ok"],
        ["+255754000001", "Your order 1234 is ready for pickup at Duka Bora, Kariakoo."],
        ["+255754000002", "Malipo yako ya TZS 15,000 yamepokelewa. Asante!"]
      ]
    ) {
      const sent = await http(serve.url, "POST", "/v1/sms/messages", {
        bearer: key,
        body: { recipient: to, sender_id: "TUMA", body }
      })
      uids.push(sent.body.data.uid)
    }
    const campaign = await http(serve.url, "POST", "/v2/sms/send-bulk", {
      bearer: key,
      body: {
        recipients: [
          { to: "+255712000003", name: "Asha", amount: 12000, paid: 2000 },
          { to: "+255712000004", name: "Baraka", amount: 5000, paid: 1500 },
          "+255712000005"
        ],
        message: "Hi {name}, you owe {= amount - paid } TZS",
        sender_id: "TUMA",
        campaign_name: "Madeni Novemba"
      }
    })
    await new Promise((r) => setTimeout(r, 3000))
    // the detail pages: one message's timeline (with its webhook attempts) and one campaign
    const details: ReadonlyArray<readonly [string, string]> = [
      ["message-timeline", `/messages/${uids[1]}`],
      ["campaign-detail", `/campaigns/${campaign.body.data.campaign_uid ?? campaign.body.data.uid}`]
    ]

    for (const lang of ["en", "sw"] as const) {
      const context = await newContext(browser)
      await context.addInitScript((l) => (globalThis as any).localStorage.setItem("tuma.lang", l), lang)
      const page = await context.newPage()
      await page.goto(`${serve.url}/portal/`)
      await page.getByRole("button").first().waitFor()
      await settle(page)
      await page.screenshot({ path: `${OUT}sign-in-${lang}.png` })
      // the pages of the e-mailed links (a made-up token: the form is what is shown)
      for (const [name, path] of [["accept-invitation", "/accept-invitation"], ["reset-password", "/reset-password"]]) {
        await page.goto(`${serve.url}/portal${path}?token=example-token-from-the-e-mail`)
        await page.getByRole("heading", { level: 1 }).waitFor()
        await settle(page)
        await page.screenshot({ path: `${OUT}${name}-${lang}.png` })
      }
      await page.goto(`${serve.url}/portal/`)
      await page.getByRole("button").first().waitFor()
      await page.getByRole("textbox", { name: lang === "en" ? "Email" : "Barua pepe" }).fill(serve.login.email)
      await page.getByLabel(lang === "en" ? "Password" : "Nenosiri").fill(serve.login.password)
      await page.keyboard.press("Enter")
      await page.getByRole("navigation").waitFor()
      for (const [name, path] of [...pages, ...details]) {
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
        await page.screenshot({ path: `${OUT}${name}-${lang}.png`, fullPage: true })
      }
      await context.close()
    }
    console.log(`screenshots written to ${OUT}`)
  } finally {
    receiver.close()
    await browser.close()
    await serve.close()
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(e)
  process.exit(1)
})
