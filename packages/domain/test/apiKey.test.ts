/** The API key's shape and the documentation placeholders (decisions §2). */
import { describe, expect, it } from "vitest"
import { API_KEY_PATTERN, isPlaceholderKey } from "../src/apiKey.js"

describe("documentation placeholders", () => {
  it("are refused", () => {
    for (
      const key of [
        "YOUR_API_KEY",
        "<API_KEY>",
        "tuma_live_",
        "tuma_live_xxxxxxxxxxxxxxxxxxxxxxxx",
        "tuma_test_XXXXXXXXXXXXXXXXXXXX",
        "tuma_test_xxxxxxxx...",
        "tuma_live_abc…",
        "tuma_live_yourapikey",
        "tuma_live_YourApiKeyHere",
        "tuma_test_example_key",
        "tuma_live_placeholder"
      ]
    ) expect(isPlaceholderKey(key), key).toBe(true)
  })

  it("are not issued keys whose random part begins with such a word", () => {
    for (
      const key of [
        "tuma_live_api7Qm2XvL0pRk9sT3wYb8NcD1eF4gH6jK5lZaBq",
        "tuma_test_KEY0x9Wm3Pq8Rt2Ys7Uv1Zb4Nc6Df5Gh0Jk3Lm8Qa",
        "tuma_live_your1Ab2Cd3Ef4Gh5Ij6Kl7Mn8Op9Qr0St1Uv2W",
        "tuma_live_example9Ab8Cd7Ef6Gh5Ij4Kl3Mn2Op1Qr0StUv"
      ]
    ) {
      expect(API_KEY_PATTERN.test(key), key).toBe(true)
      expect(isPlaceholderKey(key), key).toBe(false)
    }
  })
})
