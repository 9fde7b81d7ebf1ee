/**
 * Who may use the operator console and how (issue 15): operator users (separate from the portal's
 * customers), invited by e-mail, signing in with a password and a TOTP code (RFC 6238, the
 * `otpauth` library: SHA-1, 6 digits, 30 s, one step of drift either way), with one-time recovery
 * codes. Pure rules over the `OperatorUserStore` port, the `Mailer` port and the `Clock`:
 *
 * - an operator is created with a role and no password; the invitation link (single use, only its
 *   SHA-256 stored) lets them choose one;
 * - sign-in: a locked e-mail or client address is refused before anything is checked; a wrong
 *   password or a wrong code counts against both; `lockoutThreshold` failures in
 *   `lockoutWindowMs` lock the e-mail for `lockoutMs` (PortalConfig's settings, shared with the
 *   portal). An unknown e-mail costs the same scrypt time as a wrong password;
 * - an operator enrolled in TOTP must give a code (or an unused recovery code, which is then spent);
 *   a TOTP step is accepted once (no replay within its 30 s);
 * - an admin (`totpRequired`) who is not enrolled gets, after a correct password, the secret to
 *   enrol (`EnrolmentRequired`: the secret and its `otpauth://` URI) and no session; the next
 *   sign-in with a code of that secret confirms it, makes the session and answers ten recovery
 *   codes, shown once (stored as SHA-256);
 * - sessions: as the portal's (random id, only its SHA-256 stored, idle and absolute expiry, a CSRF
 *   token per session, any presented session ended at sign-in); a disabled operator's sessions end;
 * - creating an operator, changing a role, disabling and enabling are recorded in the audit log
 *   (`operator.create`, `operator.role`, `operator.disable`, `operator.enable`; target
 *   `operator:<uid>`) with the acting `Actor`, in the change's transaction.
 *
 * Why one file of ≈480 lines: one service: the console's sign-in, TOTP, invitations and roles
 * share the session and lockout rules written here.
 */
import type { ValidationFailed } from "@tuma/domain/errors"
import { ResourceConflict, ResourceNotFound } from "@tuma/domain/errors"
import type { OperatorRole } from "@tuma/domain/operatorRoles"
import { isOperatorRole, totpRequired } from "@tuma/domain/operatorRoles"
import { validationFailed } from "@tuma/domain/validation"
import { Clock, Context, Effect, Layer } from "effect"
import { Secret, TOTP } from "otpauth"
import { Audit } from "../audit/Audit.js"
import { makeLockout } from "../portal/Lockout.js"
import { authenticateSession } from "../portal/model.js"
import { DUMMY_HASH, hashPassword, passwordProblem, verifyPassword } from "../portal/Passwords.js"
import {
  emailProblem,
  InvalidCredentials,
  type LoginLocked,
  randomToken,
  sessionClient,
  sessionSecrets,
  sha256
} from "../portal/PortalAccess.js"
import { PortalConfig } from "../portal/PortalConfig.js"
import { Ids } from "../ports/Ids.js"
import { Mailer } from "../ports/Notifiers.js"
import type { OperatorSessionRow, OperatorUserRow } from "../ports/OperatorUserStore.js"
import { OperatorUserStore } from "../ports/OperatorUserStore.js"

/** The issuer shown by authenticator apps. */
export const TOTP_ISSUER = "Tuma console"
/** How many recovery codes an enrolment gives. */
export const RECOVERY_CODE_COUNT = 10

const PERIOD_S = 30

/** The TOTP of a base32 secret for an operator's e-mail. */
export const totpFor = (secret: string, email: string) =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label: email,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret)
  })

/** A fresh recovery code: 10 characters of base32 in two groups (`abcde-fghij`). */
const recoveryCode = () => {
  const s = new Secret({ size: 7 }).base32.toLowerCase().slice(0, 10)
  return `${s.slice(0, 5)}-${s.slice(5)}`
}
const normalizeCode = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, "")
const normalizeEmail = (email: string) => email.trim().toLowerCase()

/** The invitation link of a token. */
export const operatorInvitationLink = (base: string, token: string) =>
  `${base.replace(/\/+$/, "")}/console/accept-invitation?token=${encodeURIComponent(token)}`

/** An operator user as the console shows it (no secrets). */
export interface OperatorView {
  readonly uid: string
  readonly email: string
  readonly name: string
  readonly role: OperatorRole
  readonly status: "invited" | "active" | "disabled"
  readonly totp_enrolled: boolean
  readonly created_at: string
  readonly last_sign_in_at: string | null
}

/** The view of a row. */
export const operatorView = (row: OperatorUserRow): OperatorView => ({
  uid: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  status: row.disabled_at !== null ? "disabled" : row.password_hash === null ? "invited" : "active",
  totp_enrolled: row.totp_secret !== null,
  created_at: row.created_at.toISOString(),
  last_sign_in_at: row.last_sign_in_at?.toISOString() ?? null
})

/** The outcome of a sign-in with the right password and code. */
export interface OperatorSignedIn {
  readonly _tag: "SignedIn"
  /** The raw session id: goes into the cookie, never stored. */
  readonly sessionId: string
  readonly session: OperatorSessionRow
  readonly operator: OperatorUserRow
  /** Present once: the recovery codes of a new enrolment. */
  readonly recoveryCodes: ReadonlyArray<string> | undefined
}

/** The right password from an admin not enrolled yet: enrol this secret, then sign in with a code. */
export interface EnrolmentRequired {
  readonly _tag: "EnrolmentRequired"
  readonly secret: string
  readonly uri: string
}

/** Who is signed in. */
export interface OperatorAuthenticated {
  readonly session: OperatorSessionRow
  readonly operator: OperatorUserRow
}

/** The client of a request (for lockout and the session record). */
export interface OperatorClient {
  readonly ip: string | null
  readonly userAgent: string | null
}

/** The operator users' use cases. */
export class OperatorAccess extends Context.Tag("@tuma/core/OperatorAccess")<OperatorAccess, {
  /** Creates an operator with no password and e-mails the invitation (the link is answered too). */
  readonly create: (input: {
    readonly email: string
    readonly role: string
    readonly name?: string | undefined
    readonly linkBase: string
  }) => Effect.Effect<{ readonly operator: OperatorView; readonly link: string }, ValidationFailed | ResourceConflict>
  readonly list: Effect.Effect<ReadonlyArray<OperatorView>>
  readonly get: (id: string) => Effect.Effect<OperatorView, ResourceNotFound>
  readonly setRole: (id: string, role: string) => Effect.Effect<OperatorView, ValidationFailed | ResourceNotFound>
  /** Disabling ends the operator's sessions. */
  readonly setDisabled: (id: string, disabled: boolean) => Effect.Effect<OperatorView, ResourceNotFound>
  /** The operator an invitation token is for. */
  readonly invitation: (token: string) => Effect.Effect<OperatorView, ResourceNotFound>
  /** Sets the password (the operator then signs in, enrolling TOTP if their role requires it). */
  readonly acceptInvitation: (input: {
    readonly token: string
    readonly password: string
    readonly name?: string | undefined
  }) => Effect.Effect<OperatorView, ValidationFailed | ResourceNotFound>
  readonly signIn: (input: {
    readonly email: string
    readonly password: string
    readonly code: string
    readonly presentedSessionId: string | undefined
    readonly client: OperatorClient
  }) => Effect.Effect<OperatorSignedIn | EnrolmentRequired, InvalidCredentials | LoginLocked>
  /** The live session of a raw session id (refreshing its idle expiry), or undefined. */
  readonly authenticate: (sessionId: string) => Effect.Effect<OperatorAuthenticated | undefined>
  readonly signOut: (sessionIdHash: string) => Effect.Effect<void>
  readonly expiresAt: (session: OperatorSessionRow) => { readonly idle: Date; readonly absolute: Date }
  /** New recovery codes (the old ones stop working); answered once. */
  readonly regenerateRecoveryCodes: (id: string) => Effect.Effect<ReadonlyArray<string>, ResourceNotFound>
  readonly unusedRecoveryCodes: (id: string) => Effect.Effect<number>
  /** An active operator with this password, no invitation (demo seeding, tests); the existing one if taken. */
  readonly ensure: (input: {
    readonly email: string
    readonly role: OperatorRole
    readonly password: string
    readonly name?: string | undefined
  }) => Effect.Effect<OperatorView, ValidationFailed>
}>() {}

const notFound = (id: string) =>
  new ResourceNotFound({ message: "The operator was not found.", resource: "operator", id })
const invitationInvalid = () =>
  new ResourceNotFound({
    message: "This invitation is not valid: it was used or has expired.",
    resource: "operator_invitation",
    id: ""
  })

/** Builds the service over its ports. */
export const makeOperatorAccess = Effect.gen(function*() {
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

  /** The TOTP step a code matches (±1 step), or undefined. */
  const totpStep = (secret: string, email: string, code: string, at: Date) => {
    const token = code.replace(/\s/g, "")
    if (!/^\d{6}$/.test(token)) return undefined
    const delta = totpFor(secret, email).validate({ token, timestamp: at.getTime(), window: 1 })
    return delta === null ? undefined : Math.floor(at.getTime() / 1000 / PERIOD_S) + delta
  }

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

  const service: OperatorAccess["Type"] = {
    create: ({ email, linkBase, name, role }) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        const emailIssue = emailProblem(email)
        if (emailIssue !== undefined) errors.email = [emailIssue]
        if (!isOperatorRole(role)) errors.role = ["The role must be one of admin, reviewer, support."]
        if (name !== undefined && [...name].length > 120) {
          errors.name = ["The name must not be greater than 120 characters."]
        }
        if (!isOperatorRole(role) || Object.keys(errors).length > 0) return yield* validationFailed(errors)
        const row = yield* newOperator({
          email,
          name: (name ?? "").trim(),
          role,
          password_hash: null
        })
        const t = row.created_at
        const token = randomToken()
        const invitationId = yield* ids.uuidV4
        yield* recorded(
          "operator.create",
          row.id,
          null,
          Effect.gen(function*() {
            if (!(yield* store.create(row))) {
              return yield* new ResourceConflict({
                message: "An operator with this e-mail exists.",
                resource: "operator"
              })
            }
            yield* store.createInvitation({
              id: invitationId,
              token_hash: sha256(token),
              operator_id: row.id,
              created_at: t,
              expires_at: new Date(t.getTime() + config.invitationTtlMs),
              used_at: null
            })
            return operatorView(row)
          })
        )
        const link = operatorInvitationLink(linkBase, token)
        yield* mailer.send({
          to: row.email,
          subject: "You are invited to the Tuma operator console",
          text:
            `You have been invited to the Tuma operator console as ${role}.\n\nChoose your password here (the link works once, for ${
              Math.round(config.invitationTtlMs / 86_400_000)
            } days):\n${link}\n\n${
              totpRequired(row.role)
                ? "At your first sign-in you will set up an authenticator app (TOTP).\n\n"
                : ""
            }If you did not expect this, ignore this e-mail.\n`
        }).pipe(Effect.catchAll((e) => Effect.logWarning(`console invitation to ${row.email} not sent`, e)))
        return { operator: operatorView(row), link }
      }),

    list: Effect.map(store.list, (rows) => rows.map(operatorView)),
    get: (id) => Effect.map(found(id), operatorView),

    setRole: (id, role) =>
      Effect.gen(function*() {
        if (!isOperatorRole(role)) {
          return yield* validationFailed({ role: ["The role must be one of admin, reviewer, support."] })
        }
        const was = yield* found(id)
        const t = yield* now
        return yield* recorded(
          "operator.role",
          id,
          operatorView(was),
          Effect.flatMap(store.update(id, { role }, t), (row) =>
            row === undefined ? Effect.fail(notFound(id)) : Effect.succeed(operatorView(row)))
        )
      }),

    setDisabled: (id, disabled) =>
      Effect.gen(function*() {
        const was = yield* found(id)
        const t = yield* now
        return yield* recorded(
          disabled ? "operator.disable" : "operator.enable",
          id,
          operatorView(was),
          Effect.gen(function*() {
            const row = yield* store.update(id, { disabled_at: disabled ? t : null }, t)
            if (row === undefined) return yield* notFound(id)
            if (disabled) yield* store.deleteOperatorSessions(id)
            return operatorView(row)
          })
        )
      }),

    invitation: (token) =>
      Effect.gen(function*() {
        const t = yield* now
        const invitation = token === "" ? undefined : yield* store.invitationByHash(sha256(token))
        if (invitation === undefined || invitation.used_at !== null || invitation.expires_at <= t) {
          return yield* invitationInvalid()
        }
        const row = yield* store.byId(invitation.operator_id)
        if (row === undefined || row.disabled_at !== null) return yield* invitationInvalid()
        return operatorView(row)
      }),

    acceptInvitation: ({ name, password, token }) =>
      Effect.gen(function*() {
        const t = yield* now
        const invitation = token === "" ? undefined : yield* store.invitationByHash(sha256(token))
        if (invitation === undefined || invitation.used_at !== null || invitation.expires_at <= t) {
          return yield* invitationInvalid()
        }
        yield* checkPassword(password)
        const hash = yield* hashPassword(password)
        if (!(yield* store.useInvitation(invitation.id, t))) return yield* invitationInvalid()
        const row = yield* store.update(invitation.operator_id, {
          password_hash: hash,
          ...(name !== undefined && name.trim() !== "" ? { name: name.trim().slice(0, 120) } : {})
        }, t)
        if (row === undefined) return yield* invitationInvalid()
        return operatorView(row)
      }),

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
          const pending = operator.totp_pending_secret ?? new Secret({ size: 20 }).base32
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
    unusedRecoveryCodes: (id) => store.unusedRecoveryCodes(id),

    ensure: ({ email, name, password, role }) =>
      Effect.gen(function*() {
        const existing = yield* store.byEmail(normalizeEmail(email))
        if (existing !== undefined) return operatorView(existing)
        yield* checkPassword(password)
        const row = yield* newOperator({ email, name: name ?? "", role, password_hash: yield* hashPassword(password) })
        yield* store.create(row)
        return operatorView(row)
      })
  }
  return service
})

/** `OperatorAccess` over its ports. */
export const layer: Layer.Layer<OperatorAccess, never, OperatorUserStore | Ids | Mailer | Audit> = Layer.effect(
  OperatorAccess,
  Effect.map(makeOperatorAccess, OperatorAccess.of)
)
