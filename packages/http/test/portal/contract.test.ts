/**
 * The portal contract is bundled by the browser app (Vite): it must import nothing from `node:`,
 * and every endpoint lives under `/portal/api/`.
 */
import { HttpApi } from "@effect/platform"
import { build } from "esbuild"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { PortalApi } from "../../src/portal/Api.js"

describe("portal contract", () => {
  it("bundles for the browser without any node: module", async () => {
    const entry = fileURLToPath(new URL("../../src/portal/Api.ts", import.meta.url))
    const nodeImports: Array<string> = []
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: "browser",
      format: "esm",
      logLevel: "silent",
      plugins: [{
        name: "no-node",
        setup(b) {
          b.onResolve({ filter: /^node:|^(crypto|fs|net|http|path|os|stream)$/ }, (args) => {
            nodeImports.push(`${args.path} from ${args.importer}`)
            return { path: args.path, external: true }
          })
        }
      }]
    })
    expect(nodeImports).toEqual([])
    expect(result.outputFiles[0].text.length).toBeGreaterThan(0)
  })

  it("serves every endpoint under /portal/api/", () => {
    const paths: Array<string> = []
    HttpApi.reflect(PortalApi as any, {
      onGroup() {},
      onEndpoint({ endpoint }) {
        paths.push(`${endpoint.method} ${endpoint.path}`)
      }
    })
    expect(paths.length).toBeGreaterThan(30)
    for (const p of paths) expect(p).toMatch(/^[A-Z]+ \/portal\/api\//)
  })
})
