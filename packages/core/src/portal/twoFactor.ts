/**
 * Two-factor sign-in for the portal's users (the domain's TOTP rule, `@tuma/domain/totp`, as the
 * console's operators have it): optional per user (Profile: set up with a QR code and a code of
 * it, recovery codes shown once; turned off with the password), required for every user of an
 * account when an owner says so (a user without it enrols at the next sign-in). The sign-in step
 * itself is `secondFactor`, called by `signIn.ts` after the right password.
 */
import { ResourceConflict } from "@tuma/domain/errors"
import * as Totp from "@tuma/domain/totp"
import { validationFailed } from "@tuma/domain/validation"
import { Effect } from "effect"
import type { UserRow } from "../ports/PortalStore.js"
import type { PortalContext } from "./context.js"
import type { TwoFactorEnrolment } from "./model.js"
import { sha256 } from "./model.js"
import { verifyPassword } from "./Passwords.js"
import type { PortalAccessService } from "./service.js"

/** The issuer authenticator apps show for the portal. */
export const PORTAL_TOTP_ISSUER = "Tuma"

/** The two-factor use cases. */
export type TwoFactorOperation =
  | "startTwoFactor"
  | "confirmTwoFactor"
  | "disableTwoFactor"
  | "regenerateRecoveryCodes"
  | "unusedRecoveryCodes"
  | "setRequireTwoFactor"

/** The second factor's steps shared by sign-in and the Profile. */
export const makeSecondFactor = (ctx: PortalContext) => {
  const { now, store } = ctx
  const enrolment = (user: UserRow, secret: string): TwoFactorEnrolment => ({
    secret,
    uri: Totp.totpUri(secret, user.email, PORTAL_TOTP_ISSUER)
  })
  const newRecoveryCodes = (userId: string) =>
    Effect.gen(function*() {
      const codes = Array.from({ length: Totp.RECOVERY_CODE_COUNT }, Totp.recoveryCode)
      yield* store.replaceRecoveryCodes(userId, codes.map((c) => sha256(Totp.normalizeCode(c))))
      return codes
    })
  /** The pending secret of a user (a new one stored if there is none). */
  const pendingSecret = (user: UserRow) =>
    Effect.gen(function*() {
      const { pending } = yield* store.twoFactor(user.id)
      if (pending !== null) return pending
      const secret = Totp.newTotpSecret()
      yield* store.setTwoFactor(user.id, { pending: secret }, yield* now)
      return secret
    })
  /** Confirms the pending secret with a code of it: enrolled, recovery codes made; false if the code is wrong. */
  const confirm = (user: UserRow, pending: string, code: string) =>
    Effect.gen(function*() {
      const t = yield* now
      const step = Totp.totpStep(pending, code, t)
      if (step === undefined) return undefined
      yield* store.setTwoFactor(user.id, { secret: pending, pending: null }, t)
      yield* store.useTotpStep(user.id, step)
      return yield* newRecoveryCodes(user.id)
    })
  /** A code (TOTP, each step once; or a recovery code, spent) of an enrolled user's secret. */
  const accepts = (user: UserRow, secret: string, code: string) =>
    Effect.gen(function*() {
      const t = yield* now
      const step = Totp.totpStep(secret, code, t)
      if (step !== undefined) return yield* store.useTotpStep(user.id, step)
      if (Totp.isTotpCode(code)) return false
      return yield* store.useRecoveryCode(user.id, sha256(Totp.normalizeCode(code)), t)
    })
  return { enrolment, newRecoveryCodes, pendingSecret, confirm, accepts }
}

/** Profile and account settings of the second factor, over the shared context. */
export const twoFactorOperations = (ctx: PortalContext): Pick<PortalAccessService, TwoFactorOperation> => {
  const { notFound, now, store } = ctx
  const second = makeSecondFactor(ctx)
  const userOf = (accountId: string, userId: string) =>
    Effect.flatMap(store.user(accountId, userId), (user) =>
      user === undefined
        ? Effect.fail(notFound("portal_user", userId, "The user was not found."))
        : Effect.succeed(user))
  const alreadyOn = () => new ResourceConflict({ message: "Two-factor sign-in is already on.", resource: "two_factor" })
  return {
    startTwoFactor: (accountId, userId) =>
      Effect.gen(function*() {
        const user = yield* userOf(accountId, userId)
        if (user.two_factor) return yield* alreadyOn()
        return second.enrolment(user, yield* second.pendingSecret(user))
      }),

    confirmTwoFactor: (accountId, userId, code) =>
      Effect.gen(function*() {
        const user = yield* userOf(accountId, userId)
        if (user.two_factor) return yield* alreadyOn()
        const { pending } = yield* store.twoFactor(user.id)
        const codes = pending === null ? undefined : yield* second.confirm(user, pending, code)
        if (codes === undefined) {
          return yield* validationFailed({
            code: ["The code is not correct: enter the 6 digits your authenticator app shows now."]
          })
        }
        return codes
      }),

    disableTwoFactor: (accountId, userId, password) =>
      Effect.gen(function*() {
        const user = yield* userOf(accountId, userId)
        if (!(yield* verifyPassword(password, user.password_hash))) {
          return yield* validationFailed({ password: ["The password is not correct."] })
        }
        const account = yield* store.account(accountId)
        if (account?.require_two_factor === true) {
          return yield* new ResourceConflict({
            message: "Your account requires two-factor sign-in: an owner can change that on the Team page.",
            resource: "two_factor"
          })
        }
        yield* store.setTwoFactor(user.id, { secret: null, pending: null }, yield* now)
        yield* store.replaceRecoveryCodes(user.id, [])
      }),

    regenerateRecoveryCodes: (accountId, userId) =>
      Effect.gen(function*() {
        const user = yield* userOf(accountId, userId)
        if (!user.two_factor) {
          return yield* new ResourceConflict({ message: "Two-factor sign-in is off.", resource: "two_factor" })
        }
        return yield* second.newRecoveryCodes(user.id)
      }),

    unusedRecoveryCodes: (userId) => store.unusedRecoveryCodes(userId),

    setRequireTwoFactor: (accountId, userId, required) =>
      Effect.gen(function*() {
        const user = yield* userOf(accountId, userId)
        if (required && !user.two_factor) {
          return yield* validationFailed({
            require_two_factor: ["Set up two-factor sign-in for yourself first (Profile)."]
          })
        }
        yield* store.setRequireTwoFactor(accountId, required)
      })
  }
}
