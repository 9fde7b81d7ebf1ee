/**
 * `tuma serve --demo --demo-webhook URL --webhook-signature-header NAME` as a user runs it, a real
 * process, with the example receiver started by the command line the README and docs/webhooks.md
 * print (`pnpm --filter @tuma/example-webhook-receiver start --port … --secret … --header …`):
 *
 * 1. the secret printed once; the simulated carrier's test recipients, through the HTTP API: a
 *    failed receipt (with its reason and an `sms.failed` webhook), no receipt (stays `sent`), a late
 *    receipt, a refusal; an ordinary number delivered with a verified `sms.delivered`;
 * 2. a restart on the same data directory keeps the webhook endpoint and its secret (the receiver
 *    started with it keeps verifying) and still delivers: the carrier's ids do not repeat, and a
 *    receipt never moves a finished message;
 * 3. with `--smpp-port` and `--smpp-tls-port` (a self-signed certificate made here by openssl), every
 *    start prints `demo smpp login: demo <password>`; the printed login binds over TLS with the
 *    `smpp` package (the certificate verified), submits, and gets the delivered receipt back.
 */
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the ambient types of the untyped `smpp` package
/// <reference path="../../providers/src/smpp/smpp-module.d.ts" />
import { execFileSync, spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import smpp from "smpp"
import { afterAll, describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), "tuma-demo-"))
const HEADER = "X-Tuma-Signature"
// the SMPP TLS port's certificate: self-signed for 127.0.0.1
const certFile = join(dataDir, "smpp-cert.pem")
const keyFile = join(dataDir, "smpp-key.pem")
execFileSync("openssl", [
  "req",
  "-x509",
  "-newkey",
  "ec",
  "-pkeyopt",
  "ec_paramgen_curve:prime256v1",
  "-nodes",
  "-days",
  "1",
  "-subj",
  "/CN=127.0.0.1",
  "-addext",
  "subjectAltName=IP:127.0.0.1",
  "-keyout",
  keyFile,
  "-out",
  certFile
], { stdio: "ignore" })

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer()
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

interface Proc {
  readonly child: ChildProcess
  readonly out: () => string
}

/** Spawns in its own process group (pnpm → sh → tsx → node), so the whole group can be stopped. */
const spawnProc = (command: string, args: Array<string>, env: Record<string, string | undefined>): Proc => {
  const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let out = ""
  child.stdout!.on("data", (d: Buffer) => void (out += d.toString()))
  child.stderr!.on("data", (d: Buffer) => void (out += d.toString()))
  return { child, out: () => out }
}

const stop = (p: Proc) =>
  new Promise<number | null>((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve(p.child.exitCode)
    p.child.once("exit", (code) => resolve(code))
    process.kill(-p.child.pid!, "SIGTERM")
  })

const waitFor = async <A>(what: string, f: () => A | undefined | Promise<A | undefined>, ms = 60_000) => {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await f()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

const procs: Array<Proc> = []
afterAll(async () => {
  await Promise.all(procs.map(stop))
  rmSync(dataDir, { recursive: true, force: true })
})

let apiPort = 0
let smppPort = 0
let smppTlsPort = 0
let hookPort = 0
let hookUrl = ""
let liveKey = ""
let secret = ""
let receiver: Proc | undefined

let current: Proc | undefined

const serve = async () => {
  if (current !== undefined) await stop(current) // a failed test left it running
  const env: Record<string, string | undefined> = {
    ...process.env,
    TUMA_DATA_DIR: dataDir,
    TUMA_WORKERS: "1",
    TUMA_SMPP_TLS_CERT: certFile,
    TUMA_SMPP_TLS_KEY: keyFile
  }
  delete env.DATABASE_URL
  const p = spawnProc(process.execPath, [
    "--conditions=@tuma/source",
    "--import",
    "tsx",
    "packages/http/src/bin.ts",
    "serve",
    "--demo",
    "--demo-webhook",
    hookUrl,
    "--webhook-signature-header",
    HEADER,
    "--port",
    String(apiPort),
    "--smpp-port",
    String(smppPort),
    "--smpp-tls-port",
    String(smppTlsPort)
  ], env)
  procs.push(p)
  current = p
  // the SMPP line comes after the HTTP one, possibly in a later chunk of the child's output
  await waitFor("serve to listen", () => p.out().includes("smpp listening on") ? true : undefined, 90_000)
  return p
}

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
    method,
    headers: { authorization: `Bearer ${liveKey}`, "content-type": "application/json" },
    body: body === undefined ? null : JSON.stringify(body)
  })
  return { status: res.status, body: (await res.json()) as any }
}

const send = async (recipient: string, body = "Hello from the demo") => {
  const r = await api("POST", "/v1/sms/messages", { recipient, sender_id: "TUMA", body })
  expect(r.status).toBe(202)
  return r.body.data.uid as string
}

const read = async (uid: string) => (await api("GET", `/v1/sms/messages/${uid}`)).body.data

const final = (uid: string) =>
  waitFor(`message ${uid} to be final`, async () => {
    const m = await read(uid)
    return m.status === "delivered" || m.status === "failed" ? m : undefined
  })

/** The verified events the receiver printed, by message id. */
const printed = () => {
  const events = new Map<string, { event: string; payload: any }>()
  for (const m of receiver!.out().matchAll(/ (sms\.\w+) delivery=\S+ verified (\{.*\})$/gm)) {
    const payload = JSON.parse(m[2]!)
    events.set(payload.message_id, { event: m[1]!, payload })
  }
  return events
}
const webhookOf = (uid: string) => waitFor(`the webhook of ${uid}`, () => printed().get(uid))

describe("tuma serve --demo", () => {
  it(
    "test recipients of the simulated carrier: failed, no receipt, late, refused (HTTP API and webhooks)",
    async () => {
      ;[apiPort, hookPort, smppPort, smppTlsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()])
      hookUrl = `http://127.0.0.1:${hookPort}/webhooks/tuma`
      const first = await serve()
      liveKey = /^demo live key: (\S+)$/m.exec(first.out())![1]!
      const secrets = [...first.out().matchAll(/^demo webhook secret: (whsec_\S+)$/gm)].map((m) => m[1]!)
      expect(secrets).toHaveLength(1) // printed once, not "kept"
      secret = secrets[0]!
      expect(first.out()).toContain(`smpp listening on 127.0.0.1:${smppPort}, 127.0.0.1:${smppTlsPort} (tls)`)
      expect(first.out()).toMatch(/^demo smpp login: demo [A-Za-z0-9]{8}$/m)
      // the receiver, started exactly as the README and docs/webhooks.md say
      receiver = spawnProc("pnpm", [
        "--filter",
        "@tuma/example-webhook-receiver",
        "start",
        "--port",
        String(hookPort),
        "--secret",
        secret,
        "--header",
        HEADER
      ], process.env)
      procs.push(receiver)
      await waitFor("the receiver", () => receiver!.out().includes(`listening on ${hookUrl}`) ? true : undefined)

      const before = (await api("GET", "/v1/balance")).body.data.balance
      const ok = await send("+255712345678")
      const failed = await send("+255700000100")
      const silent = await send("+255700000200")
      const lateSentAt = Date.now()
      const late = await send("+255700000303") // delivered 3 s after submission
      const refused = await send("+255700000400")

      expect(await final(ok)).toMatchObject({ status: "delivered" })
      expect((await webhookOf(ok)).event).toBe("sms.delivered")

      const f = await final(failed)
      expect(f).toMatchObject({ status: "failed" })
      expect(f.failure_reason).toMatch(/could not deliver the message to the handset \(UNDELIV/)
      const hook = await webhookOf(failed)
      expect(hook.event).toBe("sms.failed")
      expect(hook.payload).toMatchObject({ status: "failed", to: "+255700000100", error: f.failure_reason })

      const r = await final(refused)
      expect(r).toMatchObject({ status: "failed" })
      expect(r.failure_reason).toMatch(/refused/)

      // late: delivered about 3 s after it was sent (an ordinary receipt comes after ~0.3 s)
      const l = await final(late)
      expect(l).toMatchObject({ status: "delivered" })
      expect(Date.now() - lateSentAt).toBeGreaterThanOrEqual(3_000)
      expect(Date.parse(l.delivered_at) - Date.parse(l.sent_at)).toBeGreaterThanOrEqual(2_500)
      expect((await webhookOf(late)).event).toBe("sms.delivered")

      // no receipt: still `sent` after everything else finished
      expect((await read(silent)).status).toBe("sent")
      // the refusal was refunded; the others are spent (decisions §20)
      expect(Number((await api("GET", "/v1/balance")).body.data.balance)).toBe(Number(before) - 4)
      expect(receiver.out()).not.toMatch(/rejected/)

      // two-way SMS: from the demo number to the answering test recipient, a reply a second later
      const number = /^demo number: (\+\d+) /m.exec(first.out())![1]!
      const asked = await api("POST", "/v1/sms/messages", {
        recipient: "+255700000500",
        sender_id: number,
        body: "Are you coming?"
      })
      expect(asked.status).toBe(202)
      const reply = await waitFor("the simulated reply", async () => {
        const inbox = (await api("GET", "/v1/sms/inbound")).body
        return inbox.data?.length > 0 ? inbox.data[0] : undefined
      }, 20_000)
      expect(reply).toMatchObject({
        from: "+255700000500",
        to: number,
        text: "Asante! Got your message: Are you coming?",
        in_reply_to: asked.body.data.uid
      })
      expect((await webhookOf(reply.uid)).event).toBe("sms.received")

      expect(await stop(first)).toBe(0)
    },
    180_000
  )

  it(
    "a restart on the same data directory keeps the webhook secret and still delivers; the SMPP login binds over TLS",
    async () => {
      const second = await serve()
      expect(second.out()).not.toMatch(/demo live key/)
      // the same endpoint and secret: the receiver started with it keeps verifying
      expect(/^demo webhook secret: (whsec_\S+)/m.exec(second.out())![1]).toBe(secret)
      const uids = [await send("+255712345670"), await send("+255712345671"), await send("+255712345672")]
      for (const uid of uids) {
        expect(await final(uid)).toMatchObject({ status: "delivered" })
        expect((await webhookOf(uid)).payload).toMatchObject({ status: "delivered" })
      }
      expect(receiver!.out()).not.toMatch(/rejected/)

      // the SMPP login printed on this start (a new password each start) binds over TLS
      const [, systemId, password] = /^demo smpp login: (\S+) (\S+)$/m.exec(second.out())!
      const esme = await new Promise<smpp.Session>((resolve, reject) => {
        const session = smpp.connect(
          { url: `ssmpp://127.0.0.1:${smppTlsPort}`, ca: readFileSync(certFile) },
          () => resolve(session)
        )
        session.on("error", reject)
      })
      const pdu = (command: string, fields: Record<string, unknown>) =>
        new Promise<smpp.PDU>((resolve) => esme.send(new smpp.PDU(command, fields), resolve))
      expect((await pdu("bind_transceiver", { system_id: systemId, password })).command_status).toBe(0)
      // the handset's reply of the first run was held for this account's binds: it comes down as an
      // inbound deliver_sm (esm_class 0x00) beside the receipt (0x04)
      const inbound: Array<smpp.PDU> = []
      const receipt = new Promise<smpp.PDU>((resolve) =>
        esme.on("deliver_sm", (d: smpp.PDU) => {
          esme.send(d.response())
          if ((Number(d.esm_class) & 0x04) === 0x04) resolve(d)
          else inbound.push(d)
        })
      )
      const sent = await pdu("submit_sm", {
        source_addr: "TUMA",
        dest_addr_ton: 1,
        destination_addr: "255712345679",
        short_message: "Hello over TLS"
      })
      expect(sent.command_status).toBe(0)
      expect(await final(sent.message_id as string)).toMatchObject({ status: "delivered", channel: "smpp" })
      const dlr = await receipt
      expect(dlr.receipted_message_id).toBe(sent.message_id)
      expect(String((dlr.short_message as { message: string }).message)).toContain("stat:DELIVRD")
      expect(inbound.map((d) => d.source_addr)).toEqual(["255700000500"])
      esme.close()
      expect(await stop(second)).toBe(0)
    },
    180_000
  )
})
