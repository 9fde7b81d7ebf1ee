/**
 * Who may use the portal and how (issue 14): account users with e-mail and password, sessions,
 * lockout, invitations, password resets, the team and the profile. Pure rules over the
 * `PortalStore` port, the `Mailer` port and the `Clock`:
 *
 * - sign-in: a locked e-mail or client address is refused before the password is checked; a
 *   failure counts against both; `lockoutThreshold` failures in `lockoutWindowMs` lock the e-mail
 *   for `lockoutMs`. An unknown e-mail costs the same scrypt time as a wrong password and answers
 *   the same message. Success clears the e-mail's failures and makes a NEW session (random id,
 *   only its SHA-256 stored); any session the client presented is ended (no fixation).
 * - a session ends `sessionIdleMs` after its last use or `sessionAbsoluteMs` after sign-in.
 * - invitations and resets are single-use random tokens (only the SHA-256 stored) mailed as links;
 *   completing a reset ends every session of the user.
 * - an account keeps at least one owner.
 */
import type { ValidationFailed } from "@tuma/domain/errors"
import { ResourceConflict, ResourceNotFound } from "@tuma/domain/errors"
import { validationFailed } from "@tuma/domain/validation"
import { Context, Effect, Layer } from "effect"
import { Ids } from "../ports/Ids.js"
import { Mailer } from "../ports/Notifiers.js"
import type { AccountSummaryRow, Role, SessionRow, TokenRow, UserPatch, UserRow } from "../ports/PortalStore.js"
import { PortalStore } from "../ports/PortalStore.js"
import { makePortalContext } from "./context.js"
import { makeLockout } from "./Lockout.js"
import {
  Authenticated,
  authenticateSession,
  ClientInfo,
  emailProblem,
  InvalidCredentials,
  invitationLink,
  isTimeZone,
  LoginLocked,
  normalizeEmail,
  randomToken,
  resetLink,
  sha256,
  SignedIn
} from "./model.js"
import { DUMMY_HASH, hashPassword, verifyPassword } from "./Passwords.js"

const LOCKED_MESSAGE = "Too many failed sign-ins. Try again later or reset your password."

export * from "./model.js"

// --- the service -----------------------------------------------------------------------------

/** The portal's access use cases: sign-in and sessions, lockout, invitations, password resets, team and profile. */
export class PortalAccess extends Context.Tag("@tuma/core/PortalAccess")<PortalAccess, {
  readonly signIn: (input: {
    readonly email: string
    readonly password: string
    readonly presentedSessionId: string | undefined
    readonly client: ClientInfo
  }) => Effect.Effect<SignedIn, InvalidCredentials | LoginLocked>
  /** The live session of a raw session id (refreshing its idle expiry), or undefined. */
  readonly authenticate: (sessionId: string) => Effect.Effect<Authenticated | undefined>
  readonly account: (accountId: string) => Effect.Effect<AccountSummaryRow>
  readonly signOut: (sessionIdHash: string) => Effect.Effect<void>
  readonly signOutEverywhere: (userId: string) => Effect.Effect<void>
  readonly expiresAt: (session: SessionRow) => { readonly idle: Date; readonly absolute: Date }

  readonly invite: (input: {
    readonly accountId: string
    readonly email: string
    readonly role: Role
    readonly invitedBy: string | null
    readonly linkBase: string
  }) => Effect.Effect<{ readonly invitation: TokenRow; readonly link: string }, ValidationFailed | ResourceConflict>
  readonly invitation: (token: string) => Effect.Effect<
    { readonly invitation: TokenRow; readonly account: AccountSummaryRow },
    ResourceNotFound
  >
  readonly acceptInvitation: (input: {
    readonly token: string
    readonly password: string
    readonly name: string | undefined
    readonly presentedSessionId: string | undefined
    readonly client: ClientInfo
  }) => Effect.Effect<SignedIn, ValidationFailed | ResourceNotFound | ResourceConflict>
  readonly revokeInvitation: (accountId: string, invitationId: string) => Effect.Effect<void, ResourceNotFound>
  readonly pendingInvitations: (accountId: string) => Effect.Effect<ReadonlyArray<TokenRow>>

  readonly requestPasswordReset: (email: string, linkBase: string) => Effect.Effect<void>
  readonly completePasswordReset: (token: string, password: string) => Effect.Effect<
    void,
    ValidationFailed | ResourceNotFound
  >

  readonly members: (accountId: string) => Effect.Effect<ReadonlyArray<UserRow>>
  readonly changeRole: (accountId: string, userId: string, role: Role) => Effect.Effect<
    UserRow,
    ResourceNotFound | ResourceConflict
  >
  readonly removeMember: (accountId: string, userId: string) => Effect.Effect<void, ResourceNotFound | ResourceConflict>
  readonly updateProfile: (accountId: string, userId: string, patch: UserPatch) => Effect.Effect<
    UserRow,
    ValidationFailed | ResourceNotFound
  >
  readonly changePassword: (input: {
    readonly accountId: string
    readonly userId: string
    readonly currentPassword: string
    readonly newPassword: string
    readonly keepSession: string
  }) => Effect.Effect<void, ValidationFailed | ResourceNotFound>
  /** A user with this password (demo seeding, tests); answers the existing user if the e-mail is taken. */
  readonly ensureUser: (input: {
    readonly accountId: string
    readonly email: string
    readonly password: string
    readonly role: Role
    readonly name?: string | undefined
  }) => Effect.Effect<UserRow, ValidationFailed>
}>() {}

/** `PortalAccess` over its ports. */
export const makePortalAccess = Effect.gen(function*() {
  const { store, ids, config, now, notFound, newSession, sendMail, liveToken, checkPassword } = yield* makePortalContext

  const service: PortalAccess["Type"] = {
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
    },

    invite: ({ accountId, email, invitedBy, linkBase, role }) =>
      Effect.gen(function*() {
        const problem = emailProblem(email)
        if (problem !== undefined) return yield* validationFailed({ email: [problem] })
        const address = normalizeEmail(email)
        if ((yield* store.userByEmail(address)) !== undefined) {
          return yield* new ResourceConflict({
            message: "A portal user with this e-mail already exists.",
            resource: "portal_user"
          })
        }
        const account = yield* store.account(accountId)
        if (account === undefined) return yield* Effect.die("portal: account vanished")
        const t = yield* now
        yield* store.revokeTokensFor("invitation", address, t)
        const token = randomToken()
        const invitation: TokenRow = {
          id: yield* ids.uuidV4,
          kind: "invitation",
          token_hash: sha256(token),
          account_id: accountId,
          email: address,
          role,
          user_id: null,
          invited_by: invitedBy,
          created_at: t,
          expires_at: new Date(t.getTime() + config.invitationTtlMs),
          used_at: null,
          revoked_at: null
        }
        yield* store.createToken(invitation)
        const link = invitationLink(linkBase, token)
        yield* sendMail(
          address,
          `You are invited to ${account.name} on Tuma`,
          `You have been invited to join ${account.name} on Tuma as ${
            role === "owner" ? "an owner" : "a member"
          }.\n\nChoose your password here (the link works once, for ${
            Math.round(config.invitationTtlMs / 86_400_000)
          } days):\n${link}\n\nIf you did not expect this, ignore this e-mail.\n`
        )
        return { invitation, link }
      }),

    invitation: (token) =>
      Effect.gen(function*() {
        const invitation = yield* liveToken(token, "invitation")
        const account = yield* store.account(invitation.account_id)
        return { invitation, account: account! }
      }),

    acceptInvitation: ({ client, name, password, presentedSessionId, token }) =>
      Effect.gen(function*() {
        const invitation = yield* liveToken(token, "invitation")
        yield* checkPassword(password)
        const t = yield* now
        const user: UserRow = {
          id: yield* ids.uuidV4,
          account_id: invitation.account_id,
          email: invitation.email,
          name: (name ?? "").trim().slice(0, 120),
          password_hash: yield* hashPassword(password),
          role: invitation.role ?? "member",
          locale: "en",
          time_zone: "Africa/Dar_es_Salaam",
          created_at: t,
          updated_at: t,
          last_sign_in_at: null
        }
        if (!(yield* store.useToken(invitation.id, t))) {
          return yield* notFound("invitation", "", "This invitation is not valid: it was used, revoked or has expired.")
        }
        if (!(yield* store.createUser(user))) {
          return yield* new ResourceConflict({
            message: "A portal user with this e-mail already exists.",
            resource: "portal_user"
          })
        }
        return yield* newSession(user, presentedSessionId, client)
      }),

    revokeInvitation: (accountId, invitationId) =>
      Effect.gen(function*() {
        const ok = /^[0-9a-f-]{36}$/i.test(invitationId) &&
          (yield* store.revokeInvitation(accountId, invitationId, yield* now))
        if (!ok) return yield* notFound("invitation", invitationId, "The invitation was not found.")
      }),

    pendingInvitations: (accountId) => Effect.flatMap(now, (t) => store.pendingInvitations(accountId, t)),

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
      }),

    members: (accountId) => store.users(accountId),

    changeRole: (accountId, userId, role) =>
      Effect.gen(function*() {
        const r = yield* store.setRole(accountId, userId, role, yield* now)
        if (r._tag === "NotFound") return yield* notFound("portal_user", userId, "The user was not found.")
        if (r._tag === "LastOwner") {
          return yield* new ResourceConflict({
            message: "An account keeps at least one owner.",
            resource: "portal_user"
          })
        }
        return r.user
      }),

    removeMember: (accountId, userId) =>
      Effect.gen(function*() {
        const r = yield* store.deleteUser(accountId, userId)
        if (r === "NotFound") return yield* notFound("portal_user", userId, "The user was not found.")
        if (r === "LastOwner") {
          return yield* new ResourceConflict({
            message: "An account keeps at least one owner.",
            resource: "portal_user"
          })
        }
      }),

    updateProfile: (accountId, userId, patch) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        if (patch.name !== undefined && [...patch.name].length > 120) {
          errors.name = ["The name must not be greater than 120 characters."]
        }
        if (patch.time_zone !== undefined && !isTimeZone(patch.time_zone)) {
          errors.time_zone = ["The time zone must be an IANA zone such as Africa/Dar_es_Salaam."]
        }
        if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
        const { password_hash: _, ...safe } = patch
        const user = yield* store.updateUser(accountId, userId, {
          ...safe,
          ...(patch.name !== undefined ? { name: patch.name.trim() } : {})
        }, yield* now)
        if (user === undefined) return yield* notFound("portal_user", userId, "The user was not found.")
        return user
      }),

    changePassword: ({ accountId, currentPassword, keepSession, newPassword, userId }) =>
      Effect.gen(function*() {
        const user = yield* store.user(accountId, userId)
        if (user === undefined) return yield* notFound("portal_user", userId, "The user was not found.")
        if (!(yield* verifyPassword(currentPassword, user.password_hash))) {
          return yield* validationFailed({ current_password: ["The current password is not correct."] })
        }
        yield* checkPassword(newPassword, "new_password")
        yield* store.updateUser(accountId, userId, { password_hash: yield* hashPassword(newPassword) }, yield* now)
        yield* store.deleteUserSessions(userId, keepSession)
      }),

    ensureUser: ({ accountId, email, name, password, role }) =>
      Effect.gen(function*() {
        const existing = yield* store.userByEmail(normalizeEmail(email))
        if (existing !== undefined) return existing
        yield* checkPassword(password)
        const t = yield* now
        const user: UserRow = {
          id: yield* ids.uuidV4,
          account_id: accountId,
          email: normalizeEmail(email),
          name: name ?? "",
          password_hash: yield* hashPassword(password),
          role,
          locale: "en",
          time_zone: "Africa/Dar_es_Salaam",
          created_at: t,
          updated_at: t,
          last_sign_in_at: null
        }
        yield* store.createUser(user)
        return user
      })
  }
  return service
})

/** `PortalAccess` as a layer over its ports. */
export const layer: Layer.Layer<PortalAccess, never, PortalStore | Ids | Mailer> = Layer.effect(
  PortalAccess,
  Effect.map(makePortalAccess, PortalAccess.of)
)
