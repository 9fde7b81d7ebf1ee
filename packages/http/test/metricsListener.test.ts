/**
 * Where `/metrics` is served (issue 13): the options read from the environment and the
 * `--metrics-port` flag (loopback unless `TUMA_METRICS_HOST` says otherwise; the flag beats the
 * variable; no listener without either; a bad port is refused), and `tuma serve --metrics-port 0`
 * as a real process: it prints the listener's URL, which is on 127.0.0.1, answers Prometheus text
 * counting the API's requests, and the API port itself does not serve metrics.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { optionsFromEnv } from "../src/observability/Observability.js"

describe("metrics listener options", () => {
  it("no listener unless a port is given; loopback by default; the flag wins over the variable", () => {
    expect(optionsFromEnv({}).metrics.port).toBeUndefined()
    expect(optionsFromEnv({ TUMA_METRICS_PORT: "9464" }).metrics).toEqual({ port: 9464, host: "127.0.0.1" })
    expect(optionsFromEnv({ TUMA_METRICS_PORT: "9464" }, { metricsPort: "9100" }).metrics.port).toBe(9100)
    expect(optionsFromEnv({ TUMA_METRICS_PORT: "9464", TUMA_METRICS_HOST: "0.0.0.0" }).metrics.host).toBe("0.0.0.0")
    expect(() => optionsFromEnv({}, { metricsPort: "nine" })).toThrow(/--metrics-port/)
    expect(() => optionsFromEnv({ TUMA_METRICS_PORT: "-1" })).toThrow()
  })
})

const BIN = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), "tuma-metrics-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

it("tuma serve --metrics-port 0 serves Prometheus text on loopback, not on the API port", async () => {
  const child = spawn(
    process.execPath,
    ["--conditions=@tuma/source", "--import", "tsx", BIN, "serve", "--demo", "--metrics-port", "0"],
    { env: { ...process.env, TUMA_DATA_DIR: dataDir, PORT: "0", TUMA_WORKERS: "0" }, stdio: ["ignore", "pipe", "pipe"] }
  )
  let out = ""
  const urls = await new Promise<{ api: string; metrics: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 120_000)
    const look = () => {
      const api = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      const metrics = /metrics on (http:\/\/\S+)/.exec(out)?.[1]
      if (api !== undefined && metrics !== undefined) {
        clearTimeout(timer)
        resolve({ api, metrics })
      }
    }
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      look()
    })
    child.stderr!.on("data", (d: Buffer) => void (out += d.toString()))
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)))
  })
  try {
    expect(new URL(urls.metrics).hostname).toBe("127.0.0.1")
    expect(new URL(urls.metrics).port).not.toBe(new URL(urls.api).port)
    for (let i = 0; i < 3; i++) expect((await fetch(`${urls.api}/v1/balance`)).status).toBe(401)
    const scrape = await fetch(urls.metrics)
    expect(scrape.status).toBe(200)
    expect(scrape.headers.get("content-type")).toMatch(/text\/plain/)
    const text = await scrape.text()
    const line = text.split("\n").find((l) =>
      l.startsWith("tuma_http_requests_total{") && l.includes("route=\"/v1/balance\"") && l.includes("status=\"401\"")
    )
    expect(line).toBeDefined()
    expect(Number(line!.split(" ").at(-1))).toBeGreaterThanOrEqual(3)
    expect((await fetch(`${urls.api}/metrics`)).status).toBe(404)
  } finally {
    child.kill("SIGTERM")
    await new Promise((r) => child.once("exit", r))
  }
}, 180_000)
