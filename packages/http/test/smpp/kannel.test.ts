/**
 * Kannel as a customer (issue 28): a Kannel 1.4 bearerbox whose `smsc = smpp` group binds to Tuma's SMPP
 * server as a transceiver, sends through its own smsbox `/cgi-bin/sendsms` with a `dlr-url`, and gets
 * the delivered receipt back: Tuma's simulated carrier delivers, Tuma writes the deliver_sm, Kannel
 * matches it to its submit_sm_resp id and calls the dlr-url with type 1 (delivered).
 *
 * Kannel is the Debian package `kannel` (CI: `apt-get install -y kannel`; ../shared/peers/kannel/ runs it
 * the same way). Without /usr/sbin/bearerbox the test is skipped, saying so.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { connect, createServer as createNetServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { call, setupAccount, unique } from "../harness.js"
import { createCredentials, eventually, startSmppServer } from "./support.js"

const KANNEL = existsSync("/usr/sbin/bearerbox") && existsSync("/usr/sbin/smsbox")
if (!KANNEL) console.warn("kannel.test.ts skipped: Kannel is not installed (apt-get install -y kannel)")

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createNetServer()
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port
      s.close(() => resolve(port))
    })
  })

/** Whether something takes connections on 127.0.0.1:port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.end()
      resolve(true)
    })
    socket.on("error", () => resolve(false))
  })

const children: Array<ChildProcess> = []
const dir = mkdtempSync(join(tmpdir(), "tuma-kannel-"))
const stopAll: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM")
  await Promise.all(children.map((c) => c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined))
  await Promise.all(stopAll.map((f) => f()))
  rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(!KANNEL)("Kannel as an SMPP customer of Tuma", () => {
  it("binds, sends through its sendsms with a dlr-url, and gets the delivered receipt back", async () => {
    const server = await startSmppServer({}, undefined, true)
    stopAll.push(server.close)
    const acct = await server.run(setupAccount())
    const systemId = unique("k").slice(0, 15)
    const created = await createCredentials(server, { account_uid: acct.account.id, system_id: systemId })
    const password = created.body.data.password as string

    // the dlr-url receiver
    const dlrs: Array<URLSearchParams> = []
    const receiver = createServer((req, res) => {
      dlrs.push(new URL(req.url ?? "/", "http://x").searchParams)
      res.end("ok")
    })
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()))
    stopAll.push(() => new Promise((r) => receiver.close(() => r())))
    const dlrPort = (receiver.address() as AddressInfo).port

    const [admin, box, sendsms] = [await freePort(), await freePort(), await freePort()]
    const conf = join(dir, "kannel.conf")
    writeFileSync(
      conf,
      `group = core
admin-port = ${admin}
admin-interface = 127.0.0.1
admin-password = testadmin
admin-allow-ip = "127.0.0.1"
smsbox-port = ${box}
smsbox-interface = 127.0.0.1
box-allow-ip = "127.0.0.1"
log-file = "${dir}/bearerbox.log"
log-level = 1
dlr-storage = internal

group = smsc
smsc = smpp
smsc-id = tuma
host = 127.0.0.1
port = ${server.smppPort}
receive-port = 0
transceiver-mode = true
smsc-username = ${systemId}
smsc-password = ${password}
system-type = KANNEL
interface-version = 34
enquire-link-interval = 30
reconnect-delay = 1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${box}
sendsms-port = ${sendsms}
sendsms-interface = 127.0.0.1
log-file = "${dir}/smsbox.log"
log-level = 1

group = sendsms-user
username = test
password = testpw

group = sms-service
keyword = default
text = "No service."
max-messages = 0
`
    )
    // smsbox gives up at once ("Couldn't connect to the bearerbox") when bearerbox's box port is not
    // listening yet: start it once that port takes connections
    children.push(spawn("/usr/sbin/bearerbox", ["-v", "4", conf], { stdio: "ignore" }))
    await eventually(() => listening(box), 15_000)
    children.push(spawn("/usr/sbin/smsbox", ["-v", "4", conf], { stdio: "ignore" }))
    // Kannel's SMSC binds to Tuma (the admin status shows it online)
    await eventually(async () => {
      const status = await fetch(`http://127.0.0.1:${admin}/status.txt?password=testadmin`).then(
        (r) => r.text(),
        () => ""
      )
      return /tuma\[tuma\].*\(online/.test(status) || /SMPP:127\.0\.0\.1:\d+\/\d+:\S+:KANNEL \(online/.test(status)
    }, 15_000)

    const query = new URLSearchParams({
      username: "test",
      password: "testpw",
      from: "TUMA",
      to: "+255712345678",
      text: "Hello from Kannel",
      "dlr-mask": "3",
      "dlr-url": `http://127.0.0.1:${dlrPort}/dlr?type=%d&smsc_id=%F&reply=%A`
    })
    let answer = ""
    await eventually(async () => {
      const r = await fetch(`http://127.0.0.1:${sendsms}/cgi-bin/sendsms?${query}`).then(
        (r) => r.text(),
        (e) => String(e)
      )
      answer = r
      return r.includes("Accepted")
    }, 10_000).catch(() => undefined)
    const logTail = (name: string) =>
      existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8").slice(-1500) : ""
    expect(answer, `sendsms answered: ${answer}\nsmsbox.log: ${logTail("smsbox.log")}`).toMatch(/Accepted/)

    // delivered: Kannel called the dlr-url with type 1, naming Tuma's message uid (the submit_sm_resp id)
    await eventually(() => dlrs.some((d) => d.get("type") === "1"), 15_000)
    const delivered = dlrs.find((d) => d.get("type") === "1")!
    const uid = delivered.get("smsc_id")!
    const read = await call(server, "GET", `/v1/sms/messages/${uid}`, { key: acct.live })
    expect(read.body.data).toMatchObject({ uid, channel: "smpp", status: "delivered", recipient: "+255712345678" })
    expect(delivered.get("reply")).toMatch(/stat:DELIVRD/)
  }, 60_000)
})
