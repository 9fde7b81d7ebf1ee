/**
 * What a submit's outcome leads to, as values (decisions §21): `Accepted` → a `sent` record (refused
 * parts failed), `Unknown` → a `sent` record waiting for reconciliation until `unknownTimeoutMs`,
 * a permanent `NotAccepted` → failed with a refund, a transient one → a `Refusal` to fail over from.
 * When every route refused (`exhausted`): back to the queue with exponential backoff, or failed with a
 * refund after `giveUpAfterMs`; no credit anywhere → failed. The dispatcher's totals are counted here.
 */
import type { Clock } from "effect"
import type { ClaimedMessage, FailRecord, RequeueRecord, RouteRow, SentRecord } from "../ports/DispatchStore.js"
import type { SubmitOutcome } from "../ports/Provider.js"
import type { DeliveryOptions } from "./DeliveryConfig.js"
import { normalizeRef } from "./ProviderRef.js"

/** Totals of one dispatcher (counted on the hot path, outside Effect; benchmarks print them). */
export interface DispatcherStats {
  claimed: number
  sent: number
  failed: number
  requeued: number
  unknown: number
}

/** A transient refusal: the next route is tried. */
export interface Refusal {
  readonly code: string
  readonly reason: string
}

/** An outcome to record: what the writer is given for a message (its final or next state). */
export type Write =
  | { readonly key: "sent"; readonly item: SentRecord }
  | { readonly key: "failed"; readonly item: FailRecord }
  | { readonly key: "requeued"; readonly item: RequeueRecord }

/** What a submit's outcome leads to: a record to write, or a refusal to fail over from. */
export type Decision = Write | Refusal

/** A record to write (not a refusal). */
export const isWrite = (d: Decision): d is Write => "key" in d

/** The decisions of one dispatcher. */
export interface Outcomes {
  readonly fail: (m: ClaimedMessage, code: string, reason: string) => Write
  readonly noCredit: (m: ClaimedMessage) => Write
  readonly decide: (m: ClaimedMessage, route: RouteRow, out: SubmitOutcome) => Decision
  readonly exhausted: (m: ClaimedMessage, last: Refusal | null) => Write
}

/** The decisions, counting into `stats`; `returnCredit` gives back a refused message's provider credit. */
export const makeOutcomes = (options: {
  readonly cfg: Pick<DeliveryOptions, "unknownTimeoutMs" | "giveUpAfterMs" | "retryBaseMs" | "retryMaxMs">
  readonly clock: Clock.Clock
  readonly stats: DispatcherStats
  readonly returnCredit: (providerId: string, marketId: string, units: number) => void
}): Outcomes => {
  const { cfg, clock, returnCredit, stats } = options
  const fail = (m: ClaimedMessage, code: string, reason: string): Write => {
    stats.failed++
    return { key: "failed", item: { messageId: m.id, code, reason, refund: true } }
  }
  const noCredit = (m: ClaimedMessage): Write =>
    fail(m, "PROVIDER_CREDIT_EXHAUSTED", `Not sent: no carrier has credit left for ${m.country}.`)

  /** The `sent` record of `m` on `route`: a part per provider id, in the state `stateOf` gives it. */
  const sent = (
    m: ClaimedMessage,
    route: RouteRow,
    ids: ReadonlyArray<string | null>,
    stateOf: (id: string | null, index: number) => SentRecord["parts"][number]["state"],
    rest: Pick<SentRecord, "failureReason" | "unknown">
  ): Write => ({
    key: "sent",
    item: {
      messageId: m.id,
      providerId: route.providerId,
      parts: ids.map((id, index) => ({
        index,
        providerMessageId: id,
        ref: id === null ? null : normalizeRef(id),
        state: stateOf(id, index)
      })),
      ...rest
    }
  })

  const decide = (m: ClaimedMessage, route: RouteRow, out: SubmitOutcome): Decision => {
    switch (out._tag) {
      case "Accepted": {
        stats.sent++
        const refused = new Set(out.refusedParts.map((p) => p.index))
        return sent(m, route, out.providerMessageIds, (id, i) => id === null || refused.has(i) ? "failed" : "enroute", {
          failureReason: out.refusedParts.length > 0 ? out.refusedParts[0]!.reason : null,
          unknown: null
        })
      }
      case "Unknown": {
        stats.unknown++
        return sent(m, route, out.providerMessageIds, (id) => id === null ? "unknown" : "enroute", {
          failureReason: null,
          unknown: {
            reference: out.reference,
            reason: out.reason,
            deadline: new Date(clock.unsafeCurrentTimeMillis() + cfg.unknownTimeoutMs)
          }
        })
      }
      case "NotAccepted": {
        returnCredit(route.providerId, m.marketId, m.units)
        return out.transient ? { code: out.code, reason: out.reason } : fail(m, out.code, out.reason)
      }
    }
  }

  const exhausted = (m: ClaimedMessage, last: Refusal | null): Write => {
    if (last === null) return noCredit(m)
    const at = clock.unsafeCurrentTimeMillis()
    const age = at - (m.queuedAt ?? m.createdAt).getTime()
    if (age >= cfg.giveUpAfterMs) {
      return fail(m, last.code, `${last.reason} Gave up after ${Math.round(age / 60_000)} minutes of retries.`)
    }
    stats.requeued++
    const delay = Math.min(cfg.retryBaseMs * 2 ** Math.max(0, m.attempts - 1), cfg.retryMaxMs)
    return { key: "requeued", item: { messageId: m.id, availableAt: new Date(at + delay), lastError: last.reason } }
  }

  return { fail, noCredit, decide, exhausted }
}
