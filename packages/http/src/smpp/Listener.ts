/**
 * The SMPP server for customers (issue 28, docs/smpp.md): a TCP listener whose sessions (Session.ts)
 * bind with `SmppAccounts`, submit through the same single send as `POST /v1/sms/messages` (channel
 * `smpp`; the submits of one account that arrive together as one `Send.batch`, SubmitBatch.ts), the
 * outbox pump (Outbox.ts) that drains receipts and inbound messages to the receiver/transceiver binds in
 * this process (at least once: acknowledged only on deliver_sm_resp), and this process's part of the
 * live-binds list (LiveBinds.ts: written, heartbeat, unbind on request).
 *
 *   layer(options)  — listening while the scope is open; `SmppListener` answers the bound address
 */
import type { SmppAccountRow } from "@tuma/core"
import { Send, SmppAccounts, SmppStore, SmppThroughput } from "@tuma/core"
import { registerSampler } from "@tuma/core/observability/Metrics"
import { commandStatusOf, SendMessageRequest, SmppStatus } from "@tuma/domain"
import { Cause, Context, Effect, Either, Exit, Layer, Option, ParseResult, Queue, Runtime, Schema } from "effect"
import { createServer } from "node:net"
import type { AddressInfo, Server, Socket } from "node:net"
import { createServer as createTlsServer } from "node:tls"
import { SmppBinds } from "./Binds.js"
import type { BoundSession } from "./Binds.js"
import { SmppEndpoint } from "./Endpoint.js"
import * as LiveBinds from "./LiveBinds.js"
import * as M from "./Metrics.js"
import { startPump } from "./Outbox.js"
import type { SessionHandle, SessionOptions, SubmitAnswer, SubmitOptions, SubmitRequest } from "./Session.js"
import { startSession } from "./Session.js"
import { makeBatcher } from "./SubmitBatch.js"

/** Where to listen (plain and/or TLS), and the session and receipt settings (defaults in `defaults`). */
export interface SmppListenerOptions extends Partial<SessionOptions> {
  readonly host: string
  /** The plain TCP port (0: any free one); none: TLS only. */
  readonly port?: number | undefined
  /** SMPP over TLS on a second port, with this PEM certificate (chain) and key. */
  readonly tls?: { readonly port: number; readonly cert: string | Buffer; readonly key: string | Buffer } | undefined
  /** How often the receipt pump looks for due receipts when not woken (ms). */
  readonly receiptPollMs?: number | undefined
  /** A receipt or inbound message no bind took within this long is expired (hours, fractions allowed; default 72). */
  readonly receiptHoldHours?: number | undefined
  /** The host name customers connect to (`TUMA_SMPP_PUBLIC_HOST`; shown in the portal and the console). */
  readonly publicHost?: string | undefined
  /** How often this process refreshes its binds in the live-binds list (ms; default 5 s). */
  readonly bindHeartbeatMs?: number | undefined
}

/** Session defaults: bind within 10 s, inactivity 120 s, window 100, parts within 60 s, deliver_sm answered within 30 s. */
export const defaults: SessionOptions = {
  systemId: "Tuma",
  bindTimeoutMs: 10_000,
  inactivityTimeoutMs: 120_000,
  window: 100,
  concatTimeoutMs: 60_000,
  responseTimeoutMs: 30_000
}

/** The running listener's addresses: the plain port and the TLS port (each when listening). */
export class SmppListener extends Context.Tag("@tuma/http/SmppListener")<SmppListener, {
  readonly host: string
  readonly port: number | undefined
  readonly tlsPort: number | undefined
}>() {}

const decodeRequest = Schema.decodeUnknownEither(SendMessageRequest, { errors: "all" })

/** The command_status of a request the REST schema refuses, by its first field in error. */
const statusOfInvalid = (error: ParseResult.ParseError): number => {
  const field = ParseResult.ArrayFormatter.formatErrorSync(error)[0]?.path[0]
  return field === "sender_id"
    ? SmppStatus.ESME_RINVSRCADR
    : field === "body"
    ? SmppStatus.ESME_RINVMSGLEN
    : SmppStatus.ESME_RINVDSTADR
}

/** A submit of one account, as the batcher holds it. */
interface HeldSubmit {
  readonly account: SmppAccountRow
  readonly request: SubmitRequest
  readonly options: SubmitOptions
}

/**
 * A batch of one account's submits through the send use case (`Send.batch`): for each, ESME_ROK and the
 * message uid, or its own refusal's command_status (a request the REST schema refuses never reaches it).
 */
const submitBatchWith = (send: Send["Type"]) => (held: ReadonlyArray<HeldSubmit>) =>
  Effect.gen(function*() {
    const decoded = held.map((h) => decodeRequest(h.request))
    const valid = held.flatMap((h, i) => {
      const d = decoded[i]!
      if (Either.isLeft(d)) return []
      const caller = {
        accountId: h.account.account_id,
        apiKeyId: null,
        mode: h.account.mode === "sandbox" ? "test" as const : "live" as const,
        channel: "smpp" as const,
        smppAccountId: h.account.id,
        smppIntermediate: h.options.intermediate
      }
      return [{ caller, request: d.right }]
    })
    const outcomes = valid.length === 0 ? [] : yield* send.batch(valid)
    let next = 0
    return decoded.map((d): SubmitAnswer => {
      if (Either.isLeft(d)) {
        M.submits.update(1, "VALIDATION_FAILED")
        return { status: statusOfInvalid(d.left), messageId: "" }
      }
      const outcome = outcomes[next++]!
      if (Exit.isSuccess(outcome)) {
        M.submits.update(1, "accepted")
        return { status: SmppStatus.ESME_ROK, messageId: outcome.value.data.uid }
      }
      const refusal = Cause.failureOption(outcome.cause)
      if (Option.isSome(refusal)) {
        M.submits.update(1, refusal.value.error_code)
        return { status: commandStatusOf(refusal.value.error_code), messageId: "" }
      }
      // a defect of this send alone (its neighbours keep their answers)
      M.sessionRefused(SmppStatus.ESME_RSYSERR)
      return { status: SmppStatus.ESME_RSYSERR, messageId: "" }
    })
  })

/** The listener and its outbox pump, for the life of the scope. */
export const layer = (options: SmppListenerOptions) =>
  Layer.scoped(
    SmppListener,
    Effect.gen(function*() {
      const send = yield* Send
      const accounts = yield* SmppAccounts
      const store = yield* SmppStore
      const binds = yield* SmppBinds
      const throughput = yield* SmppThroughput
      const runtime = yield* Effect.runtime<never>()
      const run = <A>(effect: Effect.Effect<A>) => Runtime.runPromise(runtime)(effect)
      const sessionOptions: SessionOptions = { ...defaults, ...definedOf(options) }
      const wake = yield* Queue.sliding<void>(1)
      const submitBatch = submitBatchWith(send)
      // the submits of one account handed over in the same turn of the event loop: one batch
      const batcher = makeBatcher((held: ReadonlyArray<HeldSubmit>) => run(submitBatch(held)))
      const live = yield* LiveBinds.start(binds, options.bindHeartbeatMs)
      // the sessions' registry: a bind that closes also leaves the live-binds list
      const registry = {
        ...binds,
        remove: (session: BoundSession) => {
          binds.remove(session)
          live.removed(session)
        }
      }
      // every series exported from the start; the pending receipts read from the store when scraped
      M.exportAtZero()
      M.bindsUp.unsafeUpdate(binds.count(), [])
      yield* registerSampler(Effect.map(store.pending, (n) => M.receiptsPending.unsafeUpdate(n, [])))
      const drain = makeDrain()
      const serve = (socket: Socket) => {
        const session = startSession(socket, {
          options: sessionOptions,
          binds: registry,
          authenticate: (systemId, password, address) => run(accounts.authenticate(systemId, password, address)),
          // while stopping, a submit is refused as temporary (the ESME sends it again after reconnecting)
          submit: (account, request, submitOptions) =>
            drain.stopping
              ? Promise.resolve({ status: SmppStatus.ESME_RX_T_APPN, messageId: "" })
              : batcher(account.id, { account, request, options: submitOptions }),
          throttle: (account, parts) =>
            run(throughput.take({
              smppAccountId: account.id,
              rate: account.throughput_rate,
              burst: account.throughput_burst
            }, parts)),
          admit: (session, maxBinds) => run(live.admit(session, maxBinds)),
          bound: (session) => {
            live.added(session)
            M.bindsUp.unsafeUpdate(binds.count(), [])
            Queue.unsafeOffer(wake, undefined)
          },
          observe: {
            bindFailed: (reason) => M.bindFailures.update(1, reason),
            throttled: () => M.throttled.unsafeUpdate(1, []),
            refused: M.sessionRefused
          }
        })
        drain.sessions.add(session)
        socket.on("close", () => {
          drain.sessions.delete(session)
          M.bindsUp.unsafeUpdate(binds.count(), [])
        })
      }
      const port = options.port === undefined
        ? undefined
        : yield* listening(createServer(serve), options.port, options.host)
      const tls = options.tls
      const tlsPort = tls === undefined
        ? undefined
        : yield* listening(createTlsServer({ cert: tls.cert, key: tls.key }, serve), tls.port, options.host)

      // the outbox pump: receipts and inbound messages to the receivers bound here (Outbox.ts)
      yield* startPump({
        binds,
        drain,
        wake,
        responseTimeoutMs: sessionOptions.responseTimeoutMs,
        pollMs: options.receiptPollMs ?? 1_000,
        holdMillis: (options.receiptHoldHours ?? 72) * 3_600_000
      })
      // the portal's and the console's connection instructions
      const endpoint = yield* Effect.serviceOption(SmppEndpoint)
      if (Option.isSome(endpoint)) {
        endpoint.value.current = {
          host: options.host,
          port: port ?? null,
          tlsPort: tlsPort ?? null,
          publicHost: options.publicHost ?? null
        }
      }
      // stopping (runs before the listeners close): no new submits or receipts; those in flight end first
      yield* Effect.addFinalizer(() => Effect.promise(() => drain.stop(DRAIN_MILLIS)))
      return { host: options.host, port, tlsPort }
    })
  )

/** A server listening on `port` while the scope is open (its connections cut when it closes); the bound port. */
const listening = (server: Server, port: number, host: string) =>
  Effect.gen(function*() {
    yield* Effect.async<void, Error>((resume) => {
      server.once("error", (e) => resume(Effect.fail(e)))
      server.listen(port, host, () => resume(Effect.void))
    }).pipe(Effect.orDie)
    const sockets = new Set<Socket>()
    server.on("connection", (s: Socket) => {
      sockets.add(s)
      s.on("close", () => sockets.delete(s))
    })
    yield* Effect.addFinalizer(() =>
      Effect.async<void>((resume) => {
        // what was written (the answers of the drain) is flushed before the connection closes
        for (const s of sockets) s.end()
        const cut = setTimeout(() => sockets.forEach((s) => s.destroy()), 1_000)
        server.close(() => {
          clearTimeout(cut)
          resume(Effect.void)
        })
      })
    )
    const address = server.address()
    return typeof address === "object" && address !== null ? (address satisfies AddressInfo).port : port
  })

/** How long a stopping listener waits for the submits and receipts in flight. */
const DRAIN_MILLIS = 5_000

/**
 * Submits held by the sessions and receipt deliveries in flight, so that a stop lets them end: every
 * submit received is answered (accepted, or refused as temporary) before the connections close.
 */
const makeDrain = () => {
  let inFlight = 0
  const sessions = new Set<SessionHandle>()
  const busy = () => inFlight > 0 || [...sessions].some((s) => s.outstanding() > 0)
  const drain = {
    stopping: false,
    sessions,
    trackEffect: <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.suspend(() => {
        inFlight++
        return Effect.ensuring(
          effect,
          Effect.sync(() => {
            inFlight--
          })
        )
      }),
    stop: async (boundMillis: number) => {
      drain.stopping = true
      const end = Date.now() + boundMillis
      while (busy() && Date.now() < end) await new Promise((r) => setTimeout(r, 10))
    }
  }
  return drain
}

const definedOf = (o: Partial<SessionOptions>): Partial<SessionOptions> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
