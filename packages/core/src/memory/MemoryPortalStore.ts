/**
 * In-memory adapter of the `PortalStore` port (portal users, sessions, failed sign-ins, e-mailed
 * tokens), over the shared `MemoryDatabase`, with the semantics of `SqlPortalStore` and the
 * constraints of migration 0400: one user per e-mail (case-insensitive), one token per hash, a
 * session or token of a deleted user goes with it, an invitation's inviter is forgotten instead.
 * Each operation is one critical section (`transact`) that checks before it writes; the last-owner
 * rule is checked in the same section that changes a role or removes a user.
 */
import { Effect, Layer } from "effect"
import type { SessionRow, TokenRow, UserRow } from "../ports/PortalStore.js"
import { PortalStore } from "../ports/PortalStore.js"
import { ascending, check, uuid, uuidOrNull } from "./internal.js"
import type { PortalSessionRecord, PortalTokenRecord, PortalUserRecord, Tables } from "./MemoryDatabase.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const userRow = (u: PortalUserRecord): UserRow => ({ ...u })
const tokenRow = (t: PortalTokenRecord): TokenRow => ({ ...t })
const sessionRow = (s: PortalSessionRecord): SessionRow => ({
  id_hash: s.id_hash,
  user_id: s.user_id,
  account_id: s.account_id,
  csrf_token: s.csrf_token,
  created_at: s.created_at,
  last_seen_at: s.last_seen_at,
  absolute_expires_at: s.absolute_expires_at
})

/** By `created_at`, then id (the SQL `ORDER BY created_at, id`). */
const byCreated = (a: { created_at: Date; id: string }, b: { created_at: Date; id: string }) =>
  ascending(a.created_at.getTime(), b.created_at.getTime()) || ascending(a.id, b.id)

/** The user `userId` of `accountId` (`userId` already known to look like a uuid). */
const userOf = (t: Tables, accountId: string, userId: string): PortalUserRecord | undefined => {
  const u = t.portalUsers.get(userId.toLowerCase())
  return u !== undefined && u.account_id === uuid(accountId) ? u : undefined
}

const ownerCount = (t: Tables, accountId: string): number => {
  let n = 0
  for (const u of t.portalUsers.values()) if (u.account_id === accountId && u.role === "owner") n++
  return n
}

const userByEmail = (t: Tables, email: string): PortalUserRecord | undefined => {
  const lower = email.toLowerCase()
  for (const u of t.portalUsers.values()) if (u.email.toLowerCase() === lower) return u
  return undefined
}

const deleteSessionsWhere = (t: Tables, keep: (s: PortalSessionRecord) => boolean): number => {
  let n = 0
  for (const [idHash, s] of t.portalSessions) {
    if (!keep(s)) {
      t.portalSessions.delete(idHash)
      n++
    }
  }
  return n
}

/** The memory `PortalStore` over the context's `MemoryDatabase`. */
export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase

  return PortalStore.of({
    account: (accountId) =>
      db.transact((t) => {
        const a = t.accounts.get(uuid(accountId))
        return a === undefined ? undefined : { id: a.id, name: a.name, email: a.email, active: a.active }
      }),

    userByEmail: (email) =>
      db.transact((t) => {
        const u = userByEmail(t, email)
        return u === undefined ? undefined : userRow(u)
      }),

    user: (accountId, userId) =>
      db.transact((t) => {
        if (!UUID.test(userId)) return undefined
        const u = userOf(t, accountId, userId)
        return u === undefined ? undefined : userRow(u)
      }),

    users: (accountId) =>
      db.transact((t) => {
        const id = uuid(accountId)
        return [...t.portalUsers.values()].filter((u) => u.account_id === id).sort(byCreated).map(userRow)
      }),

    createUser: (u) =>
      db.transact((t) => {
        const id = uuid(u.id)
        const accountId = uuid(u.account_id)
        check(t.accounts.has(accountId), "portal_users", `account ${accountId} does not exist`)
        check(u.role === "owner" || u.role === "member", "portal_users", `role ${u.role}`)
        check(u.locale === "en" || u.locale === "sw", "portal_users", `locale ${u.locale}`)
        // ON CONFLICT DO NOTHING: the id or the e-mail (case-insensitive) taken
        if (t.portalUsers.has(id) || userByEmail(t, u.email) !== undefined) return false
        t.portalUsers.set(id, { ...u, id, account_id: accountId })
        return true
      }),

    updateUser: (accountId, userId, patch, now) =>
      db.transact((t) => {
        if (!UUID.test(userId)) return undefined
        const u = userOf(t, accountId, userId)
        if (u === undefined) return undefined
        if (patch.locale !== undefined) check(patch.locale === "en" || patch.locale === "sw", "portal_users", "locale")
        if (patch.name !== undefined) u.name = patch.name
        if (patch.locale !== undefined) u.locale = patch.locale
        if (patch.time_zone !== undefined) u.time_zone = patch.time_zone
        if (patch.password_hash !== undefined) u.password_hash = patch.password_hash
        u.updated_at = now
        return userRow(u)
      }),

    setRole: (accountId, userId, role, now) =>
      db.transact(
        (t): { readonly _tag: "Done"; readonly user: UserRow } | { readonly _tag: "NotFound" | "LastOwner" } => {
          if (!UUID.test(userId)) return { _tag: "NotFound" }
          const target = userOf(t, accountId, userId)
          if (target === undefined) return { _tag: "NotFound" }
          if (target.role === "owner" && role !== "owner" && ownerCount(t, target.account_id) <= 1) {
            return { _tag: "LastOwner" }
          }
          target.role = role
          target.updated_at = now
          return { _tag: "Done", user: userRow(target) }
        }
      ),

    deleteUser: (accountId, userId) =>
      db.transact((t): "Done" | "NotFound" | "LastOwner" => {
        if (!UUID.test(userId)) return "NotFound"
        const target = userOf(t, accountId, userId)
        if (target === undefined) return "NotFound"
        if (target.role === "owner" && ownerCount(t, target.account_id) <= 1) return "LastOwner"
        for (const token of t.portalTokens.values()) if (token.invited_by === target.id) token.invited_by = null
        // ON DELETE CASCADE: the user's sessions and tokens
        for (const [id, token] of t.portalTokens) if (token.user_id === target.id) t.portalTokens.delete(id)
        deleteSessionsWhere(t, (s) => s.user_id !== target.id)
        t.portalUsers.delete(target.id)
        return "Done"
      }),

    recordSignIn: (userId, now) =>
      db.transact((t) => {
        const u = t.portalUsers.get(uuid(userId))
        if (u !== undefined) u.last_sign_in_at = now
      }),

    createSession: (s) =>
      db.transact((t) => {
        const userId = uuid(s.user_id)
        const accountId = uuid(s.account_id)
        check(!t.portalSessions.has(s.id_hash), "portal_sessions", "duplicate key: session exists")
        check(t.portalUsers.has(userId), "portal_sessions", `user ${userId} does not exist`)
        check(t.accounts.has(accountId), "portal_sessions", `account ${accountId} does not exist`)
        t.portalSessions.set(s.id_hash, { ...s, user_id: userId, account_id: accountId })
      }),

    session: (idHash) =>
      db.transact((t) => {
        const s = t.portalSessions.get(idHash)
        if (s === undefined) return undefined
        const u = t.portalUsers.get(s.user_id)
        return u === undefined || u.account_id !== s.account_id
          ? undefined
          : { session: sessionRow(s), user: userRow(u) }
      }),

    touchSession: (idHash, now) =>
      db.transact((t) => {
        const s = t.portalSessions.get(idHash)
        if (s !== undefined && s.last_seen_at.getTime() < now.getTime()) s.last_seen_at = now
      }),

    deleteSession: (idHash) => db.transact((t) => void t.portalSessions.delete(idHash)),

    deleteUserSessions: (userId, keep) =>
      db.transact((t) => {
        const id = uuid(userId)
        return deleteSessionsWhere(t, (s) => s.user_id !== id || (keep !== undefined && s.id_hash === keep))
      }),

    deleteExpiredSessions: (idleBefore, now) =>
      db.transact((t) =>
        deleteSessionsWhere(
          t,
          (s) => s.absolute_expires_at.getTime() > now.getTime() && s.last_seen_at.getTime() > idleBefore.getTime()
        )
      ),

    lockedUntil: (key, now) =>
      db.transact((t) => {
        const f = t.portalLoginFailures.get(key)
        return f?.locked_until !== null && f?.locked_until !== undefined && f.locked_until.getTime() > now.getTime()
          ? f.locked_until
          : null
      }),

    recordFailure: ({ key, lockUntil, now, threshold, windowStart }) =>
      db.transact((t) => {
        const f = t.portalLoginFailures.get(key)
        const restart = f === undefined || f.window_start.getTime() < windowStart.getTime()
        const failures = restart ? 1 : f.failures + 1
        const lockedUntil = failures >= threshold ? lockUntil : (f?.locked_until ?? null)
        t.portalLoginFailures.set(key, {
          key,
          failures,
          window_start: restart ? now : f.window_start,
          locked_until: lockedUntil
        })
        return lockedUntil !== null && lockedUntil.getTime() > now.getTime() ? lockedUntil : null
      }),

    clearFailures: (key) => db.transact((t) => void t.portalLoginFailures.delete(key)),

    createToken: (token) =>
      db.transact((t) => {
        const id = uuid(token.id)
        const accountId = uuid(token.account_id)
        const userId = uuidOrNull(token.user_id)
        const invitedBy = uuidOrNull(token.invited_by)
        check(!t.portalTokens.has(id), "portal_tokens", `duplicate key: token ${id} exists`)
        for (const other of t.portalTokens.values()) {
          check(other.token_hash !== token.token_hash, "portal_tokens", "duplicate key: token_hash exists")
        }
        check(t.accounts.has(accountId), "portal_tokens", `account ${accountId} does not exist`)
        check(userId === null || t.portalUsers.has(userId), "portal_tokens", `user ${userId} does not exist`)
        check(invitedBy === null || t.portalUsers.has(invitedBy), "portal_tokens", `user ${invitedBy} does not exist`)
        t.portalTokens.set(id, { ...token, id, account_id: accountId, user_id: userId, invited_by: invitedBy })
      }),

    tokenByHash: (hash) =>
      db.transact((t) => {
        for (const token of t.portalTokens.values()) if (token.token_hash === hash) return tokenRow(token)
        return undefined
      }),

    useToken: (id, now) =>
      db.transact((t) => {
        const token = t.portalTokens.get(uuid(id))
        if (
          token === undefined || token.used_at !== null || token.revoked_at !== null ||
          token.expires_at.getTime() <= now.getTime()
        ) return false
        token.used_at = now
        return true
      }),

    pendingInvitations: (accountId, now) =>
      db.transact((t) => {
        const account = uuid(accountId)
        return [...t.portalTokens.values()]
          .filter((token) =>
            token.account_id === account && token.kind === "invitation" && token.used_at === null &&
            token.revoked_at === null && token.expires_at.getTime() > now.getTime()
          )
          .sort((a, b) => ascending(b.created_at.getTime(), a.created_at.getTime()) || ascending(a.id, b.id))
          .map(tokenRow)
      }),

    revokeInvitation: (accountId, id, now) =>
      db.transact((t) => {
        const token = t.portalTokens.get(uuid(id))
        if (
          token === undefined || token.account_id !== uuid(accountId) || token.kind !== "invitation" ||
          token.used_at !== null || token.revoked_at !== null
        ) return false
        token.revoked_at = now
        return true
      }),

    revokeTokensFor: (kind, email, now) =>
      db.transact((t) => {
        const lower = email.toLowerCase()
        for (const token of t.portalTokens.values()) {
          if (
            token.kind === kind && token.email.toLowerCase() === lower && token.used_at === null &&
            token.revoked_at === null
          ) token.revoked_at = now
        }
      })
  })
})

/** `PortalStore` over the context's `MemoryDatabase`. */
export const layerMemory: Layer.Layer<PortalStore, never, MemoryDatabase> = Layer.effect(PortalStore, make)
