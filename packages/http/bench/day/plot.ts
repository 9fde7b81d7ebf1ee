/**
 * Line charts of `pnpm bench:day` without a plotting dependency: `panel` writes one chart (axes, ticks,
 * a polyline per series, dashed reference lines, a legend) as SVG, `figure` stacks panels into one SVG
 * document, and `renderPng` has Debian's headless chromium take its screenshot (no npm package).
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** One line of a chart: its name, colour and points (x, y); NaN y values break the line. */
export interface Series {
  readonly name: string
  readonly color: string
  readonly points: ReadonlyArray<readonly [number, number]>
}

/** A chart: title, axis labels, lines, and horizontal reference lines (a limit, say). */
export interface Panel {
  readonly title: string
  readonly xLabel: string
  readonly yLabel: string
  readonly series: ReadonlyArray<Series>
  readonly references?: ReadonlyArray<{ readonly y: number; readonly label: string }>
}

const WIDTH = 900
const HEIGHT = 260
const M = { left: 70, right: 20, top: 30, bottom: 40 }

/** Escapes text for SVG. */
export const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** Round tick values from 0 to at least `max`: 1, 2 or 5 × a power of ten apart, about `count` of them. */
export const ticks = (max: number, count = 5): Array<number> => {
  if (!(max > 0)) return [0]
  const raw = max / count
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((k) => k * power).find((s) => s >= raw) ?? 10 * power
  return Array.from({ length: Math.ceil(max / step - 1e-9) + 1 }, (_, i) => Number((i * step).toPrecision(12)))
}

const label = (v: number) => (Math.abs(v) >= 10_000 ? `${v / 1000}k` : String(v))

/** The largest x of the panels' points (to share one x axis). */
export const xExtent = (panels: ReadonlyArray<Panel>) =>
  Math.max(1, ...panels.flatMap((p) => p.series.flatMap((s) => s.points.map(([x]) => x))).filter(Number.isFinite))

/** The SVG of one chart, placed `top` pixels down, its x axis reaching at least `xMax`. */
export const panel = (p: Panel, top = 0, xMax = xExtent([p])): string => {
  const finite = (xs: Array<number>) => xs.filter((v) => Number.isFinite(v))
  const ys = finite([...p.series.flatMap((s) => s.points.map(([, y]) => y)), ...(p.references ?? []).map((r) => r.y)])
  const xTicks = ticks(xMax, 10)
  const yTicks = ticks(Math.max(1, ...ys), 5)
  const xEnd = xTicks[xTicks.length - 1]! || 1
  const yMax = yTicks[yTicks.length - 1]! || 1
  const w = WIDTH - M.left - M.right
  const h = HEIGHT - M.top - M.bottom
  const X = (x: number) => (M.left + (x / xEnd) * w).toFixed(1)
  const Y = (y: number) => (top + M.top + h - (y / yMax) * h).toFixed(1)
  const out: Array<string> = [
    `<text x="${M.left}" y="${top + 18}" font-size="14" font-weight="bold">${escapeXml(p.title)}</text>`,
    `<rect x="${M.left}" y="${top + M.top}" width="${w}" height="${h}" fill="none" stroke="#888"/>`
  ]
  for (const t of xTicks) {
    out.push(`<line x1="${X(t)}" x2="${X(t)}" y1="${Y(0)}" y2="${Y(yMax)}" stroke="#eee"/>`)
    out.push(`<text x="${X(t)}" y="${Number(Y(0)) + 14}" font-size="10" text-anchor="middle">${label(t)}</text>`)
  }
  for (const t of yTicks) {
    out.push(`<line x1="${X(0)}" x2="${X(xEnd)}" y1="${Y(t)}" y2="${Y(t)}" stroke="#eee"/>`)
    out.push(`<text x="${M.left - 6}" y="${Number(Y(t)) + 3}" font-size="10" text-anchor="end">${label(t)}</text>`)
  }
  out.push(
    `<text x="${M.left + w / 2}" y="${top + HEIGHT - 8}" font-size="11" text-anchor="middle">${
      escapeXml(p.xLabel)
    }</text>`,
    `<text x="14" y="${top + M.top + h / 2}" font-size="11" text-anchor="middle" transform="rotate(-90 14 ${
      top + M.top + h / 2
    })">${escapeXml(p.yLabel)}</text>`
  )
  for (const r of p.references ?? []) {
    out.push(
      `<line x1="${X(0)}" x2="${X(xEnd)}" y1="${Y(r.y)}" y2="${Y(r.y)}" stroke="#c00" stroke-dasharray="6 4"/>`,
      `<text x="${X(xEnd)}" y="${Number(Y(r.y)) - 4}" font-size="10" fill="#c00" text-anchor="end">${
        escapeXml(r.label)
      }</text>`
    )
  }
  p.series.forEach((s, i) => {
    const runs: Array<Array<string>> = [[]]
    for (const [x, y] of s.points) {
      if (Number.isFinite(y)) runs[runs.length - 1]!.push(`${X(x)},${Y(y)}`)
      else if (runs[runs.length - 1]!.length > 0) runs.push([])
    }
    for (const run of runs.filter((r) => r.length > 0)) {
      out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${run.join(" ")}"/>`)
    }
    const lx = M.left + 10 + i * 200
    out.push(
      `<line x1="${lx}" x2="${lx + 18}" y1="${top + M.top + 12}" y2="${
        top + M.top + 12
      }" stroke="${s.color}" stroke-width="3"/>`,
      `<text x="${lx + 22}" y="${top + M.top + 16}" font-size="11">${escapeXml(s.name)}</text>`
    )
  })
  return out.join("\n")
}

/** The panels stacked into one SVG document, with a caption line at the bottom. */
export const figure = (panels: ReadonlyArray<Panel>, caption: string) => {
  const height = panels.length * HEIGHT + 24
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...panels.map((p, i) => panel(p, i * HEIGHT, xExtent(panels))),
    `<text x="${M.left}" y="${height - 8}" font-size="11" fill="#444">${escapeXml(caption)}</text>`,
    `</svg>`
  ].join("\n")
}

/** The size (width, height) of a figure of `panels` charts. */
export const figureSize = (panels: number) => [WIDTH, panels * HEIGHT + 24] as const

/** Writes `svg` as a PNG at `path` with headless chromium (CHROMIUM, default /usr/bin/chromium). */
export const renderPng = (svg: string, size: readonly [number, number], path: string) => {
  const dir = mkdtempSync(join(tmpdir(), "bench-day-plot-"))
  try {
    const file = join(dir, "plot.svg")
    writeFileSync(file, svg)
    execFileSync(process.env.CHROMIUM ?? "/usr/bin/chromium", [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--hide-scrollbars",
      `--user-data-dir=${join(dir, "profile")}`,
      `--window-size=${size[0]},${size[1]}`,
      `--screenshot=${path}`,
      `file://${file}`
    ], { stdio: "ignore", timeout: 120_000 })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
