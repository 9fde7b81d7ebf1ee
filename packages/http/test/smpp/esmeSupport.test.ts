/** The ESME helper keeps a deliver_sm that arrives in the same socket read as the bind_resp (before the test listens). */
import smpp from "smpp"
import { expect, it } from "vitest"
import { connectEsme, next, request } from "./support.js"

it("a deliver_sm right behind the bind_resp reaches next()", async () => {
  const server = smpp.createServer((s: smpp.Session) => {
    s.on("bind_receiver", (pdu: smpp.PDU) => {
      s.send(pdu.response())
      s.send(new smpp.PDU("deliver_sm", { source_addr: "1", destination_addr: "2", short_message: "hi" }))
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const session = await connectEsme(port)
  await request(session, "bind_receiver", { system_id: "a", password: "b" })
  const d = await next(session, "deliver_sm", 2000)
  expect(d.command).toBe("deliver_sm")
  session.close()
  server.close()
})
