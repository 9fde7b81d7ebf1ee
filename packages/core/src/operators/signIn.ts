/**
 * Signing in to the console: password, then TOTP (or a recovery code, spent), TOTP enrolment for
 * roles that require it, lockout, sessions, recovery codes.
 */
import { totpRequired } from "@tuma/domain/operatorRoles"
import { newTotpSecret } from "@tuma/domain/totp"
import { Effect } from "effect"
import { makeLockout } from "../portal/Lockout.js"
import { authenticateSession } from "../portal/model.js"
import { InvalidCredentials, sha256 } from "../portal/model.js"
import { DUMMY_HASH, verifyPassword } from "../portal/Passwords.js"
import type { OperatorAccessContext } from "./context.js"
import { normalizeCode, normalizeEmail, totpFor } from "./model.js"
import type { OperatorAccessService } from "./service.js"
import type { TeamOperation } from "./team.js"

/** Sign-in, sessions and recovery codes over the shared context. */
export const signInOperations = (ctx: OperatorAccessContext): Omit<OperatorAccessService, TeamOperation> => {
  const { config, found, newRecoveryCodes, newSession, now, store, totpStep } = ctx
  return {
    signIn: ({ client, code, email, password, presentedSessionId }) =>
      Effect.gen(function*() {
        const t = yield* now
        const lockout = makeLockout(
          store,
          config,
          { email, ip: client.ip, now: t },
          "Too many failed sign-ins. Try again later."
        )
        yield* lockout.check
        const fail = lockout.fail
        const operator = yield* store.byEmail(normalizeEmail(email))
        const ok = yield* verifyPassword(password, operator?.password_hash ?? DUMMY_HASH)
        if (operator === undefined || operator.password_hash === null || operator.disabled_at !== null || !ok) {
          return yield* fail("The e-mail, password or authentication code is not correct.")
        }
        const given = code.trim()
        if (operator.totp_secret !== null) {
          if (given === "") {
            return yield* new InvalidCredentials({
              message: "Enter the authentication code from your authenticator app."
            })
          }
          const step = totpStep(operator.totp_secret, operator.email, given, t)
          const accepted = step !== undefined
            ? yield* store.useTotpStep(operator.id, step)
            : yield* store.useRecoveryCode(operator.id, sha256(normalizeCode(given)), t)
          if (!accepted) return yield* fail("The e-mail, password or authentication code is not correct.")
        } else if (totpRequired(operator.role)) {
          // enrolment: the pending secret is shown until a code of it is given
          const pending = operator.totp_pending_secret ?? newTotpSecret()
          if (operator.totp_pending_secret === null) {
            yield* store.update(operator.id, { totp_pending_secret: pending }, t)
          }
          const step = given === "" ? undefined : totpStep(pending, operator.email, given, t)
          if (step === undefined) {
            if (given !== "") return yield* fail("The authentication code is not correct.")
            return {
              _tag: "EnrolmentRequired" as const,
              secret: pending,
              uri: totpFor(pending, operator.email).toString()
            }
          }
          yield* store.update(operator.id, { totp_secret: pending, totp_pending_secret: null }, t)
          yield* store.useTotpStep(operator.id, step)
          const codes = yield* newRecoveryCodes(operator.id)
          yield* lockout.clear
          const signedIn = yield* newSession({ ...operator, totp_secret: pending }, presentedSessionId, client)
          return { _tag: "SignedIn" as const, ...signedIn, recoveryCodes: codes }
        }
        yield* lockout.clear
        yield* store.deleteExpiredSessions(new Date(t.getTime() - config.sessionIdleMs), t)
        const signedIn = yield* newSession(operator, presentedSessionId, client)
        return { _tag: "SignedIn" as const, ...signedIn, recoveryCodes: undefined }
      }),

    authenticate: (sessionId) =>
      authenticateSession(store, now, config.sessionIdleMs, sessionId, (hit) => hit.operator.disabled_at !== null),

    signOut: (idHash) => store.deleteSession(idHash),

    expiresAt: (session) => ({
      idle: new Date(
        Math.min(session.last_seen_at.getTime() + config.sessionIdleMs, session.absolute_expires_at.getTime())
      ),
      absolute: session.absolute_expires_at
    }),

    regenerateRecoveryCodes: (id) => Effect.flatMap(found(id), (row) => newRecoveryCodes(row.id)),

    unusedRecoveryCodes: (id) => store.unusedRecoveryCodes(id)
  }
}
