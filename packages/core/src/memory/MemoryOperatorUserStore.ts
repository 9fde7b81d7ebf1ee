/**
 * In-memory adapter of `OperatorUserStore` (one process; nothing survives it). Each operation is
 * one synchronous critical section, so the single-use rules hold as in SQL. Passes the same
 * contract suite as `SqlOperatorUserStore` (store-sql/test/operatorUsers.test.ts, driver `memory`).
 */
import { Effect, Layer } from "effect"
import type { OperatorInvitationRow, OperatorSessionRow, OperatorUserRow } from "../ports/OperatorUserStore.js"
import { OperatorUserStore } from "../ports/OperatorUserStore.js"

/** A fresh, empty store. */
export const makeMemoryOperatorUserStore = (): OperatorUserStore["Type"] => {
  const users = new Map<string, OperatorUserRow>()
  const codes = new Map<string, Map<string, Date | null>>()
  const sessions = new Map<string, OperatorSessionRow>()
  const invitations = new Map<string, OperatorInvitationRow>()
  const failures = new Map<string, { failures: number; window_start: Date; locked_until: Date | null }>()
  const byEmail = (email: string) => [...users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase())

  return {
    create: (row) =>
      Effect.sync(() => {
        if (users.has(row.id) || byEmail(row.email) !== undefined) return false
        users.set(row.id, row)
        return true
      }),
    byEmail: (email) => Effect.sync(() => byEmail(email)),
    byId: (id) => Effect.sync(() => users.get(id)),
    list: Effect.sync(() =>
      [...users.values()].sort((a, b) =>
        a.created_at.getTime() - b.created_at.getTime() || (a.email < b.email ? -1 : 1)
      )
    ),
    update: (id, patch, now) =>
      Effect.sync(() => {
        const row = users.get(id)
        if (row === undefined) return undefined
        const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
        const next: OperatorUserRow = { ...row, ...defined, updated_at: now }
        users.set(id, next)
        return next
      }),
    useTotpStep: (id, step) =>
      Effect.sync(() => {
        const row = users.get(id)
        if (row === undefined || row.totp_last_step >= step) return false
        users.set(id, { ...row, totp_last_step: step })
        return true
      }),
    recordSignIn: (id, now) =>
      Effect.sync(() => {
        const row = users.get(id)
        if (row !== undefined) users.set(id, { ...row, last_sign_in_at: now })
      }),
    replaceRecoveryCodes: (id, hashes) => Effect.sync(() => void codes.set(id, new Map(hashes.map((h) => [h, null])))),
    useRecoveryCode: (id, hash, now) =>
      Effect.sync(() => {
        const mine = codes.get(id)
        if (mine === undefined || !mine.has(hash) || mine.get(hash) !== null) return false
        mine.set(hash, now)
        return true
      }),
    unusedRecoveryCodes: (id) =>
      Effect.sync(() => [...(codes.get(id)?.values() ?? [])].filter((u) => u === null).length),
    createSession: (row) => Effect.sync(() => void sessions.set(row.id_hash, row)),
    session: (idHash) =>
      Effect.sync(() => {
        const session = sessions.get(idHash)
        const operator = session === undefined ? undefined : users.get(session.operator_id)
        return session === undefined || operator === undefined ? undefined : { session, operator }
      }),
    touchSession: (idHash, now) =>
      Effect.sync(() => {
        const s = sessions.get(idHash)
        if (s !== undefined) sessions.set(idHash, { ...s, last_seen_at: now })
      }),
    deleteSession: (idHash) => Effect.sync(() => void sessions.delete(idHash)),
    deleteOperatorSessions: (operatorId) =>
      Effect.sync(() => {
        for (const [k, s] of sessions) if (s.operator_id === operatorId) sessions.delete(k)
      }),
    deleteExpiredSessions: (idleBefore, now) =>
      Effect.sync(() => {
        for (const [k, s] of sessions) {
          if (s.last_seen_at < idleBefore || s.absolute_expires_at <= now) sessions.delete(k)
        }
      }),
    createInvitation: (row) => Effect.sync(() => void invitations.set(row.id, row)),
    invitationByHash: (hash) => Effect.sync(() => [...invitations.values()].find((i) => i.token_hash === hash)),
    useInvitation: (id, now) =>
      Effect.sync(() => {
        const i = invitations.get(id)
        if (i === undefined || i.used_at !== null || i.expires_at <= now) return false
        invitations.set(id, { ...i, used_at: now })
        return true
      }),
    revokeInvitations: (operatorId, now) =>
      Effect.sync(() => {
        for (const [k, i] of invitations) {
          if (i.operator_id === operatorId && i.used_at === null) invitations.set(k, { ...i, used_at: now })
        }
      }),
    lockedUntil: (key, now) =>
      Effect.sync(() => {
        const f = failures.get(key)
        return f?.locked_until !== null && f?.locked_until !== undefined && f.locked_until > now ? f.locked_until : null
      }),
    recordFailure: ({ key, lockUntil, now, threshold, windowStart }) =>
      Effect.sync(() => {
        const f = failures.get(key)
        const fresh = f === undefined || f.window_start < windowStart
        const count = fresh ? 1 : f.failures + 1
        const next = {
          failures: count,
          window_start: fresh ? now : f.window_start,
          locked_until: count >= threshold ? lockUntil : (f?.locked_until ?? null)
        }
        failures.set(key, next)
        return next.locked_until !== null && next.locked_until > now ? next.locked_until : null
      }),
    clearFailures: (key) => Effect.sync(() => void failures.delete(key))
  }
}

/** `OperatorUserStore` in memory. */
export const layerMemory: Layer.Layer<OperatorUserStore> = Layer.sync(OperatorUserStore, makeMemoryOperatorUserStore)
