/**
 * Port of the portal's access records: users, sessions, e-mailed tokens and failed sign-ins.
 * Adapter: `@tuma/store-sql/SqlPortalStore`. Every read and write that concerns an account's data
 * takes the account id, so a caller can never reach another account's rows by id.
 */
import type { Effect } from "effect"
import { Context } from "effect"
import type { LoginFailures } from "./LoginFailures.js"

/** A portal user's role in their account: `owner` (keys, webhooks, team, sender IDs…) or `member`. */
export type Role = "owner" | "member"

/** A portal user (`portal_users` row): one account, one e-mail, a password hash, a role and preferences. */
export interface UserRow {
  readonly id: string
  readonly account_id: string
  readonly email: string
  readonly name: string
  readonly password_hash: string
  readonly role: Role
  readonly locale: "en" | "sw"
  readonly time_zone: string
  readonly created_at: Date
  readonly updated_at: Date
  readonly last_sign_in_at: Date | null
  /** Signs in with a second factor (TOTP enrolled); the secret itself is read by `twoFactor`. */
  readonly two_factor: boolean
}

/** A user's TOTP secrets: the confirmed one, and the one of an enrolment not confirmed yet. */
export interface TwoFactorSecrets {
  readonly secret: string | null
  readonly pending: string | null
}

/**
 * A signed-in session, stored by the hash of its id: its CSRF token, last activity (the idle expiry
 * counts from it) and absolute expiry.
 */
export interface SessionRow {
  readonly id_hash: string
  readonly user_id: string
  readonly account_id: string
  readonly csrf_token: string
  readonly created_at: Date
  readonly last_seen_at: Date
  readonly absolute_expires_at: Date
}

/** A single-use token e-mailed to someone (an invitation or a password reset), stored by its hash. */
export interface TokenRow {
  readonly id: string
  readonly kind: "invitation" | "password_reset"
  readonly token_hash: string
  readonly account_id: string
  readonly email: string
  readonly role: Role | null
  readonly user_id: string | null
  readonly invited_by: string | null
  readonly created_at: Date
  readonly expires_at: Date
  readonly used_at: Date | null
  readonly revoked_at: Date | null
}

/** The account a portal user belongs to, as the portal shows it. */
export interface AccountSummaryRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly active: boolean
  /** ISO2 of the account's own country (its national numbers are accepted in the portal), if set. */
  readonly country: string | null
  /** The owner requires every user of the account to sign in with a second factor. */
  readonly require_two_factor: boolean
}

/** Changes to a user's profile or password hash; absent fields stay as they are. */
export interface UserPatch {
  readonly name?: string | undefined
  readonly locale?: "en" | "sw" | undefined
  readonly time_zone?: string | undefined
  readonly password_hash?: string | undefined
}

/** The portal's access records: users, sessions, e-mailed tokens and failed sign-ins, scoped by account. */
export class PortalStore extends Context.Tag("@tuma/core/PortalStore")<
  PortalStore,
  LoginFailures & {
    readonly account: (accountId: string) => Effect.Effect<AccountSummaryRow | undefined>
    // users
    readonly userByEmail: (email: string) => Effect.Effect<UserRow | undefined>
    readonly user: (accountId: string, userId: string) => Effect.Effect<UserRow | undefined>
    readonly users: (accountId: string) => Effect.Effect<ReadonlyArray<UserRow>>
    /** false when the e-mail is taken. */
    readonly createUser: (row: UserRow) => Effect.Effect<boolean>
    readonly updateUser: (
      accountId: string,
      userId: string,
      patch: UserPatch,
      now: Date
    ) => Effect.Effect<UserRow | undefined>
    /** Changes the role unless that leaves the account without an owner. */
    readonly setRole: (
      accountId: string,
      userId: string,
      role: Role,
      now: Date
    ) => Effect.Effect<
      { readonly _tag: "Done"; readonly user: UserRow } | { readonly _tag: "NotFound" } | { readonly _tag: "LastOwner" }
    >
    /** Deletes the user (and their sessions) unless they are the account's last owner. */
    readonly deleteUser: (accountId: string, userId: string) => Effect.Effect<"Done" | "NotFound" | "LastOwner">
    readonly recordSignIn: (userId: string, now: Date) => Effect.Effect<void>
    // two-factor sign-in
    readonly twoFactor: (userId: string) => Effect.Effect<TwoFactorSecrets>
    /** Sets the given secrets (null clears); answers false when the user is not found. */
    readonly setTwoFactor: (userId: string, secrets: Partial<TwoFactorSecrets>, now: Date) => Effect.Effect<boolean>
    /** Records a TOTP step as used; false when it (or a later one) already was (no replay). */
    readonly useTotpStep: (userId: string, step: number) => Effect.Effect<boolean>
    readonly replaceRecoveryCodes: (userId: string, hashes: ReadonlyArray<string>) => Effect.Effect<void>
    /** Spends a recovery code; false when unknown or used. */
    readonly useRecoveryCode: (userId: string, hash: string, now: Date) => Effect.Effect<boolean>
    readonly unusedRecoveryCodes: (userId: string) => Effect.Effect<number>
    readonly setRequireTwoFactor: (accountId: string, required: boolean) => Effect.Effect<void>
    // sessions
    readonly createSession: (
      row: SessionRow & { readonly ip: string | null; readonly user_agent: string | null }
    ) => Effect.Effect<void>
    readonly session: (
      idHash: string
    ) => Effect.Effect<{ readonly session: SessionRow; readonly user: UserRow } | undefined>
    readonly touchSession: (idHash: string, now: Date) => Effect.Effect<void>
    readonly deleteSession: (idHash: string) => Effect.Effect<void>
    /** Ends every session of the user but `keep` (a session id hash), if given. */
    readonly deleteUserSessions: (userId: string, keep?: string | undefined) => Effect.Effect<number>
    readonly deleteExpiredSessions: (idleBefore: Date, now: Date) => Effect.Effect<number>
    // e-mailed tokens
    readonly createToken: (row: TokenRow) => Effect.Effect<void>
    readonly tokenByHash: (hash: string) => Effect.Effect<TokenRow | undefined>
    /** Marks the token used; false when it already was (single use, race-safe). */
    readonly useToken: (id: string, now: Date) => Effect.Effect<boolean>
    readonly pendingInvitations: (accountId: string, now: Date) => Effect.Effect<ReadonlyArray<TokenRow>>
    readonly revokeInvitation: (accountId: string, id: string, now: Date) => Effect.Effect<boolean>
    /** Revokes the unused tokens of this kind for this e-mail (a new one replaces them). */
    readonly revokeTokensFor: (kind: TokenRow["kind"], email: string, now: Date) => Effect.Effect<void>
  }
>() {}
