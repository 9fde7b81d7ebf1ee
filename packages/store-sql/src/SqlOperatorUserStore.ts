/**
 * SQL adapter of `OperatorUserStore` (core/src/ports/OperatorUserStore.ts), PostgreSQL and PGlite.
 * Single-use rules (invitations, recovery codes, TOTP steps) are one conditional UPDATE each, so two
 * requests racing cannot both win.
 */
import { SqlClient } from "@effect/sql"
import type { OperatorInvitationRow, OperatorSessionRow, OperatorUserRow } from "@tuma/core/ports/OperatorUserStore"
import { OperatorUserStore } from "@tuma/core/ports/OperatorUserStore"
import { OPERATOR_ROLES } from "@tuma/domain/operatorRoles"
import { Effect, Layer, Schema } from "effect"
import { Count, isUuid, NullableDate, NullableString, rowsOf, single } from "./rows.js"
import { sqlLoginFailures } from "./SqlLoginFailures.js"

const COLUMNS = "id, email, name, role, password_hash, totp_secret, totp_pending_secret, totp_last_step, " +
  "disabled_at, created_at, updated_at, last_sign_in_at"

/** `operator_users` (`totp_last_step` is a `bigint`: a string on both drivers). */
const Operators = rowsOf<OperatorUserRow>()(Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  name: Schema.String,
  role: Schema.Literal(...OPERATOR_ROLES),
  password_hash: NullableString,
  totp_secret: NullableString,
  totp_pending_secret: NullableString,
  totp_last_step: Count,
  disabled_at: NullableDate,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf,
  last_sign_in_at: NullableDate
}))

/** `operator_sessions.*`. */
const Sessions = rowsOf<OperatorSessionRow>()(Schema.Struct({
  id_hash: Schema.String,
  operator_id: Schema.String,
  csrf_token: Schema.String,
  created_at: Schema.DateFromSelf,
  last_seen_at: Schema.DateFromSelf,
  absolute_expires_at: Schema.DateFromSelf,
  ip: NullableString,
  user_agent: NullableString
}))

/** `operator_invitations.*`. */
const Invitations = rowsOf<OperatorInvitationRow>()(Schema.Struct({
  id: Schema.String,
  token_hash: Schema.String,
  operator_id: Schema.String,
  created_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf,
  used_at: NullableDate
}))

const countRow = single(Schema.Struct({ n: Count }))

/** The adapter over the `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(COLUMNS)

  return OperatorUserStore.of({
    create: (r) =>
      sql`INSERT INTO operator_users (${columns}) VALUES (${r.id}, ${r.email}, ${r.name}, ${r.role}, ${r.password_hash},
          ${r.totp_secret}, ${r.totp_pending_secret}, ${r.totp_last_step}, ${r.disabled_at}, ${r.created_at},
          ${r.updated_at}, ${r.last_sign_in_at})
        ON CONFLICT DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),

    byEmail: (email) =>
      Operators.first(sql`SELECT ${columns} FROM operator_users WHERE lower(email) = ${email.toLowerCase()}`).pipe(
        Effect.orDie
      ),

    byId: (id) =>
      isUuid(id)
        ? Operators.first(sql`SELECT ${columns} FROM operator_users WHERE id = ${id}`).pipe(Effect.orDie)
        : Effect.succeed(undefined),

    list: Operators.all(sql`SELECT ${columns} FROM operator_users ORDER BY created_at, email`).pipe(Effect.orDie),

    update: (id, patch, now) => {
      const set: Record<string, unknown> = { updated_at: now }
      for (const k of ["name", "role", "password_hash", "totp_secret", "totp_pending_secret", "disabled_at"] as const) {
        if (patch[k] !== undefined) set[k] = patch[k]
      }
      return isUuid(id)
        ? Operators.first(sql`UPDATE operator_users SET ${sql.update(set)} WHERE id = ${id} RETURNING ${columns}`).pipe(
          Effect.orDie
        )
        : Effect.succeed(undefined)
    },

    useTotpStep: (id, step) =>
      sql`UPDATE operator_users SET totp_last_step = ${step} WHERE id = ${id} AND totp_last_step < ${step}
        RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),

    recordSignIn: (id, now) =>
      sql`UPDATE operator_users SET last_sign_in_at = ${now} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),

    replaceRecoveryCodes: (id, hashes) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`DELETE FROM operator_recovery_codes WHERE operator_id = ${id}`
        if (hashes.length > 0) {
          yield* sql`INSERT INTO operator_recovery_codes ${
            sql.insert(hashes.map((code_hash) => ({ operator_id: id, code_hash })))
          }`
        }
      })).pipe(Effect.orDie),

    useRecoveryCode: (id, hash, now) =>
      sql`UPDATE operator_recovery_codes SET used_at = ${now}
        WHERE operator_id = ${id} AND code_hash = ${hash} AND used_at IS NULL RETURNING code_hash`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      ),

    unusedRecoveryCodes: (id) =>
      isUuid(id)
        ? countRow(sql`SELECT count(*) AS n FROM operator_recovery_codes
            WHERE operator_id = ${id} AND used_at IS NULL`).pipe(Effect.map((row) => row.n), Effect.orDie)
        : Effect.succeed(0),

    createSession: (s) => sql`INSERT INTO operator_sessions ${sql.insert({ ...s })}`.pipe(Effect.asVoid, Effect.orDie),

    session: (idHash) =>
      Effect.gen(function*() {
        const session = yield* Sessions.first(sql`SELECT * FROM operator_sessions WHERE id_hash = ${idHash}`)
        if (session === undefined) return undefined
        const signedIn = yield* Operators.first(
          sql`SELECT ${columns} FROM operator_users WHERE id = ${session.operator_id}`
        )
        return signedIn === undefined ? undefined : { session, operator: signedIn }
      }).pipe(Effect.orDie),

    touchSession: (idHash, now) =>
      sql`UPDATE operator_sessions SET last_seen_at = ${now} WHERE id_hash = ${idHash}`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),

    deleteSession: (idHash) =>
      sql`DELETE FROM operator_sessions WHERE id_hash = ${idHash}`.pipe(Effect.asVoid, Effect.orDie),

    deleteOperatorSessions: (operatorId) =>
      sql`DELETE FROM operator_sessions WHERE operator_id = ${operatorId}`.pipe(Effect.asVoid, Effect.orDie),

    deleteExpiredSessions: (idleBefore, now) =>
      sql`DELETE FROM operator_sessions WHERE last_seen_at < ${idleBefore} OR absolute_expires_at <= ${now}`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),

    createInvitation: (i) =>
      sql`INSERT INTO operator_invitations ${sql.insert({ ...i })}`.pipe(Effect.asVoid, Effect.orDie),

    invitationByHash: (hash) =>
      Invitations.first(sql`SELECT * FROM operator_invitations WHERE token_hash = ${hash}`).pipe(Effect.orDie),

    useInvitation: (id, now) =>
      sql`UPDATE operator_invitations SET used_at = ${now}
        WHERE id = ${id} AND used_at IS NULL AND expires_at > ${now} RETURNING id`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      ),

    revokeInvitations: (operatorId, now) =>
      sql`UPDATE operator_invitations SET used_at = ${now} WHERE operator_id = ${operatorId} AND used_at IS NULL`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),

    ...sqlLoginFailures(sql, "operator_login_failures")
  })
})

/** `OperatorUserStore` over the `SqlClient`. */
export const layer: Layer.Layer<OperatorUserStore, never, SqlClient.SqlClient> = Layer.effect(OperatorUserStore, make)
