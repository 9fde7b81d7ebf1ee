/**
 * An SMSC (SMPP 3.4 message centre) simulator on the `smpp` package's server, for tests, benchmarks
 * and the dev setup. Real TCP, real PDUs.
 *
 * - binds (transceiver / transmitter / receiver) checked against `systemId` / `password`;
 * - answers each submit_sm per `policy`: OK, throttle (ESME_RTHROTTLED), queue full (ESME_RMSGQFUL),
 *   refuse with any status, time out (never answer), drop the connection; `maxPerSecond` throttles
 *   whatever goes over the rate;
 * - sends a delivery receipt per accepted part (deliver_sm, esm_class 0x04, `receipted_message_id` and
 *   `message_state` TLVs and the text form `id:… stat:DELIVRD err:000 …`) after `receiptDelayMs`;
 *   a receipt not acknowledged with status 0 (or lost with its connection) is sent again;
 * - message ids in the submit answer and in receipts each have their own format (hex or decimal,
 *   upper/lower case, zero padded), as real carriers disagree with themselves;
 * - `sendMo` delivers a mobile-originated message (e.g. `STOP`) to a bound session; `sendMoPdu` any
 *   deliver_sm (concatenated parts, other encodings);
 * - `stop` / `start` take the SMSC down and back on the same port.
 *
 * Why one file of ≈470 lines: a whole SMSC for tests: bind, submit, deliver_sm receipts and the
 * scripted recipients, which only make sense together.
 */
import { Effect } from "effect"
import smpp from "smpp"
import { ESM_CLASS_RECEIPT, formatReceiptText, readShortMessage } from "../smpp/codec.js"

/** How the simulator answers a submit: accept, or a `command_status` error. */
export type SubmitAnswer =
  | { readonly _tag: "ok" }
  | { readonly _tag: "status"; readonly status: number }
  | { readonly _tag: "timeout" }
  | { readonly _tag: "drop" }

/** Types a literal as a `SubmitAnswer` (keeps `answer`'s entries checked without a cast). */
const submitAnswer = (a: SubmitAnswer): SubmitAnswer => a

/** Ready-made `SubmitAnswer`s (ok, throttle, …). */
export const answer = {
  ok: submitAnswer({ _tag: "ok" }),
  throttle: submitAnswer({ _tag: "status", status: smpp.ESME_RTHROTTLED }),
  queueFull: submitAnswer({ _tag: "status", status: smpp.ESME_RMSGQFUL }),
  refuse: (status: number): SubmitAnswer => ({ _tag: "status", status }),
  timeout: submitAnswer({ _tag: "timeout" }),
  drop: submitAnswer({ _tag: "drop" })
}

/** How the simulator writes message ids: decimal or hex, and letter case. */
export interface IdFormat {
  readonly radix: 10 | 16
  readonly upper: boolean
  /** Zero-pad to this width (0: no padding). */
  readonly width: number
}

/** A message id written in that format. */
export const formatId = (n: bigint, f: IdFormat): string => {
  const s = n.toString(f.radix)
  const cased = f.upper ? s.toUpperCase() : s.toLowerCase()
  return f.width > 0 ? cased.padStart(f.width, "0") : cased
}

/** One submit_sm as the simulator received it. */
export interface ReceivedPart {
  /** Numeric id (formatted per `idFormat` in the answer, per `receiptIdFormat` in receipts). */
  readonly id: bigint
  readonly messageId: string | null
  readonly sourceAddr: string
  readonly sourceTon: number
  readonly sourceNpi: number
  readonly destinationAddr: string
  readonly dataCoding: number
  readonly esmClass: number
  readonly registeredDelivery: number
  readonly text: string
  readonly concat: { readonly ref: number; readonly total: number; readonly seq: number } | null
  readonly answer: SubmitAnswer["_tag"] | "throttled"
  readonly receivedAt: number
}

/** Settings of the SMSC simulator: address, credentials, answers, receipt behaviour and throughput. */
export interface SmscSimulatorOptions {
  readonly host?: string
  /** 0 (default) picks a free port. */
  readonly port?: number
  readonly systemId?: string
  readonly password?: string
  readonly idFormat?: IdFormat
  readonly receiptIdFormat?: IdFormat
  readonly receiptDelayMs?: number
  /** Receipt status word per part: DELIVRD (default), UNDELIV, EXPIRED, REJECTD, … */
  readonly receiptStatus?: (part: ReceivedPart) => string
  /** Include `receipted_message_id` / `message_state` TLVs (default true). Text form is always sent. */
  readonly receiptTlvs?: boolean
  readonly policy?: (part: ReceivedPart, index: number) => SubmitAnswer
  /** Submits over this many per second answer ESME_RTHROTTLED. */
  readonly maxPerSecond?: number
  /** Keep every received part in `received` (default true; benches turn it off). */
  readonly record?: boolean
  /** Answer each submit_sm after this many ms (default 0). */
  readonly submitDelayMs?: number
}

interface PendingReceipt {
  readonly systemId: string
  readonly params: Record<string, unknown>
  readonly id: bigint
}

const MESSAGE_STATE: Record<string, number> = {
  ENROUTE: 1,
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  ACCEPTD: 6,
  UNKNOWN: 7,
  REJECTD: 8
}

/**
 * An SMSC (carrier side of SMPP) for tests and benchmarks: binds clients, answers submits and sends delivery
 * receipts as configured.
 */
export class SmscSimulator {
  readonly options:
    & { -readonly [K in keyof Required<Omit<SmscSimulatorOptions, "maxPerSecond">>]-?: SmscSimulatorOptions[K] & {} }
    & {
      maxPerSecond: number | undefined
    }
  private server: smpp.Server | null = null
  private readonly bound = new Map<smpp.Session, string>()
  private nextId = 0x2a00_0000n
  private rateWindowStart = 0
  private rateWindowCount = 0
  private rr = 0
  private readonly receiptQueue: Array<PendingReceipt> = []
  private readonly inFlightReceipts = new Map<smpp.Session, Map<number, PendingReceipt>>()
  private readonly states = new Map<bigint, string>()
  private submitIndex = 0
  private pumpScheduled = false
  port: number
  readonly received: Array<ReceivedPart> = []
  readonly mo: Array<{ from: string; to: string; text: string; acked: boolean }> = []
  readonly counters = {
    binds: 0,
    bindFailures: 0,
    submits: 0,
    accepted: 0,
    throttled: 0,
    refused: 0,
    receiptsSent: 0,
    receiptsAcked: 0,
    receiptsNacked: 0,
    enquireLinks: 0
  }

  constructor(options: SmscSimulatorOptions = {}) {
    this.options = {
      host: options.host ?? "127.0.0.1",
      port: options.port ?? 0,
      systemId: options.systemId ?? "tuma",
      password: options.password ?? "secret",
      idFormat: options.idFormat ?? { radix: 16, upper: false, width: 0 },
      receiptIdFormat: options.receiptIdFormat ?? options.idFormat ?? { radix: 16, upper: false, width: 0 },
      receiptDelayMs: options.receiptDelayMs ?? 50,
      receiptStatus: options.receiptStatus ?? (() => "DELIVRD"),
      receiptTlvs: options.receiptTlvs ?? true,
      policy: options.policy ?? (() => answer.ok),
      maxPerSecond: options.maxPerSecond,
      record: options.record ?? true,
      submitDelayMs: options.submitDelayMs ?? 0
    }
    this.port = this.options.port
  }

  /** Change the submit policy at run time. */
  setPolicy(policy: (part: ReceivedPart, index: number) => SubmitAnswer): void {
    this.options.policy = policy
  }

  setReceiptStatus(f: (part: ReceivedPart) => string): void {
    this.options.receiptStatus = f
  }

  setMaxPerSecond(n: number | undefined): void {
    this.options.maxPerSecond = n
  }

  get sessionCount(): number {
    return this.bound.size
  }

  /** The status word of a message id as the simulator knows it (for query_sm). */
  stateOf(id: bigint): string | undefined {
    return this.states.get(id)
  }

  start(): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = smpp.createServer({}, (session) => this.onSession(session))
      server.once("error", reject)
      server.listen(this.port, this.options.host, () => {
        const address = server.address()
        if (address === null || typeof address === "string") return reject(new Error("the SMSC simulator has no port"))
        this.port = address.port
        this.server = server
        resolve(this.port)
      })
    })
  }

  /** Stop listening and cut every connection (the SMSC is down). Unacknowledged receipts are kept. */
  stop(): Promise<void> {
    const server = this.server
    this.server = null
    for (const s of [...this.bound.keys()]) s.socket.destroy()
    if (server === null) return Promise.resolve()
    for (const s of server.sessions) s.socket.destroy()
    return new Promise((resolve) => server.close(() => resolve()))
  }

  /** Cut every connection but keep listening. */
  dropConnections(): void {
    for (const s of [...this.bound.keys()]) s.socket.destroy()
    if (this.server !== null) { for (const s of this.server.sessions) s.socket.destroy() }
  }

  /** A mobile-originated message from `from` to `to`, sent to a bound session of `systemId`. */
  sendMo(from: string, to: string, text: string, systemId = this.options.systemId): Promise<number> {
    const session = this.pickSession(systemId)
    if (session === undefined) return Promise.reject(new Error("no bound session"))
    const entry = { from, to, text, acked: false }
    this.mo.push(entry)
    return new Promise((resolve) => {
      session.deliver_sm({
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: from.replace(/^\+/, ""),
        dest_addr_ton: /^\+?\d+$/.test(to) ? 1 : 5,
        destination_addr: to.replace(/^\+/, ""),
        esm_class: 0,
        data_coding: 0,
        short_message: { message: text }
      }, (pdu) => {
        entry.acked = pdu.command_status === 0
        resolve(pdu.command_status)
      })
    })
  }

  /**
   * A mobile-originated deliver_sm with these parameters (a part of a concatenated reply with its
   * UDH, a UCS-2 text, `sar_*` TLVs…) to a bound session of `systemId`; resolves with the
   * deliver_sm_resp's command_status.
   */
  sendMoPdu(params: Record<string, unknown>, systemId = this.options.systemId): Promise<number> {
    const session = this.pickSession(systemId)
    if (session === undefined) return Promise.reject(new Error("no bound session"))
    return new Promise((resolve) => {
      session.deliver_sm(
        { source_addr_ton: 1, source_addr_npi: 1, dest_addr_ton: 1, esm_class: 0, ...params },
        (pdu) => resolve(pdu.command_status)
      )
    })
  }

  /** Resolves once `predicate` holds (checked every 10 ms), or rejects after `timeoutMs`. */
  waitUntil(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
    const started = Date.now()
    return new Promise((resolve, reject) => {
      const tick = () => {
        if (predicate()) return resolve()
        if (Date.now() - started > timeoutMs) return reject(new Error("SmscSimulator.waitUntil timed out"))
        setTimeout(tick, 10)
      }
      tick()
    })
  }

  private pickSession(systemId: string): smpp.Session | undefined {
    const candidates = [...this.bound.entries()].filter(([s, id]) => id === systemId && s.socket.writable)
    if (candidates.length === 0) return undefined
    this.rr = (this.rr + 1) % candidates.length
    return candidates[this.rr]![0]
  }

  private onSession(session: smpp.Session): void {
    session.on("error", () => {})
    const bind = (pdu: smpp.PDU) => {
      if (pdu.system_id !== this.options.systemId || pdu.password !== this.options.password) {
        this.counters.bindFailures++
        session.send(pdu.response({ command_status: smpp.ESME_RBINDFAIL }))
        session.close()
        return
      }
      this.counters.binds++
      if (pdu.command !== "bind_transmitter") this.bound.set(session, pdu.system_id)
      this.inFlightReceipts.set(session, new Map())
      session.send(pdu.response({ system_id: "TUMASIM" }))
      this.pump()
    }
    session.on("bind_transceiver", bind)
    session.on("bind_receiver", bind)
    session.on("bind_transmitter", bind)
    session.on("enquire_link", (pdu: smpp.PDU) => {
      this.counters.enquireLinks++
      session.send(pdu.response())
    })
    session.on("unbind", (pdu: smpp.PDU) => {
      session.send(pdu.response())
      session.close()
    })
    session.on("submit_sm", (pdu: smpp.PDU) => this.onSubmit(session, pdu))
    session.on("query_sm", (pdu: smpp.PDU) => {
      const raw = pdu.message_id ?? ""
      const fmt = this.options.idFormat
      const id = /^[0-9a-f]+$/i.test(raw) ? BigInt((fmt.radix === 16 ? "0x" : "") + raw) : -1n
      const state = this.states.get(id)
      if (state === undefined) {
        session.send(pdu.response({ command_status: smpp.errors.ESME_RQUERYFAIL }))
      } else {
        session.send(pdu.response({ message_id: raw, final_date: "", message_state: MESSAGE_STATE[state] ?? 7 }))
      }
    })
    session.on("close", () => {
      this.bound.delete(session)
      const inFlight = this.inFlightReceipts.get(session)
      this.inFlightReceipts.delete(session)
      if (inFlight !== undefined) { for (const r of inFlight.values()) this.receiptQueue.push(r) }
    })
  }

  private onSubmit(session: smpp.Session, pdu: smpp.PDU): void {
    const systemId = this.inFlightReceipts.has(session) ? this.options.systemId : null
    if (systemId === null) {
      session.send(pdu.response({ command_status: smpp.ESME_RINVBNDSTS }))
      return
    }
    this.counters.submits++
    const sm = pdu.short_message
    const esmClass = pdu.esm_class ?? 0
    const dataCoding = pdu.data_coding ?? 0
    // the smpp package decodes short_message itself; re-read from the raw bytes for exact UDH and text
    const parsed = sm === undefined || Buffer.isBuffer(sm)
      ? readShortMessage(sm ?? Buffer.alloc(0), esmClass, dataCoding)
      : rebuild(typeof sm === "string" ? { message: sm } : sm, esmClass, dataCoding)
    // what the submit carries, as the policy sees it and as it is recorded
    const submitted = {
      sourceAddr: pdu.source_addr ?? "",
      sourceTon: pdu.source_addr_ton ?? 0,
      sourceNpi: pdu.source_addr_npi ?? 0,
      destinationAddr: pdu.destination_addr ?? "",
      dataCoding,
      esmClass,
      registeredDelivery: pdu.registered_delivery ?? 0,
      text: parsed.text,
      concat: parsed.concat
    }
    let verdict = this.options.policy(
      { ...submitted, id: 0n, messageId: null, answer: "ok", receivedAt: Date.now() },
      this.submitIndex++
    )
    let throttledByRate = false
    if (verdict._tag === "ok" && this.options.maxPerSecond !== undefined) {
      const now = Date.now()
      if (now - this.rateWindowStart >= 1000) {
        this.rateWindowStart = now
        this.rateWindowCount = 0
      }
      if (this.rateWindowCount >= this.options.maxPerSecond) {
        verdict = answer.throttle
        throttledByRate = true
      } else {
        this.rateWindowCount++
      }
    }
    const id = verdict._tag === "ok" ? this.nextId++ : 0n
    const part: ReceivedPart = {
      id,
      messageId: verdict._tag === "ok" ? formatId(id, this.options.idFormat) : null,
      ...submitted,
      answer: throttledByRate ? "throttled" : verdict._tag,
      receivedAt: Date.now()
    }
    if (this.options.record) this.received.push(part)
    switch (verdict._tag) {
      case "ok": {
        this.counters.accepted++
        const resp = pdu.response({ message_id: part.messageId })
        this.states.set(id, "ENROUTE")
        const answerNow = () => {
          session.send(resp)
          if ((part.registeredDelivery & 0x03) !== 0) this.scheduleReceipt(systemId, part)
        }
        if (this.options.submitDelayMs > 0) setTimeout(answerNow, this.options.submitDelayMs)
        else answerNow()
        return
      }
      case "status": {
        if (verdict.status === smpp.ESME_RTHROTTLED || verdict.status === smpp.ESME_RMSGQFUL) {
          this.counters.throttled++
        } else this.counters.refused++
        session.send(pdu.response({ command_status: verdict.status }))
        return
      }
      case "timeout":
        return
      case "drop":
        session.socket.destroy()
        return
    }
  }

  private scheduleReceipt(systemId: string, part: ReceivedPart): void {
    const submitted = new Date()
    setTimeout(() => {
      const stat = this.options.receiptStatus(part)
      this.states.set(part.id, stat)
      const rid = formatId(part.id, this.options.receiptIdFormat)
      const err = stat === "DELIVRD" ? "000" : "001"
      const params: Record<string, unknown> = {
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: part.destinationAddr,
        dest_addr_ton: part.sourceTon,
        dest_addr_npi: part.sourceNpi,
        destination_addr: part.sourceAddr,
        esm_class: ESM_CLASS_RECEIPT,
        data_coding: 0,
        short_message: { message: formatReceiptText(rid, stat, err, submitted, new Date(), part.text) }
      }
      if (this.options.receiptTlvs) {
        params.receipted_message_id = rid
        params.message_state = MESSAGE_STATE[stat] ?? 7
      }
      this.receiptQueue.push({ systemId, params, id: part.id })
      this.pump()
    }, this.options.receiptDelayMs)
  }

  private pump(): void {
    if (this.pumpScheduled) return
    this.pumpScheduled = true
    setImmediate(() => {
      this.pumpScheduled = false
      const keep: Array<PendingReceipt> = []
      while (this.receiptQueue.length > 0) {
        const r = this.receiptQueue.shift()!
        const session = this.pickSession(r.systemId)
        if (session === undefined) {
          keep.push(r)
          continue
        }
        const inFlight = this.inFlightReceipts.get(session)!
        this.counters.receiptsSent++
        const pdu = new smpp.PDU("deliver_sm", { ...r.params })
        const sent = session.send(pdu, (resp) => {
          inFlight.delete(resp.sequence_number)
          if (resp.command_status === 0) {
            this.counters.receiptsAcked++
          } else {
            this.counters.receiptsNacked++
            setTimeout(() => {
              this.receiptQueue.push(r)
              this.pump()
            }, 200)
          }
        })
        if (sent) inFlight.set(pdu.sequence_number, r)
        else keep.push(r)
      }
      this.receiptQueue.push(...keep)
    })
  }
}

const rebuild = (
  sm: smpp.ShortMessage,
  _esmClass: number,
  _dataCoding: number
): { text: string; concat: ReceivedPart["concat"] } => {
  const udh = sm.udh?.find((u) => u[0] === 0x00 && u[1] === 3)
  const text = typeof sm.message === "string" ? sm.message : sm.message.toString("latin1")
  return { text, concat: udh !== undefined ? { ref: udh[2]!, total: udh[3]!, seq: udh[4]! } : null }
}

/** A started simulator, stopped when the scope closes. */
export const makeSmscSimulator = (options: SmscSimulatorOptions = {}) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const sim = new SmscSimulator(options)
      await sim.start()
      return sim
    }),
    (sim) => Effect.promise(() => sim.stop())
  )
