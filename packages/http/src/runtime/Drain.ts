/**
 * Graceful drain of a node HTTP server (issue 9 item 13), used by `tuma serve` on SIGTERM/SIGINT.
 *
 *   const drain = trackConnections(server)   — at creation, before any other "request" listener
 *   await drain.drain({ deadlineMs, idleGraceMs })
 *
 * `drain`:
 * 1. stops listening (new connections are refused) but, unlike `server.close()`, does NOT destroy
 *    idle keep-alive sockets at once: a request the client already sent may sit unread in such a
 *    socket, and destroying it resets that request;
 * 2. marks every response not yet started, and every later one, `Connection: close`, so each
 *    keep-alive connection ends politely after its current answer;
 * 3. closes a connection once it has been idle (no answer in progress) for `idleGraceMs` since the
 *    signal or since its last answer, whichever is later — a client that sent its next request
 *    just before the signal is not cut — and waits for every started answer to be written to the end;
 * 4. at `deadlineMs` from the signal, destroys whatever is left (the 10 s bound of `tuma serve`).
 *
 * Requests are counted at the socket (from the node "request" event to the response's `finish`),
 * so an answer is finished when its last byte is handed to the socket, not when the handler returns.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { Server as NetServer } from "node:net"

export interface Drain {
  /** Requests received and not yet answered to the last byte. */
  readonly inFlight: () => number
  /** Open connections. */
  readonly connections: () => number
  /** Drains as described above; resolves when every connection is closed (or the deadline passed). */
  readonly drain: (
    options?: { readonly deadlineMs?: number; readonly idleGraceMs?: number }
  ) => Promise<{ readonly elapsedMs: number; readonly idleClosed: number; readonly forced: number }>
}

export const trackConnections = (server: Server): Drain => {
  const responses = new Set<ServerResponse>()
  // per connection: answers in progress and when the last one ended
  const sockets = new Map<Socket, { busy: number; lastActive: number }>()
  let draining = false

  server.on("connection", (socket: Socket) => {
    sockets.set(socket, { busy: 0, lastActive: Date.now() })
    socket.once("close", () => sockets.delete(socket))
  })
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    responses.add(response)
    const state = sockets.get(request.socket)
    if (state !== undefined) state.busy++
    let ended = false
    const done = () => {
      if (ended) return
      ended = true
      responses.delete(response)
      if (state !== undefined) {
        state.busy--
        state.lastActive = Date.now()
      }
    }
    response.once("finish", done)
    response.once("close", done)
    if (draining) response.setHeader("connection", "close")
  })

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  return {
    inFlight: () => responses.size,
    connections: () => sockets.size,
    drain: async ({ deadlineMs = 10_000, idleGraceMs = 1_000 } = {}) => {
      const started = Date.now()
      const deadline = started + deadlineMs
      draining = true
      // stop listening without http.Server#close's closeIdleConnections
      NetServer.prototype.close.call(server)
      for (const response of responses) {
        if (!response.headersSent) response.setHeader("connection", "close")
      }
      let idleClosed = 0
      while ((responses.size > 0 || sockets.size > 0) && Date.now() < deadline) {
        await sleep(20)
        const now = Date.now()
        for (const [socket, state] of sockets) {
          // idle keep-alive sockets: nothing arrived on them for idleGraceMs since the signal/their last answer
          if (state.busy === 0 && now - Math.max(started, state.lastActive) >= idleGraceMs) {
            socket.destroy()
            sockets.delete(socket)
            idleClosed++
          }
        }
      }
      const forced = sockets.size
      server.closeAllConnections()
      return { elapsedMs: Date.now() - started, idleClosed, forced }
    }
  }
}
