/**
 * `tuma serve --workers N` (issue 12) as real processes: the option's values; refused on the
 * embedded database with a clear message; on PostgreSQL two HTTP processes share one port (new
 * connections go to both, each answers sends), only the first delivers, one scrape of the
 * primary's metrics listener shows both processes, a killed process is replaced, and SIGTERM stops
 * every process cleanly (exit 0, no process left).
 */
import { Effect, Exit, Scope } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { parseWorkers, refusal } from "../src/runtime/Cluster.js"
import { scratchDatabase, testDatabaseUrl } from "./harness.js"

const BIN = fileURLToPath(new URL("../src/bin.ts", import.meta.url))

describe("--workers", () => {
  it("is 1 by default, auto is the number of cores, anything else is refused", () => {
    expect(parseWorkers(undefined)).toBe(1)
    expect(parseWorkers("3")).toBe(3)
    expect(parseWorkers("auto", 2)).toBe(2)
    for (const bad of ["0", "-1", "1.5", "two", "65"]) expect(() => parseWorkers(bad)).toThrow(/--workers/)
    expect(refusal(1, { _tag: "Pglite" })).toBeUndefined()
    expect(refusal(2, { _tag: "Postgres" })).toBeUndefined()
    expect(refusal(2, { _tag: "Pglite" })).toMatch(/PostgreSQL/)
  })
})

const spawnServe = (args: Array<string>, env: Record<string, string>) => {
  const child = spawn(process.execPath, ["--conditions=@tuma/source", "--import", "tsx", BIN, "serve", ...args], {
    env: { ...process.env, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let out = ""
  child.stdout!.on("data", (d: Buffer) => void (out += d.toString()))
  child.stderr!.on("data", (d: Buffer) => void (out += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  const waitFor = async (re: RegExp, ms = 120_000) => {
    const deadline = Date.now() + ms
    while (Date.now() < deadline) {
      const m = re.exec(out)
      if (m) return m
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${out}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`timed out waiting for ${re}: ${out}`)
  }
  return { child, out: () => out, exited, waitFor }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

it("on the embedded database several processes are refused with a clear message", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "tuma-cluster-"))
  try {
    const serve = spawnServe(["--workers", "2"], { TUMA_DATA_DIR: dataDir, DATABASE_URL: "" })
    expect(await serve.exited).toBe(1)
    expect(serve.out()).toMatch(/--workers 2: several server processes need PostgreSQL \(DATABASE_URL\)/)
    expect(serve.out()).not.toMatch(/listening on/)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 60_000)

describe.skipIf(!testDatabaseUrl)("two server processes on PostgreSQL", () => {
  const scope = Effect.runSync(Scope.make())
  let serve: ReturnType<typeof spawnServe> | undefined
  afterAll(async () => {
    if (serve !== undefined && serve.child.exitCode === null) serve.child.kill("SIGKILL")
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  it("share one port, deliver once, show both in one scrape, replace a dead one, stop together", async () => {
    const databaseUrl = await Effect.runPromise(Scope.extend(scratchDatabase, scope))
    serve = spawnServe(["--workers", "2", "--demo", "--metrics-port", "0"], { DATABASE_URL: databaseUrl })
    const url = (await serve.waitFor(/listening on (http:\/\/\S+)/))[1]!
    const pids = (await serve.waitFor(/2 server processes \(pids (\d+), (\d+)\)/)).slice(1, 3).map(Number)
    const metrics = (await serve.waitFor(/metrics on (http:\/\/\S+)/))[1]!
    const key = /demo live key: (tuma_live_\w+)/.exec(serve.out())![1]!
    expect(/demo live key/g[Symbol.match](serve.out())).toHaveLength(1) // seeded once

    const send = (i: number) =>
      fetch(`${url}/v1/sms/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", connection: "close" },
        body: JSON.stringify({
          recipient: `+2557123400${String(i).padStart(2, "0")}`,
          sender_id: "TUMA",
          body: `Hi ${i}`
        })
      })
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i)))
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202))
    const uids = await Promise.all(answers.map(async (a) => ((await a.json()) as any).data.uid as string))

    // every message is delivered (by the first process's workers), once
    const deadline = Date.now() + 30_000
    let statuses: Array<string> = []
    while (Date.now() < deadline) {
      statuses = await Promise.all(uids.map(async (uid) => {
        const r = await fetch(`${url}/v1/sms/messages/${uid}`, { headers: { authorization: `Bearer ${key}` } })
        return ((await r.json()) as any).data.status as string
      }))
      if (statuses.every((s) => s === "delivered")) break
      await new Promise((r) => setTimeout(r, 300))
    }
    expect(statuses).toEqual(Array(20).fill("delivered"))

    // one scrape: both processes served sends; only the first recorded final states
    const text = await (await fetch(metrics)).text()
    const sendsOf = (p: string) =>
      text.split("\n").filter((l) =>
        l.startsWith(`tuma_http_requests_total{process="${p}",`) && l.includes("route=\"/v1/sms/messages\"") &&
        l.includes("status=\"202\"")
      ).reduce((sum, l) => sum + Number(l.split(" ").at(-1)), 0)
    expect(sendsOf("1")).toBeGreaterThan(0)
    expect(sendsOf("2")).toBeGreaterThan(0)
    expect(sendsOf("1") + sendsOf("2")).toBe(20)
    const finals = text.split("\n").filter((l) => l.startsWith("tuma_messages_final_total{"))
    expect(finals.some((l) => l.includes("process=\"1\"") && l.includes("status=\"delivered\""))).toBe(true)
    expect(finals.some((l) => l.includes("process=\"2\""))).toBe(false)

    // a dead HTTP process is replaced; the server keeps answering meanwhile
    process.kill(pids[1]!, "SIGKILL")
    await serve.waitFor(/server process 2 \(pid \d+\) exited \(SIGKILL\); restarting it/)
    for (let i = 20; i < 26; i++) expect((await send(i)).status).toBe(202)

    // SIGTERM: every process drains and exits; the primary exits 0
    serve.child.kill("SIGTERM")
    expect(await serve.exited).toBe(0)
    await new Promise((r) => setTimeout(r, 500))
    expect(pids.filter(alive)).toEqual([])
  }, 240_000)
})
