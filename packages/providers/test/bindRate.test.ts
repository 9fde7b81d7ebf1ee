/** A bind's own rate: at most N submits in any span, the next one due when the oldest of the last N leaves it. */
import { describe, expect, it } from "vitest"
import { BIND_RATE_SPAN_MS, makeBindRate } from "../src/smpp/bindRate.js"

describe("bind rate", () => {
  it("lets N go at once, then the next when the oldest of them is a span old", () => {
    const rate = makeBindRate(3, 1000)
    for (const t of [0, 10, 20]) {
      expect(rate.waitMs(t)).toBe(0)
      rate.record(t)
    }
    expect(rate.waitMs(30)).toBe(970)
    expect(rate.waitMs(1000)).toBe(0)
    rate.record(1000)
    expect(rate.waitMs(1000)).toBe(10)
    rate.record(1010)
    rate.record(1020)
    expect(rate.waitMs(1500)).toBe(500)
  })

  it("never has more than N in any span, whatever the moments asked", () => {
    const n = 50
    const rate = makeBindRate(n)
    const sent: Array<number> = []
    let now = 0
    while (sent.length < 1000) {
      now += Math.floor(Math.random() * 7)
      const wait = rate.waitMs(now)
      if (wait > 0) now += wait
      rate.record(now)
      sent.push(now)
    }
    for (let i = n; i < sent.length; i++) expect(sent[i]! - sent[i - n]!).toBeGreaterThanOrEqual(BIND_RATE_SPAN_MS)
  })

  it("a rate below 1 is one a span", () => {
    const rate = makeBindRate(0.2, 1000)
    rate.record(0)
    expect(rate.waitMs(1)).toBe(999)
  })
})
