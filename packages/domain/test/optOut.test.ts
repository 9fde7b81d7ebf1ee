import { describe, expect, it } from "vitest"
import { isStopRequest, STOP_WORDS } from "../src/optOut.js"

describe("opt-out by reply", () => {
  it("every STOP word, in any case, trimmed, with trailing . or !", () => {
    for (const w of STOP_WORDS) {
      expect(isStopRequest(w)).toBe(true)
      expect(isStopRequest(`  ${w.toLowerCase()}!! `)).toBe(true)
      expect(isStopRequest(`${w[0]}${w.slice(1).toLowerCase()}.`)).toBe(true)
    }
  })
  it("a sentence that contains a STOP word is not a request", () => {
    for (const t of ["Stop the meeting", "please stop", "STOP?", "STOPS", ""]) expect(isStopRequest(t)).toBe(false)
  })
})
