import { describe, expect, it } from "@effect/vitest"
import { InsufficientBalance } from "../src/index.js"

describe("errors", () => {
  it("carry their stable error_code", () => {
    const e = new InsufficientBalance({ message: "x", units_required: 3, units_available: 1, shortfall: [] })
    expect(e.error_code).toBe("INSUFFICIENT_BALANCE")
    expect(e._tag).toBe("InsufficientBalance")
  })
})
