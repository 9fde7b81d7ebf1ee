/**
 * The helpers of `pnpm bench:day` (packages/http/bench/day): the seeded plan of the hour, quantiles, the
 * throughput over backlogged seconds, the backlog reading of the samples, the chart's ticks and SVG.
 */
import { describe, expect, it } from "vitest"
import { campaignRecipients, singleBody } from "../bench/day/load.js"
import { escapeXml, figure, panel, ticks } from "../bench/day/plot.js"
import {
  backlogAt,
  backloggedThroughput,
  planDay,
  quantile,
  scaledLoad,
  sumSeries,
  windowed
} from "../bench/day/series.js"

describe("the day's plan", () => {
  it("scales the full day and plays it over the compressed hour, the same for the same seed", () => {
    const load = scaledLoad(0.02, 60)
    expect(load).toEqual({ campaigns: 10, singles: 2000, spanMs: 60_000, seed: 1 })
    expect(scaledLoad(1, 6)).toMatchObject({ campaigns: 500, singles: 100_000, spanMs: 600_000 })
    expect(scaledLoad(0.0001, 6)).toMatchObject({ campaigns: 1, singles: 10 })
    const plan = planDay(load)
    expect(plan.campaigns).toHaveLength(10)
    expect(plan.singles).toHaveLength(2000)
    for (const times of [plan.campaigns, plan.singles]) {
      expect([...times].sort((a, b) => a - b)).toEqual(times)
      expect(times.every((t) => t >= 0 && t < 60_000)).toBe(true)
    }
    expect(planDay(load)).toEqual(plan)
    expect(planDay({ ...load, seed: 2 })).not.toEqual(plan)
    // spread over the hour, not bunched: each half gets a fair share of the singles
    expect(plan.singles.filter((t) => t < 30_000).length).toBeGreaterThan(800)
    expect(plan.singles.filter((t) => t >= 30_000).length).toBeGreaterThan(800)
  })

  it("gives every recipient of the day its own number", () => {
    const numbers = new Set([
      ...[0, 1, 499].flatMap((c) => campaignRecipients(c, 1000).map((r) => r.to)),
      ...[0, 1, 99_999].map((i) => singleBody(i).recipient)
    ])
    expect(numbers.size).toBe(3003)
    expect([...numbers].every((n) => /^\+2557[15]\d{7}$/.test(n))).toBe(true)
  })
})

describe("the run's arithmetic", () => {
  it("quantiles by nearest rank, NaN when empty", () => {
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3)
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2)
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9)
    expect(quantile([7], 0.99)).toBe(7)
    expect(quantile([], 0.5)).toBeNaN()
  })

  it("sums per-second series with holes", () => {
    // eslint-disable-next-line no-sparse-arrays -- a hole is a second without a count
    expect(sumSeries([[1, 2, 3], [10, , 30, 40]])).toEqual([11, 2, 33, 40])
    expect(sumSeries([])).toEqual([])
  })

  it("averages a per-second series over windows, the last one shorter", () => {
    // eslint-disable-next-line no-sparse-arrays -- a hole is a second without a count
    expect(windowed([1, 3, , 5, 10], 2)).toEqual([[0.5, 2], [2.5, 2.5], [4, 10]])
    expect(windowed([4, 6], 1)).toEqual([[0, 4], [1, 6]])
    expect(windowed([], 5)).toEqual([])
  })

  it("measures throughput over the inner seconds of backlogged stretches only", () => {
    const perSecond = [100, 480, 500, 495, 300, 0, 0, 50, 450, 10]
    const backlogged = (s: number) => (s >= 1 && s <= 4) || s === 8
    const t = backloggedThroughput(perSecond, backlogged, 500)
    // seconds 2 and 3 (1 and 4 are the stretch's edges, 8 stands alone)
    expect(t).toEqual({ seconds: 2, median: 495, p90: 500, peak: 500, limit: 500, ratio: 0.99 })
    // eslint-disable-next-line no-sparse-arrays -- a hole is a second without a count
    expect(backloggedThroughput([, 3], () => false, 10)).toMatchObject({ seconds: 0, peak: 3, median: NaN })
  })

  it("reads the backlog from the sample nearest the second", () => {
    const samples = [{ t: 0.2, queue: 0 }, { t: 1.3, queue: 900 }, { t: 2.2, queue: 1200 }, { t: 9, queue: 5000 }]
    const at = backlogAt(samples, "queue", 1000)
    expect([0, 1, 2, 3, 5, 9].map(at)).toEqual([false, false, true, true, false, true])
  })
})

describe("the plot", () => {
  it("ticks reach the largest value in round steps", () => {
    expect(ticks(1000, 5)).toEqual([0, 200, 400, 600, 800, 1000])
    expect(ticks(2.4, 5)).toEqual([0, 0.5, 1, 1.5, 2, 2.5])
    expect(ticks(0)).toEqual([0])
    expect(ticks(NaN)).toEqual([0])
  })

  it("draws each series as polylines broken at NaN, with escaped labels and reference lines", () => {
    const svg = panel({
      title: "Queue <depth> & delay",
      xLabel: "s",
      yLabel: "n",
      series: [{ name: "a", color: "#123456", points: [[0, 1], [1, 2], [2, NaN], [3, 4], [4, 5]] }],
      references: [{ y: 500, label: "limit" }]
    })
    const lines = [...svg.matchAll(/<polyline[^>]*points="([^"]*)"/g)].map((m) => m[1]!.split(" ").length)
    expect(lines).toEqual([2, 2])
    expect(svg).toContain("Queue &lt;depth&gt; &amp; delay")
    expect(svg).toContain("stroke-dasharray")
    expect(escapeXml(`"x"`)).toBe("&quot;x&quot;")
    const doc = figure([{ title: "one", xLabel: "", yLabel: "", series: [] }], "caption")
    expect(doc.startsWith("<svg")).toBe(true)
    expect(doc.endsWith("</svg>")).toBe(true)
  })
})
