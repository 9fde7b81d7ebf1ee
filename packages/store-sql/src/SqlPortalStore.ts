/**
 * SQL adapter of `PortalStore` (core/src/portal/PortalStore.ts), PostgreSQL and PGlite. Every
 * query of an account's rows is bounded by `account_id`; the last-owner rule is checked inside the
 * transaction that changes a role or removes a user (the account's owner rows are locked first).
 */
import { SqlClient } from "@effect/sql"
import type { AccountSummaryRow, SessionRow, TokenRow, TwoFactorSecrets, UserRow } from "@tuma/core/ports/PortalStore"
import { PortalStore } from "@tuma/core/ports/PortalStore"
import { Effect, Layer, Option, Schema } from "effect"
import { Count, findFirst, Ids, isUuid, NullableDate, NullableString, rowsOf } from "./rows.js"
import { sqlLoginFailures } from "./SqlLoginFailures.js"

const USER_COLUMNS =
  "id, account_id, email, name, password_hash, role, locale, time_zone, created_at, updated_at, last_sign_in_at, " +
  "(totp_secret IS NOT NULL) AS two_factor"

const Role = Schema.Literal("owner", "member")

const Users = rowsOf<UserRow>()(Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  email: Schema.String,
  name: Schema.String,
  password_hash: Schema.String,
  role: Role,
  locale: Schema.Literal("en", "sw"),
  time_zone: Schema.String,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf,
  last_sign_in_at: NullableDate,
  two_factor: Schema.Boolean
}))

const Secrets = rowsOf<TwoFactorSecrets>()(Schema.Struct({ secret: NullableString, pending: NullableString }))

const Sessions = rowsOf<SessionRow>()(Schema.Struct({
  id_hash: Schema.String,
  user_id: Schema.String,
  account_id: Schema.String,
  csrf_token: Schema.String,
  created_at: Schema.DateFromSelf,
  last_seen_at: Schema.DateFromSelf,
  absolute_expires_at: Schema.DateFromSelf
}))

const Tokens = rowsOf<TokenRow>()(Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("invitation", "password_reset"),
  token_hash: Schema.String,
  account_id: Schema.String,
  email: Schema.String,
  role: Schema.NullOr(Role),
  user_id: NullableString,
  invited_by: NullableString,
  created_at: Schema.DateFromSelf,
  expires_at: Schema.DateFromSelf,
  used_at: NullableDate,
  revoked_at: NullableDate
}))

const AccountSummaries = rowsOf<AccountSummaryRow>()(Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  active: Schema.Boolean,
  country: NullableString,
  require_two_factor: Schema.Boolean
}))

const roleRow = findFirst(Schema.Struct({ role: Role }))

/** Users of an account: read, invited, changed, removed (the last-owner rule in the transaction). */
const usersOf = (
  sql: SqlClient.SqlClient
): Pick<
  PortalStore["Type"],
  "account" | "userByEmail" | "user" | "users" | "createUser" | "updateUser" | "setRole" | "deleteUser" | "recordSignIn"
> => {
  const users = sql.literal(USER_COLUMNS)

  const ownersLocked = (accountId: string) =>
    Ids.all(sql`SELECT id FROM portal_users WHERE account_id = ${accountId} AND role = 'owner' FOR UPDATE`)

  return {
    account: (accountId) =>
      AccountSummaries.first(sql`SELECT a.id, a.name, a.email, a.active, m.iso2 AS country, a.require_two_factor
        FROM accounts a LEFT JOIN markets m ON m.id = a.country_id WHERE a.id = ${accountId}`).pipe(
        Effect.orDie
      ),

    userByEmail: (email) =>
      Users.first(sql`SELECT ${users} FROM portal_users WHERE lower(email) = ${email.toLowerCase()}`).pipe(
        Effect.orDie
      ),

    user: (accountId, userId) =>
      isUuid(userId)
        ? Users.first(sql`SELECT ${users} FROM portal_users WHERE id = ${userId} AND account_id = ${accountId}`).pipe(
          Effect.orDie
        )
        : Effect.succeed(undefined),

    users: (accountId) =>
      Users.all(sql`SELECT ${users} FROM portal_users WHERE account_id = ${accountId} ORDER BY created_at, id`).pipe(
        Effect.orDie
      ),

    createUser: (u) =>
      sql`INSERT INTO portal_users (id, account_id, email, name, password_hash, role, locale, time_zone,
          created_at, updated_at, last_sign_in_at)
        VALUES (${u.id}, ${u.account_id}, ${u.email}, ${u.name}, ${u.password_hash}, ${u.role}, ${u.locale},
          ${u.time_zone}, ${u.created_at}, ${u.updated_at}, ${u.last_sign_in_at})
        ON CONFLICT DO NOTHING RETURNING id`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.orDie
      ),

    updateUser: (accountId, userId, patch, now) =>
      isUuid(userId)
        ? Users.first(sql`UPDATE portal_users SET
              name = COALESCE(${patch.name ?? null}, name),
              locale = COALESCE(${patch.locale ?? null}, locale),
              time_zone = COALESCE(${patch.time_zone ?? null}, time_zone),
              password_hash = COALESCE(${patch.password_hash ?? null}, password_hash),
              updated_at = ${now}
            WHERE id = ${userId} AND account_id = ${accountId}
            RETURNING ${users}`).pipe(Effect.orDie)
        : Effect.succeed(undefined),

    setRole: (accountId, userId, role, now) =>
      !isUuid(userId)
        ? Effect.succeed({ _tag: "NotFound" as const })
        : sql.withTransaction(
          Effect.gen(function*() {
            const owners = yield* ownersLocked(accountId)
            const target = yield* Users.first(sql`SELECT ${users} FROM portal_users
              WHERE id = ${userId} AND account_id = ${accountId} FOR UPDATE`)
            if (target === undefined) return { _tag: "NotFound" as const }
            if (target.role === "owner" && role !== "owner" && owners.length <= 1) return { _tag: "LastOwner" as const }
            const user = yield* Users.single(sql`UPDATE portal_users SET role = ${role}, updated_at = ${now}
              WHERE id = ${userId} AND account_id = ${accountId} RETURNING ${users}`)
            return { _tag: "Done" as const, user }
          })
        ).pipe(Effect.orDie),

    deleteUser: (accountId, userId) =>
      !isUuid(userId)
        ? Effect.succeed("NotFound" as const)
        : sql.withTransaction(
          Effect.gen(function*() {
            const owners = yield* ownersLocked(accountId)
            const target = yield* roleRow(sql`SELECT role FROM portal_users
              WHERE id = ${userId} AND account_id = ${accountId} FOR UPDATE`)
            if (target === undefined) return "NotFound" as const
            if (target.role === "owner" && owners.length <= 1) return "LastOwner" as const
            yield* sql`UPDATE portal_tokens SET invited_by = NULL WHERE invited_by = ${userId}`
            yield* sql`DELETE FROM portal_users WHERE id = ${userId} AND account_id = ${accountId}`
            return "Done" as const
          })
        ).pipe(Effect.orDie),

    recordSignIn: (userId, now) =>
      sql`UPDATE portal_users SET last_sign_in_at = ${now} WHERE id = ${userId}`.pipe(Effect.asVoid, Effect.orDie)
  }
}

/** Sessions: created, read, touched, ended. */
const sessionsOf = (
  sql: SqlClient.SqlClient
): Pick<
  PortalStore["Type"],
  "createSession" | "session" | "touchSession" | "deleteSession" | "deleteUserSessions" | "deleteExpiredSessions"
> => {
  const users = sql.literal(USER_COLUMNS)
  return {
    createSession: (s) =>
      sql`INSERT INTO portal_sessions (id_hash, user_id, account_id, csrf_token, created_at, last_seen_at,
          absolute_expires_at, ip, user_agent)
        VALUES (${s.id_hash}, ${s.user_id}, ${s.account_id}, ${s.csrf_token}, ${s.created_at}, ${s.last_seen_at},
          ${s.absolute_expires_at}, ${s.ip}, ${s.user_agent})`.pipe(Effect.asVoid, Effect.orDie),

    session: (idHash) =>
      Sessions.one(sql`SELECT s.id_hash, s.user_id, s.account_id, s.csrf_token, s.created_at,
          s.last_seen_at, s.absolute_expires_at
        FROM portal_sessions s WHERE s.id_hash = ${idHash}`).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.succeed(undefined),
          onSome: (session) =>
            Users.first(sql`SELECT ${users} FROM portal_users
              WHERE id = ${session.user_id} AND account_id = ${session.account_id}`).pipe(
              Effect.map((user) => user === undefined ? undefined : { session, user })
            )
        })),
        Effect.orDie
      ),

    touchSession: (idHash, now) =>
      sql`UPDATE portal_sessions SET last_seen_at = ${now} WHERE id_hash = ${idHash} AND last_seen_at < ${now}`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),

    deleteSession: (idHash) =>
      sql`DELETE FROM portal_sessions WHERE id_hash = ${idHash}`.pipe(Effect.asVoid, Effect.orDie),

    deleteUserSessions: (userId, keep) =>
      (keep === undefined
        ? sql`DELETE FROM portal_sessions WHERE user_id = ${userId} RETURNING id_hash`
        : sql`DELETE FROM portal_sessions WHERE user_id = ${userId} AND id_hash <> ${keep} RETURNING id_hash`).pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),

    deleteExpiredSessions: (idleBefore, now) =>
      sql`DELETE FROM portal_sessions WHERE absolute_expires_at <= ${now} OR last_seen_at <= ${idleBefore}
        RETURNING id_hash`.pipe(Effect.map((rows) => rows.length), Effect.orDie)
  }
}

/** One-time tokens (invitations, password resets): created, used, revoked. */
const tokensOf = (
  sql: SqlClient.SqlClient
): Pick<
  PortalStore["Type"],
  "createToken" | "tokenByHash" | "useToken" | "pendingInvitations" | "revokeInvitation" | "revokeTokensFor"
> => ({
  createToken: (t) =>
    sql`INSERT INTO portal_tokens (id, kind, token_hash, account_id, email, role, user_id, invited_by, created_at,
          expires_at, used_at, revoked_at)
        VALUES (${t.id}, ${t.kind}, ${t.token_hash}, ${t.account_id}, ${t.email}, ${t.role}, ${t.user_id},
          ${t.invited_by}, ${t.created_at}, ${t.expires_at}, ${t.used_at}, ${t.revoked_at})`.pipe(
      Effect.asVoid,
      Effect.orDie
    ),

  tokenByHash: (hash) => Tokens.first(sql`SELECT * FROM portal_tokens WHERE token_hash = ${hash}`).pipe(Effect.orDie),

  useToken: (id, now) =>
    sql`UPDATE portal_tokens SET used_at = ${now}
        WHERE id = ${id} AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ${now} RETURNING id`.pipe(
      Effect.map((rows) => rows.length === 1),
      Effect.orDie
    ),

  pendingInvitations: (accountId, now) =>
    Tokens.all(sql`SELECT * FROM portal_tokens
        WHERE account_id = ${accountId} AND kind = 'invitation' AND used_at IS NULL AND revoked_at IS NULL
          AND expires_at > ${now}
        ORDER BY created_at DESC, id`).pipe(Effect.orDie),

  revokeInvitation: (accountId, id, now) =>
    sql`UPDATE portal_tokens SET revoked_at = ${now}
        WHERE id = ${id} AND account_id = ${accountId} AND kind = 'invitation' AND used_at IS NULL
          AND revoked_at IS NULL
        RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),

  revokeTokensFor: (kind, email, now) =>
    sql`UPDATE portal_tokens SET revoked_at = ${now}
        WHERE kind = ${kind} AND lower(email) = ${email.toLowerCase()} AND used_at IS NULL AND revoked_at IS NULL`
      .pipe(Effect.asVoid, Effect.orDie)
})

/** Two-factor sign-in: the TOTP secrets, used steps, recovery codes, the account's requirement. */
const twoFactorOf = (
  sql: SqlClient.SqlClient
): Pick<
  PortalStore["Type"],
  | "twoFactor"
  | "setTwoFactor"
  | "useTotpStep"
  | "replaceRecoveryCodes"
  | "useRecoveryCode"
  | "unusedRecoveryCodes"
  | "setRequireTwoFactor"
> => ({
  twoFactor: (userId) =>
    Secrets.first(sql`SELECT totp_secret AS secret, totp_pending_secret AS pending FROM portal_users
      WHERE id = ${userId}`).pipe(
      Effect.map((row) => row ?? { secret: null, pending: null }),
      Effect.orDie
    ),

  setTwoFactor: (userId, secrets, now) =>
    sql`UPDATE portal_users SET
        totp_secret = ${secrets.secret === undefined ? sql.literal("totp_secret") : secrets.secret},
        totp_pending_secret = ${secrets.pending === undefined ? sql.literal("totp_pending_secret") : secrets.pending},
        totp_last_step = ${secrets.secret === undefined ? sql.literal("totp_last_step") : 0},
        updated_at = ${now}
      WHERE id = ${userId} RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),

  useTotpStep: (userId, step) =>
    sql`UPDATE portal_users SET totp_last_step = ${step} WHERE id = ${userId} AND totp_last_step < ${step}
      RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),

  replaceRecoveryCodes: (userId, hashes) =>
    sql.withTransaction(Effect.gen(function*() {
      yield* sql`DELETE FROM portal_recovery_codes WHERE user_id = ${userId}`
      if (hashes.length > 0) {
        yield* sql`INSERT INTO portal_recovery_codes ${
          sql.insert(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
        }`
      }
    })).pipe(Effect.orDie),

  useRecoveryCode: (userId, hash, now) =>
    sql`UPDATE portal_recovery_codes SET used_at = ${now}
      WHERE user_id = ${userId} AND code_hash = ${hash} AND used_at IS NULL RETURNING code_hash`.pipe(
      Effect.map((rows) => rows.length === 1),
      Effect.orDie
    ),

  unusedRecoveryCodes: (userId) =>
    Counted.first(sql`SELECT count(*) AS n FROM portal_recovery_codes WHERE user_id = ${userId} AND used_at IS NULL`)
      .pipe(Effect.map((row) => row?.n ?? 0), Effect.orDie),

  setRequireTwoFactor: (accountId, required) =>
    sql`UPDATE accounts SET require_two_factor = ${required} WHERE id = ${accountId}`.pipe(Effect.asVoid, Effect.orDie)
})

const Counted = rowsOf<{ readonly n: number }>()(Schema.Struct({ n: Count }))

/** The SQL `PortalStore` over the context's `SqlClient`. */
export const make = Effect.map(SqlClient.SqlClient, (sql) =>
  PortalStore.of({
    ...usersOf(sql),
    ...sessionsOf(sql),
    ...sqlLoginFailures(sql, "portal_login_failures"),
    ...tokensOf(sql),
    ...twoFactorOf(sql)
  }))

/** `PortalStore` on SQL. */
export const layer: Layer.Layer<PortalStore, never, SqlClient.SqlClient> = Layer.effect(PortalStore, make)
