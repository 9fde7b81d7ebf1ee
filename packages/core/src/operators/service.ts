/**
 * The shape of the `OperatorAccess` service: its own module so the parts (`team.ts`, `signIn.ts`) can
 * name it without importing `OperatorAccess.ts`, which assembles them.
 */
import type { ResourceConflict, ResourceNotFound, ValidationFailed } from "@tuma/domain/errors"
import type { OperatorRole } from "@tuma/domain/operatorRoles"
import type { Effect } from "effect"
import type { InvalidCredentials, LoginLocked } from "../portal/model.js"
import type { MailNotice } from "../ports/Notifiers.js"
import type { OperatorSessionRow } from "../ports/OperatorUserStore.js"
import type {
  EnrolmentRequired,
  OperatorAuthenticated,
  OperatorClient,
  OperatorSignedIn,
  OperatorView
} from "./model.js"

/** The operator users' use cases. */
export interface OperatorAccessService {
  /** Creates an operator with no password and e-mails the invitation (the link is answered too). */
  readonly create: (input: {
    readonly email: string
    readonly role: string
    readonly name?: string | undefined
    readonly linkBase: string
  }) => Effect.Effect<
    { readonly operator: OperatorView; readonly link: string; readonly mail: MailNotice },
    ValidationFailed | ResourceConflict
  >
  readonly list: Effect.Effect<ReadonlyArray<OperatorView>>
  readonly get: (id: string) => Effect.Effect<OperatorView, ResourceNotFound>
  readonly setRole: (id: string, role: string) => Effect.Effect<OperatorView, ValidationFailed | ResourceNotFound>
  /** Disabling ends the operator's sessions. */
  readonly setDisabled: (id: string, disabled: boolean) => Effect.Effect<OperatorView, ResourceNotFound>
  /** The operator an invitation token is for. */
  readonly invitation: (token: string) => Effect.Effect<OperatorView, ResourceNotFound>
  /** Sets the password (the operator then signs in, enrolling TOTP if their role requires it). */
  readonly acceptInvitation: (input: {
    readonly token: string
    readonly password: string
    readonly name?: string | undefined
  }) => Effect.Effect<OperatorView, ValidationFailed | ResourceNotFound>
  readonly signIn: (input: {
    readonly email: string
    readonly password: string
    readonly code: string
    readonly presentedSessionId: string | undefined
    readonly client: OperatorClient
  }) => Effect.Effect<OperatorSignedIn | EnrolmentRequired, InvalidCredentials | LoginLocked>
  /** The live session of a raw session id (refreshing its idle expiry), or undefined. */
  readonly authenticate: (sessionId: string) => Effect.Effect<OperatorAuthenticated | undefined>
  readonly signOut: (sessionIdHash: string) => Effect.Effect<void>
  readonly expiresAt: (session: OperatorSessionRow) => { readonly idle: Date; readonly absolute: Date }
  /** New recovery codes (the old ones stop working); answered once. */
  readonly regenerateRecoveryCodes: (id: string) => Effect.Effect<ReadonlyArray<string>, ResourceNotFound>
  readonly unusedRecoveryCodes: (id: string) => Effect.Effect<number>
  /** An active operator with this password, no invitation (demo seeding, tests); the existing one if taken. */
  readonly ensure: (input: {
    readonly email: string
    readonly role: OperatorRole
    readonly password: string
    readonly name?: string | undefined
  }) => Effect.Effect<OperatorView, ValidationFailed>
}
