/**
 * What the parts of `OperatorAccess` share: the ports, the settings, and the steps used by more than
 * one use case (recording a change in the audit log, a new operator's row, recovery codes, TOTP steps,
 * a new session, the password rule).
 */
import * as Totp from "@tuma/domain/totp"
import { validationFailed } from "@tuma/domain/validation"
import { Clock, Effect } from "effect"
import { Audit } from "../audit/Audit.js"
import { sessionClient, sessionSecrets, sha256 } from "../portal/model.js"
import { passwordProblem } from "../portal/Passwords.js"
import { PortalConfig } from "../portal/PortalConfig.js"
import { Ids } from "../ports/Ids.js"
import { Mailer } from "../ports/Notifiers.js"
import type { OperatorSessionRow, OperatorUserRow } from "../ports/OperatorUserStore.js"
import { OperatorUserStore } from "../ports/OperatorUserStore.js"
import type { OperatorClient, OperatorView } from "./model.js"
import { normalizeCode, normalizeEmail, notFound, RECOVERY_CODE_COUNT, recoveryCode } from "./model.js"

/** The shared context of the operator use cases. */
export const makeOperatorAccessContext = Effect.gen(function*() {
  const store = yield* OperatorUserStore
  const ids = yield* Ids
  const mailer = yield* Mailer
  const config = yield* PortalConfig
  const audit = yield* Audit
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  /** Runs an operator change and records it (before and after as views, no secrets). */
  const recorded = <E>(
    action: string,
    id: string,
    before: OperatorView | null,
    change: Effect.Effect<OperatorView, E>
  ) =>
    audit.audited(
      action,
      Effect.map(change, (after) => ({ value: after, target: `operator:${id}`, before, after }))
    )

  /** A new operator's row: not enrolled in TOTP, never signed in. */
  const newOperator = (fields: Pick<OperatorUserRow, "email" | "name" | "role" | "password_hash">) =>
    Effect.gen(function*() {
      const t = yield* now
      const row: OperatorUserRow = {
        ...fields,
        id: yield* ids.uuidV4,
        email: normalizeEmail(fields.email),
        totp_secret: null,
        totp_pending_secret: null,
        totp_last_step: 0,
        disabled_at: null,
        created_at: t,
        updated_at: t,
        last_sign_in_at: null
      }
      return row
    })
  const found = (id: string) =>
    Effect.flatMap(
      /^[0-9a-f-]{36}$/i.test(id) ? store.byId(id) : Effect.succeed(undefined),
      (row) => row === undefined ? Effect.fail(notFound(id)) : Effect.succeed(row)
    )

  const newRecoveryCodes = (id: string) =>
    Effect.gen(function*() {
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode)
      yield* store.replaceRecoveryCodes(id, codes.map((c) => sha256(normalizeCode(c))))
      return codes
    })

  /** The TOTP step a code matches (±1 step), or undefined (the domain's rule). */
  const totpStep = (secret: string, _email: string, code: string, at: Date) => Totp.totpStep(secret, code, at)

  const newSession = (operator: OperatorUserRow, presented: string | undefined, client: OperatorClient) =>
    Effect.gen(function*() {
      const t = yield* now
      if (presented !== undefined && presented !== "") yield* store.deleteSession(sha256(presented))
      const { row, sessionId } = sessionSecrets(t, config.sessionAbsoluteMs)
      const session: OperatorSessionRow = { ...row, operator_id: operator.id, ...sessionClient(client) }
      yield* store.createSession(session)
      yield* store.recordSignIn(operator.id, t)
      return { sessionId, session, operator: { ...operator, last_sign_in_at: t } }
    })

  const checkPassword = (password: string) => {
    const problem = passwordProblem(password)
    return problem === undefined ? Effect.void : Effect.fail(validationFailed({ password: [problem] }))
  }
  return {
    store,
    ids,
    mailer,
    config,
    now,
    recorded,
    newOperator,
    found,
    newRecoveryCodes,
    totpStep,
    newSession,
    checkPassword
  }
})

/** The context of `makeOperatorAccessContext`. */
export type OperatorAccessContext = Effect.Effect.Success<typeof makeOperatorAccessContext>
