/**
 * The console's team: operators created (and invited by e-mail), listed, given a role, disabled or
 * enabled (recorded in the audit log), invitations accepted; `ensure` for seeding.
 */
import { ResourceConflict } from "@tuma/domain/errors"
import { isOperatorRole, totpRequired } from "@tuma/domain/operatorRoles"
import { validationFailed } from "@tuma/domain/validation"
import { Effect } from "effect"
import { emailProblem, randomToken, sha256 } from "../portal/model.js"
import { hashPassword } from "../portal/Passwords.js"
import type { MailNotice } from "../ports/Notifiers.js"
import type { OperatorAccessContext } from "./context.js"
import { invitationInvalid, normalizeEmail, notFound, operatorInvitationLink, operatorView } from "./model.js"
import type { OperatorAccessService } from "./service.js"

/** The use cases of the team. */
export type TeamOperation =
  | "create"
  | "list"
  | "get"
  | "setRole"
  | "setDisabled"
  | "invitation"
  | "acceptInvitation"
  | "ensure"

/** The team's use cases over the shared context. */
export const teamOperations = (ctx: OperatorAccessContext): Pick<OperatorAccessService, TeamOperation> => {
  const { checkPassword, config, found, ids, mailer, newOperator, now, recorded, store } = ctx
  /** The unused, unexpired invitation of a token, or `invitationInvalid`. */
  const openInvitation = (token: string, t: Date) =>
    Effect.gen(function*() {
      const invitation = token === "" ? undefined : yield* store.invitationByHash(sha256(token))
      if (invitation === undefined || invitation.used_at !== null || invitation.expires_at <= t) {
        return yield* invitationInvalid()
      }
      return invitation
    })
  return {
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
        const mail: MailNotice = yield* mailer.send({
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
        }).pipe(
          Effect.catchAll((e) =>
            Effect.as(Effect.logWarning(`console invitation to ${row.email} not sent`, e), "failed" as const)
          )
        )
        return { operator: operatorView(row), link, mail }
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
        const invitation = yield* openInvitation(token, t)
        const row = yield* store.byId(invitation.operator_id)
        if (row === undefined || row.disabled_at !== null) return yield* invitationInvalid()
        return operatorView(row)
      }),

    acceptInvitation: ({ name, password, token }) =>
      Effect.gen(function*() {
        const t = yield* now
        const invitation = yield* openInvitation(token, t)
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
}
