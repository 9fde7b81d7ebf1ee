/**
 * The account's team and profile: members, roles (an account keeps at least one owner), removal, profile, password change; `ensureUser` for seeding.
 */
import { ResourceConflict } from "@tuma/domain/errors"
import { validationFailed } from "@tuma/domain/validation"
import { Effect } from "effect"
import type { UserRow } from "../ports/PortalStore.js"
import type { PortalContext } from "./context.js"
import { isTimeZone, normalizeEmail } from "./model.js"
import { hashPassword, verifyPassword } from "./Passwords.js"
import type { PortalAccessService } from "./service.js"

/** The team and profile use cases. */
export type TeamOperation =
  | "members"
  | "changeRole"
  | "removeMember"
  | "updateProfile"
  | "changePassword"
  | "ensureUser"

/** The team and profile over the shared context. */
export const teamOperations = (ctx: PortalContext): Pick<PortalAccessService, TeamOperation> => {
  const { checkPassword, ids, notFound, now, store } = ctx
  return {
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
          last_sign_in_at: null,
          two_factor: false
        }
        yield* store.createUser(user)
        return user
      })
  }
}
