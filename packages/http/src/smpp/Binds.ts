/**
 * The SMPP binds up in this process: how many a system id has (`max_binds`) and which can take
 * receipts (receiver, transceiver). Throughput is counted across processes (core `SmppThroughput`);
 * unbinding on request goes through the live binds (`LiveBinds.ts`).
 */
import { Context, Layer } from "effect"

/** A bind as the registry holds it. */
export interface BoundSession {
  readonly id: number
  /** Its id in the live-binds list (`smpp_binds`, the admin API's bind uid). */
  readonly uid: string
  readonly smppAccountId: string
  /** The account the credentials belong to. */
  readonly accountId: string
  readonly systemId: string
  readonly kind: "transmitter" | "receiver" | "transceiver"
  readonly remote: string
  readonly since: Date
  /**
   * Writes these deliver_sm (a receipt, or the parts of an inbound message), each with the sequence
   * number it is given, and answers whether the ESME acknowledged every one (deliver_sm_resp ESME_ROK).
   */
  readonly deliver: (pdus: ReadonlyArray<(sequence: number) => Buffer>) => Promise<boolean>
  /** Ends the bind (unbind sent, connection closed). */
  readonly close: () => void
  /** Submits received and not answered yet, and submits received in the last minute. */
  readonly figures: () => { readonly inFlight: number; readonly submitsLastMinute: number }
}

/** The registry's operations. */
export interface BindRegistry {
  /** Adds a bind unless the credentials already have `maxBinds` up here. */
  readonly add: (session: BoundSession, maxBinds: number) => boolean
  readonly remove: (session: BoundSession) => void
  /** Binds up, for the gauge. */
  readonly count: () => number
  /** Every bind up here (the live-binds heartbeat). */
  readonly all: () => ReadonlyArray<BoundSession>
  /** The binds of these credentials that take receipts, in turn (round robin). */
  readonly receiverOf: (smppAccountId: string) => BoundSession | undefined
  /** Credentials with a receiver or transceiver bind up here. */
  readonly receivingAccounts: () => ReadonlyArray<string>
}

/** The binds of this process. */
export class SmppBinds extends Context.Tag("@tuma/http/SmppBinds")<SmppBinds, BindRegistry>() {
  /** A fresh registry. */
  static readonly layer = Layer.sync(SmppBinds, makeRegistry)
}

/** A fresh registry. */
export function makeRegistry(): BindRegistry {
  const byAccount = new Map<string, Array<BoundSession>>()
  const turn = new Map<string, number>()
  const receivers = (id: string) => (byAccount.get(id) ?? []).filter((s) => s.kind !== "transmitter")
  return {
    add: (session, maxBinds) => {
      const list = byAccount.get(session.smppAccountId) ?? []
      if (list.length >= maxBinds) return false
      byAccount.set(session.smppAccountId, [...list, session])
      return true
    },
    remove: (session) => {
      const list = (byAccount.get(session.smppAccountId) ?? []).filter((s) => s !== session)
      if (list.length === 0) byAccount.delete(session.smppAccountId)
      else byAccount.set(session.smppAccountId, list)
    },
    count: () => [...byAccount.values()].reduce((n, l) => n + l.length, 0),
    all: () => [...byAccount.values()].flat(),
    receiverOf: (id) => {
      const list = receivers(id)
      if (list.length === 0) return undefined
      const n = (turn.get(id) ?? 0) % list.length
      turn.set(id, n + 1)
      return list[n]
    },
    receivingAccounts: () => [...byAccount.keys()].filter((id) => receivers(id).length > 0)
  }
}
