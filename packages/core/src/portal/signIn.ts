/**
 * Signing in to the portal: lockout, password, a new session (no fixation); sessions read, ended, their expiry.
 */
import { Effect } from "effect"
import type { PortalContext } from "./context.js"
import { makeLockout } from "./Lockout.js"
import { authenticateSession, normalizeEmail } from "./model.js"
import { DUMMY_HASH, verifyPassword } from "./Passwords.js"
import type { PortalAccessService } from "./service.js"

const LOCKED_MESSAGE = "Too many failed sign-ins. Try again later or reset your password."

/** Sign-in and sessions use cases. */
export type SignInOperation = "signIn" | "authenticate" | "account" | "signOut" | "signOutEverywhere" | "expiresAt"

/** Sign-in and sessions over the shared context. */
export const signInOperations = (ctx: PortalContext): Pick<PortalAccessService, SignInOperation> => {
  const { config, newSession, now, store } = ctx
  return {
    signIn: ({ client, email, password, presentedSessionId }) =>
      Effect.gen(function*() {
        const t = yield* now
        const lockout = makeLockout(store, config, { email, ip: client.ip, now: t }, LOCKED_MESSAGE)
        yield* lockout.check
        const user = yield* store.userByEmail(normalizeEmail(email))
        const ok = yield* verifyPassword(password, user?.password_hash ?? DUMMY_HASH)
        if (user === undefined || !ok) return yield* lockout.fail("The e-mail or password is not correct.")
        yield* lockout.clear
        // sessions nobody will present again are swept at sign-in (no separate job)
        yield* store.deleteExpiredSessions(new Date(t.getTime() - config.sessionIdleMs), t)
        return yield* newSession(user, presentedSessionId, client)
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
