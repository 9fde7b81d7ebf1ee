/**
 * SMPP test support: a server with its SMPP listener on random ports over PGlite (or a given
 * database), and the `smpp` npm package (node-smpp, written by others) as the ESME.
 */
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the ambient types of the untyped `smpp` package
/// <reference path="../../../providers/src/smpp/smpp-module.d.ts" />
import { Database } from "@tuma/store-sql"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { connect as netConnect } from "node:net"
import type { Socket } from "node:net"
import smpp from "smpp"
import { makeServerOptions } from "../../src/runtime/Config.js"
import * as Server from "../../src/Server.js"
import type { SmppListenerOptions } from "../../src/smpp/Listener.js"
import { SmppListener } from "../../src/smpp/Listener.js"
import { call } from "../harness.js"

export const ADMIN = "smpp-admin-token"

/** A server with an SMPP listener. */
export const startSmppServer = async (
  smppOptions: Partial<SmppListenerOptions> = {},
  database: Database.DatabaseConfig = Database.pglite("memory://"),
  /** Delivery workers on (messages reach the simulated carrier and their receipts come back). */
  workers = false
) => {
  const scope = Effect.runSync(Scope.make())
  const options = makeServerOptions({ port: 0, host: "127.0.0.1", adminToken: ADMIN })
  const context = await Effect.runPromise(
    Layer.buildWithScope(
      Server.layer({
        server: options,
        database,
        workers,
        smpp: { host: "127.0.0.1", port: 0, receiptPollMs: 100, ...smppOptions }
      }),
      scope
    )
  )
  const url = await Effect.runPromise(Effect.provide(Server.address, context))
  const listener = Context.get(Context.unsafeMake<SmppListener>(context.unsafeMap), SmppListener)
  return {
    url,
    smppPort: listener.port ?? 0,
    tlsPort: listener.tlsPort,
    run: <A, E>(effect: Effect.Effect<A, E, any>) =>
      Effect.runPromise(Effect.provide(effect, context) as Effect.Effect<A, E>),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/** Creates SMPP credentials through the admin API. */
export const createCredentials = async (server: { readonly url: string }, body: Record<string, unknown>) =>
  call(server, "POST", "/admin/v1/smpp-accounts", { key: ADMIN, body })

/**
 * Keeps the requests a session receives while nothing listens for their command, and hands them to
 * the first listener added for it. node-smpp emits every PDU of one socket read synchronously, so a
 * deliver_sm written right behind the bind_resp arrives before the test, resumed by the bind's
 * promise, can listen for it (on a loaded machine the two come in one read).
 */
const keepUnheard = (session: smpp.Session) => {
  const unheard = new Map<string, Array<smpp.PDU>>()
  const replay = (command: string) => {
    const waiting = unheard.get(command) ?? []
    while (waiting.length > 0 && session.listenerCount(command) > 0) session.emit(command, waiting.shift())
  }
  session.on("pdu", (pdu: smpp.PDU) => {
    const command = String(pdu.command)
    if (command.endsWith("_resp") || session.listenerCount(command) > 0) return
    unheard.set(command, [...(unheard.get(command) ?? []), pdu])
  })
  session.on("newListener", (event: string | symbol) => {
    if (typeof event === "string" && (unheard.get(event)?.length ?? 0) > 0) setImmediate(() => replay(event))
  })
}

/** An ESME session (node-smpp), connected; requests that arrive before anything listens are kept for the first listener. */
export const connectEsme = (port: number) =>
  new Promise<smpp.Session>((resolve, reject) => {
    const session = smpp.connect({ url: `smpp://127.0.0.1:${port}` }, () => resolve(session))
    keepUnheard(session)
    session.on("error", reject)
  })

/** Sends a PDU of node-smpp and answers its response. */
export const request = (session: smpp.Session, command: string, fields: Record<string, unknown> = {}) =>
  new Promise<smpp.PDU>((resolve) => {
    session.send(new smpp.PDU(command, fields), resolve)
  })

/** Binds a new session; answers it with the bind response. */
export const bind = async (
  port: number,
  systemId: string,
  password: string,
  kind: "bind_transceiver" | "bind_transmitter" | "bind_receiver" = "bind_transceiver",
  interfaceVersion = 0x34
) => {
  const session = await connectEsme(port)
  const resp = await request(session, kind, { system_id: systemId, password, interface_version: interfaceVersion })
  return { session, resp }
}

/** Waits for the next PDU of a command on a session. */
export const next = (session: smpp.Session, command: string, timeoutMs = 5_000) =>
  new Promise<smpp.PDU>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${command} within ${timeoutMs} ms`)), timeoutMs)
    session.once(command, (pdu: smpp.PDU) => {
      clearTimeout(timer)
      resolve(pdu)
    })
  })

/** A raw socket to the listener, collecting what it receives. */
export const rawSocket = (port: number) =>
  new Promise<{ socket: Socket; received: () => Buffer; closed: () => boolean }>((resolve) => {
    const chunks: Array<Buffer> = []
    let isClosed = false
    const socket = netConnect(
      port,
      "127.0.0.1",
      () => resolve({ socket, received: () => Buffer.concat(chunks), closed: () => isClosed })
    )
    socket.on("data", (c) => chunks.push(c))
    socket.on("close", () => {
      isClosed = true
    })
    socket.on("error", () => undefined)
  })

/** A PDU header + body. */
export const rawPdu = (commandId: number, sequence: number, body: Buffer = Buffer.alloc(0)) => {
  const head = Buffer.alloc(16)
  head.writeUInt32BE(16 + body.length, 0)
  head.writeUInt32BE(commandId >>> 0, 4)
  head.writeUInt32BE(0, 8)
  head.writeUInt32BE(sequence, 12)
  return Buffer.concat([head, body])
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls until `check` answers true. */
export const eventually = async (check: () => Promise<boolean> | boolean, timeoutMs = 5_000) => {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await check()) return
    await sleep(50)
  }
  throw new Error("condition not met in time")
}

export { smpp }
