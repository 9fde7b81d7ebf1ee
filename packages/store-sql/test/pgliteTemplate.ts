/**
 * Global set-up of every test project (vitest.shared.ts): one migrated PGlite database, dumped to a
 * tarball that every new embedded database of the run starts from (`TUMA_PGLITE_TEMPLATE`, read by
 * PgliteClient; the servers the tests spawn inherit it). PGlite's initdb costs 6–35 s of a core here
 * and the suites open about a hundred databases; loading the dump costs 1–5 s. The file is named by a
 * hash of the migrations and PGlite's version, so a changed schema makes a new one; what the tests
 * see is the same database the migrations make. It is made in a child process (fixtures/
 * makePgliteTemplate.ts), whose imports resolve from store-sql whichever project runs first.
 */
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const MIGRATIONS = fileURLToPath(new URL("../src/migrations/", import.meta.url))
const MAKE = fileURLToPath(new URL("./fixtures/makePgliteTemplate.ts", import.meta.url))
const PGLITE = fileURLToPath(new URL("../node_modules/@electric-sql/pglite/package.json", import.meta.url))

const templatePath = () => {
  const hash = createHash("sha256")
  if (existsSync(PGLITE)) hash.update(readFileSync(PGLITE))
  for (const f of readdirSync(MIGRATIONS).sort()) hash.update(f).update(readFileSync(join(MIGRATIONS, f)))
  return join(tmpdir(), `tuma-pglite-template-${hash.digest("hex").slice(0, 16)}.tar`)
}

export default function setup() {
  if (process.env.TUMA_PGLITE_TEMPLATE !== undefined) return
  const path = templatePath()
  if (!existsSync(path)) {
    execFileSync(process.execPath, ["--conditions=@tuma/source", "--import", "tsx", MAKE, path], {
      stdio: "inherit",
      timeout: 300_000
    })
  }
  process.env.TUMA_PGLITE_TEMPLATE = path
}
