import { fileURLToPath } from "node:url"
import type { UserConfig } from "vitest/config"

// Workspace packages resolve to their TypeScript sources through the "@tuma/source" export
// condition (no build step in the edit loop); Vite's default conditions follow it.
const conditions = ["@tuma/source", "module", "node", "development|production"]

export const shared: UserConfig = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@tuma/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    // one migrated PGlite database per run that new embedded databases start from (no initdb each)
    globalSetup: [fileURLToPath(new URL("./packages/store-sql/test/pgliteTemplate.ts", import.meta.url))],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
}
