// Copy-paste check of the packages' sources (run by `pnpm lint`): jscpd over packages/*/src with the
// settings of .jscpd.json (jscpd's own defaults: clones of 50 tokens and 5 lines or more; migrations
// are left out, being history that is never edited), then fails when the duplicated lines exceed
// `maxDuplicatedLines` of that file, printing the count and the largest clones. Before the sources
// were reshaped into one home per rule they held 57 duplicated lines; the limit is half of that.
// Lower the number when copies are merged; never raise it to let a copy in.
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..")
const config = JSON.parse(fs.readFileSync(path.join(root, ".jscpd.json"), "utf8"))
const dirs = fs.readdirSync(path.join(root, "packages"))
  .map((p) => path.join("packages", p, "src"))
  .filter((d) => fs.existsSync(path.join(root, d)))
const out = fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "jscpd-"))
const bin = path.join(root, "node_modules", ".bin", "jscpd")
execFileSync(bin, ["--config", path.join(root, ".jscpd.json"), "--output", out, ...dirs], { cwd: root, stdio: "ignore" })
const report = JSON.parse(fs.readFileSync(path.join(out, "jscpd-report.json"), "utf8"))
fs.rmSync(out, { recursive: true, force: true })
const total = report.statistics.total
const clones = [...report.duplicates].sort((a, b) => b.lines - a.lines)
const where = (f) => `${f.name}:${f.start}-${f.end}`
console.log(`duplicates: ${total.duplicatedLines} duplicated lines in ${total.clones} clones over ${total.sources} files (limit ${config.maxDuplicatedLines})`)
for (const d of clones.slice(0, process.env.ALL ? clones.length : 10)) console.log(`  ${d.lines} ${where(d.firstFile)} ~ ${where(d.secondFile)}`)
if (total.duplicatedLines > config.maxDuplicatedLines) {
  console.log(`duplicates: ${total.duplicatedLines} > ${config.maxDuplicatedLines}: factor the copies out (ALL=1 lists every clone)`)
  process.exit(1)
}
