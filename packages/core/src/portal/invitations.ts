/**
 * Invitations to an account: one-time links mailed, read, accepted (a new user and session), revoked, listed.
 */
import { ResourceConflict } from "@tuma/domain/errors"
import { validationFailed } from "@tuma/domain/validation"
import { Effect } from "effect"
import type { TokenRow, UserRow } from "../ports/PortalStore.js"
import type { PortalContext } from "./context.js"
import { emailProblem, invitationLink, normalizeEmail, randomToken, sha256 } from "./model.js"
import { hashPassword } from "./Passwords.js"
import type { PortalAccessService } from "./service.js"

/** Invitations use cases. */
export type InvitationOperation =
  | "invite"
  | "invitation"
  | "acceptInvitation"
  | "revokeInvitation"
  | "pendingInvitations"

/** Invitations over the shared context. */
export const invitationOperations = (ctx: PortalContext): Pick<PortalAccessService, InvitationOperation> => {
  const { audit, checkPassword, config, ids, liveToken, newSession, notFound, now, sendMail, store } = ctx
  /** An invitation as the audit log records it (never its token). */
  const logged = (i: TokenRow) => ({ uid: i.id, email: i.email, role: i.role, expires_at: i.expires_at.toISOString() })
  return {
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
        // recorded in the audit log as the inviting portal user (or operator: an account's first owner)
        yield* audit.audited(
          "portal.invitation.create",
          Effect.as(store.createToken(invitation), {
            value: undefined,
            target: `account:${accountId}`,
            before: null,
            after: logged(invitation)
          })
        )
        const link = invitationLink(linkBase, token)
        const mail = yield* sendMail(
          address,
          `You are invited to ${account.name} on Tuma`,
          `You have been invited to join ${account.name} on Tuma as ${
            role === "owner" ? "an owner" : "a member"
          }.\n\nChoose your password here (the link works once, for ${
            Math.round(config.invitationTtlMs / 86_400_000)
          } days):\n${link}\n\nIf you did not expect this, ignore this e-mail.\n`
        )
        return { invitation, link, mail }
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
          last_sign_in_at: null,
          two_factor: false
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
        const t = yield* now
        const ok = /^[0-9a-f-]{36}$/i.test(invitationId) &&
          (yield* audit.audited(
            "portal.invitation.revoke",
            Effect.map(store.revokeInvitation(accountId, invitationId, t), (revoked) => ({
              value: revoked,
              target: `account:${accountId}`,
              before: { uid: invitationId },
              after: revoked ? { uid: invitationId, revoked_at: t.toISOString() } : null
            }))
          ))
        if (!ok) return yield* notFound("invitation", invitationId, "The invitation was not found.")
      }),

    pendingInvitations: (accountId) => Effect.flatMap(now, (t) => store.pendingInvitations(accountId, t))
  }
}
