/**
 * The rows of one detached month of `messages` written to `<dir>/<table>.csv.gz` (CSV with a header
 * line naming every column in the table's order, gzip) before the table is dropped, read in pages by id so memory stays flat. The file appears
 * under its final name only once complete (written to a temporary name, then renamed).
 */
import type { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { once } from "node:events"
import { createWriteStream } from "node:fs"
import { mkdir, rename, rm } from "node:fs/promises"
import { join } from "node:path"
import { createGzip } from "node:zlib"
import { findAll } from "../rows.js"

const PAGE = 5_000

/** A row of any table: every column, as the driver gives it. */
const pageRows = findAll(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
const columnRows = findAll(Schema.Struct({ name: Schema.String }))

/** One CSV field: empty for NULL, `""` for an empty string, quoted when it holds a separator. */
export const csvField = (v: unknown): string => {
  if (v === null || v === undefined) return ""
  const s = v instanceof Date ? v.toISOString() : typeof v === "object" ? JSON.stringify(v) : String(v)
  return s === "" || /[",\r\n]/.test(s) ? `"${s.replace(/"/g, "\"\"")}"` : s
}

const csvLine = (values: ReadonlyArray<unknown>) => values.map(csvField).join(",") + "\n"

/** Writes every row of `table` to `dir/table.csv.gz`; answers the file's path and the rows written. */
export const exportTable = (sql: SqlClient.SqlClient, table: string, dir: string) =>
  Effect.gen(function*() {
    const path = join(dir, `${table}.csv.gz`)
    const partial = `${path}.${process.pid}.partial`
    yield* Effect.promise(() => mkdir(dir, { recursive: true }))
    const gzip = createGzip()
    const file = createWriteStream(partial)
    gzip.pipe(file)
    const write = (chunk: string) =>
      Effect.promise(async () => {
        if (!gzip.write(chunk)) await once(gzip, "drain")
      })
    // the header from the catalog, in the table's column order: an empty month still names its columns
    const columns = (yield* columnRows(sql`SELECT attname AS name FROM pg_attribute
      WHERE attrelid = ${table}::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`)).map((c) => c.name)
    yield* write(csvLine(columns))
    let rows = 0
    let last: string | null = null
    for (;;) {
      const after: string | null = last
      const page: ReadonlyArray<{ readonly [column: string]: unknown }> = yield* pageRows(
        sql`SELECT * FROM ${sql(table)}
        WHERE ${after === null ? sql`true` : sql`id > ${after}`} ORDER BY id LIMIT ${PAGE}`
      )
      if (page.length === 0) break
      yield* write(page.map((row) => csvLine(columns.map((c) => row[c]))).join(""))
      rows += page.length
      last = String(page[page.length - 1].id)
    }
    gzip.end()
    yield* Effect.promise(() => once(file, "close"))
    yield* Effect.promise(() => rename(partial, path))
    return { path, rows }
  }).pipe(
    Effect.tapErrorCause(() =>
      Effect.promise(() => rm(join(dir, `${table}.csv.gz.${process.pid}.partial`), { force: true }))
    )
  )
