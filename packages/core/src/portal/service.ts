/**
 * The shape of the `PortalAccess` service: its own module so the parts (`signIn.ts`,
 * `invitations.ts`, `passwordReset.ts`, `team.ts`) can name it without importing `PortalAccess.ts`.
 */
import type { ResourceConflict, ResourceNotFound, ValidationFailed } from "@tuma/domain/errors"
import type { Effect } from "effect"
import type { MailNotice } from "../ports/Notifiers.js"
import type { AccountSummaryRow, Role, SessionRow, TokenRow, UserPatch, UserRow } from "../ports/PortalStore.js"
import type {
  Authenticated,
  ClientInfo,
  InvalidCredentials,
  LoginLocked,
  SecondFactorStep,
  SignedIn,
  TwoFactorEnrolment
} from "./model.js"

/** The portal's access use cases: sign-in and sessions, lockout, invitations, password resets, team and profile. */
export interface PortalAccessService {
  /**
   * The password, then the second factor when the user has one (`code`: TOTP or a recovery code) or
   * the account requires one (enrolment: the secret, then a code of it; recovery codes once).
   */
  readonly signIn: (input: {
    readonly email: string
    readonly password: string
    readonly code?: string | undefined
    readonly presentedSessionId: string | undefined
    readonly client: ClientInfo
  }) => Effect.Effect<
    | (SignedIn & { readonly _tag: "SignedIn"; readonly recoveryCodes: ReadonlyArray<string> | undefined })
    | SecondFactorStep,
    InvalidCredentials | LoginLocked
  >
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
  }) => Effect.Effect<
    {
      readonly invitation: TokenRow
      readonly link: string
      /** Where the invitation mail went: `sent` only when the SMTP server took it. */
      readonly mail: MailNotice
    },
    ValidationFailed | ResourceConflict
  >
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
  /** Starts (or shows again) an enrolment: a pending secret and its QR address. */
  readonly startTwoFactor: (accountId: string, userId: string) => Effect.Effect<
    TwoFactorEnrolment,
    ResourceNotFound | ResourceConflict
  >
  /** Confirms the enrolment with a code of the pending secret; answers the recovery codes (once). */
  readonly confirmTwoFactor: (accountId: string, userId: string, code: string) => Effect.Effect<
    ReadonlyArray<string>,
    ValidationFailed | ResourceNotFound | ResourceConflict
  >
  /** Turns the second factor off (the password again); refused while the account requires it. */
  readonly disableTwoFactor: (accountId: string, userId: string, password: string) => Effect.Effect<
    void,
    ValidationFailed | ResourceNotFound | ResourceConflict
  >
  /** How many recovery codes of the user are unused. */
  readonly unusedRecoveryCodes: (userId: string) => Effect.Effect<number>
  /** New recovery codes (the old ones stop working). */
  readonly regenerateRecoveryCodes: (accountId: string, userId: string) => Effect.Effect<
    ReadonlyArray<string>,
    ResourceNotFound | ResourceConflict
  >
  /** An owner requires (or stops requiring) a second factor of every user; they must have one first. */
  readonly setRequireTwoFactor: (accountId: string, userId: string, required: boolean) => Effect.Effect<
    void,
    ValidationFailed | ResourceNotFound
  >
  /** A user with this password (demo seeding, tests); answers the existing user if the e-mail is taken. */
  readonly ensureUser: (input: {
    readonly accountId: string
    readonly email: string
    readonly password: string
    readonly role: Role
    readonly name?: string | undefined
  }) => Effect.Effect<UserRow, ValidationFailed>
}
