/**
 * The README demo, as a user runs it: `tuma serve --demo --demo-webhook <url>` in its own process
 * prints the secret once; the example receiver verifies the signed webhook of a message sent with
 * the demo live key over HTTP.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { ReceivedEvent } from "../../../examples/webhook-receiver/main.js"
import { startWebhookReceiver } from "../../../examples/webhook-receiver/main.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer()
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

describe("tuma serve --demo --demo-webhook", () => {
  it.live("prints the secret once and a signed webhook reaches the example receiver", () =>
    Effect.gen(function*() {
      const [apiPort, hookPort] = yield* Effect.promise(() => Promise.all([freePort(), freePort()]))
      const dataDir = mkdtempSync(join(tmpdir(), "tuma-demo-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      const hookUrl = `http://127.0.0.1:${hookPort}/webhooks/tuma`
      const env: Record<string, string> = { ...process.env as Record<string, string>, TUMA_DATA_DIR: dataDir }
      delete env.DATABASE_URL
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "packages/http/src/bin.ts",
          "serve",
          "--demo",
          "--demo-webhook",
          hookUrl,
          "--port",
          String(apiPort)
        ],
        { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] }
      )
      yield* Effect.addFinalizer(() =>
        Effect.promise(() =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve()
            child.once("exit", () => resolve())
            child.kill("SIGTERM")
          })
        )
      )
      let out = ""
      child.stdout.on("data", (c: Buffer) => (out += c.toString()))
      child.stderr.on("data", (c: Buffer) => (out += c.toString()))
      yield* Effect.promise(() =>
        new Promise<void>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 90_000)
          const check = () => {
            if (out.includes("listening on")) {
              clearTimeout(t)
              resolve()
            } else setTimeout(check, 100)
          }
          check()
        })
      )
      const secrets = [...out.matchAll(/^demo webhook secret: (whsec_\S+)$/gm)].map((m) => m[1])
      expect(secrets).toHaveLength(1)
      const liveKey = /^demo live key: (\S+)$/m.exec(out)![1]

      const events: Array<ReceivedEvent> = []
      const rx = yield* Effect.acquireRelease(
        Effect.promise(() =>
          startWebhookReceiver({ secret: secrets[0], port: hookPort, onEvent: (e) => events.push(e) })
        ),
        (r) => Effect.promise(r.close)
      )
      expect(rx.url).toBe(hookUrl)
      const sent = yield* Effect.promise(() =>
        fetch(`http://127.0.0.1:${apiPort}/v1/sms/messages`, {
          method: "POST",
          headers: { authorization: `Bearer ${liveKey}`, "content-type": "application/json" },
          body: JSON.stringify({ recipient: "+255712345678", sender_id: "TUMA", body: "Hello from the demo" })
        }).then((r) => r.json() as Promise<any>)
      )
      expect(sent.success).toBe(true)
      const deadline = Date.now() + 30_000
      while (events.length === 0 && Date.now() < deadline) yield* Effect.sleep("100 millis")
      expect(events).toHaveLength(1)
      expect(events[0].payload).toMatchObject({
        event: "sms.delivered",
        message_id: sent.data.uid,
        status: "delivered"
      })
      expect(rx.stats.rejected).toBe(0)
    }).pipe(Effect.scoped), 120_000)
})
