/**
 * Global set-up of every test project: one migrated PGlite database, dumped to a tarball that every
 * new embedded database of the run starts from (`TUMA_PGLITE_TEMPLATE`, read by PgliteClient; set up for every project in vitest.shared.ts; the
 * servers the tests spawn inherit it). PGlite's initdb costs 6–35 s of a core here and the suites
 * open about a hundred databases; loading the dump costs 1–5 s. The file is named by a hash of the
 * migrations and PGlite's version, so a changed schema makes a new one; what the tests see is the
 * same database the migrations make.
 */
import { PGlite } from "@electric-sql/pglite"
import { Effect, Layer } from "effect"
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Migrations from "../src/Migrations.js"
import * as PgliteClient from "../src/PgliteClient.js"

const MIGRATIONS = fileURLToPath(new URL("../src/migrations/", import.meta.url))

const templatePath = () => {
  const hash = createHash("sha256")
  const pglite = join(dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")), "..", "package.json")
  hash.update(existsSync(pglite) ? readFileSync(pglite) : PGlite.name)
  for (const f of readdirSync(MIGRATIONS).sort()) hash.update(f).update(readFileSync(join(MIGRATIONS, f)))
  return join(tmpdir(), `tuma-pglite-template-${hash.digest("hex").slice(0, 16)}.tar`)
}

export default async function setup() {
  if (process.env.TUMA_PGLITE_TEMPLATE !== undefined) return
  const path = templatePath()
  if (!existsSync(path)) {
    const dump = await Effect.runPromise(Effect.scoped(
      Effect.gen(function*() {
        const client = yield* PgliteClient.PgliteClient
        yield* Migrations.runMigrations()
        return yield* Effect.promise(() => client.pglite.dumpDataDir("none"))
      }).pipe(Effect.provide(Layer.fresh(PgliteClient.layer({ dataDir: "memory://", template: "" }))))
    ))
    const partial = `${path}.${process.pid}`
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
    renameSync(partial, path)
  }
  process.env.TUMA_PGLITE_TEMPLATE = path
}
