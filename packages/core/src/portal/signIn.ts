/**
 * Signing in to the portal: lockout, password, a new session (no fixation); sessions read, ended, their expiry.
 */
import { Effect } from "effect"
import type { PortalContext } from "./context.js"
import { makeLockout } from "./Lockout.js"
import { authenticateSession, normalizeEmail } from "./model.js"
import { DUMMY_HASH, verifyPassword } from "./Passwords.js"
import type { PortalAccessService } from "./service.js"
import { makeSecondFactor } from "./twoFactor.js"

const LOCKED_MESSAGE = "Too many failed sign-ins. Try again later or reset your password."

/** Sign-in and sessions use cases. */
export type SignInOperation = "signIn" | "authenticate" | "account" | "signOut" | "signOutEverywhere" | "expiresAt"

/** Sign-in and sessions over the shared context. */
export const signInOperations = (ctx: PortalContext): Pick<PortalAccessService, SignInOperation> => {
  const { config, newSession, now, store } = ctx
  const second = makeSecondFactor(ctx)
  return {
    signIn: ({ client, code, email, password, presentedSessionId }) =>
      Effect.gen(function*() {
        const t = yield* now
        const lockout = makeLockout(store, config, { email, ip: client.ip, now: t }, LOCKED_MESSAGE)
        yield* lockout.check
        const user = yield* store.userByEmail(normalizeEmail(email))
        const ok = yield* verifyPassword(password, user?.password_hash ?? DUMMY_HASH)
        if (user === undefined || !ok) return yield* lockout.fail("The e-mail or password is not correct.")
        const given = (code ?? "").trim()
        let recoveryCodes: ReadonlyArray<string> | undefined
        const { pending, secret } = user.two_factor ? yield* store.twoFactor(user.id) : { pending: null, secret: null }
        if (secret !== null) {
          if (given === "") return { _tag: "CodeRequired" as const }
          if (!(yield* second.accepts(user, secret, given))) {
            return yield* lockout.fail("The authentication code is not correct.")
          }
        } else if ((yield* store.account(user.account_id))?.require_two_factor === true) {
          // the account requires a second factor: enrol now (the secret is shown until a code of it is given)
          const secretToEnrol = pending ?? (yield* second.pendingSecret(user))
          if (given === "") return { _tag: "EnrolmentRequired" as const, ...second.enrolment(user, secretToEnrol) }
          recoveryCodes = yield* second.confirm(user, secretToEnrol, given)
          if (recoveryCodes === undefined) return yield* lockout.fail("The authentication code is not correct.")
        }
        yield* lockout.clear
        // sessions nobody will present again are swept at sign-in (no separate job)
        yield* store.deleteExpiredSessions(new Date(t.getTime() - config.sessionIdleMs), t)
        const signedIn = yield* newSession(
          { ...user, two_factor: user.two_factor || recoveryCodes !== undefined },
          presentedSessionId,
          client
        )
        return { _tag: "SignedIn" as const, ...signedIn, recoveryCodes }
      }),

    authenticate: (sessionId) => authenticateSession(store, now, config.sessionIdleMs, sessionId),

    account: (accountId) =>
      Effect.flatMap(
        store.account(accountId),
        (a) => a === undefined ? Effect.die("portal: account vanished") : Effect.succeed(a)
      ),

    signOut: (idHash) => store.deleteSession(idHash),

    signOutEverywhere: (userId) => Effect.asVoid(store.deleteUserSessions(userId)),

    expiresAt: (session) => {
      const idle = session.last_seen_at.getTime() + config.sessionIdleMs
      return {
        idle: new Date(Math.min(idle, session.absolute_expires_at.getTime())),
        absolute: session.absolute_expires_at
      }
    }
  }
}
