/**
 * Password resets: a one-time link mailed (nothing said about unknown e-mails); completing it ends every session of the user.
 */
import { Effect } from "effect"
import type { PortalContext } from "./context.js"
import { emailProblem, normalizeEmail, randomToken, resetLink, sha256 } from "./model.js"
import { hashPassword } from "./Passwords.js"
import type { PortalAccessService } from "./service.js"

/** Password resets use cases. */
export type PasswordResetOperation = "requestPasswordReset" | "completePasswordReset"

/** Password resets over the shared context. */
export const passwordResetOperations = (ctx: PortalContext): Pick<PortalAccessService, PasswordResetOperation> => {
  const { checkPassword, config, ids, liveToken, notFound, now, sendMail, store } = ctx
  return {
    requestPasswordReset: (email, linkBase) =>
      Effect.gen(function*() {
        const user = emailProblem(email) === undefined ? yield* store.userByEmail(normalizeEmail(email)) : undefined
        if (user === undefined) return
        const t = yield* now
        yield* store.revokeTokensFor("password_reset", user.email, t)
        const token = randomToken()
        yield* store.createToken({
          id: yield* ids.uuidV4,
          kind: "password_reset",
          token_hash: sha256(token),
          account_id: user.account_id,
          email: user.email,
          role: null,
          user_id: user.id,
          invited_by: null,
          created_at: t,
          expires_at: new Date(t.getTime() + config.passwordResetTtlMs),
          used_at: null,
          revoked_at: null
        })
        yield* sendMail(
          user.email,
          "Reset your Tuma password",
          `Someone asked to reset the password of your Tuma portal user.\n\nChoose a new password here (the link works once, for ${
            Math.round(config.passwordResetTtlMs / 60_000)
          } minutes):\n${
            resetLink(linkBase, token)
          }\n\nIf it was not you, ignore this e-mail: your password is unchanged.\n`
        )
      }),

    completePasswordReset: (token, password) =>
      Effect.gen(function*() {
        const reset = yield* liveToken(token, "password_reset")
        yield* checkPassword(password)
        const t = yield* now
        const hash = yield* hashPassword(password)
        if (reset.user_id === null || !(yield* store.useToken(reset.id, t))) {
          return yield* notFound(
            "password_reset",
            "",
            "This password reset link is not valid: it was used or has expired."
          )
        }
        const updated = yield* store.updateUser(reset.account_id, reset.user_id, { password_hash: hash }, t)
        if (updated === undefined) {
          return yield* notFound(
            "password_reset",
            "",
            "This password reset link is not valid: it was used or has expired."
          )
        }
        yield* store.deleteUserSessions(reset.user_id)
        yield* store.clearFailures(`email:${updated.email}`)
      })
  }
}
