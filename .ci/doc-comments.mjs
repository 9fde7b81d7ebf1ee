// Fails (exit 1) when an export of a package's public API has no doc comment, listing each.
// Public API (README, "Versioning"): what a package's root entry point exports (src/index.ts),
// namespaces included (`export * as Database from "./Database.js"` → every export of Database).
// An export is documented when one of its declarations carries a /** … */ comment, so a Schema
// and its type twin (`export const X = Schema…` + `export type X = typeof X.Type`) need one.
// Usage: node .ci/doc-comments.mjs [package …]      (ALL=1: every module under src/, for a survey)
import fs from "node:fs"
import path from "node:path"
import ts from "typescript"

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..")
const packages = process.argv.slice(2).length > 0
  ? process.argv.slice(2)
  : fs.readdirSync(path.join(root, "packages")).filter((p) =>
    fs.existsSync(path.join(root, "packages", p, "package.json")) &&
    !JSON.parse(fs.readFileSync(path.join(root, "packages", p, "package.json"), "utf8")).private
  )

const walk = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? walk(path.join(dir, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [path.join(dir, e.name)] : []
  )

const entries = packages.flatMap((p) =>
  process.env.ALL ? walk(path.join(root, "packages", p, "src")) : [path.join(root, "packages", p, "src", "index.ts")]
)
const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} }
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.base.json"), {}, host)
const program = ts.createProgram(entries, { ...config.options, noEmit: true })
const checker = program.getTypeChecker()
const ours = (file) => file.startsWith(path.join(root, "packages")) && !file.includes("node_modules")

const missing = new Map()
const seen = new Set()
const checkModule = (moduleSymbol, name) => {
  if (seen.has(moduleSymbol)) return
  seen.add(moduleSymbol)
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
    const declarations = (symbol.declarations ?? []).filter((d) => ours(d.getSourceFile().fileName))
    if (declarations.length === 0) continue
    const namespace = declarations.find((d) => ts.isSourceFile(d))
    if (namespace) { // export * as Name from "./Module.js"
      checkModule(symbol, `${name}.${exported.getName()}`)
      continue
    }
    const documented = declarations.some((d) =>
      ts.getJSDocCommentsAndTags(ts.isVariableDeclaration(d) ? d.parent.parent : d).length > 0
    )
    if (!documented) {
      const d = declarations[0]
      const { line } = d.getSourceFile().getLineAndCharacterOfPosition(d.getStart())
      missing.set(`${path.relative(root, d.getSourceFile().fileName)}:${line + 1}`, `${name}.${exported.getName()}`)
    }
  }
}
for (const file of entries) {
  const source = program.getSourceFile(file)
  const moduleSymbol = source && checker.getSymbolAtLocation(source)
  if (moduleSymbol) checkModule(moduleSymbol, path.relative(path.join(root, "packages"), file).replace(/\/src\/|\.ts$/g, (m) => m === ".ts" ? "" : "/"))
}
if (missing.size > 0) {
  for (const [where, what] of [...missing].sort()) console.log(`${where}  ${what}`)
  console.log(`${missing.size} export(s) without a doc comment`)
  process.exit(1)
}
console.log(`every export of ${packages.join(", ")} has a doc comment`)
