import type { UserConfig } from "vitest/config"

export const shared: UserConfig = {
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
}
