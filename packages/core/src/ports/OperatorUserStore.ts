/**
 * Port of the console's operator users: people who run the platform, separate from the
 * customers' portal users. Operators, their sessions, e-mailed invitations, one-time recovery
 * codes and failed sign-ins. Adapter: `@tuma/store-sql/SqlOperatorUserStore`, which passes
 * `store-sql/test/operatorUsers.test.ts`.
 * Secrets are stored hashed (SHA-256 of session ids, invitation tokens and recovery codes, scrypt
 * of passwords) except the TOTP secret, which the server needs in clear to compute codes.
 */
import type { OperatorRole } from "@tuma/domain/operatorRoles"
import type { Effect } from "effect"
import { Context } from "effect"
import type { LoginFailures } from "./LoginFailures.js"

/** A stored operator user. */
export interface OperatorUserRow {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly role: OperatorRole
  /** null until the invitation is accepted. */
  readonly password_hash: string | null
  /** The confirmed TOTP secret (base32), or null when not enrolled. */
  readonly totp_secret: string | null
  /** A secret shown for enrolment, not confirmed yet. */
  readonly totp_pending_secret: string | null
  /** The last TOTP time step accepted (a code is never accepted twice). */
  readonly totp_last_step: number
  readonly disabled_at: Date | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly last_sign_in_at: Date | null
}

/** The fields an update may change. */
export interface OperatorUserPatch {
  readonly name?: string | undefined
  readonly role?: OperatorRole | undefined
  readonly password_hash?: string | null | undefined
  readonly totp_secret?: string | null | undefined
  readonly totp_pending_secret?: string | null | undefined
  readonly disabled_at?: Date | null | undefined
}

/** A stored console session (the SHA-256 of its id). */
export interface OperatorSessionRow {
  readonly id_hash: string
  readonly operator_id: string
  readonly csrf_token: string
  readonly created_at: Date
  readonly last_seen_at: Date
  readonly absolute_expires_at: Date
  readonly ip: string | null
  readonly user_agent: string | null
}

/** A stored invitation (the SHA-256 of its token). */
export interface OperatorInvitationRow {
  readonly id: string
  readonly token_hash: string
  readonly operator_id: string
  readonly created_at: Date
  readonly expires_at: Date
  readonly used_at: Date | null
}

/** The operator users' store. */
export class OperatorUserStore extends Context.Tag("@tuma/core/OperatorUserStore")<
  OperatorUserStore,
  LoginFailures & {
    /** false when the e-mail is taken (case-insensitive). */
    readonly create: (row: OperatorUserRow) => Effect.Effect<boolean>
    readonly byEmail: (email: string) => Effect.Effect<OperatorUserRow | undefined>
    readonly byId: (id: string) => Effect.Effect<OperatorUserRow | undefined>
    /** Every operator, oldest first. */
    readonly list: Effect.Effect<ReadonlyArray<OperatorUserRow>>
    readonly update: (id: string, patch: OperatorUserPatch, now: Date) => Effect.Effect<OperatorUserRow | undefined>
    /** Records `step` as used when it is later than the last one used; false otherwise (a replay). */
    readonly useTotpStep: (id: string, step: number) => Effect.Effect<boolean>
    readonly recordSignIn: (id: string, now: Date) => Effect.Effect<void>
    // recovery codes
    /** Replaces every recovery code of the operator by these (hashes). */
    readonly replaceRecoveryCodes: (id: string, hashes: ReadonlyArray<string>) => Effect.Effect<void>
    /** Marks the code used; false when it is unknown or used already (single use, race-safe). */
    readonly useRecoveryCode: (id: string, hash: string, now: Date) => Effect.Effect<boolean>
    readonly unusedRecoveryCodes: (id: string) => Effect.Effect<number>
    // sessions
    readonly createSession: (row: OperatorSessionRow) => Effect.Effect<void>
    readonly session: (
      idHash: string
    ) => Effect.Effect<{ readonly session: OperatorSessionRow; readonly operator: OperatorUserRow } | undefined>
    readonly touchSession: (idHash: string, now: Date) => Effect.Effect<void>
    readonly deleteSession: (idHash: string) => Effect.Effect<void>
    readonly deleteOperatorSessions: (operatorId: string) => Effect.Effect<void>
    readonly deleteExpiredSessions: (idleBefore: Date, now: Date) => Effect.Effect<void>
    // invitations
    readonly createInvitation: (row: OperatorInvitationRow) => Effect.Effect<void>
    readonly invitationByHash: (hash: string) => Effect.Effect<OperatorInvitationRow | undefined>
    /** Marks it used; false when it was used or has expired (single use, race-safe). */
    readonly useInvitation: (id: string, now: Date) => Effect.Effect<boolean>
    /** Ends the unused invitations of the operator (a new one replaces them). */
    readonly revokeInvitations: (operatorId: string, now: Date) => Effect.Effect<void>
  }
>() {}
