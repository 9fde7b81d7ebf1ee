/**
 * The lockout rule of sign-ins (the portal's and the console's): a locked e-mail or client address
 * is refused before anything is checked; a failure counts against both; `lockoutThreshold`
 * failures of one e-mail in `lockoutWindowMs` lock it for `lockoutMs` (`addressLockoutThreshold`
 * for an address). Over any store with the three failure operations (`PortalStore`,
 * `OperatorUserStore`).
 */
import { Effect } from "effect"
import type { PortalStore } from "../ports/PortalStore.js"
import { InvalidCredentials, LoginLocked } from "./model.js"
import type { PortalSettings } from "./PortalConfig.js"

/** The failure operations a lockout needs. */
export type FailureStore = Pick<PortalStore["Type"], "lockedUntil" | "recordFailure" | "clearFailures">

/** The lockout of one sign-in attempt (an e-mail, maybe a client address, at `now`). */
export const makeLockout = (
  store: FailureStore,
  config: PortalSettings,
  attempt: { readonly email: string; readonly ip: string | null; readonly now: Date },
  lockedMessage: string
) => {
  const t = attempt.now
  const emailKey = `email:${attempt.email.trim().toLowerCase()}`
  const addressKey = attempt.ip === null ? undefined : `ip:${attempt.ip}`
  const lockedError = (until: Date) =>
    new LoginLocked({
      message: lockedMessage,
      retry_after_seconds: Math.max(1, Math.ceil((until.getTime() - t.getTime()) / 1000))
    })
  return {
    /** Fails with `LoginLocked` when the e-mail or the address is locked. */
    check: Effect.gen(function*() {
      for (const key of [emailKey, addressKey]) {
        if (key === undefined) continue
        const locked = yield* store.lockedUntil(key, t)
        if (locked !== null) return yield* lockedError(locked)
      }
    }),
    /** Counts a failure; fails with `LoginLocked` if it locked the e-mail, else `InvalidCredentials(message)`. */
    fail: (message: string) =>
      Effect.gen(function*() {
        const windowStart = new Date(t.getTime() - config.lockoutWindowMs)
        const lockUntil = new Date(t.getTime() + config.lockoutMs)
        const locked = yield* store.recordFailure({
          key: emailKey,
          now: t,
          windowStart,
          threshold: config.lockoutThreshold,
          lockUntil
        })
        if (addressKey !== undefined) {
          yield* store.recordFailure({
            key: addressKey,
            now: t,
            windowStart,
            threshold: config.addressLockoutThreshold,
            lockUntil
          })
        }
        if (locked !== null) return yield* lockedError(locked)
        return yield* new InvalidCredentials({ message })
      }),
    /** Forgets the e-mail's failures (a successful sign-in). */
    clear: store.clearFailures(emailKey)
  }
}
