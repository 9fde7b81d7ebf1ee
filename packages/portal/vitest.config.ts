import { defineProject, mergeConfig } from "vitest/config"
import { shared } from "../../vitest.shared.js"

export default mergeConfig(
  shared,
  defineProject({
    test: {
      name: "portal",
      globalSetup: ["./test/globalSetup.ts"],
      testTimeout: 180_000,
      hookTimeout: 240_000
    }
  })
)
