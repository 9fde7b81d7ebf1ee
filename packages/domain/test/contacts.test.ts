/**
 * The address book's rules (contacts.ts): field keys are tag names (lower-case, reserved names
 * refused), a contact's number is read nationally in the given country, merging keeps what is not
 * given again, an import plan reports bad rows and repeats by row number, a campaign to contacts
 * leaves opted-out ones out and sends each number once, a template's tags must compile.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  checkContact,
  checkGroupName,
  checkTemplate,
  contactFieldKeyProblem,
  importMappingProblems,
  mergeContact,
  planImport,
  recipientsOfContacts
} from "../src/contacts.js"

describe("contacts", () => {
  it("field keys are tag names; to, phone and name are the contact's own", () => {
    expect(contactFieldKeyProblem("first_name")).toBeUndefined()
    expect(contactFieldKeyProblem("Amount.Due-1")).toBeUndefined()
    expect(contactFieldKeyProblem("1st")).toBeDefined()
    expect(contactFieldKeyProblem("first name")).toBeDefined()
    expect(contactFieldKeyProblem("Name")).toContain("reserved")
    expect(contactFieldKeyProblem("x".repeat(65))).toBeDefined()
  })

  it("checks a contact: national numbers in the country, keys lower-cased, empty values dropped", () => {
    const c = checkContact({ phone: "0712 345 678", name: " Asha ", fields: { First_Name: "Asha", Empty: " " } }, "TZ")
    expect(c).toEqual(Either.right({ phone: "+255712345678", name: "Asha", fields: { first_name: "Asha" } }))
    expect(Either.isLeft(checkContact({ phone: "0712345678" }, undefined))).toBe(true)
    const bad = checkContact({ phone: "x", fields: { to: "1" } }, "TZ")
    expect(Either.isLeft(bad) && Object.keys(bad.left).sort()).toEqual(["fields.to", "phone"])
  })

  it("merges: a non-empty name and the given fields win, other fields stay", () => {
    const known = { phone: "+255712345678", name: "Asha", fields: { city: "Arusha", amount: "1" } }
    expect(mergeContact(known, { phone: known.phone, name: "", fields: { amount: "2" } })).toEqual({
      phone: known.phone,
      name: "Asha",
      fields: { city: "Arusha", amount: "2" }
    })
  })

  it("plans an import: bad rows and repeats by their row numbers, repeats merged into the first", () => {
    const plan = planImport(
      [
        { row: 2, cells: ["0712345678", "Asha", "10"] },
        { row: 3, cells: ["abc", "Bad", "1"] },
        { row: 5, cells: ["+255712345678", "", "20"] }
      ],
      { phone: 0, name: 1, fields: [{ column: 2, key: "amount" }] },
      "TZ"
    )
    expect(plan.map((p) => [p._tag, p.row])).toEqual([["Valid", 2], ["Invalid", 3], ["Duplicate", 5]])
    expect(plan[0]).toMatchObject({ contact: { name: "Asha", fields: { amount: "20" } } })
    expect(plan[2]).toMatchObject({ first_row: 2 })
    expect(importMappingProblems({ phone: 4 }, 3)).toHaveProperty(["mapping.phone"])
    expect(importMappingProblems({ phone: 0, fields: [{ column: 1, key: "a" }, { column: 2, key: "A" }] }, 3))
      .toHaveProperty(["mapping.fields.A"])
  })

  it("a campaign to contacts: opted-out ones left out and counted, each number once, fields as tags", () => {
    const r = recipientsOfContacts([
      { id: "1", phone: "+255712345678", name: "Asha", fields: { deni: "10" }, opted_out: false },
      { id: "2", phone: "+255712345679", name: "", fields: {}, opted_out: true },
      { id: "1", phone: "+255712345678", name: "Asha", fields: { deni: "10" }, opted_out: false }
    ])
    expect(r).toEqual({
      recipients: [{ to: "+255712345678", name: "Asha", deni: "10" }],
      opted_out: 1,
      duplicates: 1
    })
  })

  it("templates and group names", () => {
    expect(Either.isRight(checkTemplate({ name: "Kumbusho", body: "Habari {name}, {= a - b }" }))).toBe(true)
    expect(Either.isLeft(checkTemplate({ name: "", body: "x" }))).toBe(true)
    expect(Either.isLeft(checkTemplate({ name: "Bad", body: "{= 1 + }" }))).toBe(true)
    expect(checkGroupName("  VIP ")).toEqual(Either.right("VIP"))
    expect(Either.isLeft(checkGroupName(" "))).toBe(true)
  })
})
