/**
 * CSV for campaigns: RFC 4180 fields (quotes, doubled quotes, commas and newlines inside quotes,
 * CRLF or LF), the first row is the header. The phone column is the one named phone, to,
 * recipient, number, msisdn or mobile (else the first); every other column becomes a tag of that
 * recipient (numbers stay strings: the template's arithmetic reads numeric strings).
 */
export const parseCsv = (text: string): Array<Array<string>> => parseCsvRecords(text).map((r) => r.cells)

/** One CSV record and its 1-based row number in the file (blank rows are counted, then left out). */
export interface CsvRecord {
  readonly row: number
  readonly cells: Array<string>
}

/** `parseCsv` with each record's row number, as a spreadsheet numbers it (the header is row 1). */
export const parseCsvRecords = (text: string): Array<CsvRecord> => {
  const rows: Array<CsvRecord> = []
  let n = 0
  let row: Array<string> = []
  let field = ""
  let quoted = false
  let i = 0
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  while (i < s.length) {
    const c = s[i]
    if (quoted) {
      if (c === "\"") {
        if (s[i + 1] === "\"") {
          field += "\""
          i += 2
          continue
        }
        quoted = false
        i++
        continue
      }
      field += c
      i++
      continue
    }
    if (c === "\"") {
      quoted = true
    } else if (c === ",") {
      row.push(field)
      field = ""
    } else if (c === "\n" || c === "\r") {
      row.push(field)
      field = ""
      n++
      if (row.some((f) => f.trim() !== "")) rows.push({ row: n, cells: row })
      row = []
      if (c === "\r" && s[i + 1] === "\n") i++
    } else {
      field += c
    }
    i++
  }
  row.push(field)
  n++
  if (row.some((f) => f.trim() !== "")) rows.push({ row: n, cells: row })
  return rows
}

const PHONE_COLUMNS = ["phone", "to", "recipient", "number", "msisdn", "mobile", "phone_number"]

export interface CsvRecipients {
  readonly tags: ReadonlyArray<string>
  readonly phoneColumn: string
  readonly recipients: ReadonlyArray<{ readonly to: string } & Readonly<Record<string, string>>>
  /** The CSV row number of each recipient (same order). */
  readonly rows: ReadonlyArray<number>
}

export const recipientsFromCsv = (text: string): CsvRecipients => {
  const records = parseCsvRecords(text)
  if (records.length === 0) return { tags: [], phoneColumn: "", recipients: [], rows: [] }
  const rows = records.map((r) => r.cells)
  const header = rows[0].map((h) => h.trim())
  let phone = header.findIndex((h) => PHONE_COLUMNS.includes(h.toLowerCase()))
  if (phone < 0) phone = 0
  const tags = header.filter((_, i) => i !== phone && header[i] !== "")
  const recipients = rows.slice(1).map((r) => {
    const out: Record<string, string> = { to: (r[phone] ?? "").trim() }
    header.forEach((h, i) => {
      if (i !== phone && h !== "" && h.toLowerCase() !== "to") out[h] = (r[i] ?? "").trim()
    })
    return out as { to: string } & Record<string, string>
  })
  return { tags, phoneColumn: header[phone], recipients, rows: records.slice(1).map((r) => r.row) }
}

/** Pasted numbers: one per line, or separated by commas, semicolons or spaces between numbers. */
export const recipientsFromText = (text: string): Array<string> =>
  text.split(/[\n,;]+/).map((s) => s.trim()).filter((s) => s !== "")
