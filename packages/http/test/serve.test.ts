/**
 * `tuma serve --demo` as a real process (the README's first command, on a fresh data directory):
 * it prints the two demo keys once and `listening on …`, the keys work, a second start on the same
 * store does not print keys again, and SIGTERM stops it gracefully: an in-flight request completes,
 * the process exits 0 and the embedded store reopens cleanly.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, expect, it } from "vitest"

const BIN = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), "tuma-serve-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const start = (args: Array<string>) =>
  new Promise<{ child: ChildProcess; out: () => string; url: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=@tuma/source", "--import", "tsx", BIN, "serve", ...args], {
      env: { ...process.env, TUMA_DATA_DIR: dataDir, PORT: "0", TUMA_WORKERS: "1" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve({ child, out: () => out, url: m[1] })
    })
    child.stderr!.on("data", (d: Buffer) => void (out += d.toString()))
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)))
  })

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode)
    child.once("exit", (code) => resolve(code))
  })

it("serve --demo prints the keys once, serves them, and stops gracefully on SIGTERM", async () => {
  const first = await start(["--demo"])
  const live = /demo live key: (tuma_live_\w+)/.exec(first.out())?.[1]
  const sandbox = /demo sandbox key: (tuma_test_\w+)/.exec(first.out())?.[1]
  expect(live).toBeDefined()
  expect(sandbox).toBeDefined()

  const send = await fetch(`${first.url}/v1/sms/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${live}`, "content-type": "application/json" },
    body: JSON.stringify({ recipient: "+255712345678", sender_id: "TUMA", body: "Hello from the demo" })
  })
  expect(send.status).toBe(202)
  const uid = ((await send.json()) as any).data.uid
  // the simulated carrier delivers it shortly (delivery workers run inside serve)
  let status = ""
  for (let i = 0; i < 50 && status !== "delivered"; i++) {
    await new Promise((r) => setTimeout(r, 200))
    const read = await fetch(`${first.url}/v1/sms/messages/${uid}`, { headers: { authorization: `Bearer ${live}` } })
    status = ((await read.json()) as any).data.status
  }
  expect(status).toBe("delivered")
  const balance = await fetch(`${first.url}/v1/balance`, { headers: { authorization: `Bearer ${sandbox}` } })
  expect(((await balance.json()) as any).mode).toBe("sandbox")

  // an in-flight request (a slow upload) still completes after SIGTERM
  const slow = fetch(`${first.url}/v1/sms/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${live}`, "content-type": "application/json" },
    body: new ReadableStream({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode("{\"recipient\":\"+255712345678\","))
        await new Promise((r) => setTimeout(r, 300))
        first.child.kill("SIGTERM")
        await new Promise((r) => setTimeout(r, 300))
        controller.enqueue(new TextEncoder().encode("\"sender_id\":\"TUMA\",\"body\":\"last one\"}"))
        controller.close()
      }
    }),
    duplex: "half"
  } as RequestInit)
  expect((await slow).status).toBe(202)
  expect(await exited(first.child)).toBe(0)
  expect(first.out()).toMatch(/stopped/)

  // restart on the same store: no new keys, the old ones still work
  const second = await start(["--demo"])
  expect(second.out()).not.toMatch(/demo live key/)
  const again = await fetch(`${second.url}/v1/balance`, { headers: { authorization: `Bearer ${live}` } })
  expect(again.status).toBe(200)
  expect(((await again.json()) as any).data.balance).toBe("998")
  second.child.kill("SIGTERM")
  expect(await exited(second.child)).toBe(0)
}, 120_000)
