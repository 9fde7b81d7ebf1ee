/**
 * `tuma serve --demo` as a real process: it prints `demo portal login: <email> <password>` and
 * `portal: <url>/portal`; that login signs in, a web SMS sent from the portal reaches `delivered`
 * through the simulated carrier, and a restart on the same data directory prints the same login.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, expect, it } from "vitest"
import { Agent } from "./harness.js"

const BIN = fileURLToPath(new URL("../../src/bin.ts", import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), "tuma-portal-demo-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const start = () =>
  new Promise<{ child: ChildProcess; out: () => string; portal: string; url: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=@tuma/source", "--import", "tsx", BIN, "serve", "--demo"], {
      env: { ...process.env, TUMA_DATA_DIR: dataDir, PORT: "0", TUMA_WORKERS: "1" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      const m = /^portal: (http:\/\/\S+)\/portal$/m.exec(out)
      if (m) resolve({ child, out: () => out, portal: `${m[1]}/portal`, url: m[1] })
    })
    child.stderr!.on("data", (d: Buffer) => void (out += d.toString()))
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)))
  })

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

it("prints a working demo portal login, stable across restarts; a web SMS is delivered", async () => {
  const first = await start()
  const login = /^demo portal login: (\S+) (\S+)$/m.exec(first.out())
  expect(login).not.toBeNull()
  const [, email, password] = login!
  const agent = new Agent({ url: first.url })
  const signedIn = await agent.signIn(email, password)
  expect(signedIn.status).toBe(200)
  expect(signedIn.body.data.user.role).toBe("owner")

  const sent = await agent.post("/portal/api/sms", {
    recipient: "+255712345678",
    sender_id: "TUMA",
    body: "Hello from the portal"
  })
  expect(sent.status).toBe(202)
  expect(sent.body.data.channel).toBe("web")
  let status = ""
  for (let i = 0; i < 50 && status !== "delivered"; i++) {
    await new Promise((r) => setTimeout(r, 200))
    status = (await agent.get(`/portal/api/messages/${sent.body.data.uid}`)).body.data.message.status
  }
  expect(status).toBe("delivered")
  const detail = await agent.get(`/portal/api/messages/${sent.body.data.uid}`)
  expect(detail.body.data.timeline.map((e: any) => e.event)).toEqual(
    expect.arrayContaining(["created", "queued", "sent", "delivered"])
  )
  await stop(first.child)

  const second = await start()
  expect(/^demo portal login: (\S+) (\S+)$/m.exec(second.out())?.slice(1)).toEqual([email, password])
  expect((await new Agent({ url: second.url }).signIn(email, password)).status).toBe(200)
  await stop(second.child)
}, 120_000)
