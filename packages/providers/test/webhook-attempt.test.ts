/** The plain decisions of a webhook attempt (src/webhook/attempt.ts): callable URLs, meaning of a status. */
import { describe, expect, it } from "vitest"
import { answerOf, parseTarget } from "../src/webhook/attempt.js"

describe("parseTarget", () => {
  it("takes http and https URLs, names what is wrong with anything else", () => {
    expect(parseTarget("https://example.com/hook")).toBeInstanceOf(URL)
    expect(parseTarget("http://[::1]:8080/x")).toBeInstanceOf(URL)
    expect(parseTarget("not a url")).toBe("invalid URL: not a url")
    expect(parseTarget("ftp://example.com/")).toBe("unsupported URL scheme: ftp:")
  })
})

describe("answerOf", () => {
  it("2xx succeeds, a redirect is not followed (its Location shown), anything else is a failure", () => {
    expect(answerOf(204, undefined, 3)).toEqual({ outcome: "success", status: 204, latencyMs: 3, error: null })
    expect(answerOf(302, "https://elsewhere/", 4)).toEqual({
      outcome: "failure",
      status: 302,
      latencyMs: 4,
      error: "redirect 302 not followed (Location: https://elsewhere/)"
    })
    expect(answerOf(301, undefined, 1).error).toBe("redirect 301 not followed")
    expect(answerOf(500, undefined, 2)).toEqual({ outcome: "failure", status: 500, latencyMs: 2, error: "HTTP 500" })
  })
})
