/**
 * Failed sign-ins, counted per key (an e-mail, an address) in a window: the part of the portal's
 * and the console's access stores (`PortalStore`, `OperatorUserStore`) that is the same in both.
 */
import type { Effect } from "effect"

/** A failed sign-in to count. */
export interface LoginFailure {
  readonly key: string
  readonly now: Date
  readonly windowStart: Date
  readonly threshold: number
  readonly lockUntil: Date
}

/** The failed sign-ins of one kind of user. */
export interface LoginFailures {
  /** The lock of `key` still running at `now`, or null. */
  readonly lockedUntil: (key: string, now: Date) => Effect.Effect<Date | null>
  /** Counts a failure in the window starting at `windowStart` or later; locks until `lockUntil`
   * when the count reaches `threshold`. Answers the lock, if any. */
  readonly recordFailure: (input: LoginFailure) => Effect.Effect<Date | null>
  /** Forgets the failures of `key` (a successful sign-in). */
  readonly clearFailures: (key: string) => Effect.Effect<void>
}
