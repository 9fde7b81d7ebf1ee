/**
 * Sender-ID uploads cannot hoard memory (issue 9 item 10), over raw sockets: a declared
 * Content-Length over the upload limit is refused with 413 before a byte of the body is sent, a
 * chunked body is cut off at the limit while it is still arriving, and an API key has at most
 * `maxConcurrentUploadsPerKey` requests in flight (more answer 429 with Retry-After; a slot is
 * given back when its client goes away).
 */
import { connect } from "node:net"
import type { Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestServer } from "./harness.js"
import { call, setupAccount, startServer } from "./harness.js"

const CAP = 1024 * 1024
let server: TestServer
let defaults: TestServer
let key: string
let other: string

beforeAll(async () => {
  server = await startServer({ maxUploadBytes: CAP, maxConcurrentUploadsPerKey: 2 })
  defaults = await startServer({})
  ;({ live: key } = await server.run(setupAccount()))
  ;({ live: other } = await server.run(setupAccount()))
})
afterAll(async () => {
  await server.close()
  await defaults.close()
})

/** A raw HTTP/1.1 request: the head is written at once, the body as the test decides. */
const open = (base: string, head: string) => {
  const url = new URL(base)
  const socket = connect(Number(url.port), url.hostname)
  let received = ""
  const response = new Promise<string>((resolve) => {
    socket.on("data", (d) => {
      received += d.toString("latin1")
      if (/\r\n\r\n/.test(received)) resolve(received)
    })
    socket.on("close", () => resolve(received))
    socket.on("error", () => resolve(received))
  })
  socket.write(head.replace(/\n/g, "\r\n") + "\r\n")
  return { socket, response, answered: () => received !== "" }
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe("declared Content-Length over the limit", () => {
  for (const contentType of ["application/json", "multipart/form-data; boundary=xyz"]) {
    it(`413 before any body byte is sent (${contentType.split(";")[0]}, default 16 MiB limit, 30 MB declared)`, async () => {
      const r = open(
        defaults.url,
        `POST /v1/sender-ids HTTP/1.1\nhost: x\nauthorization: Bearer ${key}\ncontent-type: ${contentType}\n` +
          `content-length: ${30 * 1024 * 1024}\n`
      )
      // no body at all: the answer can only come from the declared length
      const text = await Promise.race([r.response, sleep(5_000).then(() => "timeout")])
      r.socket.destroy()
      expect(statusOf(text)).toBe(413)
      expect(text).toMatch(/too large \(limit 16777216 bytes\)/)
    })
  }
})

describe("chunked body over the limit", () => {
  for (const contentType of ["application/json", "multipart/form-data; boundary=xyz"]) {
    it(`is cut off at the limit while it is still arriving (${contentType.split(";")[0]})`, async () => {
      const r = open(
        server.url,
        `POST /v1/sender-ids HTTP/1.1\nhost: x\nauthorization: Bearer ${key}\ncontent-type: ${contentType}\n` +
          `transfer-encoding: chunked\n`
      )
      const chunk = Buffer.alloc(64 * 1024, contentType.startsWith("multipart") ? "a" : " ")
      const prefix = contentType.startsWith("multipart")
        ? "--xyz\r\ncontent-disposition: form-data; name=\"documents[x]\"; filename=\"a.pdf\"\r\n\r\n"
        : "{\"sender_id\":\"ACME\",\"pad\":\""
      r.socket.write(`${Buffer.byteLength(prefix).toString(16)}\r\n${prefix}\r\n`)
      let sent = 0
      const planned = 64 * CAP
      while (!r.answered() && sent < planned && !r.socket.destroyed) {
        r.socket.write(`${chunk.length.toString(16)}\r\n`)
        r.socket.write(chunk)
        const ok = r.socket.write("\r\n")
        sent += chunk.length
        if (!ok) await Promise.race([new Promise((resolve) => r.socket.once("drain", resolve)), sleep(1000)])
        await sleep(2)
      }
      const text = await Promise.race([r.response, sleep(5_000).then(() => "timeout")])
      const closedByServer = r.socket.destroyed
      r.socket.destroy()
      // the server stops reading at the cap and closes the connection: the client sees the 413 or,
      // when the close overtakes it while the client is still writing, a reset — never the whole body read
      expect(text === "" ? closedByServer : statusOf(text) === 413).toBe(true)
      expect(sent).toBeLessThan(planned / 4)
      expect(sent).toBeGreaterThanOrEqual(CAP - 64 * 1024)
    })
  }
})

describe("concurrent uploads per API key", () => {
  const slow = (bearer: string) => {
    const r = open(
      server.url,
      `POST /v1/sender-ids HTTP/1.1\nhost: x\nauthorization: Bearer ${bearer}\ncontent-type: application/json\n` +
        `transfer-encoding: chunked\n`
    )
    const start = "{\"sender_id\":"
    r.socket.write(`${start.length.toString(16)}\r\n${start}\r\n`)
    return r
  }
  const finish = (r: { socket: Socket }) => {
    const rest = "\"ACME\"}"
    r.socket.write(`${rest.length.toString(16)}\r\n${rest}\r\n0\r\n\r\n`)
  }
  const quick = (bearer: string) => call(server, "POST", "/v1/sender-ids", { key: bearer, body: { sender_id: "ACME" } })

  it("a third upload of the same key answers 429 with Retry-After; another key is not affected; slots come back", async () => {
    const a = slow(key)
    const b = slow(key)
    let third = await quick(key)
    for (let i = 0; i < 50 && third.status !== 429; i++) {
      await sleep(100)
      third = await quick(key)
    }
    expect(third.status).toBe(429)
    expect(third.body.error_code).toBe("TOO_MANY_UPLOADS")
    expect(third.headers.get("retry-after")).toBe("1")
    expect(third.body.request_uid).toBe(third.headers.get("x-request-id"))
    // another key is served meanwhile (422: the body is incomplete on purpose)
    expect((await quick(other)).status).toBe(422)

    // one client goes away mid-body, the other finishes: both slots are given back
    a.socket.destroy()
    finish(b)
    expect(statusOf(await b.response)).toBe(422)
    b.socket.destroy()
    let after = await quick(key)
    for (let i = 0; i < 50 && after.status === 429; i++) {
      await sleep(100)
      after = await quick(key)
    }
    expect(after.status).toBe(422)
  })
})
