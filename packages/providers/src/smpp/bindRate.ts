/**
 * A bind's own submit rate (`maxPerSecondPerBind`): at most N submit_sm on one SMPP session in any
 * `spanMs` (1,020 ms: a second and a 2 % margin, so that the carrier, which meters the arrival of
 * PDUs, never sees N + 1 in its second when one submit of a burst reaches it a few ms later than the
 * next). Carriers meter each bind, not the account (decisions, "Carriers' rates"): a provider with two
 * binds, one per process, runs each at its own rate, which the cluster-wide `maxPerSecond` cannot
 * express. The times of the last N submits are a ring; the oldest says when the next may go.
 */

/** When the next submit may go (`waitMs`, 0 = now), and the record of one that went. */
export interface BindRate {
  readonly waitMs: (now: number) => number
  readonly record: (now: number) => void
}

/** The span a bind's rate is counted over: a second and a 2 % margin. */
export const BIND_RATE_SPAN_MS = 1_020

/** A bind rate of `perSecond` submits (an integer ≥ 1) in any `spanMs`. */
export const makeBindRate = (perSecond: number, spanMs: number = BIND_RATE_SPAN_MS): BindRate => {
  const n = Math.max(1, Math.floor(perSecond))
  const sent = new Array<number>(n).fill(Number.NEGATIVE_INFINITY)
  let oldest = 0
  return {
    waitMs: (now) => Math.max(0, sent[oldest]! + spanMs - now),
    record: (now) => {
      sent[oldest] = now
      oldest = (oldest + 1) % n
    }
  }
}
