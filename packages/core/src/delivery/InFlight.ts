/**
 * The dispatcher's in-flight budget: at most `maxInFlight` claimed messages between their claim and
 * their committed outcome. The claim loop waits for `claimAt` free slots (half a batch), so it is woken
 * once per half batch, not once per message.
 */
import { Effect, Queue } from "effect"
import type { DeliveryOptions } from "./DeliveryConfig.js"

/** The budget: counted by the claim loop (`acquire`) and by each settled message (`release`). */
export interface InFlight {
  /** Free slots now. */
  readonly free: () => number
  /** The number of free slots a claim waits for. */
  readonly claimAt: number
  readonly acquire: (n: number) => void
  /** `n` claimed messages given back at once (a batch that could not be routed). */
  readonly giveBack: (n: number) => void
  /** One message settled; wakes the claim loop when `claimAt` slots became free. */
  readonly release: () => void
  /** Completes when `claimAt` slots became free since the last wait. */
  readonly freed: Effect.Effect<void>
}

/** A budget of `maxInFlight`, claims waiting for half a batch. */
export const makeInFlight = (
  cfg: Pick<DeliveryOptions, "maxInFlight" | "claimBatch">
): Effect.Effect<InFlight> =>
  Effect.map(Queue.sliding<void>(1), (freed) => {
    let inFlight = 0
    const claimAt = Math.max(1, Math.ceil(Math.min(cfg.claimBatch, cfg.maxInFlight) / 2))
    return {
      free: () => cfg.maxInFlight - inFlight,
      claimAt,
      acquire: (n) => {
        inFlight += n
      },
      giveBack: (n) => {
        inFlight -= n
      },
      release: () => {
        inFlight--
        if (cfg.maxInFlight - inFlight === claimAt) Queue.unsafeOffer(freed, undefined)
      },
      freed: Queue.take(freed)
    }
  })
