/**
 * Contacts, groups, templates and the campaign form's new sources in a real browser (Debian's
 * chromium through playwright-core) against `tuma serve --demo` on PGlite (the same API runs on
 * PostgreSQL in http/test/portal/contacts.test.ts). As the demo's owner: a group made, a CSV imported
 * with its columns mapped (checked first: the bad and the repeated rows by row number, an opted-out
 * number counted), the contacts listed with the opted-out one marked; a campaign to the group (the
 * opted-out contact skipped, the contacts' fields as tags) sent and duplicated; a campaign CSV with an
 * unreadable row, named by its row number and skipped; a saved template picked on Send SMS. The steps
 * depend on each other (run the file whole).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "./harness.js"
import { ADMIN_TOKEN, go, hasChromium, http, launchBrowser, newContext, signIn, startServe } from "./harness.js"
import type { Serve } from "./harness.js"

describe.skipIf(!hasChromium)("contacts in chromium (pglite)", () => {
  let serve: Serve
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    ;[serve, browser] = await Promise.all([startServe("pglite"), launchBrowser()])
    page = await (await newContext(browser)).newPage()
    await signIn(page, serve.url, serve.login.email, serve.login.password)
  })
  afterAll(async () => {
    await browser?.close()
    await serve?.close()
  })

  it("imports a CSV into a group: checked first, bad and repeated rows by row number, opted-out marked", async () => {
    const accounts = (await http(serve.url, "GET", "/admin/v1/accounts", { bearer: ADMIN_TOKEN })).body.data
    const demo = accounts.find((a: any) => a.name === "Demo Company") ?? accounts[0]
    const opted = await http(serve.url, "POST", "/admin/v1/opt-outs", {
      bearer: ADMIN_TOKEN,
      body: { account_uid: demo.uid, recipient: "+255714000003" }
    })
    expect(opted.status).toBeLessThan(300)

    await go(page, "Contacts")
    await page.getByRole("textbox", { name: "New group" }).fill("Wateja")
    await page.getByRole("button", { name: "Add group" }).click()
    await page.getByRole("button", { name: "Show Wateja" }).waitFor()

    await page.getByLabel("CSV file").setInputFiles({
      name: "wateja.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(
        "Simu,Jina,Deni\r\n0712 000 001,Asha,12000\r\nhakuna,Mbaya,1\r\n+255712000002,Baraka,5000\r\n" +
          "0712000001,,13000\r\n0714000003,Juma,1\r\n"
      )
    })
    await page.getByText("5 rows in wateja.csv.").waitFor()
    // the columns were guessed from their names; Deni becomes the {deni} tag
    expect(await page.getByRole("combobox", { name: "Column Simu" }).inputValue()).toBe("phone")
    expect(await page.getByRole("combobox", { name: "Column Jina" }).inputValue()).toBe("name")
    expect(await page.getByRole("textbox", { name: "Tag name of Deni" }).inputValue()).toBe("deni")
    await page.getByRole("combobox", { name: "Add to group" }).selectOption({ label: "Wateja" })
    const importButton = page.getByRole("button", { name: "Import contacts" })
    expect(await importButton.isDisabled()).toBe(true)
    await page.getByRole("button", { name: "Check the file" }).click()
    await page.getByText("Check of 5 rows: 3 new, 0 to update, 1 repeated, 1 invalid, 1 opted out.").waitFor()
    const problems = page.getByRole("table", { name: "Rows that will not be imported as they are" })
    const rows = await problems.getByRole("row").allTextContents()
    expect(rows.slice(1).map((r) => r.match(/^Row\s*(\d+)/)?.[1] ?? r.match(/^(\d+)/)?.[1])).toEqual(["3", "5"])
    expect(await problems.getByText(/row 2/).count()).toBe(1)
    await importButton.click()
    await page.getByText("Imported 5 rows: 3 added, 0 updated, 1 repeated, 1 invalid, 1 opted out.").waitFor()

    const list = page.getByRole("region", { name: "Contacts" })
    await list.getByText("3 contacts").waitFor()
    const asha = list.getByRole("row").filter({ hasText: "Asha" })
    // the repeated row's value won; the name of the first row stayed
    expect(await asha.textContent()).toContain("deni: 13000")
    expect(await asha.textContent()).toContain("+255712000001")
    expect(await list.getByRole("row").filter({ hasText: "Juma" }).textContent()).toContain("Has opted out")
    await page.getByRole("searchbox", { name: "Search" }).fill("Baraka")
    await list.getByText("1 contact", { exact: true }).waitFor()
    await page.getByRole("searchbox", { name: "Search" }).fill("")
  })

  it("sends a campaign to the group: the opted-out contact skipped, fields as tags; then duplicates it", async () => {
    await go(page, "Campaigns")
    await page.getByRole("textbox", { name: "Campaign name" }).fill("Madeni ya Wateja")
    await page.getByRole("checkbox", { name: "Wateja (3 contacts)" }).check()
    await page.getByText("2 of 3 contacts will get the message; 1 opted out are skipped.").waitFor()
    await page.getByRole("textbox", { name: "Message" }).fill("Habari {name}, deni lako ni {deni}")
    await page.getByRole("button", { name: "Preview price" }).click()
    const region = page.getByRole("region", { name: "Campaign preview" })
    await region.getByText("Habari Asha, deni lako ni 13000").waitFor()
    await region.getByText("2 of 2 recipients can be sent, 2 units.").waitFor()
    await page.getByRole("button", { name: "Send campaign" }).click()
    await page.getByRole("status").getByText("Campaign accepted.").waitFor()
    await page.getByRole("link", { name: "Open the campaign" }).click()
    await page.getByRole("heading", { level: 1, name: "Campaign" }).waitFor()

    await page.getByRole("link", { name: "Duplicate campaign" }).click()
    await page.getByText("A copy of Madeni ya Wateja: check it, then preview and send.").waitFor()
    expect(await page.getByRole("textbox", { name: "Message" }).inputValue()).toBe(
      "Habari {name}, deni lako ni {deni}"
    )
    expect((await page.getByRole("textbox", { name: "Recipients" }).inputValue()).split("\n").sort()).toEqual([
      "+255712000001",
      "+255712000002"
    ])
    expect(await page.getByRole("textbox", { name: "Campaign name" }).inputValue()).toBe("Madeni ya Wateja")
  })

  it("names a campaign CSV's unreadable numbers by row and sends the rest when they are skipped", async () => {
    await go(page, "Campaigns")
    await page.getByLabel("Upload CSV").setInputFiles({
      name: "list.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("phone,name\n0712000021,Asha\n07120,Bad\n\n0712000022,Neema\n")
    })
    const alert = page.getByRole("alert").filter({ hasText: "cannot be read" })
    await alert.getByText("1 row has a number that cannot be read.", { exact: false }).waitFor()
    const bad = page.getByRole("table", { name: "Rows with an invalid number" })
    expect((await bad.getByRole("row").nth(1).textContent()) ?? "").toMatch(/3.*07120/)
    await page.getByRole("textbox", { name: "Message" }).fill("Karibu {name}")
    const preview = page.getByRole("button", { name: "Preview price" })
    expect(await preview.isDisabled()).toBe(true)
    await page.getByRole("checkbox", { name: "Skip invalid rows" }).check()
    expect(await preview.isDisabled()).toBe(false)
    await preview.click()
    await page.getByRole("region", { name: "Campaign preview" }).getByText(
      "2 of 2 recipients can be sent, 2 units."
    ).waitFor()
  })

  it("saves a template and picks it on Send SMS", async () => {
    await go(page, "Templates")
    await page.getByRole("textbox", { name: "Template name" }).fill("Shukrani")
    await page.getByRole("textbox", { name: "Message" }).fill("Asante kwa malipo yako, {name}!")
    await page.getByRole("button", { name: "Save template" }).click()
    await page.getByRole("region", { name: "Saved templates" }).getByText("Shukrani", { exact: true }).waitFor()
    const broken = page.getByRole("textbox", { name: "Template name" })
    await broken.fill("Mbaya")
    await page.getByRole("textbox", { name: "Message" }).fill("{= 2 * }")
    await page.getByRole("button", { name: "Save template" }).click()
    await page.getByRole("alert").waitFor()

    await go(page, "Send SMS")
    await page.getByRole("combobox", { name: "Saved template" }).selectOption({ label: "Shukrani" })
    expect(await page.getByRole("textbox", { name: "Message" }).inputValue()).toBe("Asante kwa malipo yako, {name}!")
  })
})
