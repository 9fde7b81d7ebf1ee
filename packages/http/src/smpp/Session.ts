/**
 * One ESME connection (docs/smpp.md "Connection"): framing, the bind (with the bind timeout), unbind,
 * enquire_link, the inactivity timeout, the window of outstanding submits, submit_sm / data_sm handed to
 * `deps.submit` (the send use case) and answered only once it decided, receipts and inbound messages written
 * as deliver_sm and acknowledged by deliver_sm_resp. Any bytes are survived: a PDU that cannot be read is answered with
 * generic_nack; a length that cannot be framed ends the connection (there is no next PDU to find).
 */
import type { BindCheck, SmppAccountRow } from "@tuma/core"
import { analyzeBody, SmppStatus } from "@tuma/domain"
import { randomUUID } from "node:crypto"
import type { Socket } from "node:net"
import type { BindRegistry, BoundSession } from "./Binds.js"
import { MinuteCounter } from "./BindStats.js"
import type { HeldPart } from "./Message.js"
import { BadConcatenation, DATA_CODINGS, decodeText, Joiner, payloadOf } from "./Message.js"
import type { Submit } from "./Pdu.js"
import {
  bindResp,
  Cmd,
  encodePdu,
  frameLength,
  Malformed,
  PDU_MAX,
  PDU_MIN,
  readBind,
  readDataSm,
  readPdu,
  readSubmitSm,
  respOf,
  submitResp
} from "./Pdu.js"

/** The session's timers and limits. */
export interface SessionOptions {
  /** The server's system_id in bind responses. */
  readonly systemId: string
  /** No bind within this long: the connection is closed. */
  readonly bindTimeoutMs: number
  /** No PDU at all within this long: unbind and close. */
  readonly inactivityTimeoutMs: number
  /** Submits answered not yet (held long-message parts included); past it ESME_RMSGQFUL. */
  readonly window: number
  /** A long message's parts must all arrive within this long of the first. */
  readonly concatTimeoutMs: number
  /** A deliver_sm not answered within this long counts as not delivered (it is retried). */
  readonly responseTimeoutMs: number
}

/** What the send use case answered: ESME_ROK and the message uid, or a refusal's status. */
export interface SubmitAnswer {
  readonly status: number
  readonly messageId: string
}

/** A submit as the send use case takes it. */
export interface SubmitRequest {
  readonly recipient: string
  readonly sender_id: string
  readonly body: string
}

/** What else a submit asks: an intermediate receipt when the carrier accepts (`registered_delivery` 0x10). */
export interface SubmitOptions {
  readonly intermediate: boolean
}

/** What a session needs from the server. */
export interface SessionDeps {
  readonly options: SessionOptions
  readonly binds: BindRegistry
  readonly authenticate: (systemId: string, password: string, address: string | undefined) => Promise<BindCheck>
  readonly submit: (account: SmppAccountRow, request: SubmitRequest, options: SubmitOptions) => Promise<SubmitAnswer>
  /** Takes `parts` of the credentials' throughput (across binds and processes); false: ESME_RTHROTTLED. */
  readonly throttle: (account: SmppAccountRow, parts: number) => Promise<boolean>
  /** Whether the credentials have room for this bind across every process (`max_binds`). */
  readonly admit: (session: BoundSession, maxBinds: number) => Promise<boolean>
  /** A bind came up (the receipt pump looks for its receipts at once). */
  readonly bound: (session: BoundSession) => void
  /** Counts: bind failures by reason, throttled submits, submits the session refused itself (by command_status). */
  readonly observe: {
    readonly bindFailed: (reason: string) => void
    readonly throttled: () => void
    readonly refused: (status: number) => void
  }
}

const BIND_KINDS: Record<number, BoundSession["kind"]> = {
  [Cmd.bind_transmitter]: "transmitter",
  [Cmd.bind_receiver]: "receiver",
  [Cmd.bind_transceiver]: "transceiver"
}

let nextSessionId = 1

/** A bind's outcome: refused (the reason counted), or admitted with its place among the binds. */
type Admission =
  | { readonly _tag: "Refused"; readonly reason: string }
  | { readonly _tag: "Admitted"; readonly session: BoundSession; readonly account: SmppAccountRow }

interface Waiter {
  readonly commandId: number
  readonly sequence: number
}

/**
 * A place among the credentials' binds: in this process first (no round trip), then in every process
 * (the live-binds list); a connection closed meanwhile gives its place back.
 */
const place = async (
  deps: SessionDeps,
  connection: Pick<BoundSession, "id" | "kind" | "remote" | "deliver" | "close" | "figures">,
  account: SmppAccountRow,
  isClosed: () => boolean
): Promise<Admission> => {
  const session: BoundSession = {
    ...connection,
    uid: randomUUID(),
    smppAccountId: account.id,
    accountId: account.account_id,
    systemId: account.system_id,
    since: new Date()
  }
  const full: Admission = { _tag: "Refused", reason: "max_binds" }
  if (!deps.binds.add(session, account.max_binds)) return full
  if (!(await deps.admit(session, account.max_binds).catch(() => false))) {
    deps.binds.remove(session)
    return full
  }
  if (isClosed()) deps.binds.remove(session)
  return { _tag: "Admitted", session, account }
}

/** A session as its server sees it: the submits it holds not yet answered (a stopping server waits for them). */
export interface SessionHandle {
  readonly outstanding: () => number
}

/** Serves one connection until it closes. */
export const startSession = (socket: Socket, deps: SessionDeps): SessionHandle => {
  const { options } = deps
  const id = nextSessionId++
  const remote = socket.remoteAddress
  let buffer: Buffer = Buffer.alloc(0)
  let bound: { readonly session: BoundSession; readonly account: SmppAccountRow } | undefined
  let binding = false
  let closed = false
  let outstanding = 0
  let sequence = 0
  const acks = new Map<number, (ok: boolean) => void>()
  const submitted = new MinuteCounter()

  const write = (pdu: Buffer) => {
    if (!closed && socket.writable) socket.write(pdu)
  }
  const end = () => {
    if (closed) return
    closed = true
    socket.end()
    setTimeout(() => socket.destroy(), 1_000).unref()
  }
  let bindTimer = setTimeout(end, options.bindTimeoutMs)
  let idleTimer = setTimeout(() => idle(), options.inactivityTimeoutMs)
  const idle = () => {
    write(encodePdu(Cmd.unbind, 0, ++sequence))
    end()
  }
  const answer = (w: Waiter, status: number, messageId: string) => {
    outstanding--
    write(submitResp(w.commandId, status, w.sequence, messageId))
  }
  const timedOut = refuseAll(deps, answer, SmppStatus.ESME_RSUBMITFAIL)
  const joiner = new Joiner<Waiter>(options.concatTimeoutMs, (parts) => timedOut(parts.map((p) => p.waiter)))

  const onClose = () => {
    closed = true
    clearTimeout(bindTimer)
    clearTimeout(idleTimer)
    joiner.clear()
    if (bound !== undefined) deps.binds.remove(bound.session)
    for (const ack of acks.values()) ack(false)
    acks.clear()
  }
  socket.on("close", onClose)
  socket.on("error", () => socket.destroy())

  const deliver = deliverer({
    isClosed: () => closed,
    nextSequence: () => ++sequence,
    acks,
    write,
    timeoutMs: options.responseTimeoutMs
  })

  const bind = async (commandId: number, seq: number, body: Buffer) => {
    const refuse = (reason: string) => {
      deps.observe.bindFailed(reason)
      write(bindResp(commandId, SmppStatus.ESME_RBINDFAIL, seq, options.systemId, false))
      // a refused bind: the ESME may try again within a new bind timeout
      bindTimer = setTimeout(end, options.bindTimeoutMs)
    }
    if (bound !== undefined || binding) return write(bindResp(commandId, SmppStatus.ESME_RALYBND, seq, "", false))
    const request = readBind(body)
    // the bind timeout is for a connection that asks nothing; checking the password may take longer
    clearTimeout(bindTimer)
    binding = true
    const admitted = await admission(commandId, request.systemId, request.password).finally(() => {
      binding = false
    })
    if (closed) return
    if (admitted._tag === "Refused") return refuse(admitted.reason)
    bound = { session: admitted.session, account: admitted.account }
    write(bindResp(commandId, SmppStatus.ESME_ROK, seq, options.systemId, request.interfaceVersion >= 0x34))
    deps.bound(admitted.session)
  }

  /** The bind check, then a place among the credentials' binds (in this process, then in every one). */
  const admission = async (commandId: number, systemId: string, password: string): Promise<Admission> => {
    const check = await deps.authenticate(systemId, password, remote)
    if (check._tag === "Refused") return check
    const figures = () => ({ inFlight: outstanding, submitsLastMinute: submitted.count(Date.now()) })
    const connection = { id, kind: BIND_KINDS[commandId]!, remote: remote ?? "", deliver, close: idle, figures }
    return place(deps, connection, check.account, () => closed)
  }

  const submit = (commandId: number, seq: number, body: Buffer) =>
    handleSubmit(
      { deps, bound: bound?.session.kind === "receiver" ? undefined : bound?.account, write, answer, joiner },
      { commandId, sequence: seq },
      body,
      () => outstanding >= options.window,
      () => outstanding++
    )

  const handle = (frame: Buffer) => {
    const pdu = readPdu(frame)
    if ((pdu.commandId & 0x80000000) !== 0) {
      if (pdu.commandId === respOf(Cmd.deliver_sm) || pdu.commandId === Cmd.generic_nack) {
        acks.get(pdu.sequence)?.(pdu.commandId !== Cmd.generic_nack && pdu.status === 0)
      }
      return
    }
    switch (pdu.commandId) {
      case Cmd.bind_transmitter:
      case Cmd.bind_receiver:
      case Cmd.bind_transceiver:
        return void bind(pdu.commandId, pdu.sequence, pdu.body).catch((e) => nack(pdu.sequence, e))
      case Cmd.unbind:
        write(encodePdu(respOf(Cmd.unbind), 0, pdu.sequence))
        return end()
      case Cmd.enquire_link:
        return write(encodePdu(respOf(Cmd.enquire_link), 0, pdu.sequence))
      case Cmd.submit_sm:
      case Cmd.data_sm:
        submitted.add(Date.now())
        return submit(pdu.commandId, pdu.sequence, pdu.body)
      default:
        return write(encodePdu(Cmd.generic_nack, SmppStatus.ESME_RINVCMDID, pdu.sequence))
    }
  }
  const nack = (seq: number, e: unknown) => write(nackOf(seq, e))

  socket.on("data", (chunk: Buffer) => {
    if (closed) return
    clearTimeout(idleTimer)
    idleTimer = setTimeout(idle, options.inactivityTimeoutMs)
    const split = splitFrames(Buffer.concat([buffer, chunk]))
    buffer = split.rest
    for (const frame of split.frames) {
      try {
        handle(frame)
      } catch (e) {
        nack(frame.readUInt32BE(12), e)
      }
    }
    if (split.unframeable) {
      // the stream cannot be framed any more: say so and close
      write(encodePdu(Cmd.generic_nack, SmppStatus.ESME_RINVCMDLEN, 0))
      end()
    }
  })
  return { outstanding: () => (closed ? 0 : outstanding) }
}

/** What a submit needs of its session. */
interface SubmitContext {
  readonly deps: SessionDeps
  /** The credentials of a transmitter/transceiver bind; undefined when not bound to submit. */
  readonly bound: SmppAccountRow | undefined
  readonly write: (pdu: Buffer) => void
  readonly answer: (w: Waiter, status: number, messageId: string) => void
  readonly joiner: Joiner<Waiter>
}

/** submit_sm / data_sm: checks of the bind, window, coding and throughput; then the send (a long message's parts once all are in). */
const handleSubmit = (
  ctx: SubmitContext,
  waiter: Waiter,
  body: Buffer,
  windowFull: () => boolean,
  hold: () => void
) => {
  const { commandId, sequence: seq } = waiter
  const { deps, joiner, answer } = ctx
  const refuse = (status: number) => {
    deps.observe.refused(status)
    ctx.write(submitResp(commandId, status, seq, ""))
  }
  const failed = refuseAll(deps, answer, SmppStatus.ESME_RSYSERR)
  const account = ctx.bound
  if (account === undefined) return refuse(SmppStatus.ESME_RINVBNDSTS)
  if (windowFull()) return refuse(SmppStatus.ESME_RMSGQFUL)
  const pdu: Submit = commandId === Cmd.submit_sm ? readSubmitSm(body) : readDataSm(body)
  if (!DATA_CODINGS.has(pdu.dataCoding)) return refuse(SmppStatus.ESME_RINVDCS)
  let payload
  try {
    payload = payloadOf(pdu)
  } catch (e) {
    if (e instanceof BadConcatenation) return refuse(SmppStatus.ESME_RINVESMCLASS)
    throw e
  }
  const part = payload.part
  const text = part === undefined ? decodeText(pdu.dataCoding, payload.bytes) ?? "" : ""
  // throughput in parts: one a part of a long message, the segments of a whole one
  const parts = part !== undefined ? 1 : Math.max(1, analyzeBody(text).encoding.segments)
  const request = (t: string): SubmitRequest => ({
    recipient: pdu.destTon === 1 && /^\d+$/.test(pdu.destinationAddr) ? `+${pdu.destinationAddr}` : pdu.destinationAddr,
    sender_id: pdu.sourceAddr,
    body: t
  })
  const run = (t: string, waiters: ReadonlyArray<Waiter>) =>
    deps.submit(account, request(t), { intermediate: (pdu.registeredDelivery & 0x10) !== 0 }).then(
      (a) => waiters.forEach((w) => answer(w, a.status, a.messageId)),
      () => failed(waiters)
    )
  const accept = () => {
    if (part === undefined) return void run(text, [waiter])
    const held: HeldPart<Waiter> = { seq: part.seq, bytes: payload.bytes, dataCoding: pdu.dataCoding, waiter }
    const key = `${pdu.sourceAddr}|${pdu.destinationAddr}|${part.reference}`
    const whole = joiner.add(key, part.total, held)
    if (whole === undefined) return
    void run(decodeText(whole.dataCoding, whole.bytes) ?? "", whole.parts.map((p) => p.waiter))
  }
  // held (in the window) from here: the throughput may ask the store for a lease
  hold()
  void deps.throttle(account, parts).then((allowed) => {
    if (allowed) return accept()
    deps.observe.throttled()
    deps.observe.refused(SmppStatus.ESME_RTHROTTLED)
    answer(waiter, SmppStatus.ESME_RTHROTTLED, "")
  }, () => failed([waiter]))
}

/** Answers these submits with a refusal of the session itself (counted by its command_status). */
const refuseAll =
  (deps: SessionDeps, answer: SubmitContext["answer"], status: number) => (waiters: ReadonlyArray<Waiter>) =>
    waiters.forEach((w) => {
      deps.observe.refused(status)
      answer(w, status, "")
    })

/** The whole PDUs at the head of `buffer`, the bytes left, and whether a length cannot be framed. */
const splitFrames = (buffer: Buffer) => {
  const frames: Array<Buffer> = []
  let rest = buffer
  for (;;) {
    const length = frameLength(rest)
    if (length === undefined) return { frames, rest, unframeable: false }
    if (length < PDU_MIN || length > PDU_MAX) return { frames, rest, unframeable: true }
    if (rest.length < length) return { frames, rest, unframeable: false }
    frames.push(rest.subarray(0, length))
    rest = rest.subarray(length)
  }
}

/** Writes deliver_sm PDUs and answers whether the ESME acknowledged every one in time. */
const deliverer = (io: {
  readonly isClosed: () => boolean
  readonly nextSequence: () => number
  readonly acks: Map<number, (ok: boolean) => void>
  readonly write: (pdu: Buffer) => void
  readonly timeoutMs: number
}) => {
  const one = (pdu: (sequence: number) => Buffer) =>
    new Promise<boolean>((resolve) => {
      if (io.isClosed()) return resolve(false)
      const seq = io.nextSequence()
      const timer = setTimeout(() => {
        io.acks.delete(seq)
        resolve(false)
      }, io.timeoutMs)
      io.acks.set(seq, (ok) => {
        clearTimeout(timer)
        io.acks.delete(seq)
        resolve(ok)
      })
      io.write(pdu(seq))
    })
  return (pdus: ReadonlyArray<(sequence: number) => Buffer>) =>
    Promise.all(pdus.map(one)).then((oks) => oks.every((ok) => ok))
}

/** The generic_nack of a PDU that could not be handled: ESME_RINVCMDLEN when unreadable, else ESME_RSYSERR. */
const nackOf = (seq: number, e: unknown) =>
  encodePdu(Cmd.generic_nack, e instanceof Malformed ? SmppStatus.ESME_RINVCMDLEN : SmppStatus.ESME_RSYSERR, seq)
