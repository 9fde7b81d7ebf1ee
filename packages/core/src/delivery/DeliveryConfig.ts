/**
 * The delivery workers' settings (`DeliveryConfig`): in-flight and claim sizes, leases, flush
 * timing, retry and give-up times, refresh periods, the worker name.
 */
import { Context, Layer } from "effect"

/** The delivery workers' settings; durations in ms. */
export interface DeliveryOptions {
  /** Messages a worker process holds at once (submitting or waiting for their write). */
  readonly maxInFlight: number
  /** Rows per claim. */
  readonly claimBatch: number
  /** How long a claim is leased; must exceed the longest submit (throttling included). */
  readonly leaseMs: number
  readonly pollIntervalMs: number
  /**
   * After a claim that came back short of its limit, the claim loop waits this long before the next
   * one, so that under a steady stream of single sends each claim (and the credit reservation, the
   * writer's batch and the receipts that follow it) takes many messages instead of the two or three
   * accepted since the last. A full claim is followed at once; an empty one waits for a wake-up as
   * before. 0 claims again at once. The cost: a message accepted mid-stream waits up to this long more.
   */
  readonly claimGatherMs: number
  /** Outcomes gathered this long before a write (group commit). */
  readonly flushDelayMs: number
  /**
   * Writes (transactions) in progress at once; 1 keeps them strictly in order. Batches grow while
   * the writes in progress run, so few are enough: 2 overlaps one commit with the next batch (3 made
   * about a third more, smaller transactions in bench:dispatch, for ~5% less throughput).
   */
  readonly flushConcurrency: number
  readonly scheduleIntervalMs: number
  readonly reconcileIntervalMs: number
  /** An `Unknown` submit not confirmed by then fails (no refund). */
  readonly unknownTimeoutMs: number
  readonly retryBaseMs: number
  readonly retryMaxMs: number
  /** Transient refusals on every route keep a message queued this long, then it fails (refund). */
  readonly giveUpAfterMs: number
  readonly routesRefreshMs: number
  /** Pending receipts nobody matched are dropped after this long. */
  readonly pendingReceiptTtlMs: number
  /** How often receipts that came before their part are matched again. */
  readonly pendingSweepMs: number
  /** Run the claim loop (false: only receipts, schedules and reconciliation). */
  readonly dispatch: boolean
  /**
   * A worker process not heard from for this long is taken for dead: another worker makes its
   * claimed messages claimable at once instead of when their lease ends (workers beat every fifth
   * of it). Only a worker that has beaten without a gap that long judges others.
   */
  readonly takeOverAfterMs: number
  /** Names this process in lease owners (the server passes `host:pid`; core reads no OS facts). */
  readonly workerName: string
}

/** Defaults: 2000 in flight, 1000 rows per claim, 20 ms gathering, 2 min leases, 2 ms group commit, give up after 1 h. */
export const defaultDeliveryOptions: DeliveryOptions = {
  maxInFlight: 2000,
  claimBatch: 1000,
  leaseMs: 120_000,
  pollIntervalMs: 1000,
  claimGatherMs: 20,
  flushDelayMs: 2,
  flushConcurrency: 2,
  scheduleIntervalMs: 1000,
  reconcileIntervalMs: 5000,
  unknownTimeoutMs: 15 * 60_000,
  retryBaseMs: 1000,
  retryMaxMs: 60_000,
  giveUpAfterMs: 60 * 60_000,
  routesRefreshMs: 10_000,
  pendingReceiptTtlMs: 7 * 24 * 3600_000,
  pendingSweepMs: 500,
  dispatch: true,
  takeOverAfterMs: 10_000,
  workerName: "tuma"
}

/** The delivery settings in use (the defaults unless provided); `DeliveryConfig.layer(options)` overrides some. */
export class DeliveryConfig extends Context.Reference<DeliveryConfig>()("@tuma/core/DeliveryConfig", {
  defaultValue: () => defaultDeliveryOptions
}) {
  static readonly layer = (options: Partial<DeliveryOptions>) =>
    Layer.succeed(DeliveryConfig, { ...defaultDeliveryOptions, ...options })
}
