/** `tuma serve`/`tuma worker` read the delivery workers' numeric settings from TUMA_DELIVERY_* (docs/delivery.md). */
import { describe, expect, it } from "@effect/vitest"
import { optionsFromEnv } from "../src/runtime/DeliveryWorkers.js"

describe("delivery options from the environment", () => {
  it("maps each variable to its option, and leaves the rest to the defaults", () => {
    expect(optionsFromEnv({})).toEqual({})
    expect(optionsFromEnv({
      TUMA_DELIVERY_CLAIM_BATCH: "250",
      TUMA_DELIVERY_FLUSH_MS: "20",
      TUMA_DELIVERY_POLL_MS: "",
      TUMA_DELIVERY_DISPATCH: "0"
    })).toEqual({ claimBatch: 250, flushDelayMs: 20, dispatch: false })
  })

  it("refuses a value that is not a non-negative number, naming the variable", () => {
    expect(() => optionsFromEnv({ TUMA_DELIVERY_FLUSH_MS: "-1" })).toThrow(/TUMA_DELIVERY_FLUSH_MS/)
    expect(() => optionsFromEnv({ TUMA_DELIVERY_LEASE_MS: "soon" })).toThrow(/TUMA_DELIVERY_LEASE_MS/)
  })
})
