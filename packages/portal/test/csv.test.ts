/** The campaign CSV reader: quoting, line endings, which column is the phone, tags. */
import { describe, expect, it } from "vitest"
import { parseCsv, parseCsvRecords, recipientsFromCsv, recipientsFromText } from "../src/csv.js"

describe("campaign CSV", () => {
  it("reads quoted fields with commas, doubled quotes and newlines, CRLF or LF, and a BOM", () => {
    expect(parseCsv("\ufeffa,b\r\n\"x, y\",\"say \"\"hi\"\"\"\n\"two\nlines\",z\n\n")).toEqual([
      ["a", "b"],
      ["x, y", "say \"hi\""],
      ["two\nlines", "z"]
    ])
  })

  it("takes the phone column by name and makes every other column a tag", () => {
    const r = recipientsFromCsv("Name,Mobile,amount\nAsha,+255712000001,12000\nBaraka, +255712000002 ,\n")
    expect(r.phoneColumn).toBe("Mobile")
    expect(r.tags).toEqual(["Name", "amount"])
    expect(r.recipients).toEqual([
      { to: "+255712000001", Name: "Asha", amount: "12000" },
      { to: "+255712000002", Name: "Baraka", amount: "" }
    ])
  })

  it("uses the first column when none is named like a phone", () => {
    expect(recipientsFromCsv("n,x\n+255712000003,1\n").recipients).toEqual([{ to: "+255712000003", x: "1" }])
  })

  it("splits pasted numbers on lines, commas and semicolons", () => {
    expect(recipientsFromText("+255712000001\n+255712000002, +255712000003;\n\n")).toEqual([
      "+255712000001",
      "+255712000002",
      "+255712000003"
    ])
  })

  it("numbers rows as a spreadsheet does: the header is row 1, blank rows count, a quoted newline does not", () => {
    const text = "phone,name\r\n0712000001,A\r\n\r\n\"07120\n00002\",B\nabc,C\n"
    expect(parseCsvRecords(text).map((r) => r.row)).toEqual([1, 2, 4, 5])
    expect(recipientsFromCsv(text).rows).toEqual([2, 4, 5])
  })
})
