/**
 * SMPP 3.4 carrier adapter of the `Provider` port, on the `smpp` package's client.
 *
 * - One bind_transceiver session per adapter (system_id / password / system_type), re-established with
 *   exponential backoff (jittered) after any loss; a fresh `smpp.Session` per connection, so nothing
 *   of a dead connection (sequence numbers, callbacks) can stall the next one.
 * - A window of outstanding submit_sm; parts wait in a FIFO while unbound or throttled, and while the
 *   bind's own rate (`maxPerSecondPerBind`, bindRate.ts) says the next submit must wait.
 * - enquire_link every `enquireLinkMs`; an unanswered one closes the connection (then reconnect).
 * - ESME_RTHROTTLED / ESME_RMSGQFUL: the part goes back to the head of the queue and the whole session
 *   pauses (backoff doubling up to `throttleMaxMs`, reset by the next success); it was not accepted, so
 *   re-sending it duplicates nothing. Given up only after `throttleGiveUpMs` (then transient NotAccepted).
 * - submit_sm with data_coding 0 (GSM-7, unpacked septets) or 8 (UCS-2); alphanumeric senders as
 *   TON 5 / NPI 0; long messages split with an 8-bit-reference concatenation UDH (esm_class 0x40),
 *   parts sent in order, each answered id kept (one per part).
 * - Outcomes: every part accepted -> Accepted; first part refused -> NotAccepted (transient or
 *   permanent per status); no answer within `responseTimeoutMs` or connection lost with the part
 *   outstanding -> Unknown (a late answer is reported as `LateAcceptance`).
 * - deliver_sm: receipts (esm_class 0x04 / 0x20) and MO messages go to the `ProviderEventSink`;
 *   deliver_sm_resp is sent after the sink succeeded (status 0) or failed (ESME_RX_T_APPN, so the SMSC
 *   retries): no receipt is acknowledged before it is recorded.
 * - No fiber per message: `submitMany` and the sink's `offer` (when it has one) run on callbacks.
 *
 * Session, windowing, throttling, submit and receipts of SMPP 3.4 depend on one connection state, so
 * they stay in this one class; what does not touch that state lives beside it (config.ts, deliver.ts,
 * codec.ts), and the Effect edge is SmppProvider.ts.
 */
import type { OutboundSms, ProviderEvent, QueryOutcome, SubmitOutcome } from "@tuma/core/ports/Provider"
import { Accepted, LateAcceptance, NotAccepted, Unknown } from "@tuma/core/ports/Provider"
import smpp from "smpp"
import { type BindRate, makeBindRate } from "./bindRate.js"
import { describeStatus, stateOfStatus, statusName, TRANSIENT_STATUSES, wireParts } from "./codec.js"
import type { SmppProviderConfig } from "./config.js"
import { deliveredEvent, sendBatched } from "./deliver.js"

type PartResult =
  | { readonly _tag: "ok"; readonly id: string }
  | { readonly _tag: "refused"; readonly transient: boolean; readonly code: string; readonly reason: string }
  | { readonly _tag: "unknown"; readonly reason: string }

interface QueuedPart {
  readonly params: Record<string, unknown>
  readonly reference: string
  readonly partIndex: number
  readonly enqueuedAt: number
  /** Order of submission, kept when throttled parts go back to the queue. */
  readonly order: number
  firstThrottleAt: number | null
  readonly resolve: (r: PartResult) => void
}

interface InFlight {
  readonly part: QueuedPart
  readonly timer: ReturnType<typeof setTimeout>
  settled: boolean
}

/** Counters of an SMPP connection (connects, binds, submits, receipts, …) for tests and benchmarks. */
export interface SmppStats {
  connects: number
  binds: number
  bindFailures: number
  disconnects: number
  submitted: number
  accepted: number
  throttled: number
  refused: number
  unknown: number
  receipts: number
  inbound: number
  lateAcceptances: number
}

const UNKNOWN_TIMEOUT = "Outcome unknown: the carrier did not answer the submission in time."
const UNKNOWN_CONNECTION = "Outcome unknown: the connection to the carrier was lost before it answered."

/** The connection state machine of one SMPP client, in plain callbacks (bridged to Effect at the edge). */
export class SmppClient {
  readonly stats: SmppStats = {
    connects: 0,
    binds: 0,
    bindFailures: 0,
    disconnects: 0,
    submitted: 0,
    accepted: 0,
    throttled: 0,
    refused: 0,
    unknown: 0,
    receipts: 0,
    inbound: 0,
    lateAcceptances: 0
  }
  private session: smpp.Session | null = null
  private bound = false
  private closed = false
  private readonly queue: Array<QueuedPart> = []
  private readonly inFlight = new Map<number, InFlight>()
  private pausedUntil = 0
  private throttleBackoff: number
  private reconnectBackoff: number
  private drainTimer: ReturnType<typeof setTimeout> | null = null
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null
  private enquireTimer: ReturnType<typeof setInterval> | null = null
  private sweepTimer: ReturnType<typeof setInterval> | null = null
  private concatRef = Math.floor(Math.random() * 256)
  private readonly transient: ReadonlySet<number>
  private readonly cfg:
    & Required<Omit<SmppProviderConfig, "systemType" | "transientStatuses" | "maxPerSecondPerBind">>
    & {
      systemType: string
    }
  /** The bind's own rate (`maxPerSecondPerBind`), or none. */
  private readonly bindRate: BindRate | null

  constructor(
    config: SmppProviderConfig,
    /** Records an event; `done(true)` once it is durable, `done(false)` when it could not be. */
    private readonly onEvent: (event: ProviderEvent, done: (recorded: boolean) => void) => void,
    private readonly log: (level: "info" | "warn", message: string) => void
  ) {
    this.cfg = {
      id: config.id,
      host: config.host,
      port: config.port,
      systemId: config.systemId,
      password: config.password,
      systemType: config.systemType ?? "",
      window: config.window ?? 50,
      enquireLinkMs: config.enquireLinkMs ?? 30_000,
      responseTimeoutMs: config.responseTimeoutMs ?? 10_000,
      unavailableAfterMs: config.unavailableAfterMs ?? 5_000,
      reconnectInitialMs: config.reconnectInitialMs ?? 250,
      reconnectMaxMs: config.reconnectMaxMs ?? 30_000,
      throttleInitialMs: config.throttleInitialMs ?? 50,
      throttleMaxMs: config.throttleMaxMs ?? 1_000,
      throttleGiveUpMs: config.throttleGiveUpMs ?? 60_000,
      registeredDelivery: config.registeredDelivery ?? true
    }
    this.transient = new Set([...TRANSIENT_STATUSES, ...(config.transientStatuses ?? [])])
    this.bindRate = config.maxPerSecondPerBind === undefined ? null : makeBindRate(config.maxPerSecondPerBind)
    this.throttleBackoff = this.cfg.throttleInitialMs
    this.reconnectBackoff = this.cfg.reconnectInitialMs
  }

  get isBound(): boolean {
    return this.bound
  }

  get pending(): number {
    return this.queue.length + this.inFlight.size
  }

  start(): void {
    this.connect()
    this.sweepTimer = setInterval(() => this.sweepUnavailable(), 250)
    this.sweepTimer.unref?.()
  }

  /** Unbind politely, then close; queued parts are answered NotAccepted, outstanding ones Unknown. */
  async stop(): Promise<void> {
    this.closed = true
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    if (this.drainTimer) clearTimeout(this.drainTimer)
    if (this.sweepTimer) clearInterval(this.sweepTimer)
    const session = this.session
    if (session !== null && this.bound) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 1000)
        session.unbind(() => {
          clearTimeout(t)
          resolve()
        })
      })
    }
    if (session !== null) session.destroy()
    this.onDisconnected(session)
    for (const p of this.queue.splice(0)) {
      p.resolve({ _tag: "refused", transient: true, code: "SHUTDOWN", reason: "Not sent: the gateway is stopping." })
    }
  }

  /** Submit the parts of a message in order; stops at the first part that is not accepted. */
  async submit(sms: OutboundSms): Promise<SubmitOutcome> {
    const ref = this.concatRef = (this.concatRef + 1) & 0xff
    const parts = wireParts(sms.text, sms.encoding, ref)
    const alpha = /[^0-9+]/.test(sms.senderId)
    const numericSender = sms.senderId.replace(/^\+/, "")
    const base = {
      source_addr_ton: alpha ? 5 : numericSender.length <= 8 ? 3 : 1,
      source_addr_npi: alpha ? 0 : numericSender.length <= 8 ? 0 : 1,
      source_addr: alpha ? sms.senderId : numericSender,
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: sms.recipient.replace(/^\+/, ""),
      registered_delivery: this.cfg.registeredDelivery ? 1 : 0
    }
    const ids: Array<string | null> = []
    const refused: Array<{ index: number; reason: string }> = []
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!
      const result = await this.enqueue({
        params: { ...base, esm_class: part.esmClass, data_coding: part.dataCoding, short_message: part.shortMessage },
        reference: sms.messageId,
        partIndex: i
      })
      if (result._tag === "ok") {
        ids.push(result.id)
        continue
      }
      if (result._tag === "unknown") {
        while (ids.length < parts.length) ids.push(null)
        return new Unknown({ reference: sms.messageId, reason: result.reason, providerMessageIds: ids })
      }
      if (i === 0) return new NotAccepted({ transient: result.transient, reason: result.reason, code: result.code })
      // a later part refused: earlier parts are with the carrier; the remaining parts are not sent
      for (let j = i; j < parts.length; j++) {
        ids.push(null)
        refused.push({ index: j, reason: j === i ? result.reason : "Not sent: an earlier part was refused." })
      }
      break
    }
    return new Accepted({ providerMessageIds: ids, refusedParts: refused })
  }

  query(providerMessageId: string): Promise<QueryOutcome> {
    return new Promise((resolve) => {
      const session = this.session
      if (session === null || !this.bound) return resolve({ _tag: "NotFound" })
      const t = setTimeout(() => resolve({ _tag: "NotFound" }), this.cfg.responseTimeoutMs)
      session.query_sm({ message_id: providerMessageId }, (pdu) => {
        clearTimeout(t)
        if (pdu.command_status !== 0) return resolve({ _tag: "NotFound" })
        const word =
          ["SCHEDULED", "ENROUTE", "DELIVRD", "EXPIRED", "DELETED", "UNDELIV", "ACCEPTD", "UNKNOWN", "REJECTD"][
            pdu.message_state ?? 7
          ] ?? "UNKNOWN"
        resolve({ _tag: "Found", state: stateOfStatus(word), deliveryStatus: word })
      })
    })
  }

  private order = 0

  private enqueue(p: Omit<QueuedPart, "resolve" | "enqueuedAt" | "firstThrottleAt" | "order">): Promise<PartResult> {
    return new Promise((resolve) => {
      if (this.closed) {
        return resolve({
          _tag: "refused",
          transient: true,
          code: "SHUTDOWN",
          reason: "Not sent: the gateway is stopping."
        })
      }
      this.queue.push({ ...p, enqueuedAt: Date.now(), order: this.order++, firstThrottleAt: null, resolve })
      this.drain()
    })
  }

  /** Parts that waited longer than `unavailableAfterMs` for a bound session are answered transient. */
  private sweepUnavailable(): void {
    if (this.bound) return
    const now = Date.now()
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const p = this.queue[i]!
      if (now - p.enqueuedAt >= this.cfg.unavailableAfterMs) {
        this.queue.splice(i, 1)
        p.resolve({
          _tag: "refused",
          transient: true,
          code: "SMSC_UNAVAILABLE",
          reason: "Not sent: the carrier's SMSC is unreachable."
        })
      }
    }
  }

  /** Drains again in `ms` (paused by the carrier, or waiting for the bind's rate). */
  private drainIn(ms: number): void {
    this.drainTimer = setTimeout(() => {
      this.drainTimer = null
      this.drain()
    }, ms)
  }

  private drain(): void {
    if (this.drainTimer !== null) return
    const session = this.session
    if (session === null || !this.bound) return
    const now = Date.now()
    if (now < this.pausedUntil) return this.drainIn(this.pausedUntil - now)
    while (this.queue.length > 0 && this.inFlight.size < this.cfg.window) {
      const wait = this.bindRate === null ? 0 : this.bindRate.waitMs(Date.now())
      if (wait > 0) return this.drainIn(Math.ceil(wait))
      const part = this.queue.shift()!
      const pdu = new smpp.PDU("submit_sm", { ...part.params })
      const ok = sendBatched(session, pdu, (resp) => this.onSubmitResp(resp))
      if (!ok) {
        this.queue.unshift(part)
        return
      }
      this.stats.submitted++
      this.bindRate?.record(Date.now())
      const seq = pdu.sequence_number
      const entry: InFlight = {
        part,
        settled: false,
        timer: setTimeout(
          () => this.settle(seq, { _tag: "unknown", reason: UNKNOWN_TIMEOUT }),
          this.cfg.responseTimeoutMs
        )
      }
      this.inFlight.set(seq, entry)
    }
  }

  private settle(seq: number, result: PartResult): void {
    const entry = this.inFlight.get(seq)
    if (entry === undefined || entry.settled) return
    entry.settled = true
    clearTimeout(entry.timer)
    if (result._tag === "unknown") {
      this.stats.unknown++
      // keep the entry until its session dies: a late answer is still reported (LateAcceptance)
      this.lateWatch.set(seq, entry.part)
    }
    this.inFlight.delete(seq)
    entry.part.resolve(result)
    this.drain()
  }

  private readonly lateWatch = new Map<number, QueuedPart>()

  private onSubmitResp(resp: smpp.PDU): void {
    const seq = resp.sequence_number
    const late = this.lateWatch.get(seq)
    if (late !== undefined) {
      this.lateWatch.delete(seq)
      if (resp.command_status === 0 && resp.message_id) {
        this.stats.lateAcceptances++
        this.onEvent(
          new LateAcceptance({
            providerId: this.cfg.id,
            reference: late.reference,
            partIndex: late.partIndex,
            providerMessageId: resp.message_id
          }),
          () => {}
        )
      }
      return
    }
    const entry = this.inFlight.get(seq)
    if (entry === undefined || entry.settled) return
    const status = resp.command_status
    if (status === 0) {
      this.stats.accepted++
      this.throttleBackoff = this.cfg.throttleInitialMs
      this.settle(seq, { _tag: "ok", id: resp.message_id ?? "" })
      return
    }
    if (status === smpp.ESME_RTHROTTLED || status === smpp.ESME_RMSGQFUL) {
      this.stats.throttled++
      const part = entry.part
      const now = Date.now()
      part.firstThrottleAt ??= now
      entry.settled = true
      clearTimeout(entry.timer)
      this.inFlight.delete(seq)
      if (now - part.firstThrottleAt >= this.cfg.throttleGiveUpMs) {
        part.resolve({ _tag: "refused", transient: true, code: statusName(status), reason: describeStatus(status) })
      } else {
        // back to the head of the queue in submission order (not accepted: re-sending duplicates
        // nothing), and pause the session
        let i = 0
        while (i < this.queue.length && this.queue[i]!.order < part.order) i++
        this.queue.splice(i, 0, part)
        // answers to submits of the same burst do not escalate the pause; a throttle after a pause does
        if (now >= this.pausedUntil) {
          this.pausedUntil = now + this.throttleBackoff
          this.throttleBackoff = Math.min(this.throttleBackoff * 2, this.cfg.throttleMaxMs)
        }
      }
      this.drain()
      return
    }
    this.stats.refused++
    this.settle(seq, {
      _tag: "refused",
      transient: this.transient.has(status),
      code: statusName(status),
      reason: describeStatus(status)
    })
  }

  private connect(): void {
    if (this.closed) return
    this.stats.connects++
    const session = smpp.connect({ host: this.cfg.host, port: this.cfg.port })
    this.session = session
    session.on("connect", () => {
      session.bind_transceiver({
        system_id: this.cfg.systemId,
        password: this.cfg.password,
        system_type: this.cfg.systemType,
        interface_version: 0x34
      }, (pdu) => {
        if (this.session !== session) return
        if (pdu.command_status !== 0) {
          this.stats.bindFailures++
          this.log("warn", `SMPP ${this.cfg.id}: bind refused (${statusName(pdu.command_status)})`)
          session.destroy()
          return
        }
        this.stats.binds++
        this.bound = true
        this.reconnectBackoff = this.cfg.reconnectInitialMs
        this.pausedUntil = 0
        this.log("info", `SMPP ${this.cfg.id}: bound to ${this.cfg.host}:${this.cfg.port}`)
        this.startEnquireLink(session)
        this.drain()
      })
    })
    session.on("error", (e: Error) => {
      if (this.session === session) this.log("warn", `SMPP ${this.cfg.id}: ${e.message}`)
    })
    session.on("close", () => {
      if (this.session !== session) return
      this.onDisconnected(session)
      this.scheduleReconnect()
    })
    session.on("enquire_link", (pdu: smpp.PDU) => session.send(pdu.response()))
    session.on("unbind", (pdu: smpp.PDU) => {
      session.send(pdu.response())
      session.close()
    })
    session.on("deliver_sm", (pdu: smpp.PDU) => this.onDeliver(session, pdu))
  }

  private startEnquireLink(session: smpp.Session): void {
    if (this.enquireTimer) clearInterval(this.enquireTimer)
    this.enquireTimer = setInterval(() => {
      if (this.session !== session || !this.bound) return
      const t = setTimeout(() => {
        this.log("warn", `SMPP ${this.cfg.id}: enquire_link unanswered, reconnecting`)
        session.destroy()
      }, this.cfg.responseTimeoutMs)
      session.enquire_link(() => clearTimeout(t))
    }, this.cfg.enquireLinkMs)
    this.enquireTimer.unref?.()
  }

  private onDisconnected(session: smpp.Session | null): void {
    if (session !== null && this.session !== session) return
    if (this.session !== null) this.stats.disconnects++
    this.session = null
    this.bound = false
    if (this.enquireTimer) clearInterval(this.enquireTimer)
    this.enquireTimer = null
    if (this.drainTimer) clearTimeout(this.drainTimer)
    this.drainTimer = null
    this.lateWatch.clear()
    for (const seq of [...this.inFlight.keys()]) {
      this.settle(seq, { _tag: "unknown", reason: UNKNOWN_CONNECTION })
    }
    this.lateWatch.clear()
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer !== null) return
    const delay = Math.round(this.reconnectBackoff * (0.75 + Math.random() * 0.5))
    this.reconnectBackoff = Math.min(this.reconnectBackoff * 2, this.cfg.reconnectMaxMs)
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null
      this.connect()
    }, delay)
  }

  private onDeliver(session: smpp.Session, pdu: smpp.PDU): void {
    const { event, text } = deliveredEvent(this.cfg.id, pdu, new Date())
    if (event?._tag === "DeliveryReport") this.stats.receipts++
    else if (event !== null) this.stats.inbound++
    if (event === null) {
      // unreadable receipt: acknowledge (re-sending it would not make it readable) and log
      this.log("warn", `SMPP ${this.cfg.id}: unreadable deliver_sm ignored: ${JSON.stringify(text)}`)
      session.send(pdu.response())
      return
    }
    const answer = (recorded: boolean) =>
      sendBatched(session, recorded ? pdu.response() : pdu.response({ command_status: smpp.ESME_RX_T_APPN }))
    try {
      this.onEvent(event, answer)
    } catch (e) {
      // the sink failed outright: a temporary error, so the SMSC sends it again
      this.log("warn", `SMPP ${this.cfg.id}: recording a deliver_sm failed: ${String(e)}`)
      answer(false)
    }
  }
}
