/**
 * What every portal access use case shares: the stores, the clock, mail that never fails a request,
 * a new session (no fixation), a live one-time token, the password rule; see `PortalAccess.ts`.
 */
import { ResourceNotFound } from "@tuma/domain/errors"
import { validationFailed } from "@tuma/domain/validation"
import { Clock, Effect } from "effect"
import { Audit } from "../audit/Audit.js"
import { Ids } from "../ports/Ids.js"
import type { MailNotice } from "../ports/Notifiers.js"
import { Mailer } from "../ports/Notifiers.js"
import type { SessionRow, TokenRow, UserRow } from "../ports/PortalStore.js"
import { PortalStore } from "../ports/PortalStore.js"
import type { ClientInfo } from "./model.js"
import { sessionClient, sessionSecrets, sha256 } from "./model.js"
import { passwordProblem } from "./Passwords.js"
import { PortalConfig } from "./PortalConfig.js"

/** The shared parts of the portal access use cases (`makePortalAccess` builds them once). */
export const makePortalContext = Effect.gen(function*() {
  const store = yield* PortalStore
  const ids = yield* Ids
  const mailer = yield* Mailer
  const config = yield* PortalConfig
  const audit = yield* Audit
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  const notFound = (resource: string, id: string, message: string) => new ResourceNotFound({ message, resource, id })

  const newSession = (user: UserRow, presented: string | undefined, client: ClientInfo) =>
    Effect.gen(function*() {
      const t = yield* now
      // no fixation: whatever id the client came with is ended; the new one is random
      if (presented !== undefined && presented !== "") yield* store.deleteSession(sha256(presented))
      const { row, sessionId } = sessionSecrets(t, config.sessionAbsoluteMs)
      const session: SessionRow = { ...row, user_id: user.id, account_id: user.account_id }
      yield* store.createSession({ ...session, ...sessionClient(client) })
      yield* store.recordSignIn(user.id, t)
      const account = yield* store.account(user.account_id)
      return { sessionId, session, user: { ...user, last_sign_in_at: t }, account: account! }
    })

  /** Sends (or keeps in the outbox) a mail; a refused mail is logged, never a failed request. */
  const sendMail = (to: string, subject: string, text: string): Effect.Effect<MailNotice> =>
    mailer.send({ to, subject, text }).pipe(
      Effect.catchAll((e) => Effect.as(Effect.logWarning(`portal e-mail to ${to} not sent`, e), "failed" as const))
    )

  const liveToken = (token: string, kind: TokenRow["kind"]) =>
    Effect.gen(function*() {
      const t = yield* now
      const row = token === "" ? undefined : yield* store.tokenByHash(sha256(token))
      if (
        row === undefined || row.kind !== kind || row.used_at !== null || row.revoked_at !== null ||
        row.expires_at.getTime() <= t.getTime()
      ) {
        return yield* notFound(
          kind,
          "",
          kind === "invitation"
            ? "This invitation is not valid: it was used, revoked or has expired."
            : "This password reset link is not valid: it was used or has expired."
        )
      }
      return row
    })

  const checkPassword = (password: string, field = "password") => {
    const problem = passwordProblem(password)
    return problem === undefined ? Effect.void : Effect.fail(validationFailed({ [field]: [problem] }))
  }

  return { store, ids, mailer, config, audit, now, notFound, newSession, sendMail, liveToken, checkPassword }
})

/** The context `makePortalContext` builds. */
export type PortalContext = Effect.Effect.Success<typeof makePortalContext>
