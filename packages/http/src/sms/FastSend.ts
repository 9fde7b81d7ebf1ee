/**
 * The single send's door in front of the router: `POST /v1/sms/messages` and its alias
 * `/v1/sms/quick-message` are taken straight from node's request listener, skipping the platform's
 * request wrapper, router and middleware chain (which cost a single send about as much CPU as the
 * use case: docs/performance.md). Nothing of the endpoint is written here: the paths, the scope,
 * the decoding, the send and its answer are `SingleSend`'s, which the router's handlers of the same
 * endpoints call too; the key is checked by the security middleware's own `Authenticator`; every
 * failure is answered by the envelope's `fromCause`; the request id, `X-Request-Id` and the request
 * metrics are the envelope's. This module only reads the body and writes the answer to the socket.
 *
 * Claimed are only requests the router would answer the same way: POST to one of the two paths,
 * `Content-Type: application/json…`, a `Content-Length` within the body limit, no `Expect`.
 * Everything else (chunked or oversized bodies, other types) goes the framework's way, as does every
 * request while the access log or message tracing is on (their spans and log lines are the
 * framework's). `TUMA_FAST_SEND=0` turns the door off (A/B measurements).
 *
 *   install(server, slot) — put the slot's handler in front of the platform's "request" listener
 *   layer                 — fill the slot while the server runs (`FastSendSlot` from `Server.layer`)
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { currentLogUids } from "@tuma/core/observability/LogContext"
import { TraceSettings } from "@tuma/core/observability/Tracing"
import { Context, Effect, Exit, Layer, Runtime } from "effect"
import type { RuntimeFiber } from "effect/Fiber"
import { randomUUID } from "node:crypto"
import type { EventEmitter } from "node:events"
import type { IncomingMessage, Server as NodeServer, ServerResponse } from "node:http"
import { TumaApi } from "../Api.js"
import { observeRequest } from "../observability/Observability.js"
import { ServerConfig } from "../runtime/Config.js"
import { Authenticator } from "../shared/Auth.js"
import { currentRequestId } from "../shared/Envelope.js"
import { parseJsonText } from "../shared/JsonDepth.js"
import { InFlight, makeFailureAnswers } from "../shared/Middleware.js"
import { routeTable } from "../shared/Routes.js"
import * as SingleSend from "./SingleSend.js"

/** A node request handler that answers the requests it claims (true) and leaves the rest (false). */
export type Claim = (request: IncomingMessage, response: ServerResponse) => boolean

/** The running server's fast handler (none before the layer is built and after it closes) and its count. */
export interface Slot {
  current: Claim | undefined
  /** Requests the fast handler has claimed so far. */
  claimed: number
}

/** Where the running server's fast handler sits. */
export class FastSendSlot extends Context.Tag("@tuma/http/FastSendSlot")<FastSendSlot, Slot>() {
  /** A new, empty slot. */
  static readonly make = (): Slot => ({ current: undefined, claimed: 0 })
}

/** Any event listener, as node's `EventEmitter` types it. */
type AnyListener = Parameters<EventEmitter["on"]>[1]

/**
 * Puts `slot`'s handler in front of every "request" listener added to `server` from now on (the
 * platform's); listeners added before (the drain's connection accounting) see every request as before.
 */
export const install = (server: NodeServer, slot: Slot): NodeServer => {
  const wrapped = new WeakMap<AnyListener, AnyListener>()
  const on = server.on.bind(server)
  const off = server.off.bind(server)
  const wrap = (listener: AnyListener): AnyListener => {
    const claimed = (request: IncomingMessage, response: ServerResponse) => {
      const claim = slot.current
      if (claim === undefined || !claim(request, response)) listener(request, response)
    }
    wrapped.set(listener, claimed)
    return claimed
  }
  const add = (event: string, listener: AnyListener) =>
    event === "request" ? on(event, wrap(listener)) : on(event, listener)
  const remove = (event: string, listener: AnyListener) =>
    off(event, (event === "request" ? wrapped.get(listener) : undefined) ?? listener)
  Object.assign(server, { on: add, addListener: add, off: remove, removeListener: remove })
  return server
}

/** An answer `write` writes: the accepted send's, or the envelope's failure response. */
type Answer = HttpServerResponse.HttpServerResponse | SingleSend.Accepted

/** Writes an answer to node's response: headers in one call, then the body (one socket write). */
const write = (
  response: ServerResponse,
  answer: Answer,
  requestId: string
) => {
  if ("acceptedJson" in answer) {
    const bytes = Buffer.from(answer.acceptedJson, "utf8")
    response.writeHead(202, {
      "content-type": "application/json",
      "content-length": bytes.length,
      "x-request-id": requestId
    })
    return response.end(bytes)
  }
  const body = answer.body
  const bytes = body._tag === "Uint8Array" ? body.body : new Uint8Array(0)
  const headers: Record<string, string | number> = { ...answer.headers, "x-request-id": requestId }
  if (body._tag === "Uint8Array") headers["content-type"] = body.contentType
  headers["content-length"] = bytes.length
  response.writeHead(answer.status, headers)
  response.end(bytes)
}

/** The status `write` writes. */
const statusOf = (answer: Answer) => "acceptedJson" in answer ? 202 : answer.status

/** Fills `FastSendSlot` with the single send's handler while the layer lives. */
export const layer = Layer.scopedDiscard(Effect.gen(function*() {
  const slot = yield* FastSendSlot
  const options = yield* ServerConfig
  const trace = yield* TraceSettings
  if (!options.fastSend || options.accessLog || trace.linkMessages) return
  const single = yield* SingleSend.make
  const authenticate = yield* Authenticator
  const runFork = Runtime.runFork(yield* Effect.runtime<never>())
  const { fromCause } = makeFailureAnswers(options, routeTable(TumaApi, []))
  const maxBody = options.maxBodyBytes

  /** The endpoint's handling of one request whose body has been read: `SingleSend` behind the key's check. */
  const handle = (request: IncomingMessage, route: string, text: string, requestId: string) =>
    authenticate(SingleSend.scope, request.headers, request.socket.remoteAddress).pipe(
      Effect.flatMap((key): Effect.Effect<Answer, unknown> => single(key, request.headers, parseJsonText(text))),
      Effect.catchAllCause((cause) =>
        fromCause(requestId, { method: "POST", url: route, headers: request.headers }, cause)
      ),
      Effect.locally(currentRequestId, requestId),
      Effect.locally(currentLogUids, {})
    )

  const claim: Claim = (request, response) => {
    if (request.method !== "POST") return false
    const url = request.url ?? ""
    const q = url.indexOf("?")
    const route = q < 0 ? url : url.slice(0, q)
    if (!SingleSend.paths.has(route)) return false
    const headers = request.headers
    const contentType = headers["content-type"]
    if (contentType === undefined || !contentType.toLowerCase().startsWith("application/json")) return false
    const length = headers["content-length"]
    if (length === undefined || !(Number(length) <= maxBody) || headers["expect"] !== undefined) return false

    slot.claimed++
    const started = performance.now()
    const requestId = randomUUID()
    InFlight.count++
    InFlight.started++
    let fiber: RuntimeFiber<unknown, unknown> | undefined
    let done = false
    // the response's "close" comes in every case: after its last byte, or when the client goes away
    // (before or after its body arrived)
    response.once("close", () => {
      if (!done) {
        done = true
        InFlight.count--
      }
      // the client went away before its answer: as the platform does, stop the handling
      if (fiber !== undefined && !response.writableEnded) fiber.unsafeInterruptAsFork(fiber.id())
    })
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const text = chunks.length === 1 ? chunks[0].toString("utf8") : Buffer.concat(chunks).toString("utf8")
      const running = runFork(handle(request, route, text, requestId))
      fiber = running
      running.addObserver((exit) => {
        if (Exit.isSuccess(exit)) {
          observeRequest("POST", route, statusOf(exit.value), started)
          if (!response.destroyed) write(response, exit.value, requestId)
        } else if (!response.destroyed) {
          // fromCause answers every failure; an interruption or a defect past it is a 500
          response.writeHead(500).end()
          if (!Exit.isInterrupted(exit)) runFork(Effect.logError("fast send failed outside the envelope", exit.cause))
        }
      })
    })
    return true
  }

  slot.current = claim
  yield* Effect.addFinalizer(() => Effect.sync(() => (slot.current = undefined)))
}))
